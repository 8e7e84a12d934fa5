"""Commands a seat sends, as values: parsed and checked for shape here, judged by the engine.

``parse_command`` turns the JSON form of API.md ("Commands") into one of these values or raises
``InvalidCommand`` saying which field is wrong; ``to_dict`` gives the JSON form back.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.rules.errors import IllegalOrders, InvalidCommand
from app.rules.geometry import Vec
from app.rules.movement import Orders, parse_orders
from app.rules.state import Shot


@dataclass(frozen=True)
class Placement:
    ship: str
    position: Vec
    heading: int
    speed: int | None = None  # cinematic
    velocity: Vec | None = None  # vector

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "ship": self.ship,
            "position": self.position.to_dict(),
            "heading": self.heading,
        }
        if self.velocity is not None:
            d["velocity"] = self.velocity.to_dict()
        else:
            d["speed"] = self.speed
        return d


@dataclass(frozen=True)
class Deploy:
    ships: tuple[Placement, ...]
    type = "deploy"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "ships": [p.to_dict() for p in self.ships]}


@dataclass(frozen=True)
class Activate:
    ship: str
    type = "activate"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "ship": self.ship}


@dataclass(frozen=True)
class Ping:
    ship: str
    type = "ping"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "ship": self.ship}


@dataclass(frozen=True)
class Move:
    ship: str
    orders: Orders
    type = "move"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "ship": self.ship, "orders": self.orders.to_dict()}


@dataclass(frozen=True)
class EndActivation:
    ship: str
    type = "end_activation"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "ship": self.ship}


@dataclass(frozen=True)
class Fire:
    window: int
    shots: tuple[Shot, ...]
    type = "fire"

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "window": self.window,
            "shots": [s.to_dict() for s in self.shots],
        }


@dataclass(frozen=True)
class CoreAction:
    ship: str
    action: str  # dump | abandon
    type = "core_action"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "ship": self.ship, "action": self.action}


@dataclass(frozen=True)
class SetMode:
    """Switch a multi-mode weapon (C1.16's multi-fusion launcher); secret to the owner."""

    ship: str
    weapon: str
    mode: str
    type = "set_mode"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "ship": self.ship, "weapon": self.weapon, "mode": self.mode}


@dataclass(frozen=True)
class Resign:
    type = "resign"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type}


Command = Deploy | Activate | Ping | Move | EndActivation | Fire | CoreAction | SetMode | Resign

COMMAND_TYPES = (
    "deploy",
    "activate",
    "ping",
    "move",
    "end_activation",
    "fire",
    "core_action",
    "set_mode",
    "resign",
)


def _fields(data: Mapping[str, Any], where: str, required: set[str], optional: set[str]) -> None:
    missing = sorted(required - data.keys())
    if missing:
        raise InvalidCommand(f"{where}: missing field {', '.join(repr(m) for m in missing)}")
    extra = sorted(set(data.keys()) - required - optional)
    if extra:
        raise InvalidCommand(f"{where}: unknown field {', '.join(repr(e) for e in extra)}")


def _str(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data[key]
    if not isinstance(value, str) or not value:
        raise InvalidCommand(f"{where}: {key!r} must be a non-empty string, got {value!r}")
    return value


def _int(data: Mapping[str, Any], key: str, where: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidCommand(f"{where}: {key!r} must be a whole number, got {value!r}")
    return value


def _vec(data: Mapping[str, Any], key: str, where: str) -> Vec:
    value = data[key]
    if not isinstance(value, Mapping) or set(value.keys()) != {"x", "y"}:
        raise InvalidCommand(f'{where}: {key!r} must be an object {{"x": number, "y": number}}')
    coords = []
    for axis in ("x", "y"):
        c = value[axis]
        if isinstance(c, bool) or not isinstance(c, int | float) or not math.isfinite(c):
            raise InvalidCommand(f"{where}: {key}.{axis} must be a finite number, got {c!r}")
        coords.append(float(c))
    return Vec(coords[0], coords[1])


def _placement(data: Any, movement: str, index: int) -> Placement:
    where = f"ships[{index}]"
    if not isinstance(data, Mapping):
        raise InvalidCommand(f"{where} must be an object")
    motion = "velocity" if movement == "vector" else "speed"
    _fields(data, where, {"ship", "position", "heading", motion}, set())
    ship = _str(data, "ship", where)
    position = _vec(data, "position", where)
    heading = _int(data, "heading", where)
    if movement == "vector":
        return Placement(ship, position, heading, velocity=_vec(data, "velocity", where))
    return Placement(ship, position, heading, speed=_int(data, "speed", where))


def _shot(data: Any, index: int) -> Shot:
    where = f"shots[{index}]"
    if not isinstance(data, Mapping):
        raise InvalidCommand(f"{where} must be an object")
    _fields(data, where, {"ship", "weapon", "target"}, {"system"})
    system = _str(data, "system", where) if "system" in data else None
    return Shot(
        _str(data, "ship", where),
        _str(data, "weapon", where),
        _str(data, "target", where),
        system,
    )


def parse_command(data: Any, movement: str) -> Command:
    """Check the JSON form of a command (without ``at_seq``, which the caller strips)."""
    if not isinstance(data, Mapping):
        raise InvalidCommand("a command must be a JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in COMMAND_TYPES:
        raise InvalidCommand(
            f"unknown command type {kind!r}: expected one of {', '.join(COMMAND_TYPES)}"
        )
    where = kind
    if kind == "deploy":
        _fields(data, where, {"type", "ships"}, set())
        ships = data["ships"]
        if not isinstance(ships, list):
            raise InvalidCommand("deploy: 'ships' must be a list of placements")
        return Deploy(tuple(_placement(p, movement, i) for i, p in enumerate(ships)))
    if kind in ("activate", "ping", "end_activation"):
        _fields(data, where, {"type", "ship"}, set())
        ship = _str(data, "ship", where)
        if kind == "activate":
            return Activate(ship)
        return Ping(ship) if kind == "ping" else EndActivation(ship)
    if kind == "move":
        _fields(data, where, {"type", "ship", "orders"}, set())
        orders = data["orders"]
        if not isinstance(orders, Mapping):
            raise IllegalOrders("move: 'orders' must be an object")
        return Move(_str(data, "ship", where), parse_orders(orders, movement))
    if kind == "fire":
        _fields(data, where, {"type", "window", "shots"}, set())
        shots = data["shots"]
        if not isinstance(shots, list):
            raise InvalidCommand("fire: 'shots' must be a list (empty to hold fire)")
        return Fire(_int(data, "window", where), tuple(_shot(s, i) for i, s in enumerate(shots)))
    if kind == "core_action":
        _fields(data, where, {"type", "ship", "action"}, set())
        action = _str(data, "action", where)
        if action not in ("dump", "abandon"):
            raise InvalidCommand(
                f"core_action: 'action' must be 'dump' or 'abandon', not {action!r}"
            )
        return CoreAction(_str(data, "ship", where), action)
    if kind == "set_mode":
        _fields(data, where, {"type", "ship", "weapon", "mode"}, set())
        return SetMode(
            _str(data, "ship", where), _str(data, "weapon", where), _str(data, "mode", where)
        )
    _fields(data, where, {"type"}, set())
    return Resign()
