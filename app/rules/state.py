"""The game's state as frozen values.

Game data (ships, designs, table) is kept apart from turn flow (``Phase``). Every field is
derived only by folding events (``app.rules.evolve``), so a replay of the log rebuilds it exactly.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from app.rules.attacks import DOGFIGHT, FIGHTERS_ATTACK, Attack
from app.rules.designs import Design
from app.rules.fighters.state import DRONES, FIGHTERS, GROUP_KINDS, BayState, FightersStep
from app.rules.frozen import amend
from app.rules.geometry import Table, Vec, Zone

__all__ = [  # re-exported: the attacks and the fighters' state live in their own modules
    "DOGFIGHT",
    "DRONES",
    "FIGHTERS",
    "FIGHTERS_ATTACK",
    "GROUP_KINDS",
    "Attack",
    "BayState",
    "FightersStep",
]

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
    DEFEND = "defend"  # a defence window is open (RULES §9.5)
    FIGHTERS = "fighters"  # the activating side chooses its groups' attacks (issue 13)
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
DEFEND = Step.DEFEND
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
    # magazine id -> load -> count left; a heavy-missile rack: rack id -> {its missile: 1}
    # (secret to the owner: loads are, RULES §9.1)
    loads: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    # launcher id -> the public kinds it fired this game, in order (salvo, heavy_missile, ...)
    launched_kinds: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # the aim points of this turn's launches: each holds a fire control (secret: whether two
    # launches shared one is not public, so who a window awaits never reads these)
    aim_locks: tuple[Vec, ...] = ()
    hm_emp_hits: int = 0  # EMP hits heavy missiles scored on this ship this turn (at most 3)
    ordnance_cleared: bool = False  # its markers were removed when it left play
    # bay id -> the group aboard; a bay absent is empty (secret to the owner, RULES §9.1)
    bays: Mapping[str, BayState] = field(default_factory=dict)

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
    """One weapon fired at one ship, or a launch at an aim point (RULES §9.2).

    ``system`` names the target system of a needle beam, or a needle missile's target system
    type. A launch has ``aim`` instead of ``target``, and ``load`` when it says what a launcher
    fires. ``to_dict`` leaves unset fields out and ``from_dict`` reads what it is given, so old
    logs keep loading.
    """

    ship: str
    weapon: str
    target: str | None = None
    system: str | None = None
    aim: Vec | None = None
    load: str | None = None

    @property
    def is_launch(self) -> bool:
        return self.aim is not None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ship": self.ship, "weapon": self.weapon}
        if self.target is not None:
            out["target"] = self.target
        if self.aim is not None:
            out["aim"] = self.aim.to_dict()
        if self.load is not None:
            out["load"] = self.load
        if self.system is not None:
            out["system"] = self.system
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Shot:
        aim = d.get("aim")
        return cls(
            d["ship"],
            d["weapon"],
            d.get("target"),
            d.get("system"),
            Vec.from_dict(aim) if aim is not None else None,
            d.get("load"),
        )


# the kinds of marker (RULES §9.1); the groups' (FIGHTERS, DRONES) come with issue 13
SALVO_KINDS = frozenset({"salvo", "er_salvo", "af_salvo"})
HEAVY_MISSILE = "heavy_missile"
AMT = "amt"
MARKER_KINDS = SALVO_KINDS | {HEAVY_MISSILE, AMT} | GROUP_KINDS
_OPTIONAL = (
    "missile",
    "endurance",
    "system",
    "group",
    "bay",
    "cef",
    "engaged_with",
    "torpedo_fired",
    "intercepted_turn",
)


@dataclass(frozen=True)
class MarkerState:
    """Ordnance in flight (RULES §9.1): secret to its side unless ``live``."""

    id: str
    side: str
    mother: str  # the ship that launched it
    kind: str  # salvo | er_salvo | af_salvo | heavy_missile | amt | fighters | drones
    position: Vec
    aim: Vec
    launched_turn: int
    launched_seq: int
    missile: str | None = None  # a heavy missile's type (secret)
    endurance: int | None = None  # heavy missiles: step 2s left
    strength: int = 1  # missiles in a salvo (6 at launch), 1 otherwise
    system: str | None = None  # a needle missile's target system type
    live: bool = False  # public now (attacking); forgotten at its next step 2
    acts_turn: int = 0  # the turn of its next step 2 (RULES §9.3)
    counters: tuple[str, ...] = ()  # an ECM missile's three counter ids
    # a group (its strength: fighters alive; its aim: the launch point)
    group: str | None = None  # its type (secret)
    bay: str | None = None  # the bay it launched from (secret)
    cef: int | None = None  # combat endurance left
    engaged_with: str | None = None  # the enemy ship it is engaged with (public while engaged)
    type_shown: bool = False  # its type is public: it rolled or was rolled at (F11)
    torpedo_fired: int | None = None  # the turn its sortie's one pulse torpedo went (C5.0)
    intercepted_turn: int | None = None  # the turn it last intercepted: once a turn (§9.5)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "side": self.side,
            "mother": self.mother,
            "kind": self.kind,
            "position": self.position.to_dict(),
            "aim": self.aim.to_dict(),
            "launched_turn": self.launched_turn,
            "launched_seq": self.launched_seq,
            "strength": self.strength,
            "live": self.live,
            "acts_turn": self.acts_turn,
        }
        for key in _OPTIONAL:
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.counters:
            out["counters"] = list(self.counters)
        if self.type_shown:
            out["type_shown"] = True
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MarkerState:
        return cls(
            id=d["id"],
            side=d["side"],
            mother=d["mother"],
            kind=d["kind"],
            position=Vec.from_dict(d["position"]),
            aim=Vec.from_dict(d["aim"]),
            launched_turn=d["launched_turn"],
            launched_seq=d["launched_seq"],
            strength=d.get("strength", 1),
            live=d.get("live", False),
            acts_turn=d.get("acts_turn", 0),
            counters=tuple(d.get("counters", ())),
            type_shown=d.get("type_shown", False),
            **{key: d.get(key) for key in _OPTIONAL},
        )


@dataclass(frozen=True)
class DefenceWindow:
    """An open defence window (RULES §9.5): the attacks, who is awaited, what each declared."""

    window: int
    attacks: tuple[Attack, ...]
    awaiting: tuple[str, ...]
    declared: Mapping[str, tuple[Mapping[str, Any], ...]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "window": self.window,
            "attacks": [a.to_dict() for a in self.attacks],
            "awaiting": list(self.awaiting),
            "declared": {side: [dict(x) for x in items] for side, items in self.declared.items()},
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> DefenceWindow:
        return cls(
            d["window"],
            tuple(Attack.from_dict(a) for a in d["attacks"]),
            tuple(d["awaiting"]),
            {side: tuple(dict(x) for x in items) for side, items in d["declared"].items()},
        )


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
    defence: DefenceWindow | None = None  # the open defence window (step DEFEND)
    step2_done: bool = False  # the activating ship's step 2 has run (RULES §4)
    # a move's orders (secret) kept while the step 2 it ran waits on a defence window
    pending_move: Mapping[str, Any] | None = None
    fighters: FightersStep | None = None  # the open fighters step (step FIGHTERS)


def new_phase(**fields: Any) -> Phase:
    """``Phase(**fields)``, the others at their defaults (``declared`` a new empty mapping),
    built as a copy of the blank phase: every turn and activation makes one, and the frozen
    dataclass's ``__init__`` (a ``object.__setattr__`` per field) cost more than the copy."""
    return amend(_BLANK_PHASE, declared={}, **fields)


