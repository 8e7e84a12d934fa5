"""The stored seat-visibility of each event comes from the rules' own fog of war."""

from __future__ import annotations

from app.play.service import full_for
from tests.rules.golden_runner import GOLDEN_DIR, load, play
from tests.rules.test_properties import cancelled_shot_game


def test_each_event_is_stored_with_who_receives_it_in_full() -> None:
    state, log = play(load(GOLDEN_DIR / "001_deploy_ping_reveal.json"))
    stored = [(e.type, full_for(e, state)) for e in log]
    assert stored == [
        ("game_started", "all"),
        ("deployed", "A"),
        ("deployed", "B"),
        ("turn_started", "all"),
        ("activation_started", "all"),
        ("ship_moved", "A"),  # a1's move: its owner only
        ("ping", "B"),  # the ECM dice of b1 are for b1's owner
        ("ship_revealed", "all"),
        ("ship_revealed", "all"),
        ("fire_window", "all"),
    ]


def test_a_volley_with_a_cancelled_shot_is_stored_as_its_owners() -> None:
    """RULES §7: the cancelled shot is A's secret, so B and spectators get the volley without
    it, and the stored visibility says A alone gets it in full."""
    steps = cancelled_shot_game()
    state = steps[-1].after
    stored = [(e.type, full_for(e, state)) for step in steps[-3:] for e in step.events]
    assert ("fire_resolved", "A") in stored
    assert ("core_action", "all") in stored
