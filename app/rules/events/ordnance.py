"""The events of ordnance (RULES §9.1–9.3): launches, step 2, attacks, markers removed.

Each declares its secrecy once. What the other side receives holds only public facts: that a
ship launched and what kind, that its step 2 ran, each attack and detonation (they are public),
a wasted salvo, and the removal of live markers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field

from app.rules.events.body import EventBody, Json, Part, opt
from app.rules.events.secrecy import PUBLIC, OwnerShip, ShotsHiddenWhen, Withheld
from app.rules.events.turn import Point


@dataclass(frozen=True)
class OrdnanceLaunched(EventBody):
    """A launch from a fire window's volley. The other side learns the ship, the launcher and
    the public kind (RULES §9.2); the marker, its aim point and its load are the owner's."""

    kind = "ordnance_launched"
    secrecy = OwnerShip(owner="ship", stub=(("ship", None), ("launcher", None), ("kind", None)))

    _: KW_ONLY
    ship: str
    launcher: str
    marker_kind: str = field(metadata={"key": "kind"})  # the public kind
    marker: str
    aim: Point
    load: str | None = opt()  # what it fired: a salvo load or a heavy missile's type
    magazine: str | None = opt()  # the magazine the load came from
    missile: str | None = opt()  # a heavy missile's type
    endurance: int | None = opt()
    strength: int = 1
    system: str | None = opt()  # a needle missile's target system type
    counters: tuple[str, ...] | None = opt()  # an ECM missile's counter ids
    acts_turn: int


@dataclass(frozen=True)
class ActedMarker(Part):
    """What one marker did in its mother's step 2."""

    _: KW_ONLY
    marker: str
    marker_kind: str = field(metadata={"key": "kind"})
    start: Point = field(metadata={"key": "from"})
    to: Point
    result: str  # attacks | wasted | detonates | moved | held | burnt_out; groups: launched |
    # moved | landed | held | stayed
    target: str | None = opt()
    endurance: int | None = opt()
    bay: str | None = opt()  # a group's: the bay it launched from or landed in
    group: str | None = opt()  # a group's type, at launch
    strength: int | None = opt()  # a group's, at launch and landing
    cef: int | None = opt()  # a group's, at launch and landing
    # an AMT that homed on a ship: its ``to`` is that ship's true position, which even its owner
    # does not receive (decision, RULES §9.3 / C2.4); ``amt_detonated`` publishes it on a hit
    homed: bool | None = opt()


@dataclass(frozen=True)
class OrdnanceActed(EventBody):
    """A ship's step 2 (RULES §9.1 "one secret event per step 2"): emitted at every activation of
    a ship with launchers, with nothing in flight too; the other side learns only the ship, the
    owner all but a homed AMT's point."""

    kind = "ordnance_acted"
    secrecy = OwnerShip(
        owner="ship",
        stub=(("ship", None),),
        withheld=Withheld(items="markers", flag="homed", keys=frozenset({"to"})),
    )

    _: KW_ONLY
    ship: str
    standing: bool = False  # standing orders (a move without markers orders)
    markers: tuple[ActedMarker, ...] = ()
    # the orders of the move that ran this step 2 on standing orders: kept (secret) in
    # ``phase.pending_move`` and made once the step's defence window closes (decision 16)
    move: Mapping[str, Json] | None = opt()


@dataclass(frozen=True)
class SalvoWasted(EventBody):
    """A salvo found no enemy ship near its aim point (the point stays secret)."""

    kind = "salvo_wasted"
    secrecy = PUBLIC

    _: KW_ONLY
    marker: str
    ship: str  # its mother ship


@dataclass(frozen=True)
class SalvoAttack(EventBody):
    """A salvo on target: 1D6 missiles less the kills, each 1d6, half (rounded up) on armour."""

    kind = "salvo_attack"
    secrecy = PUBLIC

    _: KW_ONLY
    marker: str
    ship: str  # its mother ship
    target: str
    missiles_die: int  # the 1D6 of missiles on target
    kills: int
    missiles: int  # on target after the kills
    rolled: tuple[int, ...]
    armour_damage: int
    hull_damage: int
    rolls: tuple[int, ...]

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls


@dataclass(frozen=True)
class Blast(Part):
    """One ship in an AMT's blast: its dice by distance, armour first."""

    _: KW_ONLY
    ship: str
    dice: int
    rolled: tuple[int, ...]
    damage: int


@dataclass(frozen=True)
class AmtDetonated(EventBody):
    """An AMT's detonation (public); its point only when a ship was in the blast."""

    kind = "amt_detonated"
    secrecy = PUBLIC

    _: KW_ONLY
    marker: str
    ship: str  # its mother ship
    destroyed: bool | None = opt()  # stopped by the defences: no blast
    point: Point | None = opt()
    blasts: tuple[Blast, ...] = ()
    rolls: tuple[int, ...] = ()

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls


@dataclass(frozen=True)
class HeavyMissileAttack(EventBody):
    """A heavy missile's attack: its warhead's dice (C2.5), shown with its type."""

    kind = "heavy_missile_attack"
    secrecy = PUBLIC

    _: KW_ONLY
    marker: str
    ship: str  # its mother ship
    target: str
    missile: str
    destroyed: bool | None = opt()  # stopped by the defences
    rolled: tuple[int, ...] = ()
    armour_damage: int = 0
    hull_damage: int = 0
    emp_hits: int | None = opt()  # EMP: hits counted (the cap of 3 per target and turn)
    system: str | None = opt()  # needle: the system type named
    needles: int | None = opt()  # needle: how many needle dice the count die gave
    needle_system: str | None = opt()  # needle: the system its 6s go to (None: the hull)
    sixes: int | None = opt()
    rolls: tuple[int, ...] = ()

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls


@dataclass(frozen=True)
class RemovedMarker(Part):
    _: KW_ONLY
    marker: str
    ship: str | None = opt()  # its mother ship (never a live group's: that is secret)
    marker_kind: str = field(metadata={"key": "kind"})
    secret: bool | None = opt()  # not live: only its side learns it is gone


@dataclass(frozen=True)
class MarkerRemoved(EventBody):
    """Markers gone with their mother ship (destroyed, out of play, left) or at the turn limit:
    the other side receives only the live ones among them (RULES §9.3)."""

    kind = "marker_removed"
    secrecy = ShotsHiddenWhen(items="markers", flag="secret")

    _: KW_ONLY
    ship: str | None = opt()  # the mother ship, if that is why
    reason: str  # mother_destroyed | mother_out_of_play | mother_left | turn_limit
    markers: tuple[RemovedMarker, ...] = ()


@dataclass(frozen=True)
class LoadsLost(EventBody):
    """A failed or destroyed magazine's loads, lost with it (decision 3): the owner learns which;
    the other side only the ship and the magazine (``system_damaged`` already said it failed)."""

    kind = "loads_lost"
    secrecy = OwnerShip(owner="ship", stub=(("ship", None), ("magazine", None)))

    _: KW_ONLY
    ship: str
    magazine: str
    loads: Mapping[str, int]  # load -> count lost
