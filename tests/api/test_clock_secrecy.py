"""The clock leaks nothing (issue 15; the secrecy rule): its view is the same for every seat
and spectator, and when it runs, when it runs out and what a timeout plays depend on public
facts only — two games that differ only in hidden positions (same id, seed, settings and
public moves, on two databases) keep identical clocks, deadlines and timeouts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi import FastAPI

from tests.api.clock_helpers import LIVE, FakeNow, apps, clocks_of, events, play_own_decision
from tests.api.helpers import ok, view
from tests.api.replay_check import Game, create
from tests.conftest import fresh_database

SEED = "5e" * 32
GAME_ID = "clockleak0001"
HIDDEN = (
    {"a1": (20.0, 4.0, 0), "b1": (14.0, 44.0, 6)},
    {"a1": (58.0, 6.0, 1), "b1": (50.0, 41.0, 5)},
)


def _deploy(ship: str, where: tuple[float, float, int]) -> dict[str, Any]:
    x, y, heading = where
    return {
        "type": "deploy",
        "ships": [{"ship": ship, "position": {"x": x, "y": y}, "heading": heading, "speed": 0}],
    }


async def _deadline(app: FastAPI, game_id: str) -> Any:
    db = app.state.service.db
    async with db.read() as conn:
        return await conn.scalar(
            sa.text("SELECT deadline FROM games WHERE id = :id"), {"id": game_id}
        )


async def _public(app: FastAPI, client: Any, game: Game) -> tuple[Any, ...]:
    """What must agree between the two games: the clock of every seat's view (and that they
    agree with each other), the deadline, and the public timeouts."""
    clocks = [(await view(client, game, seat))["clock"] for seat in ("A", "B", None)]
    assert clocks[0] == clocks[1] == clocks[2]
    timeouts = [e["data"] for e in await events(client, game, None) if e["type"] == "timed_out"]
    return clocks[0], await _deadline(app, game.id), timeouts


@pytest.fixture
def other_url(tmp_path: Path, backend: str) -> Iterator[str]:
    """A second fresh database: the twin game has the same id."""
    with fresh_database(tmp_path, backend, "second") as url:
        yield url


async def test_clocks_depend_on_public_facts_only(
    db_url: str, other_url: str, tmp_path: Path
) -> None:
    now = FakeNow()
    async with (
        apps(db_url, tmp_path / "one", now, allow_client_seed=True) as [one],
        apps(other_url, tmp_path / "two", now, allow_client_seed=True) as [two],
    ):
        body = {"scenario": "duel", "clock": LIVE, "seed": SEED}
        games = [await create(c, body, game_id=GAME_ID) for _, c in (one, two)]
        pairs = list(zip((one, two), games, HIDDEN, strict=True))
        now.advance(12)
        for (_, client), game, hidden in pairs:
            await ok(client, game, "A", _deploy("a1", hidden["a1"]))
        now.advance(9)
        for (_, client), game, hidden in pairs:
            await ok(client, game, "B", _deploy("b1", hidden["b1"]))
        seen = [await _public(app, c, g) for (app, c), g, _ in pairs]
        assert seen[0] == seen[1]
        for _ in range(6):  # A plays in time, B times out: the same in both games
            now.advance(3)
            for (_, client), game, _ in pairs:
                await play_own_decision(client, game, "A")
            left = seen[0][0]["B"]["left_s"]
            now.advance(left + 1 if seen[0][0]["B"]["running"] else 1)
            applied = [await clocks_of(app).run_due() for (app, _), _, _ in pairs]
            assert applied[0] == applied[1]
            seen = [await _public(app, c, g) for (app, c), g, _ in pairs]
            assert seen[0] == seen[1]
        assert seen[0][2], "B timed out at least once"
