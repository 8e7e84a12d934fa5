"""Engagement (issue 13; decision F7) and the groups' end (F8, F9): an engaged group follows its
ship or loses contact, breaks off or runs out of CEF; a failed bay loses its group; a mother
leaving play takes its groups with it. Through ``decide``."""

from __future__ import annotations

from dataclasses import replace

from app.rules import ScriptedDice, view
from app.rules.builder import Builder
from app.rules.evolve import evolve
from app.rules.fighters.fold import engage
from app.rules.ordnance.loads import system_damaged
from app.rules.state import GameState, ShipStatus, Step
from tests.rules.fighter_setup import (
    carrier_game,
    group,
    launch,
    launched_last_turn,
    point,
    with_marker,
)
from tests.rules.helpers import at, live, move, only, play, types, with_ship


def engaged_game(speed: int = 0, fighters: str = "standard") -> tuple[GameState, str]:
    """Turn 2, B to activate: A's group is engaged with b1 at (30, 30), b1 at ``speed``."""
    state = launched_last_turn(carrier_game(fighters=fighters))
    g = group(state).id
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", {"type": "end_activation", "ship": "a1"})
    state = live(at(state, "b1", 30.0, 30.0), "b1")  # its attack run showed it
    state = with_ship(state, "b1", speed=speed)
    return engage(state, g, "b1"), g


def test_engage_puts_the_group_on_its_ship_live() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state).id
    state = engage(at(state, "b1", 30.0, 30.0), g, "b1")
    m = state.marker(g)
    assert (m.engaged_with, m.live, point(m.position)) == ("b1", True, (30.0, 30.0))
    shown = [x for x in view(state, "B")["markers"] if x["id"] == g]
    assert shown[0]["engaged_with"] == "b1" and "mother" not in shown[0]


def test_an_engaged_group_takes_no_order() -> None:
    import pytest

    from app.rules.errors import InvalidCommand
    from tests.rules.fighter_setup import markers_cmd

    state = launched_last_turn(carrier_game())
    g = group(state).id
    state = engage(at(state, "b1", 30.0, 30.0), g, "b1")
    state, _ = play(state, "A", {"type": "activate", "ship": "a1"})
    item = view(state, "A")["phase"]["legal"]["markers"][0]
    assert (item["reach"], item["can_land"]) == (0.0, False)
    with pytest.raises(InvalidCommand, match="engaged with B1: it attacks again or breaks off"):
        play(state, "A", markers_cmd([{"marker": g, "to": {"x": 30.0, "y": 31.0}}]))


def test_an_engaged_group_opens_the_step_and_may_break_off() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state).id
    state = engage(at(state, "b1", 30.0, 30.0), g, "b1")
    state, _ = play(state, "A", {"type": "activate", "ship": "a1"})
    state, events = play(state, "A", {"type": "markers", "ship": "a1", "orders": []})
    assert "fighters_step" in types(events) and state.phase.step == Step.FIGHTERS
    choice = {"marker": g, "attack": None}
    state, events = play(state, "A", {"type": "fighters", "choices": [choice]})
    lost = only(events, "contact_lost").data
    assert (lost["marker"], lost["ship"], lost["reason"]) == (g, "b1", "broke_off")
    assert state.marker(g).engaged_with is None


def test_a_slow_ship_is_followed_and_revealed() -> None:
    state, g = engaged_game(speed=0)
    state, events = play(state, "B", move("b1", speed_change=4))  # speed 4 < 12
    reveal = [e.data for e in events if e.type == "ship_revealed"]
    assert [(r["ship"], r["cause"]) for r in reveal] == [("b1", "engaged")]
    assert state.marker(g).position == state.ship("b1").position
    assert state.ship("b1").revealed == "live"


def test_a_fast_ship_loses_the_group_at_its_start() -> None:
    state, g = engaged_game(speed=10)
    state, events = play(state, "B", move("b1", speed_change=2))  # speed 12: not under 12
    lost = only(events, "contact_lost").data
    assert lost == {"marker": g, "ship": "b1", "reason": "speed", "at": {"x": 30.0, "y": 30.0}}
    assert "ship_revealed" not in types(events)
    m = state.marker(g)
    assert (m.engaged_with, point(m.position)) == (None, (30.0, 30.0))
    assert state.ship("b1").revealed == "stale"  # the move stays secret


def test_a_fast_group_keeps_contact_under_18() -> None:
    state, g = engaged_game(speed=10, fighters="fast")
    state, events = play(state, "B", move("b1", speed_change=4))  # 14 < 18
    assert "contact_lost" not in types(events)
    assert state.marker(g).engaged_with == "b1"


def test_an_engaged_group_at_zero_cef_loses_contact() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state).id
    state = engage(at(state, "b1", 30.0, 30.0), g, "b1")
    state = with_marker(state, g, cef=0)
    state, events = play(state, "A", move("a1"))
    lost = only(events, "contact_lost").data
    assert (lost["marker"], lost["reason"]) == (g, "exhausted")
    assert "defence_window" not in types(events)  # at 0 CEF it cannot attack


