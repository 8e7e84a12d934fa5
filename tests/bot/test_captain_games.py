"""The captain plays whole games to their end, every preset scenario, both movement systems,
both sides, against the naive baseline and the cadet: the engine refuses none of its commands
(a refusal raises ``BotRefused``), and the runner feeds its memory through ``observe``."""

from __future__ import annotations

from typing import Any

import pytest

from app.bot import Captain, strategy
from app.bot.runner import GameResult, play_game
from app.rules.scenarios import PRESET_SCENARIOS


@pytest.mark.parametrize("movement", ["cinematic", "vector"])
@pytest.mark.parametrize("scenario", sorted(PRESET_SCENARIOS))
@pytest.mark.parametrize(("a", "b"), [("captain", "naive"), ("cadet", "captain")])
def test_a_captains_game_reaches_its_end(a: str, b: str, scenario: str, movement: str) -> None:
    result = play_game({"A": strategy(a), "B": strategy(b)}, scenario, movement, seed=23)
    assert result.finish_reason is not None
    assert result.winner in ("A", "B", "draw")
    assert {s.seat for s in result.sent} == {"A", "B"}


def test_the_captain_is_registered_with_a_budget() -> None:
    assert isinstance(strategy("captain"), Captain)
    small = Captain(particles=40, scored=8)
    assert small.belief.particles == 40 and small.scored == 8


def test_the_captain_remembers_what_it_is_fed() -> None:
    fed: list[int] = []

    class Counting(Captain):
        def observe(self, events: Any) -> None:
            fed.append(len(events))
            super().observe(events)

    play_game({"A": Counting(), "B": strategy("naive")}, "duel", "cinematic", 4)
    assert sum(fed) > 20  # the seat's events reached it, a batch before every decision


def test_the_same_seed_plays_the_same_captains_game() -> None:
    def commands(r: GameResult) -> list[tuple[str, dict[str, Any]]]:
        return [(s.seat, s.command) for s in r.sent]

    one = play_game({"A": strategy("captain"), "B": strategy("cadet")}, "skirmish", "vector", 8)
    two = play_game({"A": strategy("captain"), "B": strategy("cadet")}, "skirmish", "vector", 8)
    assert commands(one) == commands(two)


def test_belief_maps_are_distributions_on_the_table() -> None:
    captain = Captain()
    checked = 0

    def look(state: Any, seat: str, command: dict[str, Any]) -> None:
        nonlocal checked
        if seat != "A":
            return
        for grid in captain.belief_map().values():
            assert grid.cols * grid.cell >= state.table.width
            assert grid.rows * grid.cell >= state.table.height
            assert len(grid.mass) == grid.rows and all(len(r) == grid.cols for r in grid.mass)
            assert sum(map(sum, grid.mass)) == pytest.approx(1.0)
            checked += 1

    play_game({"A": captain, "B": strategy("naive")}, "hunt", "cinematic", 2, on_command=look)
    assert checked > 10
