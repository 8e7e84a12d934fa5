"""The computer's games pass the same leak oracle and replay checks as any other game: games
between the strategies, played at the engine level as the server plays them (each strategy
fed its seat's view and events only), checked after every command by the property suite's
oracle (no hidden fact reaches a seat or a spectator on any event or view)."""

from __future__ import annotations

import random

import pytest

from app.bot import STRATEGIES, strategy
from app.bot.runner import play_game
from app.rules import GameSetup, GameState, SeededDice, decide, game_started, replay
from app.rules.events import Event
from tests.rules.randplay import Step
from tests.rules.test_properties import SecretTracker, check_no_leak

# every strategy meets every other (its own mirror adds nothing the oracle has not seen)
PAIRINGS = [(a, b) for a in sorted(STRATEGIES) for b in sorted(STRATEGIES) if a < b]


def arena_dice(seed: int) -> SeededDice:
    """The dice ``play_game`` draws for a seed (the same recipe: the runner's first draws)."""
    rng = random.Random(seed)
    return SeededDice(bytes(rng.getrandbits(8) for _ in range(32)), f"arena-{seed:08x}")


@pytest.mark.parametrize(("a", "b"), PAIRINGS)
@pytest.mark.parametrize(
    ("scenario", "movement", "seed"),
    [("duel", "cinematic", 11), ("missile_duel", "vector", 12), ("skirmish", "vector", 13)],
)
def test_computer_games_leak_nothing_and_replay(
    a: str, b: str, scenario: str, movement: str, seed: int
) -> None:
    dice = arena_dice(seed)
    tracker = SecretTracker()
    log: list[Event] = []
    checked = 0

    final: list[GameState] = []

    def check(state: GameState, seat: str, command: dict[str, object]) -> None:
        nonlocal checked
        decision = decide(state, seat, command, dice)
        check_no_leak(Step(seat, command, list(decision.events), state, decision.state), tracker)
        log.extend(decision.events)
        final[:] = [decision.state]
        checked += 1

    result = play_game(
        {"A": strategy(a), "B": strategy(b)}, scenario, movement, seed, on_command=check
    )
    assert result.winner in ("A", "B", "draw")
    assert checked == len(result.sent)
    started = game_started(f"arena-{seed:08x}", GameSetup.from_scenario(scenario, movement))
    rebuilt = replay([started, *log])
    assert rebuilt == final[0] and rebuilt.status == "finished"