_BLANK_PHASE = Phase()


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
    markers: tuple[MarkerState, ...] = ()  # ordnance in flight, in id order
    marker_count: int = 0  # markers ever made (the next marker id's number)
    auto_defend: frozenset[str] = frozenset()  # sides whose default allocation plays at once

    def marker(self, marker_id: str) -> MarkerState:
        for m in self.markers:
            if m.id == marker_id:
                return m
        raise KeyError(marker_id)

    def ship(self, ship_id: str) -> ShipState:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)

    def has_ship(self, ship_id: str) -> bool:
        return any(s.id == ship_id for s in self.ships)

    def design_of(self, ship: ShipState) -> Design:
        return self.designs[ship.design_id]

    # (list comprehensions: a tuple built from a generator resumes it once per ship)
    def ships_of(self, side: str) -> tuple[ShipState, ...]:
        return tuple([s for s in self.ships if s.side == side])

    def in_play(self, side: str) -> tuple[ShipState, ...]:
        return tuple([s for s in self.ships if s.side == side and s.status == ACTIVE])

    def with_ship(self, ship: ShipState) -> GameState:
        sid = ship.id
        return amend(self, ships=tuple([ship if s.id == sid else s for s in self.ships]))

    @property
    def active_ship(self) -> ShipState | None:
        return self.ship(self.phase.ship) if self.phase.ship else None
