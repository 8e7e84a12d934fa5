"""Commands a seat sends, as values, and the one registry of them (API.md "Commands").

Each command is a frozen dataclass that declares its ``type`` (its name in JSON), the steps it
is legal in, how it is read from its JSON form (``from_json``, raising ``InvalidCommand`` that
names the wrong field) and written back (``to_json``, so that ``from_json(c.to_json()) == c``).
``COMMANDS`` maps each type to its class, in the order the API documents them;
``parse_command`` is a lookup in it. Adding a command is one class here, registered with
``@registered``, and one handler in ``decide``; the API schemas, the web forms and
``legal`` read the rest from here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeVar

from app.rules.command_json import _fields as _fields  # re-exported: the other commands' modules
from app.rules.command_json import _int as _int
from app.rules.command_json import _str as _str
from app.rules.command_json import _vec as _vec
from app.rules.errors import IllegalOrders, InvalidCommand
from app.rules.fighters.orders import BayLaunch, parse_launches
from app.rules.geometry import Vec
from app.rules.movement import Orders, movement_system
from app.rules.state import (
    ACTIVATE,
    AFTER_MOVE,
    AFTER_PING,
    DEFEND,
    DEPLOY,
    FIRE,
    START,
    GameState,
    Shot,
    Step,
)

# the steps the game rests in, waiting for a command; the others pass within one ``decide``
RESTING_STEPS = frozenset(
    {DEPLOY, ACTIVATE, START, AFTER_PING, AFTER_MOVE, FIRE, DEFEND, Step.FIGHTERS}
)
# every resting step once both sides have deployed
PLAY_STEPS = RESTING_STEPS - {DEPLOY}


class Command(ABC):
    """One command; subclasses are frozen dataclasses registered in ``COMMANDS``."""

    type: ClassVar[str]
    steps: ClassVar[frozenset[str]]

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any], movement: str) -> Self:
        """Read the JSON form (with its ``type``, without ``at_seq``) or raise what is wrong."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The JSON form ``from_json`` reads back to an equal command."""

    def to_dict(self) -> dict[str, Any]:
        # the name the rules' other JSON forms use (Orders, Shot, Event); one body, ``to_json``
        return self.to_json()

    @classmethod
    def open_to(cls, state: GameState, seat: str, details: Mapping[str, Any]) -> bool:
        """Whether ``seat`` may send it now, the step being one of its own; ``details`` is what
        ``legal`` tells the seat. By default: the seat whose activation it is."""
        return state.phase.side == seat

    @classmethod
    def any_time(cls) -> bool:
        """Open in every step of play, not only in its own (``legal`` lists these last)."""
        return cls.steps >= PLAY_STEPS


COMMANDS: dict[str, type[Command]] = {}
C = TypeVar("C", bound=type[Command])


def registered(cls: C) -> C:
    """Enter a command class in ``COMMANDS`` under its ``type``."""
    assert cls.type not in COMMANDS, f"two commands named {cls.type!r}"
    COMMANDS[cls.type] = cls
    return cls


def names_a_ship(state: GameState, seat: str) -> bool:
    """Ping and move: the seat's activation, and a ship to name that is not out of control
    (one out of control can only be named with activate: it drifts)."""
    if state.phase.side != seat:
        return False
    ready = (s for s in state.ships_of(seat) if s.in_play and not s.activated)
    return state.phase.step != ACTIVATE or any(not s.out_of_control for s in ready)


# -- the commands ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Placement:
    ship: str
    position: Vec
    heading: int
    speed: int | None = None  # cinematic
    velocity: Vec | None = None  # vector

    @classmethod
    def from_json(cls, data: Any, movement: str, index: int) -> Placement:
        where = f"ships[{index}]"
        if not isinstance(data, Mapping):
            raise InvalidCommand(f"{where} must be an object")
        motion = movement_system(movement).motion_field
        _fields(data, where, {"ship", "position", "heading", motion}, set())
        ship = _str(data, "ship", where)
        position = _vec(data, "position", where)
        heading = _int(data, "heading", where)
        if motion == "velocity":
            return cls(ship, position, heading, velocity=_vec(data, "velocity", where))
        return cls(ship, position, heading, speed=_int(data, "speed", where))

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


