"""Set-ups for the fighter group tests (issue 13): a carrier design and ways to reach a group
in flight, engaged or spent without playing many turns."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.rules.designs import Design, SystemSpec
from app.rules.geometry import Vec
from app.rules.state import GameState, MarkerState
from tests.rules.helpers import activate, beam, gunship, move, play, setup_game

CARRIER_AT = (30.0, 10.0)


def carrier(
    id: str = "carrier", *, fighters: str = "standard", drones: str | None = None, stealth: int = 0
) -> Design:
    """Two fighter bays (``fighters`` and heavy) and, with ``drones``, a drone bay."""
    systems = [
        SystemSpec("fc-1", "fire_control"),
        beam("beam-1", 2),
        SystemSpec("bay-1", "fighter_bay", load=fighters),
        SystemSpec("bay-2", "fighter_bay", load="heavy"),
    ]
    if drones is not None:
        systems.append(SystemSpec("bay-3", "drone_bay", load=drones))
    return gunship(id, systems=systems)


def carrier_game(
    b_at: tuple[float, float] = (30.0, 40.0), *, b_design: Any = "scout", **kw: Any
) -> GameState:
    """A's carrier a1 at (30, 10) facing north, B's ship b1 at ``b_at``; A activates first."""
    placements = {"a1": (*CARRIER_AT, 0, 0), "b1": (*b_at, 6, 0)}
    return setup_game([carrier(**kw)], [b_design], placements=placements)


def markers_cmd(
    orders: list[dict[str, Any]] | None = None, launch: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {"type": "markers", "ship": "a1", "orders": orders or [], "launch": launch or []}


def launch(state: GameState, bay: str = "bay-1", to: tuple[float, float] | None = None) -> Any:
    """A1 is named and launches from ``bay`` (to ``to``); the state and the events."""
    state, _ = play(state, "A", activate("a1"))
    item: dict[str, Any] = {"bay": bay}
    if to is not None:
        item["to"] = {"x": to[0], "y": to[1]}
    return play(state, "A", markers_cmd(launch=[item]))


def group(state: GameState, side: str = "A") -> MarkerState:
    found = [m for m in state.markers if m.side == side and m.kind in ("fighters", "drones")]
    assert len(found) == 1, found
    return found[0]


def with_marker(state: GameState, marker_id: str, **changes: Any) -> GameState:
    markers = tuple(replace(m, **changes) if m.id == marker_id else m for m in state.markers)
    return replace(state, markers=markers)


def launched_last_turn(state: GameState, to: tuple[float, float] = (30.0, 20.0)) -> GameState:
    """A1 launches bay-1 to ``to`` and moves on; B1 moves; turn 2 begins with A first."""
    state, _ = launch(state, to=to)
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", {"type": "end_activation", "ship": "a1"})
    state, _ = play(state, "B", move("b1"))
    state, _ = play(state, "B", {"type": "end_activation", "ship": "b1"}, [6, 1])
    assert state.turn == 2 and state.phase.side == "A", state.phase
    return state


def point(v: Vec) -> tuple[float, float]:
    return (round(v.x, 6), round(v.y, 6))


def engaged_with_a_wreck() -> tuple[GameState, str]:
    """A's carrier (a1) has launched a group and it is engaged with b1 at (30, 30), which is
    then destroyed; each side has a second ship, so the game goes on. (state, group id)."""
    from app.rules.fighters.fold import engage
    from app.rules.state import ShipStatus
    from tests.rules.helpers import at, with_ship

    placements = {
        **{"a1": (30.0, 10.0, 0, 0), "a2": (60.0, 10.0, 0, 0)},
        **{"b1": (30.0, 40.0, 6, 0), "b2": (60.0, 40.0, 6, 0)},
    }
    state = setup_game([carrier(), "scout"], ["scout", "scout"], placements=placements)
    state, _ = play(state, "A", activate("a1"))
    state, _ = play(state, "A", markers_cmd(launch=[{"bay": "bay-1"}]))
    g = group(state).id
    state = engage(at(state, "b1", 30.0, 30.0), g, "b1")
    return with_ship(state, "b1", status=ShipStatus.DESTROYED), g
