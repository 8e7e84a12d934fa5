"""The flow of a game (RULES §3, §4, §7, §8 end of turn, §11): who goes first, alternating
activations, overwatch, pinging before or after the move, the end of a turn, and every way a
game finishes.
"""

from __future__ import annotations

import pytest

from app.rules import ScriptedDice, decide, replay, score, view
from app.rules.designs import preset
from app.rules.errors import IllegalOrders
from app.rules.events import Event
from app.rules.state import GameState
from tests.rules.helpers import (
    activate,
    deploy_command,
    end,
    fire,
    gunship,
    hold,
    live,
    move,
    new_game,
    only,
    ping,
    play,
    quiet_turn,
    resign,
    setup_game,
    setup_log,
    types,
    with_ship,
    with_system,
)

UNARMED = gunship("unarmed", systems=())


# -- who goes first -------------------------------------------------------------------------
def _started(designs_a: list[str], designs_b: list[str], rolloff: list[int]) -> Event:
    state, _ = new_game(designs_a, designs_b)
    placements = {
        **{f"a{i}": (5.0 * i, 4.0, 0, 0) for i in range(1, len(designs_a) + 1)},
        **{f"b{i}": (5.0 * i, 44.0, 6, 0) for i in range(1, len(designs_b) + 1)},
    }
    state, _ = play(state, "A", deploy_command(state, "A", placements))
    state, events = play(state, "B", deploy_command(state, "B", placements), rolloff)
    assert types(events) == ["deployed", "turn_started"]
    return events[1]


def test_more_ships_in_play_go_first_without_a_roll() -> None:
    started = _started(["scout", "scout"], ["heavy_cruiser"], [])
    assert started.data == {
        "turn": 1,
        "first_side": "A",
        "ships_in_play": {"A": 2, "B": 1},
        "rolloff": [],
        "rolls": [],
    }
    assert _started(["scout"], ["scout"] * 3, []).data["first_side"] == "B"


def test_equal_counts_roll_off_and_ties_reroll() -> None:
    started = _started(["scout"], ["scout"], [3, 3, 6, 6, 2, 5])
    assert started.data["rolloff"] == [[3, 3], [6, 6], [2, 5]]
    assert started.data["first_side"] == "B"
    assert started.data["rolls"] == [0, 1, 2, 3, 4, 5]
    assert _started(["scout"], ["scout"], [4, 1]).data["first_side"] == "A"


def test_the_count_is_of_ships_in_play() -> None:
    state = setup_game(["scout", "scout"], ["scout", "scout"])
    state = with_ship(state, "a2", status="out_of_play")
    # A: a1; B: b1, b2 -> B activates first in turn 2, without a roll
    state, events = quiet_turn(state, [])
    started = only(events, "turn_started").data
    assert started["ships_in_play"] == {"A": 1, "B": 2}
    assert started["first_side"] == "B" and started["rolloff"] == []


# -- alternating activations ----------------------------------------------------------------
def _order(state: GameState) -> list[str]:
    """The ships in the order the game lets them activate (each side takes its first free one)."""
    seen = []
    turn = state.turn
    while state.turn == turn and state.status == "active":
        side = state.phase.side
        assert side is not None and state.phase.step == "activate"
        ship = next(s for s in state.ships_of(side) if s.in_play and not s.activated)
        seen.append(ship.id)
        state, _ = play(state, side, move(ship.id))
        # the next turn's roll-off, if the counts are equal
        state, _ = play(state, side, end(ship.id), [6, 1], all_dice=False)
    return seen


@pytest.mark.parametrize(
    ("a", "b", "first", "order"),
    [
        (2, 2, "A", ["a1", "b1", "a2", "b2"]),
        (2, 2, "B", ["b1", "a1", "b2", "a2"]),
        (3, 1, "A", ["a1", "b1", "a2", "a3"]),
        (1, 3, "A", ["b1", "a1", "b2", "b3"]),  # B has more ships: B first
        (2, 4, "A", ["b1", "a1", "b2", "a2", "b3", "b4"]),
    ],
)
def test_sides_alternate_then_the_rest_go_one_after_another(
    a: int, b: int, first: str, order: list[str]
) -> None:
    state = setup_game([UNARMED] * a, [UNARMED] * b, first=first)  # first: on a roll-off
    assert _order(state) == order


