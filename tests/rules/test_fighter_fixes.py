"""Fixes to the fighter engine (issue 13) found after it landed; each test failed first."""

from __future__ import annotations

from tests.rules.fighter_setup import engaged_with_a_wreck
from tests.rules.helpers import move, only, play


def test_a_group_engaged_with_a_destroyed_ship_loses_contact_at_once() -> None:
    """Engagement (F7) is with a ship on the table: once the ship is destroyed (or has left) the
    group is no longer engaged — public ``contact_lost`` reason ``gone`` right away, not at its
    mother's next step 2 (until then it kept an ``engaged_with`` naming a wreck that is gone,
    could take no order and stood at the ship's last position)."""
    state, g = engaged_with_a_wreck()
    state, events = play(state, "A", move("a1"))
    lost = only(events, "contact_lost").data
    assert (lost["marker"], lost["ship"], lost["reason"]) == (g, "b1", "gone")
    assert state.marker(g).engaged_with is None
