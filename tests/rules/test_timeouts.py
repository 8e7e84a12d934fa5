"""The defaults a timeout plays (``app.rules.timeouts``), step by step: each is accepted by the
rules, is the documented default, and a decision's key depends on public facts only."""

from __future__ import annotations

from typing import Any

from app.rules import ScriptedDice, decide
from app.rules.evolve import replay
from app.rules.ordnance.defence import default_allocation
from app.rules.state import ACTIVATE, AFTER_MOVE, DEFEND, DEPLOY, FIRE, START, GameState, Step
from app.rules.timeouts import decision_key, default_commands, null_orders
from tests.rules.fighter_setup import carrier, group, markers_cmd
from tests.rules.helpers import activate, gunship, new_game, ping, play, setup_game, setup_log
from tests.rules.test_defence_window import game as defence_game
from tests.rules.test_defence_window import opened


def _first(state: GameState, side: str, dice: list[int] | None = None) -> tuple[Any, GameState]:
    """The first default the rules take, and the state after it."""
    for command in default_commands(state, side):
        try:
            decision = decide(state, side, command, ScriptedDice(dice or []))
        except Exception:
            continue
        return command, decision.state
    raise AssertionError(f"no default accepted for {side} at {state.phase}")


def test_deployment_puts_every_ship_on_the_zone_centre_line_at_speed_0() -> None:
    state, _ = new_game(("scout", "scout", "scout"), ("scout",))
    assert decision_key(state, "A") == decision_key(state, "B") == "deploy"
    command, after = _first(state, "A")
    ships = command["ships"]
    assert [s["ship"] for s in ships] == [s.id for s in state.ships_of("A")]
    zone = state.zones["A"]
    width = zone.x1 - zone.x0
    assert {s["position"]["y"] for s in ships} == {(zone.y0 + zone.y1) / 2}
    assert [s["position"]["x"] for s in ships] == [
        round(zone.x0 + width * k / 4, 3) for k in (1, 2, 3)
    ]
    assert {s["speed"] for s in ships} == {0}
    assert after.phase.step == DEPLOY and "A" in after.deployed
    assert decision_key(after, "A") is None and decision_key(after, "B") == "deploy"


def test_vector_deployment_gives_a_zero_velocity() -> None:
    state, _ = new_game(movement="vector")
    command, _ = _first(state, "B")
    assert command["ships"][0]["velocity"] == {"x": 0.0, "y": 0.0}
    assert "speed" not in command["ships"][0]
    assert null_orders("vector") == {"rotate": 0, "thrust": 0}


def test_an_activation_names_the_first_ship_then_null_orders_then_overwatch() -> None:
    state = setup_game(("scout", "scout"), ("scout",), first="A")
    key = decision_key(state, "A")
    assert decision_key(state, "B") is None
    played = []
    while decision_key(state, "A") == key:
        command, state = _first(state, "A")
        played.append(command)
    assert played[0] == {"type": "activate", "ship": "a1"}
    assert played[1] == {"type": "move", "ship": "a1", "orders": null_orders("cinematic")}
    assert played[2] == {"type": "end_activation", "ship": "a1"}
    a1 = state.ship("a1")
    assert a1.activated and a1.overwatch and a1.speed == 0


def test_the_steps_of_an_activation_are_one_decision() -> None:
    state = setup_game(first="A")
    key = decision_key(state, "A")
    assert state.phase.step == ACTIVATE
    state, _ = play(state, "A", activate("a1"))
    assert state.phase.step == START and decision_key(state, "A") == key
    state, _ = play(state, "A", {"type": "move", "ship": "a1", "orders": null_orders("cinematic")})
    assert state.phase.step == AFTER_MOVE and decision_key(state, "A") == key


def test_a_move_off_the_table_leaves_rather_than_stalls() -> None:
    # a1 at the edge heading off it at speed 4: null orders alone are illegal there
    state = setup_game(placements={"a1": (36.0, 47.5, 0, 4)}, first="A")
    state, _ = play(state, "A", activate("a1"))
    command, after = _first(state, "A")
    assert command["orders"].get("leave") is True
    assert after.ship("a1").status == "left"


def test_a_fire_window_holds_fire() -> None:
    state = setup_game(placements={"a1": (36.0, 20.0, 0, 0), "b1": (36.0, 26.0, 6, 0)}, first="A")
    state, _ = play(state, "A", ping("a1"), [6, 6, 6, 6], all_dice=False)
    assert state.phase.step == FIRE
    for side in state.phase.awaiting:
        assert decision_key(state, side) == f"fire:{state.phase.window}"
        (command,) = default_commands(state, side)
        assert command == {"type": "fire", "window": state.phase.window, "shots": []}


def test_a_defence_window_plays_the_default_allocation() -> None:
    state = opened(defence_game())
    assert state.phase.step == DEFEND and state.phase.defence is not None
    assert decision_key(state, "B") == f"defend:{state.phase.defence.window}"
    (command,) = default_commands(state, "B")
    assert command["type"] == "defend" and command["window"] == state.phase.defence.window
    assert command["allocations"] == default_allocation(state, "B", state.phase.defence.attacks)
    assert default_commands(state, "A") == []  # not awaited


def test_the_fighters_step_attacks_nothing() -> None:
    placements = {"a1": (30.0, 10.0, 0, 0), "b1": (30.0, 26.0, 6, 0)}
    state, _ = setup_log([carrier()], [gunship("target")], placements=placements)
    state, _ = play(state, "A", activate("a1"))
    state, _ = play(
        state, "A", markers_cmd(launch=[{"bay": "bay-1", "to": {"x": 30.0, "y": 21.0}}])
    )
    assert state.phase.step == Step.FIGHTERS
    command, after = _first(state, "A")
    assert command == {"type": "fighters", "choices": [{"marker": group(state).id, "attack": None}]}
    assert after.phase.step != Step.FIGHTERS


def test_nothing_is_played_for_a_side_the_game_does_not_await() -> None:
    state = setup_game(first="A")
    assert default_commands(state, "B") == []
    assert decision_key(state, "B") is None


def test_decision_keys_ignore_hidden_positions() -> None:
    one = setup_game(placements={"a1": (10.0, 4.0, 0, 0)}, first="A")
    two = setup_game(placements={"a1": (60.0, 30.0, 3, 2)}, first="A")
    for side in ("A", "B"):
        assert decision_key(one, side) == decision_key(two, side)


def test_a_played_timeout_replays() -> None:
    state, log = setup_log(first="A")
    for _ in range(3):
        for command in default_commands(state, "A"):
            decision = decide(state, "A", command, ScriptedDice([]))
            log += decision.events
            state = decision.state
            break
    assert replay(log) == state
