"""Whole games between the strategies: every preset scenario, both movement systems, both
sides; the engine refuses none of their commands (a refusal raises ``BotRefused``)."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from typing import Any

import pytest

from app.bot import strategy
from app.bot.runner import GameResult, play_game
from app.rules import GameState, view
from app.rules.scenarios import PRESET_SCENARIOS

MOVEMENTS = ("cinematic", "vector")
PAIRS = (("cadet", "cadet"), ("naive", "cadet"), ("cadet", "naive"))


@pytest.mark.parametrize("movement", MOVEMENTS)
@pytest.mark.parametrize("scenario", sorted(PRESET_SCENARIOS))
@pytest.mark.parametrize(("a", "b"), PAIRS, ids=["cadet-cadet", "naive-cadet", "cadet-naive"])
def test_a_game_reaches_its_end_with_no_command_refused(
    a: str, b: str, scenario: str, movement: str
) -> None:
    result = play_game({"A": strategy(a), "B": strategy(b)}, scenario, movement, seed=17)
    assert result.finish_reason is not None
    assert result.winner in ("A", "B", "draw")
    assert {s.seat for s in result.sent} == {"A", "B"}
    assert result.sent[0].command["type"] == "deploy"


def test_the_same_seed_plays_the_same_game() -> None:
    def commands(r: GameResult) -> list[tuple[str, dict[str, Any]]]:
        return [(s.seat, s.command) for s in r.sent]

    first = play_game({"A": strategy("naive"), "B": strategy("cadet")}, "skirmish", "vector", 3)
    again = play_game({"A": strategy("naive"), "B": strategy("cadet")}, "skirmish", "vector", 3)
    assert commands(first) == commands(again)
    assert (first.winner, first.turns) == (again.winner, again.turns)


@pytest.mark.parametrize("scenario", sorted(PRESET_SCENARIOS))
def test_a_cadet_never_pings_twice_in_a_row_with_one_ship(scenario: str) -> None:
    pinged: dict[str, dict[int, bool]] = defaultdict(dict)  # ship -> turn -> pinged then

    def note(state: GameState, seat: str, command: dict[str, Any]) -> None:
        if command["type"] in ("activate", "ping", "move", "end_activation", "markers"):
            turns = pinged[command["ship"]]
            turns[state.turn] = turns.get(state.turn, False) or command["type"] == "ping"

    for seed in range(4):
        pinged.clear()
        players = {"A": strategy("cadet"), "B": strategy("cadet")}
        play_game(players, scenario, "cinematic", seed, on_command=note)
        assert any(any(t.values()) for t in pinged.values()), "no ping: the test proves nothing"
        for ship, turns in pinged.items():
            order = sorted(turns)
            for before, after in itertools.pairwise(order):
                assert not (turns[before] and turns[after]), f"{ship} pinged in {before}, {after}"


def test_the_naive_baseline_pings_every_activation() -> None:
    naive_pings, activations = 0, set()

    def note(state: GameState, seat: str, command: dict[str, Any]) -> None:
        nonlocal naive_pings
        if seat == "A" and command["type"] in ("activate", "ping", "move"):
            activations.add((state.turn, command["ship"]))
            naive_pings += command["type"] == "ping"

    play_game(
        {"A": strategy("naive"), "B": strategy("cadet")}, "duel", "cinematic", 5, on_command=note
    )
    # every activation pings, except a drift out of control (named with activate)
    assert naive_pings >= len(activations) - 2 and naive_pings > 0


def test_a_strategy_not_awaited_sends_nothing() -> None:
    from app.rules import GameSetup, game_started, start_state

    state = start_state(game_started("g", GameSetup.from_scenario("duel", "cinematic")))
    for seat in ("A", "B"):
        seen = view(state, seat)
        assert seat in seen["phase"]["awaiting"]  # both deploy at once
        for name in ("cadet", "naive"):
            assert strategy(name).decide(seen, random.Random(1)) is not None
    spectator = view(state, "spectator")
    assert strategy("cadet").decide(spectator, random.Random(1)) is None
