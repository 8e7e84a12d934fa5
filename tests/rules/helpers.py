"""Shared helpers for the rules unit tests: a started game in one call, a command in one call.

``setup_game`` builds a game, deploys both sides where the test says and starts turn 1 (the
roll-off dice are scripted for the side the test wants first). ``play`` runs one command through
``decide`` with scripted dice and folds its events. The ``with_*`` helpers change a state directly
(frozen values, so they return a new state) when a test needs a condition that would take many
commands to reach: a damaged system, a live marker, a ship on overwatch.

Every ship may deploy anywhere: the default zones of these games cover the whole table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, cast

import pytest

from app.rules import GameSetup, ScriptedDice, ShipEntry, decide, evolve, game_started
from app.rules.builder import Builder
from app.rules.designs import Design, SystemSpec, preset
from app.rules.dice import DiceSource
from app.rules.events import Event, EventBody, read_body
from app.rules.evolve import start_state
from app.rules.geometry import Table, Vec, Zone
from app.rules.state import SIDES, GameState, LastKnown, ShipState

DesignLike = str | Design
# ship id -> (x, y, heading, speed); with vector movement the speed is ignored (velocity 0)
Placement = tuple[float, float, int, int]

TABLE = Table(72.0, 48.0)
WHOLE_TABLE = Zone(0.0, 0.0, TABLE.width, TABLE.height)


# -- designs ---------------------------------------------------------------------------------
def beam(sid: str, cls: int, *arcs: str) -> SystemSpec:
    """A beam battery; no arcs means all six standard arcs."""
    return SystemSpec(sid, "beam", cls=cls, arcs=tuple(arcs) or ("F", "FS", "AS", "A", "AP", "FP"))


def gunship(
    id: str = "gunship",
    *,
    mass: int = 40,
    thrust: int = 4,
    hull: int = 12,
    armour: int = 0,
    hull_rows: int = 4,
    systems: Sequence[SystemSpec] | None = None,
) -> Design:
    """A plain test design: one fire control and one class-4 beam in every arc by default."""
    if systems is None:
        systems = (SystemSpec("fc-1", "fire_control"), beam("beam-1", 4))
    return Design(
        id=id,
        name=id.replace("_", " ").title(),
        hull_class="test",
        mass=mass,
        thrust=thrust,
        hull=hull,
        hull_rows=hull_rows,
        armour=armour,
        systems=tuple(systems),
    )


def _design(d: DesignLike) -> Design:
    return preset(d) if isinstance(d, str) else d


# -- building games ---------------------------------------------------------------------------
def new_game(
    designs_a: Sequence[DesignLike] = ("scout",),
    designs_b: Sequence[DesignLike] = ("scout",),
    *,
    movement: str = "cinematic",
    turn_limit: int = 12,
    ping_range: float | None = None,
    game_id: str = "test",
) -> tuple[GameState, Event]:
    """A game in deployment (nothing deployed yet) and its ``game_started`` event."""
    setup = GameSetup(
        ships={
            "A": [ShipEntry(f"A{i}", _design(d)) for i, d in enumerate(designs_a, start=1)],
            "B": [ShipEntry(f"B{i}", _design(d)) for i, d in enumerate(designs_b, start=1)],
        },
        movement=movement,
        table=TABLE,
        zones={"A": WHOLE_TABLE, "B": WHOLE_TABLE},
        turn_limit=turn_limit,
        ping_range=ping_range,
    )
    first = game_started(game_id, setup)
    return start_state(first), first


def default_placements(state: GameState) -> dict[str, Placement]:
    """A's ships along y = 4 facing north, B's along y = 44 facing south, 10 mu apart, speed 0."""
    out: dict[str, Placement] = {}
    for side, y, heading in (("A", 4.0, 0), ("B", 44.0, 6)):
        for i, ship in enumerate(state.ships_of(side)):
            out[ship.id] = (10.0 + 10.0 * i, y, heading, 0)
    return out


def deploy_command(
    state: GameState, side: str, placements: Mapping[str, Placement]
) -> dict[str, Any]:
    ships = []
    for ship in state.ships_of(side):
        x, y, heading, speed = placements[ship.id]
        item: dict[str, Any] = {"ship": ship.id, "position": {"x": x, "y": y}, "heading": heading}
        if state.movement == "vector":
            item["velocity"] = {"x": 0.0, "y": 0.0}
        else:
            item["speed"] = speed
        ships.append(item)
    return {"type": "deploy", "ships": ships}


def rolloff_dice(state: GameState, first: str) -> list[int]:
    """The roll-off dice that give ``first`` the first activation (none if counts differ)."""
    counts = {side: len(state.in_play(side)) for side in SIDES}
    if counts["A"] != counts["B"]:
        return []
    return [6, 1] if first == "A" else [1, 6]


def setup_game(
    designs_a: Sequence[DesignLike] = ("scout",),
    designs_b: Sequence[DesignLike] = ("scout",),
    placements: Mapping[str, Placement] | None = None,
    dice: Iterable[int] | None = None,
    *,
    first: str = "A",
    movement: str = "cinematic",
    turn_limit: int = 12,
    ping_range: float | None = None,
) -> GameState:
    """A started game: both sides deployed, turn 1 begun, waiting for the first activation.

    ``placements`` overrides the default positions per ship id; ``dice`` replaces the roll-off
    dice that ``first`` would otherwise script.
    """
    state, _ = setup_log(
        designs_a,
        designs_b,
        placements,
        dice,
        first=first,
        movement=movement,
        turn_limit=turn_limit,
        ping_range=ping_range,
    )
    return state


def setup_log(
    designs_a: Sequence[DesignLike] = ("scout",),
    designs_b: Sequence[DesignLike] = ("scout",),
    placements: Mapping[str, Placement] | None = None,
    dice: Iterable[int] | None = None,
    *,
    first: str = "A",
    movement: str = "cinematic",
    turn_limit: int = 12,
    ping_range: float | None = None,
) -> tuple[GameState, list[Event]]:
    """``setup_game`` plus the log so far (for replay checks)."""
    state, started = new_game(
        designs_a, designs_b, movement=movement, turn_limit=turn_limit, ping_range=ping_range
    )
    where = {**default_placements(state), **(placements or {})}
    log = [started]
    state, events = play(state, "A", deploy_command(state, "A", where))
    log += events
    rolls = list(dice) if dice is not None else rolloff_dice(state, first)
    state, events = play(state, "B", deploy_command(state, "B", where), rolls)
    log += events
    assert state.phase.step == "activate", state.phase
    return state, log


# -- playing --------------------------------------------------------------------------------
def play(
    state: GameState,
    seat: str,
    command: Mapping[str, Any],
    dice: Iterable[int] | DiceSource = (),
    *,
    all_dice: bool = True,
) -> tuple[GameState, list[Event]]:
    """Run one command; the new state and its events. By default every scripted die must be used."""
    source = cast(DiceSource, dice) if hasattr(dice, "d6") else ScriptedDice(cast(Any, dice))
    events = list(decide(state, seat, command, source).events)
    for event in events:
        state = evolve(state, event)
    if all_dice and isinstance(source, ScriptedDice):
        assert source.remaining == 0, f"{source.remaining} scripted dice left unused: {source}"
    return state, events


def types(events: Iterable[Event]) -> list[str]:
    return [e.type for e in events]


def only(events: Iterable[Event], kind: str) -> Event:
    found = [e for e in events if e.type == kind]
    assert len(found) == 1, f"expected one {kind}, got {types(events)}"
    return found[0]


def all_of(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]


def quiet_turn(state: GameState, dice: Iterable[int] = ()) -> tuple[GameState, list[Event]]:
    """Every ship yet to activate this turn moves straight on and goes on overwatch (an
    out-of-control one just drifts), side by side as the game asks. The last command gets
    ``dice`` (for the end of the turn and the start of the next); its events are returned."""
    turn = state.turn
    events: list[Event] = []
    while state.status == "active" and state.turn == turn:
        assert state.phase.step == "activate", state.phase
        side = state.phase.side
        assert side is not None
        ship = next(s for s in state.ships_of(side) if s.in_play and not s.activated)
        last = sum(1 for s in state.ships if s.in_play and not s.activated) == 1
        rolls = list(dice) if last else []
        if ship.out_of_control:
            state, events = play(state, side, activate(ship.id), rolls)
        else:
            state, _ = play(state, side, move(ship.id))
            state, events = play(state, side, end(ship.id), rolls)
    return state, events


# -- commands -------------------------------------------------------------------------------
def activate(ship: str) -> dict[str, Any]:
    return {"type": "activate", "ship": ship}


def ping(ship: str) -> dict[str, Any]:
    return {"type": "ping", "ship": ship}


def move(ship: str, speed_change: int = 0, turn: int = 0, **extra: Any) -> dict[str, Any]:
    return {
        "type": "move",
        "ship": ship,
        "orders": {"speed_change": speed_change, "turn": turn, **extra},
    }


def end(ship: str) -> dict[str, Any]:
    return {"type": "end_activation", "ship": ship}


def fire(window: int | None, *shots: tuple[str, str, str]) -> dict[str, Any]:
    return {
        "type": "fire",
        "window": window,
        "shots": [{"ship": s, "weapon": w, "target": t} for s, w, t in shots],
    }


def hold(state: GameState) -> dict[str, Any]:
    """An empty declaration for the open window."""
    return fire(state.phase.window)


def resign() -> dict[str, Any]:
    return {"type": "resign"}


# -- changing a state directly -----------------------------------------------------------------
def with_ship(state: GameState, ship_id: str, **changes: Any) -> GameState:
    return state.with_ship(replace(state.ship(ship_id), **changes))


def with_system(state: GameState, ship_id: str, system_id: str, status: str) -> GameState:
    ship = state.ship(ship_id)
    systems = tuple(replace(s, status=status) if s.id == system_id else s for s in ship.systems)
    return state.with_ship(replace(ship, systems=systems))


def at(state: GameState, ship_id: str, x: float, y: float, heading: int | None = None) -> GameState:
    """Move a ship's true position (a live marker would go with it: use ``live`` after)."""
    ship = state.ship(ship_id)
    return state.with_ship(
        replace(ship, position=Vec(x, y), heading=ship.heading if heading is None else heading)
    )