def test_the_active_side_chooses_which_ship() -> None:
    state = setup_game([UNARMED] * 3, [UNARMED])
    assert view(state, "A")["phase"]["legal"]["activatable"] == ["a1", "a2", "a3"]
    state, _ = play(state, "A", move("a3"))
    state, _ = play(state, "A", end("a3"))
    state, _ = play(state, "B", move("b1"))
    state, _ = play(state, "B", end("b1"))
    assert view(state, "A")["phase"]["legal"]["activatable"] == ["a1", "a2"]
    state, _ = play(state, "A", activate("a2"))
    assert state.phase.ship == "a2" and state.phase.step == "start"
    assert state.ship("a3").activated and not state.ship("a1").activated


def test_activate_ping_and_move_each_name_the_ship() -> None:
    state = setup_game([UNARMED], [UNARMED])
    _, events = play(state, "A", activate("a1"))
    assert types(events) == ["activation_started"]
    assert events[0].data == {"side": "A", "ship": "a1"}
    _, events = play(state, "A", move("a1"))
    assert types(events) == ["activation_started", "ship_moved"]
    _, events = play(state, "A", ping("a1"), [1, 1, 1])
    assert types(events)[:2] == ["activation_started", "ping"]


def test_activated_is_reset_at_the_start_of_the_next_turn() -> None:
    state = setup_game([UNARMED] * 2, [UNARMED])
    state, events = quiet_turn(state, [])
    assert types(events)[-2:] == ["turn_ended", "turn_started"]
    assert state.turn == 2
    assert not any(s.activated for s in state.ships)
    assert state.phase.step == "activate" and state.phase.side == "A"


# -- overwatch, ping before or after the move --------------------------------------------------
def test_every_ship_starts_on_overwatch() -> None:
    state = setup_game(["scout", "frigate"], ["destroyer"])
    assert all(s.overwatch for s in state.ships)


def test_moving_and_ending_puts_the_ship_on_overwatch() -> None:
    state = setup_game([UNARMED] * 2, [UNARMED])
    state = with_ship(state, "a1", overwatch=False)
    state, _ = play(state, "A", move("a1"))
    assert state.phase.step == "after_move"
    state, events = play(state, "A", end("a1"))
    assert events[0].data == {"ship": "a1", "overwatch": True, "reason": "overwatch"}
    assert state.ship("a1").overwatch and state.ship("a1").activated
    assert state.phase.side == "B"


def test_ping_before_the_move() -> None:
    state = setup_game([UNARMED] * 2, [UNARMED])
    state, events = play(state, "A", ping("a1"), [1, 1, 1])
    window = only(events, "fire_window")
    assert window.data == {
        "window": window.seq,
        "pinger": "a1",
        "when": "before_move",
        "awaiting": [],
    }
    assert not state.ship("a1").overwatch  # pinging gives overwatch up
    assert state.phase.step == "after_ping" and state.phase.pinged == "before_move"
    assert view(state, "A")["phase"]["legal"]["commands"] == ["move", "resign"]
    state, events = play(state, "A", move("a1"))
    assert types(events) == ["ship_moved", "activation_ended"]
    assert events[1].data == {"ship": "a1", "overwatch": False, "reason": "pinged"}
    assert not state.ship("a1").overwatch
    assert state.phase.side == "B"


def test_ping_after_the_move_ends_the_activation_when_the_window_closes() -> None:
    state = setup_game(["scout", "scout"], ["scout"])
    state, _ = play(state, "A", move("a1"))
    state, events = play(state, "A", ping("a1"), [6, 6, 1, 1])
    assert only(events, "fire_window").data["when"] == "after_move"
    assert state.phase.step == "fire" and state.phase.awaiting == ("A", "B")
    assert view(state, "A")["phase"]["fire"]["when"] == "after_move"
    state, _ = play(state, "A", hold(state))
    state, events = play(state, "B", hold(state))
    assert types(events) == ["fire_declared", "fire_resolved", "activation_ended"]
    assert events[-1].data == {"ship": "a1", "overwatch": False, "reason": "pinged"}
    assert state.phase.side == "B"


