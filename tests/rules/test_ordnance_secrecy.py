"""Secrets of ordnance in flight (RULES §9.1, §9.3; C2.4): what a live enemy marker shows, what
an AMT's owner learns when it homes, and what a finished game still draws in flight.

Decisions (docs/rules.md §9): a live enemy marker shows id, side, kind, strength, live and its
target, never a position (its aim point or a heavy missile's end point is its side's secret);
an AMT that homes on a ship tells its owner only the ship (public in the window anyway), its
point is public only through ``amt_detonated`` when a ship was in the blast; when a game
finishes, the markers still in flight are discarded (one ``marker_removed``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.rules import ScriptedDice, view
from app.rules.advance import advance
from app.rules.builder import Builder
from app.rules.decide import decide
from app.rules.events import Event
from app.rules.evolve import evolve
from app.rules.fog import redact
from app.rules.state import DEFEND, GameState, ShipStatus
from tests.rules.helpers import (
    activate,
    end,
    hold,
    move,
    ping,
    play,
    resign,
    setup_game,
    with_ship,
)

B_AT = (38.0, 12.0)  # B1's true, hidden position: an AMT aimed 4 mu off homes on it


def _points(obj: Any) -> set[tuple[float, float]]:
    """Every point (a mapping with x and y) in ``obj``, rounded to 1 decimal."""
    out: set[tuple[float, float]] = set()
    if isinstance(obj, dict):
        if isinstance(obj.get("x"), int | float) and isinstance(obj.get("y"), int | float):
            out.add((round(float(obj["x"]), 1), round(float(obj["y"]), 1)))
        for value in obj.values():
            out |= _points(value)
    elif isinstance(obj, list):
        for value in obj:
            out |= _points(value)
    return out


def _launch(state: GameState, shots: list[dict[str, Any]]) -> GameState:
    """A1 pings (every die a 6: B1 is found), launches ``shots`` and B holds fire."""
    state, _ = play(state, "A", ping("a1"), [6] * 10, all_dice=False)
    fire = {"type": "fire", "window": state.phase.window, "shots": shots}
    state, _ = play(state, "A", fire)
    if state.phase.step == "fire":
        state, _ = play(state, "B", hold(state))
    return state


def _next_turn(state: GameState, b_move: dict[str, Any] | None = None) -> GameState:
    """A1 ends its activation, B1 moves (hidden) and ends the turn; A first next."""
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "B", b_move or move("b1"))
    state, _ = play(state, "B", end("b1"), [6, 1])
    assert state.turn == 2 and state.phase.side == "A"
    return state


def _step2(state: GameState) -> tuple[GameState, list[Event]]:
    state, _ = play(state, "A", activate("a1"))
    return play(state, "A", {"type": "markers", "ship": "a1", "orders": []})


def _salvo_window() -> tuple[GameState, list[Event], tuple[float, float]]:
    """A's salvo aimed at (36, 22), 2 mu from B1, attacks it in a window B must answer."""
    state = setup_game(
        ("missile_frigate",), ("pd_escort",), {"a1": (36.0, 4.0, 0, 0), "b1": (36.0, 24.0, 6, 0)}
    )
    aim = (36.0, 22.0)
    state = _launch(state, [{"ship": "a1", "weapon": "smr-1", "aim": {"x": aim[0], "y": aim[1]}}])
    state = _next_turn(state, move("b1", speed_change=4))
    state, events = _step2(state)
    assert state.phase.step == DEFEND
    return state, events, aim


def test_a_live_enemy_salvo_shows_its_target_and_no_aim_point() -> None:
    state, events, aim = _salvo_window()
    (salvo,) = state.markers
    (shown,) = [m for m in view(state, "B")["markers"] if m["id"] == salvo.id]
    assert "position" not in shown, f"B sees the salvo's secret aim point: {shown}"
    assert shown["target"] == "b1" and shown["live"] is True and shown["kind"] == "salvo"
    assert set(shown) == {"id", "side", "kind", "strength", "live", "target"}, shown
    for seat in ("B", "spectator"):
        seen = [redact(e, seat, state) for e in events] + [view(state, seat)]
        assert aim not in _points(seen), f"{seat} receives the aim point {aim}"


def _amt_window() -> tuple[GameState, list[Event]]:
    """A's AMT aimed at (38, 16) homes on B1, hidden at (38, 12) after its move."""
    state = setup_game(
        ("amt_boat",), ("pd_escort",), {"a1": (36.0, 4.0, 0, 0), "b1": (38.0, 16.0, 6, 0)}
    )
    state = _launch(state, [{"ship": "a1", "weapon": "amt-1", "aim": {"x": 38, "y": 16}}])
    b_move = move("b1", speed_change=4)
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "B", b_move)
    state, _ = play(state, "B", end("b1"), [6, 1])
    b1 = state.ship("b1")
    assert b1.position is not None and (b1.position.x, b1.position.y) == B_AT, b1.position
    assert b1.revealed != "live"
    state, events = _step2(state)
    assert state.phase.step == DEFEND
    return state, events


