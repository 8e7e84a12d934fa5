"""The captain's memory leaks no hidden fact either: two true states that differ only in where the
unseen enemy deployed and how it moved since give seat A the same views and the same redacted
events, and two captains fed those, with the same seed, send the same commands.

As in ``test_same_view``, side B is played by hand (different secret placements and moves, no
ping) until A's first ping, whose dice read true distances.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bot import Captain
from app.rules import GameSetup, GameState, SeededDice, decide, game_started, redact, view
from app.rules import start_state as first_state
from app.rules.errors import IllegalOrders
from tests.bot.test_same_view import _CINEMATIC_TRIES, _VECTOR_TRIES, SEED, _b_deploy

Events = list[dict[str, Any]]


def _step(
    state: GameState, seat: str, command: dict[str, Any], dice: SeededDice
) -> tuple[GameState, Events]:
    decision = decide(state, seat, command, dice)
    return decision.state, [redact(e, "A", state) for e in decision.events]


def _b_moves(state: GameState, other: bool, dice: SeededDice) -> tuple[GameState, Events] | None:
    phase = state.phase
    if phase.step == "activate":
        ship = next(s for s in state.ships_of("B") if s.in_play and not s.activated)
    else:
        assert phase.ship is not None, phase
        ship = state.ship(phase.ship)
    if phase.step == "after_move":
        return _step(state, "B", {"type": "end_activation", "ship": ship.id}, dice)
    tries = _VECTOR_TRIES if state.movement == "vector" else _CINEMATIC_TRIES
    for orders in tries[other]:
        try:
            return _step(state, "B", {"type": "move", "ship": ship.id, "orders": orders}, dice)
        except IllegalOrders:
            continue
    return None


def _compare(
    scenario: str, movement: str, seed: int, b_one: tuple[Any, ...], b_two: tuple[Any, ...]
) -> int:
    setup = GameSetup.from_scenario(scenario, movement)
    dice = SeededDice(SEED, "same-view")
    games: list[GameState] = []
    unread: list[Events] = []
    for b in (b_one, b_two):
        g = first_state(game_started("same-view", setup))
        g, seen = _step(g, "B", _b_deploy(g, *b), dice)
        games.append(g)
        unread.append(seen)
    captains = [Captain(particles=60, scored=8), Captain(particles=60, scored=8)]
    rngs = [random.Random(seed), random.Random(seed)]
    compared = 0
    for _ in range(40):
        if games[0].status == "finished":
            break
        if "A" not in view(games[0], "A")["phase"]["awaiting"]:
            moved = [_b_moves(g, i == 1, dice) for i, g in enumerate(games)]
            if moved[0] is None or moved[1] is None:
                break
            for i, (g, seen) in enumerate((moved[0], moved[1])):
                games[i] = g
                unread[i].extend(seen)
            continue
        assert view(games[0], "A") == view(games[1], "A"), "the hidden facts leaked into A's view"
        assert unread[0] == unread[1], "the hidden facts leaked into A's events"
        assert view(games[0], "referee") != view(games[1], "referee")
        commands = []
        for i in range(2):
            captains[i].observe(list(unread[i]))
            unread[i].clear()
            commands.append(captains[i].decide(view(games[i], "A"), rngs[i]))
        assert commands[0] is not None and commands[0] == commands[1]
        assert captains[0].belief_map() == captains[1].belief_map()
        compared += 1
        if commands[0]["type"] == "ping":
            break
        for i in range(2):
            games[i], seen = _step(games[i], "A", commands[0], dice)
            unread[i].extend(seen)
    return compared


@pytest.mark.parametrize("movement", ["cinematic", "vector"])
@pytest.mark.parametrize("scenario", ["duel", "skirmish", "missile_duel"])
def test_two_true_states_with_one_view_get_the_same_captains_commands(
    scenario: str, movement: str
) -> None:
    total = sum(
        _compare(scenario, movement, seed, (6.0, 44.0, 6, False), (50.0, 42.0, 5, True))
        for seed in range(3)
    )
    assert total >= 3 * 2  # the deployment and at least one decision of the first activation