def live(state: GameState, *ship_ids: str) -> GameState:
    """Reveal ships where they truly are, as a ping would."""
    for ship_id in ship_ids:
        ship = state.ship(ship_id)
        assert ship.position is not None
        known = LastKnown(ship.position.x, ship.position.y, ship.heading, state.turn, state.seq)
        state = state.with_ship(replace(ship, revealed="live", last_known=known))
    return state


def stale(state: GameState, *ship_ids: str) -> GameState:
    """Reveal ships, then let their markers go stale (as if they moved since)."""
    state = live(state, *ship_ids)
    for ship_id in ship_ids:
        state = with_ship(state, ship_id, revealed="stale")
    return state


def ship(state: GameState, ship_id: str) -> ShipState:
    return state.ship(ship_id)


# -- ordnance: a launch in A1's ping, and the turn that brings its step 2 ------------------------
def launch_in_ping(state: GameState, shots: list[dict[str, Any]]) -> GameState:
    """A1 pings (every die a 6: B1 is found), launches ``shots`` and B holds fire."""
    state, _ = play(state, "A", ping("a1"), [6] * 10, all_dice=False)
    assert state.phase.step == "fire"
    state, _ = play(state, "A", {"type": "fire", "window": state.phase.window, "shots": shots})
    if state.phase.step == "fire":
        state, _ = play(state, "B", hold(state))
    return state