def test_an_engaged_group_on_standing_orders_attacks_its_ship_again() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state).id
    state = engage(at(state, "b1", 30.0, 30.0), g, "b1")
    state, events = play(state, "A", move("a1"))
    assert "fighters_step" not in types(events)
    window = only(events, "defence_window").data
    assert window["attacks"] == [{"marker": g, "side": "A", "kind": "fighters", "target": "b1"}]


def test_a_failed_bay_loses_its_group() -> None:
    state = carrier_game()
    b = Builder(state, ScriptedDice([]))
    system_damaged(b, {"ship": "a1", "system": "bay-2", "type": "fighter_bay", "status": "damaged"})
    lost = only(b.events, "loads_lost").data
    assert lost == {"ship": "a1", "magazine": "bay-2", "loads": {"heavy": 6}}
    assert "bay-2" not in b.state.ship("a1").bays and "bay-1" in b.state.ship("a1").bays


def test_an_empty_failed_bay_says_the_same_to_the_other_side() -> None:
    from app.rules.fog import redact

    state, _ = launch(carrier_game())
    b = Builder(state, ScriptedDice([]))
    system_damaged(b, {"ship": "a1", "system": "bay-1", "type": "fighter_bay", "status": "damaged"})
    lost = only(b.events, "loads_lost")
    assert lost.data["loads"] == {}
    assert redact(lost, "B", b.state)["data"] == {"ship": "a1", "magazine": "bay-1"}


def test_a_mother_leaving_play_takes_its_groups() -> None:
    state, _ = launch(carrier_game())
    g = group(state).id
    state, _ = play(state, "A", move("a1"))
    state = with_ship(state, "a1", status=ShipStatus.DESTROYED)
    state, events = play(state, "A", {"type": "end_activation", "ship": "a1"})
    removed = only(events, "marker_removed").data
    assert removed["reason"] == "mother_destroyed"
    assert [m["marker"] for m in removed["markers"]] == [g]
    assert all(m.id != g for m in state.markers)


def test_a_live_group_removed_does_not_name_its_mother() -> None:
    from app.rules.winning import removed_marker

    state, _ = launch(carrier_game())
    m = replace(group(state), live=True)
    assert removed_marker(m) == {"marker": m.id, "kind": "fighters"}
    assert evolve is not None


def test_vector_movement_keeps_contact_by_the_length_of_the_velocity() -> None:
    from app.rules.geometry import Vec
    from tests.rules.fighter_setup import carrier
    from tests.rules.helpers import setup_game

    placements = {"a1": (30.0, 10.0, 0, 0), "b1": (30.0, 30.0, 6, 0)}
    state = setup_game([carrier()], ["scout"], placements=placements, movement="vector")
    state, _ = launch(state)
    state, _ = play(
        state, "A", {"type": "move", "ship": "a1", "orders": {"rotate": 0, "thrust": 0}}
    )
    state, _ = play(state, "A", {"type": "end_activation", "ship": "a1"})
    g = group(state).id
    state = engage(live(state, "b1"), g, "b1")
    state = with_ship(state, "b1", velocity=Vec(0.0, -11.0))
    orders = {"type": "move", "ship": "b1", "orders": {"rotate": 0, "thrust": 1}}
    _, events = play(state, "B", orders)  # |velocity| 12 after the move: contact lost
    assert only(events, "contact_lost").data["reason"] == "speed"
    state = with_ship(state, "b1", velocity=Vec(0.0, -10.0))
    _, events = play(state, "B", orders)  # 11: kept
    assert only(events, "ship_revealed").data["cause"] == "engaged"


def test_a_group_engaged_with_a_ship_gone_from_the_table_loses_contact() -> None:
    from tests.rules.fighter_setup import engaged_with_a_wreck
    from tests.rules.helpers import end

    state, g = engaged_with_a_wreck()  # two B ships: b1 destroyed does not end the game
    # the engagement ends at once (tests/rules/test_fighter_fixes.py), not at the mother's
    # next step 2: that one (here again this turn, for brevity) has nothing left to end
    state, events = play(state, "A", move("a1"))
    lost = only(events, "contact_lost").data
    assert (lost["marker"], lost["reason"]) == (g, "gone")
    assert state.marker(g).engaged_with is None
    state, _ = play(state, "A", end("a1"))
    state = replace(state, markers=tuple(replace(m, acts_turn=1) for m in state.markers))
    state = with_ship(state, "a1", activated=False)
    state = replace(state, phase=replace(state.phase, side="A"))
    state, events = play(state, "A", move("a1"))
    assert all(e.type != "contact_lost" for e in events)


def test_a_group_loses_contact_when_its_ship_leaves_the_table() -> None:
    state, _ = engaged_game(speed=0)
    state = at(state, "b1", 30.0, 2.0)
    state, events = play(state, "B", move("b1", speed_change=4, leave=True))
    lost = only(events, "contact_lost").data
    assert (lost["reason"], lost["at"]) == ("left", {"x": 30.0, "y": 2.0})
    assert "ship_revealed" not in types(events)