@registered
@dataclass(frozen=True)
class Deploy(Command):
    ships: tuple[Placement, ...]
    type: ClassVar[str] = "deploy"
    steps: ClassVar[frozenset[str]] = frozenset({DEPLOY})

    @classmethod
    def open_to(cls, state: GameState, seat: str, details: Mapping[str, Any]) -> bool:
        return cls.type in details  # the seat has ships still to place

    @classmethod
    def from_json(cls, data: Mapping[str, Any], movement: str) -> Self:
        _fields(data, cls.type, {"type", "ships"}, set())
        ships = data["ships"]
        if not isinstance(ships, list):
            raise InvalidCommand(f"{cls.type}: 'ships' must be a list of placements")
        return cls(tuple(Placement.from_json(p, movement, i) for i, p in enumerate(ships)))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "ships": [p.to_dict() for p in self.ships]}


@dataclass(frozen=True)
class _ShipCommand(Command):
    """A command that names one of the seat's ships and nothing else."""

    ship: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any], movement: str) -> Self:
        _fields(data, cls.type, {"type", "ship"}, set())
        return cls(_str(data, "ship", cls.type))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "ship": self.ship}


@registered
@dataclass(frozen=True)
class Activate(_ShipCommand):
    type: ClassVar[str] = "activate"
    steps: ClassVar[frozenset[str]] = frozenset({ACTIVATE})


@registered
@dataclass(frozen=True)
class Ping(_ShipCommand):
    type: ClassVar[str] = "ping"
    steps: ClassVar[frozenset[str]] = frozenset({ACTIVATE, START, AFTER_MOVE})

    @classmethod
    def open_to(cls, state: GameState, seat: str, details: Mapping[str, Any]) -> bool:
        # after step 2 the first ping is forfeit (RULES §4): the next is after the move
        forfeit = state.phase.step2_done and not state.phase.moved
        return names_a_ship(state, seat) and not forfeit


@registered
@dataclass(frozen=True)
class Move(Command):
    ship: str
    orders: Orders
    type: ClassVar[str] = "move"
    steps: ClassVar[frozenset[str]] = frozenset({ACTIVATE, START, AFTER_PING})

    @classmethod
    def open_to(cls, state: GameState, seat: str, details: Mapping[str, Any]) -> bool:
        return names_a_ship(state, seat)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], movement: str) -> Self:
        _fields(data, cls.type, {"type", "ship", "orders"}, set())
        orders = data["orders"]
        if type(orders) is not dict and not isinstance(orders, Mapping):
            raise IllegalOrders(f"{cls.type}: 'orders' must be an object")
        return cls(_str(data, "ship", cls.type), movement_system(movement).parse_orders(orders))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "ship": self.ship, "orders": self.orders.to_dict()}


@registered
@dataclass(frozen=True)
class EndActivation(_ShipCommand):
    type: ClassVar[str] = "end_activation"
    steps: ClassVar[frozenset[str]] = frozenset({AFTER_MOVE})