def test_overwatch_lasts_into_the_next_turn() -> None:
    state = setup_game([UNARMED] * 2, [UNARMED])
    state = with_ship(state, "a2", overwatch=False)
    state, _ = play(state, "A", ping("a1"), [1, 1, 1])
    state, _ = play(state, "A", move("a1"))
    state, _ = quiet_turn(state, [])
    assert state.turn == 2
    assert not state.ship("a1").overwatch  # pinged last turn
    assert state.ship("a2").overwatch and state.ship("b1").overwatch  # ended on overwatch


def test_an_out_of_control_ship_drifts_and_ends_its_activation() -> None:
    state = setup_game([UNARMED] * 2, [UNARMED], {"a1": (10.0, 10.0, 3, 4)})
    state = with_ship(state, "a1", out_of_control=2)
    state, events = play(state, "A", activate("a1"))
    moved = only(events, "ship_moved").data
    assert moved["drift"] is True and moved["orders"] == {"speed_change": 0, "turn": 0}
    assert moved["to"] == {"x": 14.0, "y": 10.0}
    assert only(events, "activation_ended").data["reason"] == "out_of_control"
    assert not state.ship("a1").overwatch


# -- the active ship hit in a volley ---------------------------------------------------------
def _pinger_under_fire() -> GameState:
    """a1 (unarmed) pings before moving; b1 (gunship on overwatch) is revealed and shoots."""
    state = setup_game(
        [gunship("target", hull=4, systems=()), UNARMED],
        [gunship()],
        {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)},
    )
    state, _ = play(state, "A", ping("a1"), [6, 1, 1])
    assert state.phase.awaiting == ("B",)
    return state


def test_the_active_ship_destroyed_in_a_volley_ends_its_activation() -> None:
    state = _pinger_under_fire()
    state, events = play(
        state, "B", fire(state.phase.window, ("b1", "beam-1", "a1")), [6, 1, 6, 1, 1, 1]
    )
    assert types(events)[-3:] == ["damage", "ship_destroyed", "activation_ended"]
    assert events[-1].data == {"ship": "a1", "overwatch": False, "reason": "destroyed"}
    assert state.phase.side == "B" and state.phase.step == "activate"


def test_the_active_ship_losing_its_bridge_drifts() -> None:
    state = _pinger_under_fire()
    # 2 hull boxes: rows 1 and 2 (of 1 box each), check on 5+ with +1: only the core group
    # fails (5 + 1 reaches its 6), it picks the bridge (3), out of control for 2 turns: a1
    # drifts instead of moving
    state, events = play(
        state, "B", fire(state.phase.window, ("b1", "beam-1", "a1")), [*(5, 5, 1, 1), *(1, 5, 3, 2)]
    )
    assert types(events)[-4:] == [
        "threshold_check",
        "system_damaged",
        "ship_moved",
        "activation_ended",
    ]
    assert only(events, "ship_moved").data["drift"] is True
    assert events[-1].data == {"ship": "a1", "overwatch": False, "reason": "out_of_control"}
    assert state.phase.side == "B"


# -- the end of a turn -----------------------------------------------------------------------
def test_the_end_of_a_turn_resets_fired_weapons_and_locks() -> None:
    state = setup_game(
        [gunship(), UNARMED], [UNARMED], {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)}
    )
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", ping("a1"), [6, 1, 1])
    state, _ = play(state, "A", fire(state.phase.window, ("a1", "beam-1", "b1")), [1, 1, 1, 1])
    a1 = state.ship("a1")
    assert a1.fired == frozenset({"beam-1"}) and a1.locks == ("b1",) and a1.trail
    state, events = quiet_turn(state, [])
    ended = only(events, "turn_ended")
    assert ended.data == {"turn": 1, "regained_control": [], "life_support_failed": []}
    a1 = state.ship("a1")
    assert a1.fired == frozenset() and a1.locks == () and a1.trail == ()
    assert state.ship("b1").revealed == "stale"  # b1 moved since it was seen


