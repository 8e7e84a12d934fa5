"""Ship movement: cinematic (default) and vector (Fleet Book option), RULES §10.

Each movement system is one object (``movement_system(name)``), in the manner of a chess
variant: it reads a ship's orders, checks them against its thrust, carries them out, drifts a
ship out of control and says what may be ordered. The engine asks the game's system and never
branches on its name.

Orders are checked against the ship's thrust separately from being carried out, so the caller
can refuse illegal orders before anything moves. Whether a move leaves the table is the
caller's business (``Table.contains`` on the end position, and the orders' ``leave`` flag).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from app.rules.errors import IllegalOrders
from app.rules.geometry import Vec, heading_vector, normalise_heading

if TYPE_CHECKING:
    from app.rules.state import ShipState


class Movement(StrEnum):
    """The movement systems a game may be played with (its ``movement`` field)."""

    CINEMATIC = "cinematic"
    VECTOR = "vector"


class UnknownMovementSystem(ValueError):
    """A game configured with a movement system that does not exist: a server bug, not a
    player's mistake (the API only offers the known ones)."""


# One rotation of up to half a turn either way per game turn (RULES §10, vector).
MAX_ROTATE = 6


@dataclass(frozen=True)
class CinematicOrders:
    """Change speed by ``speed_change`` mu and turn ``turn`` clock points (negative = port)."""

    speed_change: int
    turn: int
    leave: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"speed_change": self.speed_change, "turn": self.turn}
        if self.leave:
            out["leave"] = True
        return out


@dataclass(frozen=True)
class VectorOrders:
    """Rotate ``rotate`` clock points (negative = port), then burn ``thrust`` mu ahead."""

    rotate: int
    thrust: int
    leave: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rotate": self.rotate, "thrust": self.thrust}
        if self.leave:
            out["leave"] = True
        return out


Orders = CinematicOrders | VectorOrders


def _expected(movement: str, fields: tuple[str, str]) -> str:
    # written out only in a refusal: every move is read here
    return f"{movement} orders need {fields[0]} and {fields[1]} (and optionally leave)"


def _read_orders(data: Mapping[str, Any], movement: str, fields: tuple[str, str]) -> list[Any]:
    """The two order fields and ``leave``, strictly: exactly these fields, whole numbers as real
    ints (bool is an int subclass and 1.0 == 1, but neither is a whole-number order)."""
    if type(data) is not dict and not isinstance(data, Mapping):  # exact type first: cheaper
        raise IllegalOrders(f"orders must be an object; {_expected(movement, fields)}")
    unknown = [key for key in data if key not in fields and key != "leave"]
    if unknown:
        unknown = sorted(str(key) for key in unknown)
        raise IllegalOrders(
            f"unknown field {', '.join(map(repr, unknown))}; {_expected(movement, fields)}"
        )
    values: list[int] = []
    for name in fields:
        if name not in data:
            raise IllegalOrders(f"missing field {name!r}; {_expected(movement, fields)}")
        value = data[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalOrders(f"{name!r} must be a whole number (an integer), got {value!r}")
        values.append(value)
    leave = data.get("leave", False)
    if not isinstance(leave, bool):
        raise IllegalOrders(f"'leave' must be true or false, got {leave!r}")
    return [*values, leave]


@dataclass(frozen=True)
class PathPoint:
    """A point of the drawn track, with the heading the ship held on the leg ending here."""

    x: float
    y: float
    heading: int

    def to_dict(self) -> dict[str, Any]:
        return {"x": float(self.x), "y": float(self.y), "heading": self.heading}


@dataclass(frozen=True)
class MoveResult:
    """The track and end state of one move.

    Turns are pivots in place, so each point after the first closes one straight leg flown at
    that point's heading. Cinematic paths always have three points (start, end of first leg,
    end of second leg) even when a leg is 0 mu; vector paths have two (start, end).
    """

    path: tuple[PathPoint, ...]
    position: Vec
    heading: int
    speed: int | None
    velocity: Vec | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": [point.to_dict() for point in self.path],
            "position": self.position.to_dict(),
            "heading": self.heading,
            "speed": self.speed,
            "velocity": None if self.velocity is None else self.velocity.to_dict(),
        }


@dataclass(frozen=True)
class OrderLimits:
    """What a ship with this thrust may order; 0 in a field the movement system lacks."""

    thrust: int
    max_speed_change: int
    max_turn: int
    max_rotate: int

    def to_dict(self) -> dict[str, int]:
        return {
            "thrust": self.thrust,
            "max_speed_change": self.max_speed_change,
            "max_turn": self.max_turn,
            "max_rotate": self.max_rotate,
        }


def _check_thrust(thrust: int) -> None:
    if thrust < 0:
        raise ValueError(f"thrust cannot be negative, got {thrust}")


