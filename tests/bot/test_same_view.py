"""The computer decides from its seat's view alone (issue 17): two true states that differ only
in hidden facts — where the unseen enemy deployed, how it moved since — give the seat the same
view, and with the same random seed a strategy sends the same commands from both.

The two games are played with the engine itself: side A by the strategy under test (the same
command in both games), side B by hand with different secret placements and moves and no ping,
until A's first ping (whose dice read true distances, so the views may part after it).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.bot import strategy
from app.rules import GameSetup, GameState, SeededDice, decide, game_started, start_state, view
from app.rules.errors import IllegalOrders

SEED = bytes(range(32))


def _b_deploy(state: GameState, x: float, y: float, heading: int, fast: bool) -> dict[str, Any]:
    zone = state.zones["B"]
    ships = []
    for i, ship in enumerate(state.ships_of("B")):
        p: dict[str, Any] = {
            "ship": ship.id,
            "position": {"x": min(zone.x1, x + 3 * i), "y": y},
            "heading": heading,
        }
        if state.movement == "vector":
            p["velocity"] = {"x": 0.0, "y": -1.0 if fast else 0.0}
        else:
            p["speed"] = 1 if fast else 0
        ships.append(p)
    return {"type": "deploy", "ships": ships}


# B's secret orders in the first game (False) and the other (True), in order of preference
_CINEMATIC_TRIES = {
    False: [{"speed_change": 0, "turn": 0}, {"speed_change": -1, "turn": 0}],
    True: [
        {"speed_change": 1, "turn": 1},
        {"speed_change": 1, "turn": -1},
        {"speed_change": 0, "turn": 1},
    ],
}
_VECTOR_TRIES = {
    False: [{"rotate": 0, "thrust": 0}],
    True: [{"rotate": 1, "thrust": 1}, {"rotate": -1, "thrust": 1}, {"rotate": 2, "thrust": 0}],
}


def _b_hidden(state: GameState, other: bool, dice: SeededDice) -> GameState | None:
    """B's next command: a secret move (different orders in the other game; the first of them
    that stays on the table), or the end of its activation; None if every one would leave (a
    public difference: the comparison ends there)."""
    phase = state.phase
    if phase.step == "activate":
        ship = next(s for s in state.ships_of("B") if s.in_play and not s.activated)
    else:
        assert phase.ship is not None, phase
        ship = state.ship(phase.ship)
    if phase.step == "after_move":
        return decide(state, "B", {"type": "end_activation", "ship": ship.id}, dice).state
    tries = _VECTOR_TRIES if state.movement == "vector" else _CINEMATIC_TRIES
    for orders in tries[other]:
        command = {"type": "move", "ship": ship.id, "orders": orders}
        try:
            return decide(state, "B", command, dice).state
        except IllegalOrders:  # it would end off the table
            continue
    return None


def _same_decisions(
    name: str,
    scenario: str,
    movement: str,
    seed: int,
    b_one: tuple[Any, ...],
    b_two: tuple[Any, ...],
) -> int:
    """Play both games side by side; the number of A decisions compared."""
    setup = GameSetup.from_scenario(scenario, movement)
    games = [start_state(game_started("same-view", setup)) for _ in range(2)]
    dice = SeededDice(SEED, "same-view")
    player = strategy(name)
    rngs = [random.Random(seed), random.Random(seed)]
    games = [
        decide(g, "B", _b_deploy(g, *b), dice).state
        for g, b in zip(games, (b_one, b_two), strict=True)
    ]
    compared = 0
    for _ in range(40):
        one, two = games
        if one.status == "finished" or "A" not in view(one, "A")["phase"]["awaiting"]:
            if one.status == "finished":
                break
            moved = [_b_hidden(g, i == 1, dice) for i, g in enumerate(games)]
            if moved[0] is None or moved[1] is None:
                break
            games = [moved[0], moved[1]]
            continue
        seen = view(one, "A")
        assert seen == view(two, "A"), "the hidden facts leaked into A's view"
        assert view(one, "referee") != view(two, "referee"), "the two true states are the same"
        commands = [player.decide(view(g, "A"), r) for g, r in zip(games, rngs, strict=True)]
        assert commands[0] is not None
        assert commands[0] == commands[1]
        compared += 1
        if commands[0]["type"] == "ping":
            break
        games = [decide(g, "A", commands[0], dice).state for g in games]
    return compared


@pytest.mark.parametrize("movement", ["cinematic", "vector"])
@pytest.mark.parametrize("scenario", ["duel", "skirmish", "missile_duel"])
@pytest.mark.parametrize("name", ["cadet", "naive"])
def test_two_true_states_with_one_view_get_the_same_commands(
    name: str, scenario: str, movement: str
) -> None:
    total = sum(
        _same_decisions(
            name, scenario, movement, seed, (6.0, 44.0, 6, False), (50.0, 42.0, 5, True)
        )
        for seed in range(6)
    )
    assert total >= 6 * 2  # the deployment and at least one decision of the first activation


@settings(max_examples=30)
@given(
    seed=st.integers(0, 2**32 - 1),
    x=st.floats(4.0, 60.0),
    y=st.floats(40.0, 48.0),
    heading=st.integers(0, 11),
    fast=st.booleans(),
    movement=st.sampled_from(("cinematic", "vector")),
)
def test_a_cadet_ignores_where_the_unseen_enemy_is(
    seed: int, x: float, y: float, heading: int, fast: bool, movement: str
) -> None:
    assert (
        _same_decisions(
            "cadet", "duel", movement, seed, (36.0, 44.0, 6, False), (x, y, heading, fast)
        )
        >= 2
    )
