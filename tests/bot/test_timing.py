"""The release delay: one fixed figure per kind of decision, read from the seat's view."""

from __future__ import annotations

from collections import Counter

from app.bot import strategy
from app.bot.runner import play_game
from app.bot.timing import RELEASE_S, decision_kind, release_delay
from app.rules import GameState, view


def test_every_awaited_decision_has_a_kind_and_the_others_none() -> None:
    kinds: Counter[str] = Counter()

    def seen(state: GameState, seat: str, command: dict[str, object]) -> None:
        asked = view(state, seat)
        kind = decision_kind(asked)
        assert kind in RELEASE_S, (state.phase, command)
        assert release_delay(asked) == RELEASE_S[kind]
        assert release_delay(asked, scale=0) == 0
        kinds[kind] += 1
        other = view(state, "B" if seat == "A" else "A")
        if other["you"] not in other["phase"]["awaiting"]:
            assert decision_kind(other) is None

    players = {"A": strategy("cadet"), "B": strategy("cadet")}
    for seed in range(3):
        play_game(players, "duel", "cinematic", seed, on_command=seen)
    # a duel meets deployment, activations, orders and overwatch holds
    assert {"deploy", "activate", "orders", "after_move"} <= set(kinds)


def test_a_view_that_awaits_nothing_has_no_delay() -> None:
    idle = {"status": "finished", "you": "A", "phase": {"awaiting": [], "step": "activate"}}
    assert decision_kind(idle) is None
    assert release_delay(idle) == 0.0