def test_an_amt_homing_on_a_hidden_ship_tells_its_owner_only_the_ship() -> None:
    state, events = _amt_window()
    for seat in ("A", "spectator"):  # B knows where its own ship is
        seen = [redact(e, seat, state) for e in events] + [view(state, seat)]
        assert B_AT not in _points(seen), f"{seat} learns B1's hidden position {B_AT}"
    acted = next(e for e in events if e.type == "ordnance_acted")
    (item,) = redact(acted, "A", state)["data"]["markers"]
    assert item["target"] == "b1" and item["result"] == "detonates", item
    # the referee (and the finished record) keep the homed point
    assert B_AT in _points(redact(acted, "referee", state))


def test_an_amt_shot_down_publishes_no_point() -> None:
    state, _ = _amt_window()
    window = view(state, "B")["phase"]["legal"]["defend"]
    defend = {"type": "defend", "window": window["window"], "allocations": window["default"]}
    for face, destroyed in ((5, True), (1, False)):
        events = list(decide(state, "B", defend, ScriptedDice([face] * 40)).events)
        after = state
        for e in events:
            after = evolve(after, e)
        (det,) = [e for e in events if e.type == "amt_detonated"]
        if destroyed:
            assert det.data.get("destroyed") is True and "point" not in det.data, det.data
            for seat in ("A", "spectator"):  # B knows where its own ship is
                seen = [redact(e, seat, after) for e in events] + [view(after, seat)]
                assert B_AT not in _points(seen), f"{seat} learns {B_AT}"
        else:  # B1 in the blast: the point is public now
            assert det.data["point"] == {"x": B_AT[0], "y": B_AT[1]}, det.data


def test_a_resignation_discards_the_markers_in_flight() -> None:
    state = setup_game(
        ("missile_frigate",), ("pd_escort",), {"a1": (36.0, 4.0, 0, 0), "b1": (36.0, 24.0, 6, 0)}
    )
    state = _launch(state, [{"ship": "a1", "weapon": "smr-1", "aim": {"x": 36, "y": 22}}])
    assert state.markers
    state, events = play(state, "B", resign())
    assert [e.type for e in events][-2:] == ["marker_removed", "game_finished"], events
    removed = events[-2].data
    assert removed["reason"] == "game_over" and len(removed["markers"]) == 1, removed
    assert state.markers == () and view(state, "A")["markers"] == []


def test_a_finish_with_nothing_in_flight_removes_nothing() -> None:
    state = setup_game(
        ("missile_frigate",), ("pd_escort",), {"a1": (36.0, 4.0, 0, 0), "b1": (36.0, 24.0, 6, 0)}
    )
    _, events = play(state, "B", resign())
    assert [e.type for e in events] == ["game_finished"]


def _salvo_in_flight() -> GameState:
    state = setup_game(
        ("missile_frigate",), ("pd_escort",), {"a1": (36.0, 4.0, 0, 0), "b1": (36.0, 24.0, 6, 0)}
    )
    state = _launch(state, [{"ship": "a1", "weapon": "smr-1", "aim": {"x": 36, "y": 22}}])
    assert state.markers
    return state


def test_a_side_destroyed_discards_the_markers_in_flight() -> None:
    state = with_ship(_salvo_in_flight(), "b1", status=ShipStatus.DESTROYED)
    b = Builder(state, ScriptedDice([]))
    advance(b)
    assert [e.type for e in b.events] == ["marker_removed", "game_finished"], b.events
    removed = b.events[0]
    assert removed.data["reason"] == "game_over", removed.data
    # the salvo is not live: B (who has lost anyway) receives the removal without it
    assert redact(removed, "B", b.state)["data"]["markers"] == []
    assert b.state.markers == () and view(b.state, "A")["markers"] == []


def test_the_turn_limit_still_discards_with_its_own_reason() -> None:
    state = _salvo_in_flight()
    state = replace(state, turn_limit=1)
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "B", move("b1"))
    state, events = play(state, "B", end("b1"), [6, 1], all_dice=False)
    removed = [e for e in events if e.type == "marker_removed"]
    assert [e.data["reason"] for e in removed] == ["turn_limit"], removed
    assert events[-1].type == "game_finished" and state.markers == ()