def test_the_start_of_a_turn_rolls_cores_before_the_rolloff() -> None:
    state = setup_game(["frigate"], ["frigate"])
    state = with_system(state, "b1", "core", "damaged")
    # b1's 2 parties fail (4 < 5); b1's core holds (3); roll-off 6 : 1
    state, events = quiet_turn(state, [4, 3, 6, 1])
    assert types(events)[-4:] == ["damage_control", "turn_ended", "core_roll", "turn_started"]
    assert only(events, "core_roll").data["rolls"] == [3]
    assert only(events, "turn_started").data["rolls"] == [4, 5]


# -- winning ---------------------------------------------------------------------------------
def test_resign() -> None:
    state = setup_game(["scout"], ["scout"])
    # B resigns during A's activation
    state, events = play(state, "B", resign())
    assert types(events) == ["game_finished"]
    assert events[0].data == {
        "winner": "A",
        "reason": "resigned",
        "score": {"A": 0.0, "B": 0.0},
        "resigned": "B",
    }
    assert (state.status, state.winner, state.finish_reason) == ("finished", "A", "resigned")
    assert state.phase.step == "finished"
    assert view(state, "A")["phase"]["awaiting"] == []


def test_resign_during_deployment_and_fire_windows() -> None:
    state, _ = new_game()
    state, events = play(state, "A", resign())
    assert events[0].data["winner"] == "B"
    state = setup_game(["scout", "scout"], ["frigate", "frigate"])
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", ping("a1"), [1, 1, 6, 6, 1, 1, 6, 6])
    assert state.phase.awaiting == ("B",)
    _, events = play(state, "A", resign())
    assert events[0].data["winner"] == "B"


def test_score_destroyed_full_out_of_play_and_left_half() -> None:
    state = setup_game(["scout", "frigate", "destroyer"], ["scout", "frigate", "destroyer"])
    assert score(state) == {"A": 0.0, "B": 0.0}
    state = with_ship(state, "b1", status="destroyed")
    state = with_ship(state, "b2", status="out_of_play")
    state = with_ship(state, "a3", status="left")
    assert score(state) == {"A": 65 + 114 / 2, "B": 170 / 2}


def _to_turn_limit(designs_a: list[str], designs_b: list[str]) -> GameState:
    return setup_game(designs_a, designs_b, turn_limit=1)


def test_the_turn_limit_ends_the_game_on_points() -> None:
    state = _to_turn_limit(["scout", "frigate"], ["scout", "destroyer"])
    state = with_ship(state, "b1", status="destroyed")  # 65 for A
    state = with_ship(state, "a2", status="left")  # 114 / 2 = 57 for B
    state, events = quiet_turn(state, [])
    assert types(events)[-2:] == ["turn_ended", "game_finished"]
    finished = events[-1]
    assert finished.data == {"winner": "A", "reason": "turn_limit", "score": {"A": 65.0, "B": 57.0}}
    assert finished.turn == 1
    assert (state.status, state.winner, state.turn) == ("finished", "A", 1)


def test_equal_points_at_the_turn_limit_is_a_draw() -> None:
    state = _to_turn_limit(["scout", "scout"], ["scout", "scout"])
    state, events = quiet_turn(state, [])
    assert events[-1].data == {
        "winner": "draw",
        "reason": "turn_limit",
        "score": {"A": 0.0, "B": 0.0},
    }
    state = _to_turn_limit(["frigate", "frigate"], ["scout", "frigate"])
    state = with_ship(state, "b2", status="out_of_play")  # 57 for A
    state = with_ship(state, "a1", status="out_of_play")  # 57 for B
    state, events = quiet_turn(state, [])
    assert events[-1].data["winner"] == "draw"


def test_the_game_runs_to_its_turn_limit() -> None:
    state = setup_game([UNARMED] * 2, [UNARMED], turn_limit=3)
    for turn in (1, 2, 3):
        assert state.turn == turn
        state, events = quiet_turn(state, [])
    assert state.status == "finished" and events[-1].data["reason"] == "turn_limit"


def test_a_side_with_no_ships_in_play_loses() -> None:
    state = setup_game([UNARMED] * 2, [UNARMED])
    state, events = play(state, "A", move("a1", 0, 0))
    state, events = play(state, "A", end("a1"))
    state = with_system(state, "b1", "core", "damaged")
    state, events = play(state, "B", {"type": "core_action", "ship": "b1", "action": "dump"})
    assert types(events) == ["core_action", "game_finished"]
    assert events[1].data == {
        "winner": "A",
        "reason": "no_ships_left",
        "score": {"A": 80 / 2, "B": 0.0},
    }


