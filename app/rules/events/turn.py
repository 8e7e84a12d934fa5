"""The events of a turn's course: deployment, turns, activations, pings and moves, cores."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field

from app.rules.events.body import EventBody, Json, Part, make, opt
from app.rules.events.secrecy import PUBLIC, OwnerShip, OwnerSide, TargetOnly
from app.rules.geometry import Vec


@dataclass(frozen=True)
class Point(Part):
    x: float
    y: float

    def vec(self) -> Vec:
        return Vec(float(self.x), float(self.y))


def point(v: Vec) -> Point:
    """A position or velocity in an event, as ``Vec.to_dict`` writes it."""
    return make(Point, x=float(v.x), y=float(v.y))


@dataclass(frozen=True)
class Placement(Part):
    """A ship's starting place as its side sent it: a speed (cinematic) or a velocity."""

    _: KW_ONLY
    ship: str
    position: Point
    heading: int
    velocity: Point | None = opt()
    speed: int | None = opt()


@dataclass(frozen=True)
class Deployed(EventBody):
    kind = "deployed"
    secrecy = OwnerSide(owner="side", stub=("side",))

    _: KW_ONLY
    side: str
    ships: tuple[Placement, ...]


@dataclass(frozen=True)
class TurnStarted(EventBody):
    kind = "turn_started"
    secrecy = PUBLIC

    _: KW_ONLY
    turn: int
    first_side: str
    ships_in_play: Mapping[str, int]
    rolloff: tuple[tuple[int, ...], ...]  # the dice pairs rolled; none when the counts differ
    rolls: tuple[int, ...]

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls


@dataclass(frozen=True)
class CoreRoll(EventBody):
    """A critical core's roll at the start of a turn."""

    kind = "core_roll"
    secrecy = PUBLIC

    _: KW_ONLY
    ship: str
    die: int
    needed: int
    exploded: bool
    rolls: tuple[int, ...]

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls


@dataclass(frozen=True)
class ActivationStarted(EventBody):
    kind = "activation_started"
    secrecy = PUBLIC

    _: KW_ONLY
    side: str
    ship: str
    # the activations its command bridge stays knocked out for after this one (C3.7)
    command_bridge_out: int | None = opt()


@dataclass(frozen=True)
class Detection(Part):
    """One target of a ping. ``ecm_dice``, ``ecm_drawn`` and ``in_range`` are the target's
    owner's (``Ping.secrecy``): the pinger's side receives the detection without them."""

    _: KW_ONLY
    target: str
    ping_dice: tuple[int, ...]
    ecm_dice: tuple[int, ...] | None = opt()
    ecm_drawn: tuple[int, ...] | None = opt()
    in_range: bool | None = opt()
    revealed: bool


@dataclass(frozen=True)
class Ping(EventBody):
    kind = "ping"
    # the ECM dice (how many counted would tell the pinger about a hidden friend) and the range
    # verdict (the range limit would be a distance detector, RULES §5); all targets are one side's
    secrecy = TargetOnly(
        items="detections", owner="target", secret=frozenset({"ecm_dice", "ecm_drawn", "in_range"})
    )

    _: KW_ONLY
    ship: str
    position: Point
    heading: int
    sensors: str
    detections: tuple[Detection, ...]
    rolls: tuple[int, ...]

    def roll_numbers(self) -> tuple[int, ...]:
        return self.rolls


@dataclass(frozen=True)
class ShipRevealed(EventBody):
    kind = "ship_revealed"
    secrecy = PUBLIC

    _: KW_ONLY
    ship: str
    position: Point
    heading: int
    cause: str
    by: str | None = opt()  # the pinger, for a ping


@dataclass(frozen=True)
class ShipMoved(EventBody):
    kind = "ship_moved"
    secrecy = OwnerShip(owner="ship", stub=(("ship", None), ("drift", False)))

    _: KW_ONLY
    ship: str
    from_: Point = field(metadata={"key": "from"})
    to: Point
    heading: int
    orders: Mapping[str, Json]  # as the movement system writes them (``MoveRecord.orders``)
    # the points it passed, [{"x", "y", "heading"}]: the map's trail, which the rules carry
    # into the state as they are and never read
    path: tuple[Json, ...]
    drift: bool = opt(False)  # an out-of-control ship's or a hulk's drift
    speed: int | None = opt()  # cinematic
    velocity: Point | None = opt()  # vector


@dataclass(frozen=True)
class ShipLeft(EventBody):
    kind = "ship_left"
    secrecy = PUBLIC

    _: KW_ONLY
    ship: str


@dataclass(frozen=True)
class ActivationEnded(EventBody):
    kind = "activation_ended"
    secrecy = PUBLIC

    _: KW_ONLY
    ship: str
    overwatch: bool
    reason: str
    out_of_control: int | None = opt()  # a drifting activation counted: how many are left
    regained_control: bool | None = opt()
    command_bridge_restored: bool | None = opt()


@dataclass(frozen=True)
class CoreAction(EventBody):
    kind = "core_action"
    secrecy = PUBLIC

    _: KW_ONLY
    ship: str
    action: str  # dump | abandon


@dataclass(frozen=True)
class ModeSet(EventBody):
    kind = "mode_set"
    secrecy = PUBLIC

    _: KW_ONLY
    side: str
    ship: str
    weapon: str
    mode: str
    offline_until: int


@dataclass(frozen=True)
class TurnEnded(EventBody):
    kind = "turn_ended"
    secrecy = PUBLIC

    _: KW_ONLY
    turn: int
    regained_control: tuple[str, ...]  # empty since 2026.12: control returns per activation
    life_support_failed: tuple[str, ...]
    command_bridge_restored: tuple[str, ...] | None = opt()  # rules before 2026.12 only
