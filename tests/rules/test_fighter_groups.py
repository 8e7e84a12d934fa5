"""Fighter groups in their mother's step 2 (issue 13; decisions F1–F4, F10): bays built at the
start, launches, moves, landings and standing orders, through ``decide``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.rules import view
from app.rules.errors import InvalidCommand, OutOfRange, RulesError
from app.rules.evolve import replay
from app.rules.fighters.groups import landing_problem
from app.rules.fighters.state import BayState
from app.rules.geometry import Vec
from app.rules.snapshot import state_from_dict, state_to_dict
from tests.rules.fighter_setup import (
    carrier,
    carrier_game,
    group,
    launch,
    launched_last_turn,
    markers_cmd,
    point,
    with_marker,
)
from tests.rules.helpers import activate, move, only, play, setup_log, types, with_system


def test_bays_are_filled_from_the_design_at_the_start() -> None:
    state = carrier_game(drones="standard")
    bays = state.ship("a1").bays
    assert bays == {
        "bay-1": BayState("standard", 6, 6, 0),
        "bay-2": BayState("heavy", 6, 6, 0),
        "bay-3": BayState("standard", 6, 3, 0),  # a drone has 3 CEF fewer (C5.2)
    }
    assert state.ship("b1").bays == {}


def test_legal_offers_the_ready_bays_with_half_the_primary_move() -> None:
    state, _ = play(carrier_game(fighters="fast"), "A", activate("a1"))
    legal = view(state, "A")["phase"]["legal"]
    assert legal["launch"] == [
        {"bay": "bay-1", "group": "fast", "reach": 18.0},
        {"bay": "bay-2", "group": "heavy", "reach": 12.0},
    ]
    assert "markers" in legal["commands"]


def test_a_launch_makes_a_group_at_its_point_and_empties_the_bay() -> None:
    state, events = launch(carrier_game(), to=(30.0, 22.0))
    acted = only(events, "ordnance_acted").data["markers"]
    assert [(i["result"], i["bay"], i["group"], i["strength"], i["cef"]) for i in acted] == [
        ("launched", "bay-1", "standard", 6, 6)
    ]
    g = group(state)
    assert (g.kind, g.group, g.bay, g.strength, g.cef, g.mother) == (
        "fighters",
        "standard",
        "bay-1",
        6,
        6,
        "a1",
    )
    assert point(g.position) == (30.0, 22.0) and point(g.aim) == (30.0, 10.0)
    assert g.acts_turn == 2  # it acts again at the mother's next activation (F2)
    assert "bay-1" not in state.ship("a1").bays and state.marker_count == 1
    own = next(m for m in view(state, "A")["markers"] if m["id"] == g.id)
    assert (own["type"], own["bay"], own["cef"], own["engaged_with"]) == (
        "standard",
        "bay-1",
        6,
        None,
    )
    assert view(state, "A")["ships"][0]["bays"]["bay-1"] is None


def test_a_launch_without_a_point_stays_at_the_mother() -> None:
    state, _ = launch(carrier_game())
    assert point(group(state).position) == (30.0, 10.0)


@pytest.mark.parametrize(
    ("item", "error", "words"),
    [
        ({"bay": "beam-1"}, InvalidCommand, "no fighter or drone bay 'beam-1'"),
        ({"bay": "bay-1", "to": {"x": 30.0, "y": 22.5}}, OutOfRange, "moves up to 12 mu"),
        ({"bay": "bay-1", "to": {"x": -1.0, "y": 10.0}}, OutOfRange, "off the table"),
    ],
)
def test_a_bad_launch_is_refused(item: dict, error: type[RulesError], words: str) -> None:
    state, _ = play(carrier_game(), "A", activate("a1"))
    with pytest.raises(error, match=words):
        play(state, "A", markers_cmd(launch=[item]))


def test_one_bay_launches_once_per_activation() -> None:
    state, _ = play(carrier_game(), "A", activate("a1"))
    with pytest.raises(InvalidCommand, match="once per activation"):
        play(state, "A", markers_cmd(launch=[{"bay": "bay-1"}, {"bay": "bay-1"}]))


def test_a_damaged_bay_cannot_launch() -> None:
    state, _ = play(with_system(carrier_game(), "a1", "bay-2", "damaged"), "A", activate("a1"))
    assert [x["bay"] for x in view(state, "A")["phase"]["legal"]["launch"]] == ["bay-1"]
    with pytest.raises(InvalidCommand, match="bay-2 is damaged"):
        play(state, "A", markers_cmd(launch=[{"bay": "bay-2"}]))


def test_an_empty_bay_cannot_launch_again() -> None:
    state = launched_last_turn(carrier_game())
    state, _ = play(state, "A", activate("a1"))
    with pytest.raises(InvalidCommand, match="bay-1 is empty"):
        play(state, "A", markers_cmd(launch=[{"bay": "bay-1"}]))


def test_a_drone_bay_launches_drones_once() -> None:
    state, _ = launch(carrier_game(drones="attack"), bay="bay-3", to=(30.0, 16.0))
    g = group(state)
    assert (g.kind, g.group, g.cef) == ("drones", "attack", 3)
    assert "bay-3" not in state.ship("a1").bays


def test_a_group_moves_its_primary_move_next_turn() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state)
    state, _ = play(state, "A", activate("a1"))
    legal = view(state, "A")["phase"]["legal"]["markers"]
    assert legal == [
        {
            "marker": g.id,
            "kind": "fighters",
            "from": {"x": 30.0, "y": 20.0},
            "reach": 24.0,
            "can_land": True,
        }
    ]
    with pytest.raises(OutOfRange, match="moves up to 24 mu"):
        play(state, "A", markers_cmd([{"marker": g.id, "to": {"x": 30.0, "y": 44.5}}]))
    state, events = play(state, "A", markers_cmd([{"marker": g.id, "to": {"x": 54.0, "y": 20.0}}]))
    item = only(events, "ordnance_acted").data["markers"][0]
    assert item["result"] == "moved" and point(group(state).position) == (54.0, 20.0)


def test_a_group_lands_and_its_bay_is_ready_next_turn() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state)
    state = with_marker(state, g.id, strength=4, cef=2)
    state, _ = play(state, "A", activate("a1"))
    state, events = play(state, "A", markers_cmd([{"marker": g.id, "land": True}]))
    item = only(events, "ordnance_acted").data["markers"][0]
    assert (item["result"], item["bay"]) == ("landed", "bay-1")
    assert state.markers == ()
    # its strength kept, its CEF back in full, ready from the next turn (F3)
    assert state.ship("a1").bays["bay-1"] == BayState("standard", 4, 6, 3)


def test_landing_is_refused_too_far_from_the_mother() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state)
    state = with_marker(state, g.id, position=Vec(30.0, 40.5))  # 30.5 mu: beyond 24 + 6
    state, _ = play(state, "A", activate("a1"))
    assert view(state, "A")["phase"]["legal"]["markers"][0]["can_land"] is False
    with pytest.raises(InvalidCommand, match="lands from within 30 mu"):
        play(state, "A", markers_cmd([{"marker": g.id, "land": True}]))


def test_drones_never_land() -> None:
    state, _ = launch(carrier_game(drones="standard"), bay="bay-3")
    g = group(state)
    assert "drones never land" in (landing_problem(state, g) or "")


def test_a_landing_with_no_working_empty_bay_is_refused() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state)
    state = with_system(state, "a1", "bay-1", "damaged")  # bay-2 still holds its group
    state, _ = play(state, "A", activate("a1"))
    with pytest.raises(InvalidCommand, match="no working empty bay"):
        play(state, "A", markers_cmd([{"marker": g.id, "land": True}]))


def test_a_landing_goes_to_another_empty_bay_when_its_own_is_out() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state)
    state = state.with_ship(replace(state.ship("a1"), bays={}))  # bay-2's group lost meanwhile
    state = with_system(state, "a1", "bay-1", "destroyed")
    state, _ = play(state, "A", activate("a1"))
    state, events = play(state, "A", markers_cmd([{"marker": g.id, "land": True}]))
    assert only(events, "ordnance_acted").data["markers"][0]["bay"] == "bay-2"


def test_an_order_with_both_a_point_and_a_landing_is_refused() -> None:
    state = launched_last_turn(carrier_game())
    state, _ = play(state, "A", activate("a1"))
    order = {"marker": group(state).id, "land": True, "to": {"x": 1.0, "y": 1.0}}
    with pytest.raises(InvalidCommand, match="not both"):
        play(state, "A", markers_cmd([order]))


def test_standing_orders_keep_a_group_where_it_is() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state)
    state, events = play(state, "A", move("a1"))
    acted = only(events, "ordnance_acted").data
    assert acted["standing"] is True
    assert [(i["marker"], i["result"]) for i in acted["markers"]] == [(g.id, "stayed")]
    assert point(group(state).position) == (30.0, 20.0)
    assert "ship_moved" in types(events)  # the move is made after the step 2


def test_an_exhausted_group_on_standing_orders_flies_home_and_lands() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state)
    state = with_marker(state, g.id, cef=0, position=Vec(30.0, 42.0))
    state, events = play(state, "A", move("a1"))
    item = only(events, "ordnance_acted").data["markers"][0]
    # 32 mu away: a full move of 24 towards the mother ends 8 mu short
    assert item["result"] == "moved" and point(group(state).position) == (30.0, 18.0)
    # next step 2: within 6 mu after its move, it lands (F4)
    state, _ = play(state, "A", {"type": "end_activation", "ship": "a1"})
    state, _ = play(state, "B", move("b1"))
    state, _ = play(state, "B", {"type": "end_activation", "ship": "b1"}, [6, 1])
    state, events = play(state, "A", move("a1"))
    item = only(events, "ordnance_acted").data["markers"][0]
    assert item["result"] == "landed" and state.markers == ()


def test_the_snapshot_and_the_replay_keep_groups_and_bays() -> None:
    state, log = setup_log(
        [carrier()],
        ["scout"],
        placements={"a1": (30.0, 10.0, 0, 0), "b1": (30.0, 40.0, 6, 0)},
    )
    state, events = play(state, "A", activate("a1"))
    log += events
    state, events = play(
        state, "A", markers_cmd(launch=[{"bay": "bay-2", "to": {"x": 36.0, "y": 20.0}}])
    )
    log += events
    assert state_from_dict(state_to_dict(state)) == state
    assert replay(log) == state


def test_the_snapshot_and_the_replay_keep_the_fighters_step() -> None:
    placements = {"a1": (30.0, 10.0, 0, 0), "b1": (30.0, 26.0, 6, 0)}
    state, log = setup_log([carrier()], ["scout"], placements=placements)
    state, events = play(state, "A", activate("a1"))
    log += events
    launch = [{"bay": "bay-1", "to": {"x": 30.0, "y": 21.0}}]
    state, events = play(state, "A", markers_cmd(launch=launch))
    log += events
    assert state.phase.fighters is not None
    assert state_from_dict(state_to_dict(state)) == state
    assert replay(log) == state
