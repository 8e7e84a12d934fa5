"""A game keeps the rules version it began under (``game_started.rules_version``).

Before 2026.12 "out of control for N turns" and a knocked-out command bridge were counted at
the end of each game turn; since then they count the ship's own activations (docs/rules.md §8).
A log begun under the old version replays, and goes on, as it was played: its turn ends count
and restore, and its activations carry no counts. A new game counts activations.
"""

from __future__ import annotations

from dataclasses import replace

from app.rules.state import RULES_VERSION, GameState
from tests.rules.helpers import (
    all_of,
    gunship,
    only,
    quiet_turn,
    setup_game,
    with_ship,
    with_system,
)


def _out_of_control_for_one(version: str) -> GameState:
    state = setup_game([gunship(), gunship()], [gunship(), gunship()])
    state = replace(state, rules_version=version)
    state = with_system(state, "a2", "bridge", "damaged")
    return with_ship(state, "a2", out_of_control=1)


def test_a_game_begun_under_the_old_rules_counts_control_by_turn_ends() -> None:
    # the damaged bridge gets its damage-control die (a 1: no repair), then the roll-off
    state, events = quiet_turn(_out_of_control_for_one("2026.11-1"), [1, 1, 2])
    assert only(events, "turn_ended").data["regained_control"] == ["a2"]
    a2 = state.ship("a2")
    assert a2.out_of_control == 0 and a2.system("bridge").status == "ok"


def test_a_new_game_counts_control_by_the_ships_own_activations() -> None:
    assert RULES_VERSION != "2026.11-1"
    state = _out_of_control_for_one(RULES_VERSION)
    state, events = quiet_turn(state, [1, 2])
    assert only(events, "turn_ended").data["regained_control"] == []
    a2 = state.ship("a2")
    assert a2.out_of_control == 0 and a2.system("bridge").status == "ok"


def test_old_rules_activations_carry_no_count() -> None:
    state = _out_of_control_for_one("2026.11-1")
    turn = state.turn
    seen = []
    while state.turn == turn:
        state, events = quiet_turn(state, [1, 1, 2])
        seen += all_of(events, "activation_ended")
    assert all("out_of_control" not in e.data for e in seen)