def test_leaving_the_table() -> None:
    state = setup_game([UNARMED] * 2, [UNARMED], {"a1": (36.0, 47.0, 0, 4)})
    with pytest.raises(IllegalOrders) as caught:
        decide(state, "A", move("a1"), ScriptedDice([]))
    assert 'add "leave": true' in caught.value.detail
    state, events = play(state, "A", move("a1", leave=True))
    assert types(events) == ["activation_started", "ship_moved", "ship_left", "activation_ended"]
    assert events[-1].data == {"ship": "a1", "overwatch": False, "reason": "left"}
    assert state.ship("a1").status == "left"
    assert score(state) == {"A": 0.0, "B": 40.0}
    assert state.phase.side == "B"


def test_both_sides_losing_their_last_ships_in_one_volley_is_a_draw() -> None:
    glass = gunship("glass", hull=2)
    state = setup_game([glass], [glass], {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)})
    state, _ = play(state, "A", ping("a1"), [6, 1, 1])
    assert state.phase.awaiting == ("A", "B")
    state, _ = play(state, "B", fire(state.phase.window, ("b1", "beam-1", "a1")))
    # a1's shot: 5, 5, 1, 1 -> 2 hits; b1's (it still fires, destroyed or not): 5, 1, 5, 1 -> 2
    state, events = play(
        state, "A", fire(state.phase.window, ("a1", "beam-1", "b1")), [5, 5, 1, 1, 5, 1, 5, 1]
    )
    assert types(events)[-5:] == [
        "damage",
        "damage",
        "ship_destroyed",
        "ship_destroyed",
        "game_finished",
    ]
    assert events[-1].data == {
        "winner": "draw",
        "reason": "no_ships_left",
        "score": {"A": 118.0, "B": 118.0},
    }
    assert state.winner == "draw"


def test_a_ship_destroyed_in_the_volley_still_fires() -> None:
    glass = gunship("glass", hull=2)
    state = setup_game(
        [glass, UNARMED], [glass, UNARMED], {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)}
    )
    state, _ = play(state, "A", ping("a1"), [6, 1, 1, 6, 1, 1])
    state, _ = play(state, "B", fire(state.phase.window, ("b1", "beam-1", "a1")))
    state, events = play(
        state,
        "A",
        fire(state.phase.window, ("a1", "beam-1", "b1")),
        [6, 1, 1, 1, 1, 1, 1, 1, 5] + [1] * 4,
    )
    # a1 (first in the volley) kills b1 with a 6 (its reroll a 1); b1 still fires: a 5 -> 1 hit,
    # a1's first hull row (1 box of 2) is gone: a threshold check, all ones pass
    shots = only(events, "fire_resolved").data["shots"]
    assert [(s["ship"], s["hits"], s["reroll_hits"]) for s in shots] == [("a1", 2, 0), ("b1", 1, 0)]
    assert state.ship("b1").status == "destroyed"
    assert state.ship("a1").hull_lost == 1 and state.ship("a1").status == "active"


# -- the game always waits for somebody ------------------------------------------------------------
def test_an_active_game_always_awaits_somebody_and_replays() -> None:
    state, log = setup_log(
        ["scout", "frigate"],
        ["frigate", "scout"],
        {
            "a1": (30.0, 10.0, 0, 4),
            "a2": (40.0, 6.0, 0, 2),
            "b1": (34.0, 30.0, 6, 4),
            "b2": (50.0, 40.0, 6, 2),
        },
    )
    script: list[tuple[str, dict[str, object], list[int]]] = [
        ("A", move("a1", 0, 1), []),
        ("A", ping("a1"), [6, 6, 1, 1, 5, 5, 1, 1]),  # frigate b1: ECM 1 < 6; scout b2 revealed
    ]
    for seat, command, dice in script:
        state, events = play(state, seat, command, dice)
        log += events
        assert view(state, "spectator")["phase"]["awaiting"]
    while state.status == "active" and state.turn == 1:
        awaiting = view(state, "referee")["phase"]["awaiting"]
        assert awaiting, state.phase
        seat = awaiting[0]
        if state.phase.step == "fire":
            state, events = play(state, seat, hold(state), [6, 1] * 3, all_dice=False)
        else:
            ship = next(s for s in state.ships_of(seat) if s.in_play and not s.activated)
            state, events = play(state, seat, move(ship.id))
            log += events
            state, events = play(state, seat, end(ship.id), [6, 1], all_dice=False)
        log += events
    assert state.turn == 2 and view(state, "A")["phase"]["awaiting"] == [state.phase.side]
    assert replay(log) == state


