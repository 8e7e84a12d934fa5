"""A whole game between two strategies, in-process at the engine level.

Each strategy is fed only ``view(state, its seat)`` and, through ``observe`` before each of its
decisions, its seat's events since the last one, redacted for the seat (``redact`` against the
state before each command, as the service delivers them); its command goes through ``decide``
with the game's seeded dice, as a browser's would through the service. A command the engine refuses
is the strategy's bug: ``BotRefused`` says which, with the view it answered. The runner (not a
strategy) reads the clock, to time each decision.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.bot.seat import Command
from app.bot.strategy import Strategy
from app.rules import (
    GameSetup,
    GameState,
    SeededDice,
    decide,
    game_started,
    redact,
    start_state,
    view,
)
from app.rules.errors import RulesError

MAX_COMMANDS = 5000  # far more than any preset game takes: a bound on a strategy that stalls


class BotRefused(AssertionError):
    """The engine refused a strategy's command: the strategy broke a rule."""


class Stalled(AssertionError):
    """The game awaits a seat whose strategy sent nothing, or never ended."""


@dataclass(frozen=True)
class Sent:
    seat: str
    command: Command
    seconds: float  # the strategy's thinking time for this command


@dataclass
class GameResult:
    scenario: str
    movement: str
    seed: int
    strategies: Mapping[str, str]  # seat -> strategy name
    winner: str | None = None  # "A", "B", or "draw" as the engine says
    finish_reason: str | None = None
    turns: int = 0
    sent: list[Sent] = field(default_factory=list)

    def outcome_for(self, seat: str) -> str:
        """``win``, ``draw`` or ``loss`` for the seat."""
        if self.winner not in ("A", "B"):
            return "draw"
        return "win" if self.winner == seat else "loss"


def play_game(
    players: Mapping[str, Strategy],
    scenario: str,
    movement: str,
    seed: int,
    *,
    max_commands: int = MAX_COMMANDS,
    on_command: Callable[[GameState, str, Command], None] | None = None,
) -> GameResult:
    """Play a preset scenario to its end; ``players`` maps seat "A" and "B" to a strategy."""
    rng = random.Random(seed)
    game_id = f"arena-{seed:08x}"
    dice = SeededDice(bytes(rng.getrandbits(8) for _ in range(32)), game_id)
    seats = {seat: random.Random(rng.getrandbits(64)) for seat in ("A", "B")}
    state = start_state(game_started(game_id, GameSetup.from_scenario(scenario, movement)))
    names = {seat: p.name for seat, p in players.items()}
    result = GameResult(scenario, movement, seed, names)
    unread: dict[str, list[dict[str, Any]]] = {"A": [], "B": []}
    for _ in range(max_commands):
        if state.status == "finished":
            break
        seat, command, seconds = _next_command(state, players, seats, unread)
        if on_command is not None:
            on_command(state, seat, command)
        try:
            decision = decide(state, seat, command, dice)
        except RulesError as e:
            raise BotRefused(
                f"{names[seat]} as {seat} at seq {state.seq} sent {command}: refused ({e})"
            ) from e
        for s in ("A", "B"):
            unread[s].extend(redact(e, s, state) for e in decision.events)
        state = decision.state
        result.sent.append(Sent(seat, command, seconds))
    if state.status != "finished":
        raise Stalled(f"{scenario}/{movement} seed {seed} did not end in {max_commands} commands")
    result.winner, result.finish_reason, result.turns = (
        state.winner,
        state.finish_reason,
        state.turn,
    )
    return result


def _next_command(
    state: GameState,
    players: Mapping[str, Strategy],
    rngs: Mapping[str, random.Random],
    unread: Mapping[str, list[dict[str, Any]]],
) -> tuple[str, Command, float]:
    """The first awaited seat's command (seat A first when both are awaited in a window), the
    seat's unread events observed first."""
    for seat in ("A", "B"):
        seen: dict[str, Any] = view(state, seat)
        if seat not in seen["phase"]["awaiting"]:
            continue
        start = time.perf_counter()
        players[seat].observe(list(unread[seat]))
        unread[seat].clear()
        command = players[seat].decide(seen, rngs[seat])
        seconds = time.perf_counter() - start
        if command is None:
            raise Stalled(f"{players[seat].name} as {seat} sent nothing at seq {state.seq}")
        return seat, command, seconds
    raise Stalled(f"the game is active at seq {state.seq} but awaits nobody")