def _shot(data: Any, index: int) -> Shot:
    """A shot names a ``target``; a launch (RULES §9.2) an ``aim`` point instead, and maybe the
    ``load`` it fires."""
    where = f"shots[{index}]"
    if type(data) is not dict and not isinstance(data, Mapping):
        raise InvalidCommand(f"{where} must be an object")
    _fields(data, where, {"ship", "weapon"}, {"target", "system", "aim", "load"})
    if "target" not in data and "aim" not in data:
        raise InvalidCommand(f"{where}: missing field 'target' (or 'aim' for a launch)")
    if "target" in data and "aim" in data:
        raise InvalidCommand(
            f"{where}: a shot has a 'target' (a ship to fire at) or an 'aim' point (a launch), "
            "not both"
        )
    if "load" in data and "aim" not in data:
        raise InvalidCommand(f"{where}: 'load' goes with a launch, which has an 'aim' point")
    system = _str(data, "system", where) if "system" in data else None
    ship, weapon = _str(data, "ship", where), _str(data, "weapon", where)
    if "target" in data:
        return Shot(ship, weapon, _str(data, "target", where), system)
    load = _str(data, "load", where) if "load" in data else None
    return Shot(ship, weapon, None, system, _vec(data, "aim", where), load)


@registered
@dataclass(frozen=True)
class Fire(Command):
    window: int
    shots: tuple[Shot, ...]
    type: ClassVar[str] = "fire"
    steps: ClassVar[frozenset[str]] = frozenset({FIRE})

    @classmethod
    def open_to(cls, state: GameState, seat: str, details: Mapping[str, Any]) -> bool:
        return "fire_options" in details  # the seat is awaited in this window

    @classmethod
    def from_json(cls, data: Mapping[str, Any], movement: str) -> Self:
        _fields(data, cls.type, {"type", "window", "shots"}, set())
        shots = data["shots"]
        if not isinstance(shots, list):
            raise InvalidCommand(f"{cls.type}: 'shots' must be a list (empty to hold fire)")
        window = _int(data, "window", cls.type)
        return cls(window, tuple(_shot(s, i) for i, s in enumerate(shots)))

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "window": self.window,
            "shots": [s.to_dict() for s in self.shots],
        }


@dataclass(frozen=True)
class MarkerOrder:
    """One marker's order in step 2: where a heavy missile or a fighter group goes (``to``), or
    a group's ``land`` (decision F3); never both."""

    marker: str
    to: Vec | None = None
    land: bool = False

    @classmethod
    def from_json(cls, data: Any, index: int) -> MarkerOrder:
        where = f"orders[{index}]"
        if not isinstance(data, Mapping):
            raise InvalidCommand(f"{where} must be an object")
        _fields(data, where, {"marker"}, {"to", "land"})
        land = data.get("land", False)
        if not isinstance(land, bool):
            raise InvalidCommand(f"{where}: 'land' must be true or false, got {land!r}")
        to = _vec(data, "to", where) if "to" in data else None
        if land and to is not None:
            raise InvalidCommand(
                f"{where}: a group either moves to a point ('to') or lands ('land'), not both"
            )
        return cls(_str(data, "marker", where), to, land)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"marker": self.marker}
        if self.to is not None:
            out["to"] = self.to.to_dict()
        if self.land:
            out["land"] = True
        return out


@registered
@dataclass(frozen=True)
class Markers(Command):
    """Step 2 of the activating ship (RULES §4, §9.3): its markers' orders, before its move, and
    the bays it launches from (``launch``, issue 13)."""

    ship: str
    orders: tuple[MarkerOrder, ...] = ()
    launch: tuple[BayLaunch, ...] = ()
    type: ClassVar[str] = "markers"
    steps: ClassVar[frozenset[str]] = frozenset({START, AFTER_PING})

    @classmethod
    def open_to(cls, state: GameState, seat: str, details: Mapping[str, Any]) -> bool:
        return cls.type in details  # the activating ship's step 2 is due

    @classmethod
    def from_json(cls, data: Mapping[str, Any], movement: str) -> Self:
        _fields(data, cls.type, {"type", "ship", "orders"}, {"launch"})
        orders = data["orders"]
        if not isinstance(orders, list):
            raise InvalidCommand(f"{cls.type}: 'orders' must be a list of marker orders")
        ship = _str(data, "ship", cls.type)
        launch = parse_launches(data.get("launch", []), cls.type)
        return cls(ship, tuple(MarkerOrder.from_json(o, i) for i, o in enumerate(orders)), launch)

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "ship": self.ship,
            "orders": [o.to_dict() for o in self.orders],
            "launch": [x.to_dict() for x in self.launch],
        }