def test_designs_used_here() -> None:
    assert preset("scout").points() == 65 and preset("frigate").points() == 114
    assert preset("destroyer").points() == 170
    assert UNARMED.points() == 80 and gunship("glass", hull=2).points() == 118


# -- moving (§10) through the engine -------------------------------------------------------------
def test_orders_are_checked_against_the_thrust_the_drive_gives_now() -> None:
    state = setup_game(["frigate", "frigate"], ["frigate"], {"a1": (36.0, 20.0, 0, 4)})
    state = with_system(state, "a1", "drive", "damaged")  # thrust 6 -> 3
    with pytest.raises(IllegalOrders) as caught:
        decide(state, "A", move("a1", 0, 2), ScriptedDice([]))
    assert caught.value.detail == "turn 2 exceeds this ship's limit of 1"
    with pytest.raises(IllegalOrders) as caught:
        decide(state, "A", move("a1", -3, 1), ScriptedDice([]))
    assert caught.value.detail == "|speed change| + |turn| = 4 exceeds thrust 3"
    assert view(state, "A")["phase"]["legal"]["ship_limits"]["a1"]["thrust"] == 3
    state, events = play(state, "A", move("a1", -2, 1))
    moved = only(events, "ship_moved").data
    assert (moved["speed"], moved["heading"], moved["orders"]) == (
        2,
        1,
        {"speed_change": -2, "turn": 1},
    )
    assert state.ship("a1").speed == 2


def test_a_ship_without_thrust_keeps_course_and_speed() -> None:
    state = setup_game(["frigate", "frigate"], ["frigate"], {"a1": (36.0, 20.0, 3, 4)})
    state = with_system(state, "a1", "drive", "destroyed")
    with pytest.raises(IllegalOrders):
        decide(state, "A", move("a1", 0, 1), ScriptedDice([]))
    state, events = play(state, "A", move("a1"))
    assert only(events, "ship_moved").data["to"] == {"x": 40.0, "y": 20.0}


def test_every_move_makes_a_live_marker_stale() -> None:
    state = setup_game([UNARMED] * 2, [UNARMED])
    state = live(state, "a1")
    state, _ = play(state, "A", move("a1"))  # speed 0, no turn: it did not go anywhere
    a1 = state.ship("a1")
    assert a1.revealed == "stale" and a1.last_known is not None
    assert view(state, "B")["ships"][0]["revealed"] == "stale"
    assert "position" not in view(state, "B")["ships"][0]


def test_vector_moves_through_the_engine() -> None:
    state = setup_game([UNARMED] * 2, [UNARMED], {"a1": (36.0, 20.0, 0, 0)}, movement="vector")
    with pytest.raises(IllegalOrders) as caught:
        decide(state, "A", move("a1"), ScriptedDice([]))
    assert "vector orders need rotate and thrust" in caught.value.detail
    with pytest.raises(IllegalOrders) as caught:
        decide(
            state,
            "A",
            {"type": "move", "ship": "a1", "orders": {"rotate": 0, "thrust": 5}},
            ScriptedDice([]),
        )
    assert caught.value.detail == "thrust 5 exceeds this ship's thrust of 4"
    order = {"type": "move", "ship": "a1", "orders": {"rotate": 3, "thrust": 4}}
    state, events = play(state, "A", order)
    moved = only(events, "ship_moved").data
    assert moved["heading"] == 3 and moved["velocity"] == {"x": 4.0, "y": 0.0}
    assert moved["to"] == {"x": 40.0, "y": 20.0}
    assert view(state, "A")["ships"][0]["velocity"] == {"x": 4.0, "y": 0.0}
