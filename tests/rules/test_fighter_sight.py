"""Line of sight, ping detection and the fighters step (issue 13; decisions F5, F6): what a
group reveals after its step 2, how the step opens from public facts only, and the ``fighters``
command's checks and attacks, through ``decide``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.rules import view
from app.rules.errors import BadTargetSystem, InvalidCommand, UnknownMarker, WrongStep
from app.rules.geometry import Vec
from app.rules.state import GameState, MarkerState, Step
from tests.rules.fighter_setup import (
    carrier,
    carrier_game,
    group,
    launch,
    launched_last_turn,
    markers_cmd,
    with_marker,
)
from tests.rules.helpers import at, move, only, ping, play, setup_game, types


def enemy_group(
    state: GameState, x: float, y: float, marker: str = "m-bbbbbbbbbbbb", **kw: Any
) -> GameState:
    """B's fighter group (as if b1 had launched it) at (x, y)."""
    m = MarkerState(
        id=marker,
        side="B",
        mother="b1",
        kind="fighters",
        position=Vec(x, y),
        aim=Vec(x, y),
        launched_turn=0,
        launched_seq=0,
        strength=6,
        acts_turn=1,
        group="standard",
        bay="bay-1",
        cef=6,
        **kw,
    )
    return replace(state, markers=(*state.markers, m))


def test_a_launch_near_an_enemy_ship_reveals_it_and_opens_the_fighters_step() -> None:
    state, events = launch(carrier_game(b_at=(30.0, 26.0)), to=(30.0, 21.0))
    assert types(events)[-2:] == ["ship_revealed", "fighters_step"]
    reveal = only(events, "ship_revealed").data
    assert (reveal["ship"], reveal["cause"]) == ("b1", "fighters")
    assert only(events, "fighters_step").data == {"ship": "a1", "held": []}
    assert state.phase.step == Step.FIGHTERS
    legal = view(state, "A")["phase"]["legal"]
    assert legal["commands"] == ["fighters", "resign"]
    assert legal["fighters"] == [{"marker": group(state).id, "targets": ["b1"]}]
    assert view(state, "B")["phase"]["awaiting"] == ["A"]
    assert "fighters" not in view(state, "B")["phase"]["legal"]["commands"]


def test_nothing_in_sight_no_fighters_step() -> None:
    state, events = launch(carrier_game(b_at=(30.0, 40.0)), to=(30.0, 22.0))
    assert "fighters_step" not in types(events) and "ship_revealed" not in types(events)
    assert (
        state.phase.step == Step.START and "move" in view(state, "A")["phase"]["legal"]["commands"]
    )


def test_line_of_sight_is_six_mu_shrunk_by_stealth() -> None:
    stealthy = replace(carrier("stealthy"), stealth=1)
    # 5.5 mu is within 6 but beyond a stealth-1 ship's 5
    _, events = launch(carrier_game(b_at=(30.0, 27.5), b_design=stealthy), to=(30.0, 22.0))
    assert "ship_revealed" not in types(events)
    _, events = launch(carrier_game(b_at=(30.0, 27.5)), to=(30.0, 22.0))
    assert "ship_revealed" in types(events)


def test_a_group_in_sight_is_sighted_publicly_with_its_public_fields() -> None:
    state = enemy_group(carrier_game(b_at=(30.0, 40.0)), 34.0, 22.0)
    state, events = launch(state, to=(30.0, 22.0))
    sighted = only(events, "fighters_sighted").data
    assert sighted == {
        "cause": "sight",
        "side": "A",
        "groups": [
            {
                "marker": "m-bbbbbbbbbbbb",
                "kind": "fighters",
                "side": "B",
                "strength": 6,
                "position": {"x": 34.0, "y": 22.0},
            }
        ],
    }
    shown = [m for m in view(state, "A")["markers"] if m["side"] == "B"]
    assert shown == [
        {
            "id": "m-bbbbbbbbbbbb",
            "side": "B",
            "kind": "fighters",
            "strength": 6,
            "position": {"x": 34.0, "y": 22.0},
            "live": True,
            "engaged_with": None,
        }
    ]
    assert view(state, "A")["phase"]["legal"]["fighters"][0]["targets"] == ["m-bbbbbbbbbbbb"]