def cinematic_limits(thrust: int) -> OrderLimits:
    _check_thrust(thrust)
    # Half the thrust may go to turning, but any ship that can manoeuvre at all may turn 1.
    max_turn = max(thrust // 2, 1) if thrust >= 1 else 0
    return OrderLimits(thrust=thrust, max_speed_change=thrust, max_turn=max_turn, max_rotate=0)


def vector_limits(thrust: int) -> OrderLimits:
    _check_thrust(thrust)
    # Manoeuvre thrusters come with any working drive; thrust itself is the burn limit.
    max_rotate = MAX_ROTATE if thrust >= 1 else 0
    return OrderLimits(thrust=thrust, max_speed_change=0, max_turn=0, max_rotate=max_rotate)


def check_cinematic(orders: CinematicOrders, speed: int, thrust: int) -> None:
    """Refuse orders beyond this ship's limits; the message names every limit broken."""
    if speed < 0:
        raise ValueError(f"speed cannot be negative, got {speed}")
    limits = cinematic_limits(thrust)
    s, t = orders.speed_change, orders.turn
    problems: list[str] = []
    if abs(t) > limits.max_turn:
        problems.append(f"turn {t} exceeds this ship's limit of {limits.max_turn}")
    if speed + s < 0:
        problems.append(f"speed change {s} would leave speed {speed + s}; speed cannot go below 0")
    if abs(s) + abs(t) > thrust:
        problems.append(f"|speed change| + |turn| = {abs(s) + abs(t)} exceeds thrust {thrust}")
    if problems:
        raise IllegalOrders("; ".join(problems))


def _split_turn(turn: int) -> tuple[int, int]:
    """First and second part of a turn: floor(|t|/2) points first, the rest after."""
    first = abs(turn) // 2
    if turn < 0:
        first = -first
    return first, turn - first


def move_cinematic(position: Vec, heading: int, speed: int, orders: CinematicOrders) -> MoveResult:
    """Carry out cinematic orders (limits are check_cinematic's job).

    Turn floor(|t|/2), fly floor(v'/2) mu, turn the rest, fly the remaining v' - floor(v'/2).
    """
    new_speed = speed + orders.speed_change
    if new_speed < 0:
        raise IllegalOrders(
            f"speed change {orders.speed_change} would leave speed {new_speed}; "
            "speed cannot go below 0"
        )
    first_turn, second_turn = _split_turn(orders.turn)
    first_leg = new_speed // 2
    second_leg = new_speed - first_leg

    start_heading = normalise_heading(heading)
    mid_heading = normalise_heading(start_heading + first_turn)
    mid = position + heading_vector(mid_heading) * first_leg
    end_heading = normalise_heading(mid_heading + second_turn)
    end = mid + heading_vector(end_heading) * second_leg

    path = (
        PathPoint(position.x, position.y, start_heading),
        PathPoint(mid.x, mid.y, mid_heading),
        PathPoint(end.x, end.y, end_heading),
    )
    return MoveResult(path=path, position=end, heading=end_heading, speed=new_speed, velocity=None)


def check_vector(orders: VectorOrders, thrust: int) -> None:
    """Refuse vector orders beyond this ship's limits; the message names every limit broken."""
    limits = vector_limits(thrust)
    r, n = orders.rotate, orders.thrust
    problems: list[str] = []
    if thrust == 0 and r != 0:
        problems.append(f"rotate {r} is not possible: a ship with no thrust cannot rotate")
    elif abs(r) > limits.max_rotate:
        problems.append(f"rotate {r} exceeds the limit of {limits.max_rotate} clock points")
    if n < 0:
        problems.append(f"thrust {n} is negative; a burn is 0 or more")
    elif thrust == 0 and n != 0:
        problems.append(f"thrust {n} is not possible: a ship with no thrust cannot burn")
    elif n > thrust:
        problems.append(f"thrust {n} exceeds this ship's thrust of {thrust}")
    if problems:
        raise IllegalOrders("; ".join(problems))


def move_vector(position: Vec, heading: int, velocity: Vec, orders: VectorOrders) -> MoveResult:
    """Carry out vector orders: rotate, burn along the new heading, then drift by the velocity."""
    start_heading = normalise_heading(heading)
    new_heading = normalise_heading(start_heading + orders.rotate)
    new_velocity = velocity + heading_vector(new_heading) * orders.thrust
    end = position + new_velocity
    path = (
        PathPoint(position.x, position.y, start_heading),
        PathPoint(end.x, end.y, new_heading),
    )
    return MoveResult(
        path=path, position=end, heading=new_heading, speed=None, velocity=new_velocity
    )


# -- the movement systems --------------------------------------------------------------------
Motion = int | Vec  # a ship's speed (cinematic) or velocity (vector)


class MovementSystem(ABC):
    """What a game's movement system decides; one subclass per system, looked up by name.

    ``motion_field`` names where a ship's motion is written: a deployment placement's field, the
    ``ship_moved`` payload's, the owner's view of the ship (speed or velocity).
    """

    name: ClassVar[Movement]
    order_fields: ClassVar[tuple[str, str]]
    motion_field: ClassVar[str]
    # the "no change" orders a drifting ship is logged with
    still: ClassVar[Orders]

    @abstractmethod
    def parse_orders(self, data: Mapping[str, Any]) -> Orders:
        """Read submitted orders strictly (``IllegalOrders`` saying which field is wrong)."""

    @abstractmethod
    def limits(self, thrust: int) -> OrderLimits:
        """What a ship with this thrust may order."""

    @abstractmethod
    def check(self, orders: Orders, motion: Motion, thrust: int) -> None:
        """Refuse orders beyond the ship's limits (``IllegalOrders`` naming each one broken)."""

    @abstractmethod
    def move(self, position: Vec, heading: int, motion: Motion, orders: Orders) -> MoveResult:
        """Carry out checked orders from this position, heading and motion."""

    @abstractmethod
    def motion_of(self, ship: ShipState) -> Motion:
        """The ship's speed or velocity, whichever this system keeps."""

    def motion_json(self, ship: ShipState) -> Any:
        """The ship's motion as its owner's view and the record show it."""
        motion = self.motion_of(ship)
        return motion.to_dict() if isinstance(motion, Vec) else motion

    def drift(self, position: Vec, heading: int, motion: Motion) -> MoveResult:
        """The move of a ship out of control: no change to speed, course or velocity."""
        return self.move(position, heading, motion, self.still)


class Cinematic(MovementSystem):
    name = Movement.CINEMATIC
    order_fields = ("speed_change", "turn")
    motion_field = "speed"
    still = CinematicOrders(0, 0)

    def parse_orders(self, data: Mapping[str, Any]) -> CinematicOrders:
        change, turn, leave = _read_orders(data, self.name, self.order_fields)
        return CinematicOrders(speed_change=change, turn=turn, leave=leave)

    def limits(self, thrust: int) -> OrderLimits:
        return cinematic_limits(thrust)

    def check(self, orders: Orders, motion: Motion, thrust: int) -> None:
        check_cinematic(self._orders(orders), self._speed(motion), thrust)

    def move(self, position: Vec, heading: int, motion: Motion, orders: Orders) -> MoveResult:
        return move_cinematic(position, heading, self._speed(motion), self._orders(orders))

    def motion_of(self, ship: ShipState) -> int:
        return ship.speed

    @staticmethod
    def _speed(motion: Motion) -> int:
        if isinstance(motion, Vec | bool):
            raise TypeError("a cinematic move needs the ship's speed (an int)")
        return motion

    @staticmethod
    def _orders(orders: Orders) -> CinematicOrders:
        if not isinstance(orders, CinematicOrders):
            raise TypeError("cinematic movement takes cinematic orders")
        return orders


class Vector(MovementSystem):
    name = Movement.VECTOR
    order_fields = ("rotate", "thrust")
    motion_field = "velocity"
    still = VectorOrders(0, 0)

    def parse_orders(self, data: Mapping[str, Any]) -> VectorOrders:
        rotate, burn, leave = _read_orders(data, self.name, self.order_fields)
        return VectorOrders(rotate=rotate, thrust=burn, leave=leave)

    def limits(self, thrust: int) -> OrderLimits:
        return vector_limits(thrust)

    def check(self, orders: Orders, motion: Motion, thrust: int) -> None:
        # a vector ship's limits do not depend on its velocity
        check_vector(self._orders(orders), thrust)

    def move(self, position: Vec, heading: int, motion: Motion, orders: Orders) -> MoveResult:
        return move_vector(position, heading, self._velocity(motion), self._orders(orders))

    def motion_of(self, ship: ShipState) -> Vec:
        return ship.velocity

    @staticmethod
    def _velocity(motion: Motion) -> Vec:
        if not isinstance(motion, Vec):
            raise TypeError("a vector move needs the ship's velocity (a Vec)")
        return motion

    @staticmethod
    def _orders(orders: Orders) -> VectorOrders:
        if not isinstance(orders, VectorOrders):
            raise TypeError("vector movement takes vector orders")
        return orders


MOVEMENT_SYSTEMS: Mapping[str, MovementSystem] = MappingProxyType(
    {system.name: system for system in (Cinematic(), Vector())}
)


def movement_system(name: str) -> MovementSystem:
    """The movement system a game is played with, by its name."""
    try:
        return MOVEMENT_SYSTEMS[name]
    except KeyError:
        # game configuration, not player input: a bad name is a server bug
        raise UnknownMovementSystem(
            f"unknown movement system {name!r}; expected {' or '.join(MOVEMENT_SYSTEMS)}"
        ) from None
