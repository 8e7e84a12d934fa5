"""A launcher whose ship has no fire control free is listed, not left out: it may join an aim
point the ship already took this turn (decision 7), or it is marked as having none to join, so
that a page can say why it cannot launch."""

from __future__ import annotations

from dataclasses import replace

from app.rules.designs import SystemSpec
from app.rules.geometry import Vec
from app.rules.ordnance.launch import launch_options
from app.rules.state import GameState, ShipState
from tests.rules.helpers import gunship, setup_game

_LAUNCHER = gunship(
    "launcher",
    hull=20,
    systems=(
        SystemSpec("fc-1", "fire_control"),
        SystemSpec("sml-1", "salvo_launcher", arcs=("F",), magazine="mag-1"),
        SystemSpec("mag-1", "magazine", loads=(("salvo", 2),)),
    ),
)


def _ship(aim_locks: tuple[Vec, ...]) -> tuple[GameState, ShipState]:
    places = {"a1": (36.0, 4.0, 0, 0), "b1": (36.0, 40.0, 6, 0)}
    state = setup_game((_LAUNCHER,), ("scout",), places)
    ship = replace(state.ship("a1"), aim_locks=aim_locks)
    return state.with_ship(ship), ship


def test_with_a_control_free_the_launcher_may_aim_anywhere_it_reaches() -> None:
    state, ship = _ship(())
    (item,) = launch_options(state, ship, free=True)
    assert item["weapon"] == "sml-1" and "fire_control" not in item


def test_without_a_free_control_it_may_join_an_aim_point_of_this_turn() -> None:
    # a1 faces B's edge (heading 0): a point straight ahead within 24 mu is in its F arc
    ahead = Vec(36.0, 20.0)
    far = Vec(36.0, 47.0)  # beyond a salvo's 24 mu
    state, ship = _ship((ahead, far))
    (item,) = launch_options(state, ship, free=False)
    assert item["fire_control"] == "shared"
    assert item["aim_at"] == [{"aim": ahead.to_dict(), "shared": True}]


def test_without_a_free_control_or_an_aim_point_to_join_it_says_so() -> None:
    state, ship = _ship(())
    (item,) = launch_options(state, ship, free=False)
    assert item["fire_control"] == "none" and item["aim_at"] == []