def test_a_ping_finds_enemy_groups_in_ping_range() -> None:
    placements = {"a1": (30.0, 10.0, 0, 0), "b1": (30.0, 40.0, 6, 0)}
    state = setup_game([carrier()], ["scout"], placements=placements, ping_range=20.0)
    state, _ = launch(state, to=(30.0, 22.0))  # 18 mu from b1: in range
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", {"type": "end_activation", "ship": "a1"})
    state, events = play(state, "B", ping("b1"), [6] * 10, all_dice=False)
    sighted = only(events, "fighters_sighted").data
    assert (sighted["cause"], sighted["by"], [g["marker"] for g in sighted["groups"]]) == (
        "ping",
        "b1",
        [group(state).id],
    )
    assert group(state).live
    assert types(events).index("fighters_sighted") > types(events).index("ping")


def test_a_ping_out_of_range_finds_no_group() -> None:
    placements = {"a1": (30.0, 10.0, 0, 0), "b1": (30.0, 40.0, 6, 0)}
    state = setup_game([carrier()], ["scout"], placements=placements, ping_range=12.0)
    state, _ = launch(state, to=(30.0, 22.0))
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", {"type": "end_activation", "ship": "a1"})
    state, events = play(state, "B", ping("b1"), [6] * 10, all_dice=False)
    assert "fighters_sighted" not in types(events) and not group(state).live


def test_a_live_group_is_forgotten_at_its_mothers_next_activation() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state)
    state = with_marker(state, g.id, live=True)
    state, _ = play(state, "A", move("a1"))
    assert not group(state).live


def _step(state: GameState) -> tuple[GameState, str]:
    """A's group launched next to b1: the fighters step is open."""
    state, _ = launch(state, to=(30.0, 21.0))
    assert state.phase.step == Step.FIGHTERS
    return state, group(state).id


def test_every_group_must_choose() -> None:
    state, _ = _step(carrier_game(b_at=(30.0, 26.0)))
    with pytest.raises(InvalidCommand, match="missing m-"):
        play(state, "A", {"type": "fighters", "choices": []})
    with pytest.raises(UnknownMarker):
        play(state, "A", {"type": "fighters", "choices": [{"marker": "m-nope", "attack": None}]})


def test_a_target_out_of_sight_is_refused() -> None:
    state, g = _step(carrier_game(b_at=(30.0, 26.0)))
    with pytest.raises(InvalidCommand, match="its targets now are b1"):
        play(state, "A", {"type": "fighters", "choices": [{"marker": g, "attack": "a1"}]})


def test_a_non_multirole_group_takes_no_mode_and_a_non_needle_no_system() -> None:
    state, g = _step(carrier_game(b_at=(30.0, 26.0)))
    with pytest.raises(InvalidCommand, match="not multi-role"):
        play(
            state,
            "A",
            {"type": "fighters", "choices": [{"marker": g, "attack": "b1", "mode": "pd"}]},
        )
    with pytest.raises(BadTargetSystem, match="only needle groups"):
        choice = {"marker": g, "attack": "b1", "system": "sensors"}
        play(state, "A", {"type": "fighters", "choices": [choice]})


def test_a_needle_group_names_a_system_type_of_its_target() -> None:
    state, g = _step(carrier_game(b_at=(30.0, 26.0), fighters="needle"))
    with pytest.raises(BadTargetSystem, match="one of beam, fire_control, main_drive, sensors"):
        play(state, "A", {"type": "fighters", "choices": [{"marker": g, "attack": "b1"}]})
    with pytest.raises(BadTargetSystem, match="no system of type 'pds'"):
        choice = {"marker": g, "attack": "b1", "system": "pds"}
        play(state, "A", {"type": "fighters", "choices": [choice]})


def test_a_multirole_group_must_choose_a_mode() -> None:
    state, g = _step(carrier_game(b_at=(30.0, 26.0), fighters="multi"))
    with pytest.raises(InvalidCommand, match="choose a mode"):
        play(state, "A", {"type": "fighters", "choices": [{"marker": g, "attack": "b1"}]})


def test_choosing_no_attack_goes_back_to_the_activation() -> None:
    state, g = _step(carrier_game(b_at=(30.0, 26.0)))
    state, events = play(
        state, "A", {"type": "fighters", "choices": [{"marker": g, "attack": None}]}
    )
    assert types(events) == ["fighters_chosen"]
    assert state.phase.step == Step.START and state.phase.fighters is None
    state, events = play(state, "A", move("a1"))
    assert "ship_moved" in types(events)


def test_an_attack_run_goes_to_the_defence_window() -> None:
    state, g = _step(carrier_game(b_at=(30.0, 26.0), b_design="frigate"))
    state, events = play(
        state, "A", {"type": "fighters", "choices": [{"marker": g, "attack": "b1"}]}
    )
    assert types(events)[:2] == ["fighters_chosen", "defence_window"]
    window = only(events, "defence_window").data
    assert window["attacks"] == [{"marker": g, "side": "A", "kind": "fighters", "target": "b1"}]


