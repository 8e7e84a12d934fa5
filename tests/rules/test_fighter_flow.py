"""A carrier's groups end to end through ``decide`` (issue 13): launch, line of sight, the
fighters step, the attack run, engagement following the ship; the log replays to the same
state."""

from __future__ import annotations

from app.rules import view
from app.rules.evolve import replay
from app.rules.state import Step
from tests.rules.fighter_setup import carrier, group, markers_cmd
from tests.rules.helpers import activate, end, gunship, move, only, play, setup_log, types


def test_launch_sight_attack_and_engagement_run_end_to_end() -> None:
    placements = {"a1": (30.0, 10.0, 0, 0), "b1": (30.0, 26.0, 6, 0)}
    state, log = setup_log([carrier()], [gunship("target")], placements=placements)

    def step(seat: str, command: dict, dice: list[int] | None = None) -> list:  # type: ignore[type-arg]
        nonlocal state
        state, events = play(state, seat, command, dice or [])
        log.extend(events)
        return events

    step("A", activate("a1"))
    events = step("A", markers_cmd(launch=[{"bay": "bay-1", "to": {"x": 30.0, "y": 21.0}}]))
    assert types(events) == ["ordnance_acted", "ship_revealed", "fighters_step"]
    g = group(state).id
    assert state.phase.step == Step.FIGHTERS

    # six fighters roll 1BD* at b1 (no screens): all miss; the group pays 1 CEF and engages
    events = step("A", {"type": "fighters", "choices": [{"marker": g, "attack": "b1"}]}, [1] * 6)
    assert types(events) == ["fighters_chosen", "fighters_attack"]
    m = state.marker(g)
    assert (m.engaged_with, m.cef, m.live, m.position) == ("b1", 5, True, state.ship("b1").position)
    assert view(state, "B")["markers"][0]["engaged_with"] == "b1"

    step("A", move("a1"))
    step("A", end("a1"))
    events = step("B", move("b1", speed_change=2))  # speed 2: the group keeps contact
    assert only(events, "ship_revealed").data["cause"] == "engaged"
    assert state.marker(g).position == state.ship("b1").position
    assert replay(log) == state


def test_a_drone_group_attacks_and_engages_like_fighters() -> None:
    placements = {"a1": (30.0, 10.0, 0, 0), "b1": (30.0, 26.0, 6, 0)}
    state, _ = setup_log([carrier(drones="standard")], [gunship("target")], placements=placements)
    state, _ = play(state, "A", activate("a1"))
    launch = [{"bay": "bay-3", "to": {"x": 30.0, "y": 21.0}}]
    state, _ = play(state, "A", markers_cmd(launch=launch))
    g = group(state)
    assert g.kind == "drones"
    choice = {"marker": g.id, "attack": "b1"}
    state, events = play(state, "A", {"type": "fighters", "choices": [choice]}, [1] * 6)
    assert only(events, "fighters_attack").data["kind"] == "drones"
    assert (state.marker(g.id).engaged_with, state.marker(g.id).cef) == ("b1", 2)
