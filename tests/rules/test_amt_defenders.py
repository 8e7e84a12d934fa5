"""Who may defend against a torpedo (AMT) depends on public facts only: the side of the ship it
homed on (named in the window). The torpedo's owner cannot fire at its own torpedo, so that
being awaited never tells it (or the other side) that one of its ships stands within 3 mu of a
hidden enemy; a torpedo that homed on nothing opens no window (decision 13, C2.4)."""

from __future__ import annotations

from app.rules.geometry import Vec
from app.rules.ordnance.defence import attacked_ships
from app.rules.state import Attack
from tests.rules.helpers import setup_game


def _state():  # type: ignore[no-untyped-def]
    # B's b1 at (36, 24); A's a2 2 mu from it, inside the blast of a torpedo homed on b1
    places = {"a1": (36.0, 4.0, 0, 0), "a2": (38.0, 24.0, 0, 0), "b1": (36.0, 24.0, 6, 0)}
    return setup_game(("scout", "scout"), ("scout",), places)


def test_a_homed_torpedo_is_defended_against_by_its_targets_side_only() -> None:
    state = _state()
    amt = Attack("m-t", "A", "amt", "b1", point=Vec(36.0, 24.0))
    assert attacked_ships(state, amt) == ("b1",)


def test_a_torpedo_that_homed_on_nothing_has_no_defenders() -> None:
    state = _state()
    amt = Attack("m-t", "A", "amt", None, point=Vec(38.5, 24.0))  # a2 in its blast
    assert attacked_ships(state, amt) == ()