def to_next_turn(state: GameState) -> GameState:
    """A1 finishes its activation, B1 moves straight on and ends the turn (A first next)."""
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "B", move("b1"))
    state, _ = play(state, "B", end("b1"), [6, 1])
    assert state.turn == 2 and state.phase.side == "A"
    return state


def ecm_window() -> GameState:
    """A missile destroyer's ECM missile, a standard heavy missile and its rack's missile, all
    aimed 1 mu from a PD escort, attacking it in A1's turn-2 step 2 on standing orders: the
    defence window is open, the ECM shown as three counters among the real missiles."""
    state = setup_game(
        ("missile_destroyer",),
        ("pd_escort",),
        {"a1": (36.0, 4.0, 0, 0), "b1": (36.0, 20.0, 6, 0)},
    )
    point = {"x": 36, "y": 19}
    state = launch_in_ping(
        state,
        [
            {"ship": "a1", "weapon": "hml-1", "aim": point, "load": "ecm"},
            {"ship": "a1", "weapon": "hml-2", "aim": point, "load": "standard"},
            {"ship": "a1", "weapon": "hmr-1", "aim": point},
        ],
    )
    state = to_next_turn(state)
    state, _ = play(state, "A", move("a1"))  # standing orders: the missiles stay and attack
    assert state.phase.step == "defend"
    return state


Emit = Callable[[Builder, str, dict[str, Any], int | None], Event]


def hook_emit(
    monkeypatch: pytest.MonkeyPatch,
    hook: Callable[[Builder, str, dict[str, Any], int | None, Emit], Event],
) -> None:
    """Every event the builder makes, typed (``Builder.put``) or from its JSON form, passes
    through ``hook(builder, kind, data, turn, emit)`` in its JSON form; ``emit`` makes it."""
    put = Builder.put

    def emit(self: Builder, kind: str, data: dict[str, Any], turn: int | None = None) -> Event:
        return put(self, read_body(kind, data), turn)

    def hooked(self: Builder, body: EventBody, turn: int | None = None) -> Event:
        return hook(self, body.kind, dict(body.to_data()), turn, emit)

    monkeypatch.setattr(Builder, "put", hooked)
