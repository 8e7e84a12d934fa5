"""The game's state as frozen values.

Game data (ships, designs, table) is kept apart from turn flow (``Phase``). Every field is
derived only by folding events (``app.rules.evolve``), so a replay of the log rebuilds it exactly.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from app.rules.designs import Design
from app.rules.geometry import Table, Vec, Zone

RULES_VERSION = "2026.12-1"  # out of control counted in activations, hulks drift, …

# The game's words as types. Each is a StrEnum: a member is the string itself (== "active",
# JSON "active"), so events, snapshots and views read and write exactly as before.


class Seat(StrEnum):
    """Who is asking: a side's player, the referee, or a spectator."""

    A = "A"
    B = "B"
    REFEREE = "referee"
    SPECTATOR = "spectator"


class Step(StrEnum):
    """Where the turn is (``Phase.step``)."""

    DEPLOY = "deploy"
    ACTIVATE = "activate"
    START = "start"
    AFTER_PING = "after_ping"
    AFTER_MOVE = "after_move"
    FIRE = "fire"
    # transient steps: the engine always moves on from them within the same command
    VOLLEY_DONE = "volley_done"
    TURN_END = "turn_end"
    NEW_TURN = "new_turn"  # the turn has ended, the next one (or the finish) is due
    FINISHED = "finished"


class ShipStatus(StrEnum):
    ACTIVE = "active"
    DESTROYED = "destroyed"
    OUT_OF_PLAY = "out_of_play"  # a hulk: still on the table (RULES §3)
    LEFT = "left"


class SystemStatus(StrEnum):
    OK = "ok"
    DAMAGED = "damaged"
    DESTROYED = "destroyed"


class GameStatus(StrEnum):
    """A game's status: ``GameState.status`` (active, finished) and the stored game's, which
    also waits for its seats to be taken."""

    WAITING = "waiting"
    ACTIVE = "active"
    FINISHED = "finished"


SIDES: tuple[str, str] = (Seat.A, Seat.B)
PLAYER_SEATS = frozenset(SIDES)
SEATS = frozenset(Seat)

# ship.status and phase.step values by their old names (evolve and decide still use these)
ACTIVE = ShipStatus.ACTIVE
DESTROYED = ShipStatus.DESTROYED
OUT_OF_PLAY = ShipStatus.OUT_OF_PLAY
LEFT = ShipStatus.LEFT
DEPLOY = Step.DEPLOY
ACTIVATE = Step.ACTIVATE
START = Step.START
AFTER_PING = Step.AFTER_PING
AFTER_MOVE = Step.AFTER_MOVE
FIRE = Step.FIRE
VOLLEY_DONE = Step.VOLLEY_DONE
TURN_END = Step.TURN_END
FINISHED = Step.FINISHED
# read in the engine's hottest loops, where a module name is found faster than an enum attribute
_OK = SystemStatus.OK
_DAMAGED = SystemStatus.DAMAGED
_ON_TABLE = frozenset({ShipStatus.ACTIVE, ShipStatus.OUT_OF_PLAY})


def other_side(side: str) -> Seat:
    return Seat.B if side == Seat.A else Seat.A


@dataclass(frozen=True)
class SystemState:
    id: str
    type: str
    status: SystemStatus = SystemStatus.OK
    beyond_repair: bool = False  # a needle's 6 (C1.6): damage control never repairs it

    @property
    def working(self) -> bool:
        return self.status == _OK


@dataclass(frozen=True)
class LastKnown:
    x: float
    y: float
    heading: int
    turn: int
    seq: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "x": self.x,
            "y": self.y,
            "heading": self.heading,
            "turn": self.turn,
            "seq": self.seq,
        }


@dataclass(frozen=True)
class MoveRecord:
    """One plotted move of a ship, for its record sheet (secret to the owner and referee)."""

    turn: int
    seq: int
    orders: Mapping[str, Any]
    pinged: bool = False  # a ping revealed the ship at or after this move ("PINGED" on the sheet)
    drift: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "seq": self.seq,
            "orders": dict(self.orders),
            "pinged": self.pinged,
            "drift": self.drift,
        }