def test_the_fighters_command_outside_its_step_is_refused() -> None:
    state = carrier_game()
    with pytest.raises(WrongStep):
        play(state, "A", {"type": "fighters", "choices": []})


def test_standing_orders_never_open_the_fighters_step() -> None:
    state = launched_last_turn(carrier_game())
    state = at(state, "b1", 30.0, 24.0)  # b1 came within 4 mu of the group
    state, events = play(state, "A", move("a1"))
    assert "fighters_step" not in types(events)
    assert only(events, "ship_revealed").data["cause"] == "fighters"  # it still sees
    assert "ship_moved" in types(events)


def test_an_exhausted_sighting_group_still_opens_the_step_from_the_public_reveal() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state)
    state = with_marker(state, g.id, cef=0, position=Vec(30.0, 36.0))
    state = at(state, "b1", 30.0, 40.0)
    state, _ = play(state, "A", {"type": "activate", "ship": "a1"})
    state, events = play(state, "A", markers_cmd([{"marker": g.id, "to": {"x": 30.0, "y": 36.0}}]))
    # the reveal is public; whether the group can attack (its CEF) is not: the step opens, empty
    assert "fighters_step" in types(events)
    assert view(state, "A")["phase"]["legal"]["fighters"] == []
    state, _ = play(state, "A", {"type": "fighters", "choices": []})
    assert state.phase.step == Step.START


def test_the_step_2s_salvo_waits_for_the_groups_and_goes_in_the_same_strike() -> None:
    state = carrier_game(b_at=(30.0, 26.0), b_design="frigate")
    salvo = MarkerState(
        id="m-000000000000",
        side="A",
        mother="a1",
        kind="salvo",
        position=Vec(31.0, 26.0),
        aim=Vec(31.0, 26.0),
        launched_turn=0,
        launched_seq=0,
        strength=6,
        acts_turn=1,
    )
    state = replace(state, markers=(salvo,))
    state, events = launch(state, to=(30.0, 21.0))
    opened = only(events, "fighters_step").data
    assert opened["held"] == [{"marker": salvo.id, "side": "A", "kind": "salvo", "target": "b1"}]
    assert state.phase.fighters is not None and [a.marker for a in state.phase.fighters.held] == [
        salvo.id
    ]
    assert "salvo_attack" not in types(events)
    g = group(state).id
    state, events = play(
        state, "A", {"type": "fighters", "choices": [{"marker": g, "attack": "b1"}]}
    )
    window = only(events, "defence_window").data
    # one window for both, in marker-id order: the held salvo and the group's attack run
    assert [(a["marker"], a["kind"]) for a in window["attacks"]] == [
        (salvo.id, "salvo"),
        (g, "fighters"),
    ]


def test_a_group_may_dogfight_a_sighted_enemy_group() -> None:
    state = enemy_group(carrier_game(b_at=(30.0, 40.0)), 34.0, 22.0)
    state, _ = launch(state, to=(30.0, 22.0))
    g = group(state).id
    choice = {"marker": g, "attack": "m-bbbbbbbbbbbb"}
    state, events = play(state, "A", {"type": "fighters", "choices": [choice]})
    window = only(events, "defence_window").data
    assert window["attacks"] == [
        {"marker": g, "side": "A", "kind": "dogfight", "target": "m-bbbbbbbbbbbb"}
    ]


def test_vector_movement_sees_six_mu_too() -> None:
    placements = {"a1": (30.0, 10.0, 0, 0), "b1": (30.0, 26.5, 6, 0)}
    state = setup_game([carrier()], ["scout"], placements=placements, movement="vector")
    _, events = launch(state, to=(30.0, 21.0))  # 5.5 mu: a salvo's vector lock-on is 3
    assert only(events, "ship_revealed").data["cause"] == "fighters"


def test_interceptors_see_a_ship_but_may_not_attack_it() -> None:
    """C5.0: interceptors have no anti-ship fire. The ship in sight is revealed (public), the
    step opens from that reveal, but the group has nothing to choose (found by H4's
    properties)."""
    state, events = launch(carrier_game(b_at=(30.0, 26.0), fighters="interceptor"), to=(30.0, 21.0))
    assert only(events, "ship_revealed").data["cause"] == "fighters"
    assert state.phase.step == Step.FIGHTERS
    assert view(state, "A")["phase"]["legal"]["fighters"] == []
    g = group(state).id
    with pytest.raises(InvalidCommand, match="nothing to attack"):
        play(state, "A", {"type": "fighters", "choices": [{"marker": g, "attack": "b1"}]})