@registered
@dataclass(frozen=True)
class CoreAction(Command):
    """A critical core's crew dumps it or abandons ship: any time after deployment (RULES §8)."""

    ship: str
    action: str  # one of ACTIONS
    type: ClassVar[str] = "core_action"
    steps: ClassVar[frozenset[str]] = PLAY_STEPS
    ACTIONS: ClassVar[tuple[str, ...]] = ("dump", "abandon")

    @classmethod
    def open_to(cls, state: GameState, seat: str, details: Mapping[str, Any]) -> bool:
        # open for any ship with its crew aboard and its core critical, in play or a hulk
        return any(s.crew_aboard and s.core_critical for s in state.ships_of(seat))

    @classmethod
    def from_json(cls, data: Mapping[str, Any], movement: str) -> Self:
        _fields(data, cls.type, {"type", "ship", "action"}, set())
        action = _str(data, "action", cls.type)
        if action not in cls.ACTIONS:
            raise InvalidCommand(
                f"{cls.type}: 'action' must be 'dump' or 'abandon', not {action!r}"
            )
        return cls(_str(data, "ship", cls.type), action)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "ship": self.ship, "action": self.action}


@registered
@dataclass(frozen=True)
class SetMode(Command):
    """Switch a multi-mode weapon (C1.16's multi-fusion launcher); secret to the owner."""

    ship: str
    weapon: str
    mode: str
    type: ClassVar[str] = "set_mode"
    steps: ClassVar[frozenset[str]] = frozenset({START, AFTER_PING, AFTER_MOVE})

    @classmethod
    def open_to(cls, state: GameState, seat: str, details: Mapping[str, Any]) -> bool:
        return cls.type in details  # the seat has a launcher that can switch now

    @classmethod
    def from_json(cls, data: Mapping[str, Any], movement: str) -> Self:
        where = cls.type
        _fields(data, where, {"type", "ship", "weapon", "mode"}, set())
        ship, weapon = _str(data, "ship", where), _str(data, "weapon", where)
        return cls(ship, weapon, _str(data, "mode", where))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "ship": self.ship, "weapon": self.weapon, "mode": self.mode}


@registered
@dataclass(frozen=True)
class Resign(Command):
    type: ClassVar[str] = "resign"
    steps: ClassVar[frozenset[str]] = RESTING_STEPS

    @classmethod
    def open_to(cls, state: GameState, seat: str, details: Mapping[str, Any]) -> bool:
        return True

    @classmethod
    def from_json(cls, data: Mapping[str, Any], movement: str) -> Self:
        _fields(data, cls.type, {"type"}, set())
        return cls()

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


# the defence window's commands live with it; imported here so that the registry is whole
from app.rules.fighters import commands as fighter_commands  # noqa: E402, F401
from app.rules.ordnance import defence_commands  # noqa: E402, F401

COMMAND_TYPES = tuple(COMMANDS)


def parse_command(data: Any, movement: str) -> Command:
    """Check the JSON form of a command (without ``at_seq``, which the caller strips)."""
    # exact type first: a JSON object is a dict (an ABC isinstance costs more)
    if type(data) is not dict and not isinstance(data, Mapping):
        raise InvalidCommand("a command must be a JSON object with a 'type'")
    kind = data.get("type")
    cls = COMMANDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidCommand(
            f"unknown command type {kind!r}: expected one of {', '.join(COMMAND_TYPES)}"
        )
    return cls.from_json(data, movement)


def allowed_in(step: str) -> list[type[Command]]:
    """The commands legal in ``step``, in the order ``legal`` lists them: the step's own, then
    those open at any time."""
    own = [cls for cls in COMMANDS.values() if step in cls.steps]
    return sorted(own, key=lambda cls: cls.any_time())
