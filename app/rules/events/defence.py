"""The events of the defence window (RULES §9.5): the window, each side's allocation, the
defences rolled, and a side's standing order to play its default allocation.

Each declares its secrecy once: the window and its resolution are public (an ECM missile shows
as three heavy missiles until the resolution names its counters dummies); an allocation is its
side's own until the resolution shows it, as a fire declaration is until its volley.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass

from app.rules.events.body import EventBody, Part, opt
from app.rules.events.secrecy import PUBLIC, OwnerSide


@dataclass(frozen=True)
class WindowAttack(Part):
    """One attacking marker as the window shows it (an ECM counter is a heavy missile)."""

    _: KW_ONLY
    marker: str
    side: str
    kind: str
    target: str | None = opt(written=True)
    system: str | None = opt()  # a needle group's named system type
    mode: str | None = opt()  # a multi-role group's mode


@dataclass(frozen=True)
class DefenceWindowOpened(EventBody):
    kind = "defence_window"
    secrecy = PUBLIC

    _: KW_ONLY
    window: int  # its own seq
    attacks: tuple[WindowAttack, ...]
    awaiting: tuple[str, ...]


@dataclass(frozen=True)
class Allocation(Part):
    """One defending system (or an own group, intercepting) and the shown marker it fires at."""

    _: KW_ONLY
    ship: str | None = opt()
    system: str | None = opt()
    group: str | None = opt()
    against: str


@dataclass(frozen=True)
class DefenceDeclared(EventBody):
    kind = "defence_declared"
    # the allocations stay the side's own until the resolution shows them
    secrecy = OwnerSide(owner="side", stub=("side", "window", "auto"))

    _: KW_ONLY
    side: str
    window: int
    allocations: tuple[Allocation, ...]
    auto: bool | None = opt()  # played by the server: the side's standing order auto_defend


@dataclass(frozen=True)
class DefenceDie(Part):
    _: KW_ONLY
    natural: int
    modified: int
    further: bool  # a natural 6's further die


@dataclass(frozen=True)
class ResolvedDefence(Part):
    _: KW_ONLY
    ship: str | None = opt()
    system: str | None = opt()
    group: str | None = opt()  # an own group intercepting (role intercept)
    against: str
    side: str
    role: str  # pds | beam | af_salvo | intercept
    dice: tuple[DefenceDie, ...]
    kills: int
    destroyed: bool
    magazine: str | None = opt()  # an AF salvo's: one load spent from it
    back: tuple[DefenceDie, ...] | None = opt()  # an intercepted group's dice back
    losses: int | None = opt()  # the interceptor's fighters those killed


@dataclass(frozen=True)
class DefenceResolved(EventBody):
    kind = "defence_resolved"
    secrecy = PUBLIC

    _: KW_ONLY
    window: int
    defences: tuple[ResolvedDefence, ...]
    kills: Mapping[str, int]  # defended salvo (shown id) -> missiles killed (capped at 6)
    destroyed: tuple[str, ...]  # shown ids destroyed
    dummies: tuple[str, ...]  # ECM counters, now shown to be dummies
    rolls: tuple[int, ...]

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls


@dataclass(frozen=True)
class StandingOrdersSet(EventBody):
    kind = "standing_orders"
    secrecy = PUBLIC

    _: KW_ONLY
    side: str
    auto_defend: bool
