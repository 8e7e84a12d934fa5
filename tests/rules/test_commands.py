"""Commands: strict parsing (app/rules/commands.py) and the gates of ``decide`` (API.md Commands).

Every refusal has a stable ``code``, a ``kind`` (conflict 409, illegal 422, forbidden 403) and a
message that says what to do instead. A refused command changes nothing and draws no dice.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import (
    GameSetup,
    ScriptedDice,
    ShipEntry,
    check_at_seq,
    decide,
    game_started,
    start_state,
)
from app.rules.commands import (
    COMMAND_TYPES,
    Activate,
    CoreAction,
    Deploy,
    EndActivation,
    Fire,
    Move,
    Ping,
    Resign,
    parse_command,
)
from app.rules.designs import preset
from app.rules.errors import RulesError
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
    ping,
    play,
    resign,
    setup_game,
    with_ship,
    with_system,
)


def refused(
    state: GameState, seat: str, command: Any, code: str, kind: str | None = None
) -> RulesError:
    """``decide`` must refuse with this code, drawing no dice."""
    dice = ScriptedDice([1, 2, 3, 4, 5, 6] * 4)
    with pytest.raises(RulesError) as caught:
        decide(state, seat, command, dice)
    err = caught.value
    assert err.code == code, f"{err.code}: {err.detail}"
    if kind is not None:
        assert err.kind == kind
    assert dice.requested == [], "a refused command drew dice"
    assert err.detail and str(err) == err.detail
    return err


def parse_error(data: Any, movement: str = "cinematic", code: str = "invalid_command") -> str:
    with pytest.raises(RulesError) as caught:
        parse_command(data, movement)
    assert caught.value.code == code, caught.value.detail
    assert caught.value.kind == "illegal"
    return caught.value.detail


# -- parse_command: the good forms ---------------------------------------------------------------
GOOD: list[tuple[dict[str, Any], type]] = [
    ({"type": "activate", "ship": "a1"}, Activate),
    ({"type": "ping", "ship": "a1"}, Ping),
    ({"type": "end_activation", "ship": "a1"}, EndActivation),
    ({"type": "move", "ship": "a1", "orders": {"speed_change": 1, "turn": -1}}, Move),
    (
        {"type": "move", "ship": "a1", "orders": {"speed_change": 0, "turn": 0, "leave": True}},
        Move,
    ),
    ({"type": "fire", "window": 12, "shots": []}, Fire),
    (
        {
            "type": "fire",
            "window": 12,
            "shots": [{"ship": "a1", "weapon": "beam-1", "target": "b1"}],
        },
        Fire,
    ),
    ({"type": "core_action", "ship": "a1", "action": "dump"}, CoreAction),
    ({"type": "core_action", "ship": "a1", "action": "abandon"}, CoreAction),
    ({"type": "resign"}, Resign),
    (
        {
            "type": "deploy",
            "ships": [{"ship": "a1", "position": {"x": 1, "y": 2.5}, "heading": 3, "speed": 2}],
        },
        Deploy,
    ),
]


@pytest.mark.parametrize(
    ("data", "cls"), GOOD, ids=lambda v: v["type"] if isinstance(v, dict) else None
)
def test_good_commands_parse_and_round_trip(data: dict[str, Any], cls: type) -> None:
    cmd = parse_command(data, "cinematic")
    assert isinstance(cmd, cls)
    back = cmd.to_dict()
    if data["type"] == "deploy":
        # numbers come back as floats
        assert back["ships"][0]["position"] == {"x": 1.0, "y": 2.5}
        assert parse_command(back, "cinematic") == cmd
    elif data["type"] == "move":
        assert parse_command(back, "cinematic") == cmd
        assert back["orders"]["speed_change"] == data["orders"]["speed_change"]
    else:
        assert back == data


def test_vector_deploy_takes_velocity_not_speed() -> None:
    placement = {"ship": "a1", "position": {"x": 1, "y": 2}, "heading": 0}
    cmd = parse_command(
        {"type": "deploy", "ships": [{**placement, "velocity": {"x": 1, "y": -2}}]}, "vector"
    )
    assert isinstance(cmd, Deploy)
    assert cmd.ships[0].velocity is not None and cmd.ships[0].speed is None
    assert "missing field 'velocity'" in parse_error(
        {"type": "deploy", "ships": [{**placement, "speed": 2}]}, "vector"
    )
    assert "missing field 'speed'" in parse_error(
        {"type": "deploy", "ships": [{**placement, "velocity": {"x": 0, "y": 0}}]}
    )


def test_vector_move_orders() -> None:
    cmd = parse_command(
        {"type": "move", "ship": "a1", "orders": {"rotate": -2, "thrust": 3}}, "vector"
    )
    assert isinstance(cmd, Move)
    parse_error(
        {"type": "move", "ship": "a1", "orders": {"speed_change": 0, "turn": 0}},
        "vector",
        code="illegal_orders",
    )


# -- parse_command: strictness -------------------------------------------------------------------
@pytest.mark.parametrize("data", [None, [], "resign", 3, True])
def test_a_command_is_an_object(data: Any) -> None:
    assert "JSON object with a 'type'" in parse_error(data)


@pytest.mark.parametrize("kind", ["jump", "", "Resign", "fire ", None, 5, True, ["ping"]])
def test_unknown_type_lists_the_known_ones(kind: Any) -> None:
    detail = parse_error({"type": kind, "ship": "a1"})
    assert f"unknown command type {kind!r}" in detail
    for known in COMMAND_TYPES:
        assert known in detail


def test_missing_type() -> None:
    assert "unknown command type None" in parse_error({"ship": "a1"})


@pytest.mark.parametrize(
    ("data", "missing"),
    [
        ({"type": "activate"}, "'ship'"),
        ({"type": "ping"}, "'ship'"),
        ({"type": "end_activation"}, "'ship'"),
        ({"type": "move", "ship": "a1"}, "'orders'"),
        ({"type": "move"}, "'orders', 'ship'"),
        ({"type": "fire", "shots": []}, "'window'"),
        ({"type": "fire", "window": 3}, "'shots'"),
        ({"type": "core_action", "ship": "a1"}, "'action'"),
        ({"type": "deploy"}, "'ships'"),
    ],
)
def test_missing_fields_are_named(data: dict[str, Any], missing: str) -> None:
    detail = parse_error(data)
    assert detail == f"{data['type']}: missing field {missing}"


@pytest.mark.parametrize(
    ("data", "extra"),
    [
        ({"type": "resign", "side": "A"}, "'side'"),
        ({"type": "activate", "ship": "a1", "orders": {}}, "'orders'"),
        ({"type": "ping", "ship": "a1", "target": "b1"}, "'target'"),
        ({"type": "fire", "window": 3, "shots": [], "ship": "a1", "all": True}, "'all', 'ship'"),
        ({"type": "core_action", "ship": "a1", "action": "dump", "now": 1}, "'now'"),
        ({"type": "resign", "at_seq": 4}, "'at_seq'"),  # the caller strips at_seq first
    ],
)
def test_extra_fields_are_named(data: dict[str, Any], extra: str) -> None:
    assert parse_error(data) == f"{data['type']}: unknown field {extra}"


@pytest.mark.parametrize("ship", [1, 1.0, True, None, "", ["a1"], {"id": "a1"}])
def test_ship_id_must_be_a_non_empty_string(ship: Any) -> None:
    for kind in ("activate", "ping", "end_activation"):
        detail = parse_error({"type": kind, "ship": ship})
        assert f"'ship' must be a non-empty string, got {ship!r}" in detail
        assert detail.startswith(kind)


@pytest.mark.parametrize("window", [True, False, 3.0, 3.5, "3", None, [3]])
def test_fire_window_must_be_a_whole_number(window: Any) -> None:
    detail = parse_error({"type": "fire", "window": window, "shots": []})
    assert detail == f"fire: 'window' must be a whole number, got {window!r}"


@pytest.mark.parametrize("shots", [None, {}, "a1", 3, ({"ship": "a1"},)])
def test_fire_shots_must_be_a_list(shots: Any) -> None:
    assert "'shots' must be a list (empty to hold fire)" in parse_error(
        {"type": "fire", "window": 3, "shots": shots}
    )


@pytest.mark.parametrize(
    ("shot", "says"),
    [
        ("a1", "shots[1] must be an object"),
        ({"ship": "a1", "weapon": "beam-1"}, "shots[1]: missing field 'target'"),
        (
            {"ship": "a1", "weapon": "beam-1", "target": "b1", "aim": "x"},
            "not both",
        ),
        (
            {"ship": "a1", "weapon": "beam-1", "target": "b1", "system": ""},
            "'system' must be a non-empty",
        ),
        ({"ship": "a1", "weapon": 1, "target": "b1"}, "shots[1]: 'weapon' must be a non-empty"),
        ({"ship": "a1", "weapon": "beam-1", "target": True}, "'target' must be a non-empty"),
    ],
)
def test_each_shot_is_checked(shot: Any, says: str) -> None:
    good = {"ship": "a1", "weapon": "beam-1", "target": "b1"}
    assert says in parse_error({"type": "fire", "window": 3, "shots": [good, shot]})


@pytest.mark.parametrize("action", ["explode", "DUMP", "", 1, None, True])
def test_core_action_names_its_two_actions(action: Any) -> None:
    detail = parse_error({"type": "core_action", "ship": "a1", "action": action})
    if isinstance(action, str) and action:
        assert detail == f"core_action: 'action' must be 'dump' or 'abandon', not {action!r}"
    else:
        assert "'action' must be a non-empty string" in detail


@pytest.mark.parametrize(
    ("placement", "says"),
    [
        ("a1", "ships[0] must be an object"),
        ({"ship": "a1", "position": {"x": 1, "y": 2}, "heading": 0}, "missing field 'speed'"),
        (
            {"ship": "a1", "position": {"x": 1, "y": 2}, "heading": True, "speed": 0},
            "'heading' must be a whole number, got True",
        ),
        (
            {"ship": "a1", "position": {"x": 1, "y": 2}, "heading": 0, "speed": 2.0},
            "'speed' must be a whole number, got 2.0",
        ),
        (
            {"ship": "a1", "position": {"x": 1}, "heading": 0, "speed": 0},
            '\'position\' must be an object {"x": number, "y": number}',
        ),
        (
            {"ship": "a1", "position": {"x": 1, "y": 2, "z": 0}, "heading": 0, "speed": 0},
            "'position' must be an object",
        ),
        (
            {"ship": "a1", "position": [1, 2], "heading": 0, "speed": 0},
            "'position' must be an object",
        ),
        (
            {"ship": "a1", "position": {"x": True, "y": 2}, "heading": 0, "speed": 0},
            "position.x must be a finite number, got True",
        ),
        (
            {"ship": "a1", "position": {"x": 1, "y": float("nan")}, "heading": 0, "speed": 0},
            "position.y must be a finite number",
        ),
        (
            {"ship": "a1", "position": {"x": float("inf"), "y": 1}, "heading": 0, "speed": 0},
            "position.x must be a finite number",
        ),
        (
            {"ship": "a1", "position": {"x": "1", "y": 2}, "heading": 0, "speed": 0},
            "position.x must be a finite number, got '1'",
        ),
        (
            {"ship": 7, "position": {"x": 1, "y": 2}, "heading": 0, "speed": 0},
            "'ship' must be a non-empty string, got 7",
        ),
    ],
)
def test_each_placement_is_checked(placement: Any, says: str) -> None:
    detail = parse_error({"type": "deploy", "ships": [placement]})
    assert detail.startswith("ships[0]")
    assert says in detail


def test_deploy_ships_must_be_a_list() -> None:
    assert parse_error({"type": "deploy", "ships": {"a1": {}}}) == (
        "deploy: 'ships' must be a list of placements"
    )


@pytest.mark.parametrize(
    ("orders", "says"),
    [
        ("forward", "'orders' must be an object"),
        (None, "'orders' must be an object"),
        ({"speed_change": 1}, "missing field 'turn'"),
        ({"speed_change": 1, "turn": 0, "warp": 9}, "unknown field 'warp'"),
        ({"speed_change": True, "turn": 0}, "'speed_change' must be a whole number"),
        ({"speed_change": 0, "turn": 1.0}, "'turn' must be a whole number"),
        ({"speed_change": 0, "turn": 0, "leave": 1}, "'leave' must be true or false"),
    ],
)
def test_bad_orders_are_illegal_orders(orders: Any, says: str) -> None:
    detail = parse_error({"type": "move", "ship": "a1", "orders": orders}, code="illegal_orders")
    assert says in detail


# -- decide: who may send commands -----------------------------------------------------------
@pytest.mark.parametrize("seat", ["referee", "spectator", "C", ""])
@pytest.mark.parametrize(
    "command",
    [resign(), activate("a1"), move("a1"), ping("a1"), {"type": "fire", "window": 1, "shots": []}],
    ids=lambda c: c["type"],
)
def test_only_player_seats_send_game_commands(seat: str, command: dict[str, Any]) -> None:
    state = setup_game()
    err = refused(state, seat, command, "not_your_ship", "forbidden")
    assert "only the players' seats A and B" in err.detail


def test_referee_cannot_deploy() -> None:
    state, _ = new_game()
    refused(state, "referee", deploy_command(state, "A", {"a1": (1, 1, 0, 0)}), "not_your_ship")


def test_the_seat_gate_comes_before_parsing() -> None:
    # a referee's malformed command still gets the seat's answer, not a parse error
    refused(setup_game(), "spectator", {"type": "jump"}, "not_your_ship", "forbidden")


def test_malformed_command_from_a_player() -> None:
    err = refused(setup_game(), "A", {"type": "jump"}, "invalid_command", "illegal")
    assert "unknown command type 'jump'" in err.detail


def test_acting_for_the_other_sides_ship_is_forbidden() -> None:
    state = setup_game(first="A")
    for command in (activate("b1"), move("b1"), ping("b1")):
        err = refused(state, "A", command, "not_your_ship", "forbidden")
        assert err.detail == "B1 belongs to side B"


def test_deploying_the_other_sides_ship_is_forbidden() -> None:
    state, _ = new_game()
    command = {
        "type": "deploy",
        "ships": [{"ship": "b1", "position": {"x": 5, "y": 5}, "heading": 0, "speed": 0}],
    }
    refused(state, "A", command, "not_your_ship", "forbidden")


def test_core_action_for_an_enemy_ship_is_forbidden() -> None:
    state = with_system(setup_game(), "b1", "core", "damaged")
    refused(state, "A", {"type": "core_action", "ship": "b1", "action": "dump"}, "not_your_ship")


def test_unknown_ship() -> None:
    err = refused(setup_game(), "A", activate("a9"), "unknown_ship", "illegal")
    assert err.detail == "there is no ship 'a9' in this game"


# -- decide: whose turn, which step ---------------------------------------------------------------
def test_not_your_turn_names_the_active_side() -> None:
    state = setup_game(first="A")
    for command in (activate("b1"), move("b1"), ping("b1"), end("b1")):
        err = refused(state, "B", command, "not_your_turn", "conflict")
        assert err.detail == "it is side A's activation"


def test_not_your_turn_while_the_other_side_activates_a_ship() -> None:
    state, _ = play(setup_game(first="B"), "B", activate("b1"))
    refused(state, "A", move("a1"), "not_your_turn")


def test_commands_during_deployment_are_the_wrong_step() -> None:
    state, _ = new_game()
    for command in (activate("a1"), move("a1"), ping("a1"), end("a1")):
        err = refused(state, "A", command, "wrong_step", "conflict")
        assert "the game is in deployment" in err.detail
        assert "after both sides deploy" in err.detail
    err = refused(state, "A", fire(2), "stale_state")
    assert err.detail == "fire window 2 is closed: no fire window is open now"
    err = refused(state, "A", {"type": "core_action", "ship": "a1", "action": "dump"}, "wrong_step")
    assert "during deployment" in err.detail


def test_deploying_twice_and_after_deployment() -> None:
    state, _ = new_game()
    placements = {"a1": (1.0, 1.0, 0, 0), "b1": (1.0, 47.0, 6, 0)}
    state, _ = play(state, "A", deploy_command(state, "A", placements))
    err = refused(state, "A", deploy_command(state, "A", placements), "wrong_step")
    assert err.detail == "side A has already deployed"
    state, _ = play(state, "B", deploy_command(state, "B", placements), [6, 1])
    err = refused(state, "B", deploy_command(state, "B", placements), "wrong_step")
    assert err.detail == "deployment is over"


def test_activate_while_a_ship_is_activating_says_what_is_due() -> None:
    state = setup_game(["scout", "scout"], ["scout", "scout"], first="A")
    state, _ = play(state, "A", activate("a1"))
    err = refused(state, "A", activate("a2"), "wrong_step")
    assert err.detail == (
        "activate is not allowed now: A1 is activating (start); ping or move the activating ship"
    )


def test_end_activation_before_the_move() -> None:
    state, _ = play(setup_game(), "A", activate("a1"))
    err = refused(state, "A", end("a1"), "wrong_step")
    assert err.detail == "move first: end_activation comes after the move"


def test_end_activation_with_no_ship_named() -> None:
    err = refused(setup_game(), "A", end("a1"), "wrong_step")
    assert "end_activation is not allowed now" in err.detail
    assert "name a ship with activate, ping or move" in err.detail


def test_moving_twice() -> None:
    state, _ = play(setup_game(), "A", move("a1"))
    err = refused(state, "A", move("a1"), "wrong_step")
    assert err.detail == "the activating ship has already moved: ping or end the activation"


def test_pinging_twice_the_move_is_due() -> None:
    state = setup_game(["scout"], ["frigate"])  # the frigate's ECM: 1 ECM die counts
    state = with_ship(state, "b1", overwatch=False)
    state, _ = play(state, "A", ping("a1"), [1, 1, 6, 6])  # a miss: b1 stays hidden
    assert state.phase.step == "after_ping"  # nobody could fire: the window closed at once
    err = refused(state, "A", ping("a1"), "wrong_step")
    assert err.detail == (
        "ping is not allowed now: A1 is activating (after ping); the activating ship must move now"
    )


def test_pinging_after_pinging_after_the_move() -> None:
    state = setup_game(["scout", "scout"], ["frigate", "frigate"])
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", ping("a1"), [1, 1, 6, 6, 1, 1, 6, 6])
    # nobody live for A, but a1 is live and B's frigates are on overwatch
    assert state.phase.step == "fire" and state.phase.awaiting == ("B",)
    err = refused(state, "A", ping("a1"), "not_your_turn")
    assert err.detail == f"fire window {state.phase.window} waits for side B"


def test_the_awaited_side_is_told_to_declare_fire() -> None:
    state = setup_game(["scout", "scout"], ["frigate", "frigate"])
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", ping("a1"), [1, 1, 6, 6, 1, 1, 6, 6])
    window = state.phase.window
    for command in (activate("b1"), move("b1"), ping("b1")):
        err = refused(state, "B", command, "wrong_step")
        assert err.detail == f"fire window {window} is open: send your fire declaration"


def test_a_side_not_awaited_cannot_declare() -> None:
    state = setup_game(["scout", "scout"], ["frigate", "frigate"])
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", ping("a1"), [1, 1, 6, 6, 1, 1, 6, 6])
    err = refused(state, "A", hold(state), "wrong_step")
    assert err.detail == "side A has no ship allowed to fire in this window"


def test_declaring_twice() -> None:
    state = setup_game()
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", ping("a1"), [6, 6, 1, 1])
    assert state.phase.awaiting == ("A", "B")
    state, _ = play(state, "B", hold(state))
    err = refused(state, "B", hold(state), "wrong_step")
    assert err.detail == "side B has already declared its fire for this window"


def test_a_declaration_for_a_closed_window_is_stale() -> None:
    state = setup_game()
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", ping("a1"), [6, 6, 1, 1])
    window = state.phase.window
    assert window is not None
    err = refused(state, "B", fire(window - 1), "stale_state", "conflict")
    assert err.detail == f"fire window {window - 1} is closed; the open window is {window}"
    refused(state, "B", fire(window + 5), "stale_state")


def test_game_finished_refuses_everything() -> None:
    state, _ = play(setup_game(), "B", resign())
    assert state.status == "finished"
    for seat in ("A", "B", "referee", "spectator"):
        for command in (resign(), activate("a1"), {"type": "jump"}):
            err = refused(state, seat, command, "game_finished", "conflict")
            assert err.detail == "the game is over"


def test_check_at_seq() -> None:
    state = setup_game()
    check_at_seq(state, None)
    check_at_seq(state, state.seq)
    for at_seq in (state.seq - 1, state.seq + 1, 0):
        with pytest.raises(RulesError) as caught:
            check_at_seq(state, at_seq)
        assert caught.value.code == "stale_state"
        assert caught.value.kind == "conflict"
        assert caught.value.detail == (
            f"the game has moved on to seq {state.seq} since seq {at_seq}; re-fetch"
        )


# -- decide: which ship ---------------------------------------------------------------------
def test_only_the_activating_ship_acts() -> None:
    state = setup_game(["scout", "scout"], ["scout", "scout"])
    state, _ = play(state, "A", activate("a1"))
    err = refused(state, "A", move("a2"), "invalid_command")
    assert err.detail == "A1 is activating, not A2"
    err = refused(state, "A", ping("a2"), "invalid_command")
    assert err.detail == "A1 is activating, not A2"


def test_a_ship_activates_once_per_turn() -> None:
    state = setup_game(["scout", "scout"], ["scout"])
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", end("a1"))
    state, _ = play(state, "B", move("b1"))
    state, _ = play(state, "B", end("b1"))
    assert state.phase.side == "A"
    for command in (activate("a1"), move("a1"), ping("a1")):
        err = refused(state, "A", command, "already_activated")
        assert err.detail == "A1 has already activated this turn"


def test_a_ship_out_of_play_cannot_activate() -> None:
    state = setup_game(["scout", "scout"], ["scout"])
    state = with_ship(state, "a1", status="destroyed")
    for command in (activate("a1"), move("a1"), ping("a1")):
        err = refused(state, "A", command, "ship_not_in_play")
        assert err.detail == "A1 is destroyed"


def test_an_out_of_control_ship_can_only_be_activated() -> None:
    state = with_ship(setup_game(["scout", "scout"], ["scout"]), "a1", out_of_control=2)
    for command in (move("a1"), ping("a1")):
        err = refused(state, "A", command, "out_of_control", "conflict")
        assert err.detail == "A1 is out of control: name it with activate to drift it"
    state, events = play(state, "A", activate("a1"))
    assert [e.type for e in events] == ["activation_started", "ship_moved", "activation_ended"]
    assert events[1].data["drift"] is True
    # one of the two activations it drifts through (RULES §8)
    assert events[2].data == {
        "ship": "a1",
        "overwatch": False,
        "reason": "out_of_control",
        "out_of_control": 1,
    }


# -- decide: deployment checks ------------------------------------------------------------------
def _deploy(ships: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "deploy", "ships": ships}


def _placed(ship: str = "a1", x: float = 5, y: float = 5, heading: int = 0, speed: int = 0) -> Any:
    return {"ship": ship, "position": {"x": x, "y": y}, "heading": heading, "speed": speed}


def test_deployment_checks() -> None:
    setup = GameSetup(
        ships={
            "A": [ShipEntry("Vigilant", preset("scout")), ShipEntry("Wary", preset("scout"))],
            "B": [ShipEntry("Shade", preset("scout"))],
        }
    )
    state = start_state(game_started("g", setup))
    err = refused(state, "A", _deploy([_placed("a1", 36, 9), _placed("a2")]), "out_of_zone")
    assert err.detail == ("Vigilant at (36, 9) is outside your deployment zone x 0–72, y 0–8")
    err = refused(
        state, "A", _deploy([_placed("a1", heading=12), _placed("a2")]), "invalid_command"
    )
    assert err.detail == "Vigilant: heading must be a clock point 0..11, not 12"
    err = refused(state, "A", _deploy([_placed("a1", speed=17), _placed("a2")]), "illegal_orders")
    assert err.detail == "Vigilant: starting speed 17 must be 0..16 (twice its thrust)"
    refused(state, "A", _deploy([_placed("a1", speed=-1), _placed("a2")]), "illegal_orders")
    err = refused(state, "A", _deploy([_placed("a1"), _placed("a1")]), "invalid_command")
    assert err.detail == "Vigilant is placed twice"
    err = refused(state, "A", _deploy([_placed("a1")]), "invalid_command")
    assert err.detail == "deploy every ship of your side: missing Wary"
    # the zone's edges are inside it
    state, events = play(state, "A", _deploy([_placed("a1", 0, 8), _placed("a2", 72, 0, 11, 16)]))
    assert [e.type for e in events] == ["deployed"]


def test_core_action_needs_a_critical_core() -> None:
    state = setup_game(["scout", "scout"], ["scout"])
    err = refused(
        state, "A", {"type": "core_action", "ship": "a1", "action": "dump"}, "no_critical_core"
    )
    assert err.detail == "A1's power core is not critical"


def test_refusals_leave_fire_windows_open() -> None:
    # a bad declaration changes nothing: the side is still awaited and may try again
    state = setup_game([gunship()], [gunship()])
    state = live(state, "b1")
    state, _ = play(state, "A", ping("a1"), [6, 1, 1])
    assert state.phase.awaiting == ("A", "B")
    refused(state, "A", fire(state.phase.window, ("a1", "beam-9", "b1")), "unknown_weapon")
    assert state.phase.awaiting == ("A", "B")
    state, events = play(state, "A", fire(state.phase.window, ("a1", "beam-1", "b1")))
    assert [e.type for e in events] == ["fire_declared"]
