"""Hypothesis: for any seed, scenario and movement system, every command a cadet sends (and the
naive baseline, against it) is accepted by ``decide``; the runner raises ``BotRefused`` if not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.bot import strategy
from app.bot.runner import play_game
from app.rules.scenarios import PRESET_SCENARIOS


@settings(max_examples=20)
@given(
    seed=st.integers(0, 2**32 - 1),
    scenario=st.sampled_from(sorted(PRESET_SCENARIOS)),
    movement=st.sampled_from(("cinematic", "vector")),
    b=st.sampled_from(("cadet", "naive")),
)
def test_every_command_a_cadet_sends_is_accepted(
    seed: int, scenario: str, movement: str, b: str
) -> None:
    result = play_game({"A": strategy("cadet"), "B": strategy(b)}, scenario, movement, seed)
    assert result.finish_reason is not None