@dataclass(frozen=True)
class ShipState:
    id: str
    name: str
    side: str
    design_id: str
    systems: tuple[SystemState, ...]
    status: ShipStatus = ShipStatus.ACTIVE
    deployed: bool = False
    position: Vec | None = None
    heading: int = 0
    speed: int = 0  # cinematic
    velocity: Vec = Vec(0.0, 0.0)  # vector
    activated: bool = False
    overwatch: bool = True  # every ship starts the game on overwatch
    revealed: str = "unseen"  # live | stale | unseen
    last_known: LastKnown | None = None
    hull_lost: int = 0
    armour_lost: int = 0
    fired: frozenset[str] = frozenset()  # weapon ids fired this game turn
    spent: frozenset[str] = frozenset()  # one-use weapons fired this game: never again (public)
    locks: tuple[str, ...] = ()  # targets engaged this turn, one per fire control
    out_of_control: int = 0  # turns left; 0 = in control
    life_support_turns: int | None = None  # turns until the damaged life support fails
    abandoned: bool = False
    explosion_rolls: int = 0  # core rolls made since the crew abandoned ship
    out_reason: str | None = None
    orders_log: tuple[MoveRecord, ...] = ()
    trail: tuple[Mapping[str, Any], ...] = ()  # this turn's path points
    # multi-mode weapons: weapon id -> mode, once switched from the design's (public, C1.16)
    modes: Mapping[str, str] = field(default_factory=dict)
    # weapon id -> the last turn it is offline after a mode switch (public)
    offline: Mapping[str, int] = field(default_factory=dict)
    # target id -> EMP hits this ship has counted against it this turn (at most 3, C1.5)
    emp_hits: Mapping[str, int] = field(default_factory=dict)
    command_bridge_out: int = 0  # turns the knocked-out command bridge stays out (C3.7)

    def system(self, system_id: str) -> SystemState:
        for s in self.systems:
            if s.id == system_id:
                return s
        raise KeyError(system_id)

    def systems_of(self, *types: str) -> Iterator[SystemState]:
        return (s for s in self.systems if s.type in types)

    @property
    def in_play(self) -> bool:
        return self.status == ACTIVE

    @property
    def in_control(self) -> bool:
        return self.status == ACTIVE and self.out_of_control == 0

    @property
    def core_critical(self) -> bool:
        return self.status in _ON_TABLE and self.system("core").status == _DAMAGED

    @property
    def on_table(self) -> bool:
        """In play or a hulk (out of play but still on the table, RULES §3)."""
        return self.status in _ON_TABLE

    @property
    def crew_aboard(self) -> bool:
        """On the table with its crew: in play, or a hulk permanently out of control or with its
        core dumped; such a ship keeps damage control and the core choice (RULES §3, §8)."""
        return self.on_table and not self.abandoned

    def moved_in(self, turn: int) -> bool:
        """Whether the ship moved (or drifted) in that game turn: public, every move is."""
        return any(r.turn == turn for r in self.orders_log)


@dataclass(frozen=True)
class Shot:
    """One weapon fired at one ship; ``system`` names the target system of a needle beam.

    Later kinds of shot (ordnance) may add fields with defaults; ``to_dict`` leaves unset ones out
    and ``from_dict`` reads what it is given, so old logs keep loading.
    """

    ship: str
    weapon: str
    target: str
    system: str | None = None

    def to_dict(self) -> dict[str, str]:
        out = {"ship": self.ship, "weapon": self.weapon, "target": self.target}
        if self.system is not None:
            out["system"] = self.system
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Shot:
        return cls(d["ship"], d["weapon"], d["target"], d.get("system"))


@dataclass(frozen=True)
class Phase:
    step: Step = Step.DEPLOY
    side: str | None = None  # whose activation it is
    ship: str | None = None  # the activating ship once named
    pinged: str | None = None  # before_move | after_move, once this activation pinged
    moved: bool = False
    window: int | None = None  # seq of the open fire window's event
    pinger: str | None = None
    awaiting: tuple[str, ...] = ()  # sides awaited in a fire window
    declared: Mapping[str, tuple[Shot, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class GameState:
    game_id: str
    rules_version: str
    movement: str  # cinematic | vector
    table: Table
    zones: Mapping[str, Zone]
    turn_limit: int
    ping_range: float | None
    side_names: Mapping[str, str]
    designs: Mapping[str, Design]
    ships: tuple[ShipState, ...]
    turn: int = 0
    seq: int = 0
    next_roll: int = 0
    phase: Phase = Phase()
    deployed: frozenset[str] = frozenset()
    status: GameStatus = GameStatus.ACTIVE  # active | finished
    winner: str | None = None  # A | B | draw
    finish_reason: str | None = None
    first_side: str | None = None

    def ship(self, ship_id: str) -> ShipState:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)

    def has_ship(self, ship_id: str) -> bool:
        return any(s.id == ship_id for s in self.ships)

    def design_of(self, ship: ShipState) -> Design:
        return self.designs[ship.design_id]

    def ships_of(self, side: str) -> tuple[ShipState, ...]:
        return tuple(s for s in self.ships if s.side == side)

    def in_play(self, side: str) -> tuple[ShipState, ...]:
        return tuple(s for s in self.ships if s.side == side and s.in_play)

    def with_ship(self, ship: ShipState) -> GameState:
        return replace(self, ships=tuple(ship if s.id == ship.id else s for s in self.ships))

    @property
    def active_ship(self) -> ShipState | None:
        return self.ship(self.phase.ship) if self.phase.ship else None
