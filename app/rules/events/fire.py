"""The events of fire and damage: the window, the declarations, the volley and what it did."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field

from app.rules.events.body import EventBody, Part, opt
from app.rules.events.secrecy import PUBLIC, OwnerSide, ShotsHiddenWhen
from app.rules.events.turn import Point


@dataclass(frozen=True)
class FireWindow(EventBody):
    kind = "fire_window"
    secrecy = PUBLIC

    _: KW_ONLY
    window: int  # its own seq
    pinger: str
    when: str  # before_move | after_move
    awaiting: tuple[str, ...]


@dataclass(frozen=True)
class DeclaredShot(Part):
    """One weapon at one ship, or a launch at an ``aim`` point (with the ``load`` it fires);
    ``system`` names a needle beam's target system or a needle missile's system type."""

    ship: str
    weapon: str
    target: str | None = opt()
    aim: Point | None = opt()
    load: str | None = opt()
    system: str | None = opt()


@dataclass(frozen=True)
class FireDeclared(EventBody):
    kind = "fire_declared"
    # the shots stay the side's own until the volley shows them
    secrecy = OwnerSide(owner="side", stub=("side", "window"))

    _: KW_ONLY
    side: str
    window: int
    shots: tuple[DeclaredShot, ...]


@dataclass(frozen=True)
class ResolvedShot(Part):
    """One shot of a volley with every die: to-hit first, then damage (``app.rules.fire``).
    A shot whose crew dumped its core or abandoned ship since it was declared is only
    ``cancelled``; which keys a fired shot has depends on its weapon's damage path."""

    ship: str
    weapon: str
    target: str
    system: str | None = opt()
    cancelled: bool | None = opt()
    range: float | None = opt()
    band: int | None = opt()
    dice: str | None = opt()  # the notation, 2BD* say
    screen: int | None = opt()
    weapon_type: str | None = opt()
    path: str | None = opt()
    cls: int | None = opt(key="class")
    weak_arc: bool | None = opt()
    mode: str | None = opt()
    hit_on: int | None = opt()
    target_stealth: int | None = opt()
    emp_hits: int | None = opt()
    damage_rerolled: tuple[bool, ...] | None = opt()
    damage_hits: int | None = opt()
    damage_reroll_hits: int | None = opt()
    sixes: int | None = opt()
    pair: bool | None = opt()
    rolled: tuple[int, ...] | None = opt()
    rerolled: tuple[bool, ...] | None = opt()
    hits: int | None = opt()
    reroll_hits: int | None = opt()
    drm: int | None = opt()  # at a group: its DRM on each die (F12)
    kills: int | None = opt()  # at a group: fighters killed, a hit each (C1.iv)
    damage_rolled: tuple[int, ...] | None = opt()
    armour_damage: int | None = opt()
    hull_damage: int | None = opt()


@dataclass(frozen=True)
class FireResolved(EventBody):
    kind = "fire_resolved"
    # a cancelled shot would tell the other side that a hidden ship had the target in arc and
    # range (RULES §7): it is for its own side only
    secrecy = ShotsHiddenWhen(items="shots", flag="cancelled")

    _: KW_ONLY
    window: int
    shots: tuple[ResolvedShot, ...]
    rolls: tuple[int, ...]

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls


@dataclass(frozen=True)
class Damage(EventBody):
    kind = "damage"
    secrecy = PUBLIC

    _: KW_ONLY
    ship: str
    hits: int | None = opt()
    hull_hits: int | None = opt()
    armour_lost: int
    hull_lost: int
    hull_lost_total: int | None = opt()
    rows_finished: tuple[int, ...] | None = opt()
    destroyed: bool | None = opt()
    stealth_before: int | None = opt()  # a stealth design's level goes with hull rows (C8.2)
    stealth: int | None = opt()


@dataclass(frozen=True)
class SystemDamaged(EventBody):
    kind = "system_damaged"
    secrecy = PUBLIC

    _: KW_ONLY
    ship: str
    cause: str | None = opt()  # threshold, emp, needle
    core_roll: int | None = opt()
    bridge_roll: int | None = opt()
    system: str
    system_type: str | None = opt(key="type")
    effect_roll: int | None = opt()
    status: str
    out_of_control: int | None = opt()
    permanent: bool | None = opt()
    life_support_turns: int | None = opt()
    command_bridge_out: int | None = opt()
    beyond_repair: bool | None = opt()
    by: str | None = opt()
    weapon: str | None = opt()
    rolls: tuple[int, ...] | None = opt()

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls or ()


@dataclass(frozen=True)
class ShipDestroyed(EventBody):
    kind = "ship_destroyed"
    secrecy = PUBLIC

    _: KW_ONLY
    ship: str
    cause: str  # volley, core_explosion


@dataclass(frozen=True)
class EmpResult(Part):
    _: KW_ONLY
    system: str
    system_type: str = field(metadata={"key": "type"})
    die: int
    damaged: bool


@dataclass(frozen=True)
class Emp(EventBody):
    kind = "emp"
    secrecy = PUBLIC

    _: KW_ONLY
    ship: str
    by: str
    hits: int  # counted: at most 3 per firing ship and target in a turn (C1.5)
    hits_scored: int
    results: tuple[EmpResult, ...]
    rolls: tuple[int, ...]

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls


@dataclass(frozen=True)
class ThresholdResult(Part):
    system: str
    die: int
    modified: int
    needed: int  # the number it failed on; one more for the core systems
    failed: bool


@dataclass(frozen=True)
class ThresholdCheck(EventBody):
    kind = "threshold_check"
    secrecy = PUBLIC

    _: KW_ONLY
    ship: str
    row: int
    number: int
    bonus: int
    results: tuple[ThresholdResult, ...]
    rolls: tuple[int, ...]

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls


@dataclass(frozen=True)
class RepairAttempt(Part):
    system: str
    parties: int
    die: int
    needed: int
    repaired: bool


@dataclass(frozen=True)
class DamageControl(EventBody):
    kind = "damage_control"
    secrecy = PUBLIC

    _: KW_ONLY
    ship: str
    parties: int
    attempts: tuple[RepairAttempt, ...]
    rolls: tuple[int, ...]

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls
