"""Notifications depend on public facts only: two games that differ only in where side B's
ship hides queue the same outbox rows, at the same commands (issue 15)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.main import create_app
from tests.api.helpers import ok
from tests.api.notify_helpers import outbox
from tests.conftest import fresh_database, make_settings
from tests.live import A_DEPLOY, SEED, next_command
from tests.web import create_game


def _deploy(ship: str, at: tuple[float, float], heading: int) -> dict[str, Any]:
    place = {"ship": ship, "position": {"x": at[0], "y": at[1]}, "heading": heading, "speed": 0}
    return {"type": "deploy", "ships": [place]}


async def _rows_of(url: str, tmp_path: Path, b_at: tuple[float, float]) -> list[Any]:
    settings = make_settings(
        url, tmp_path, allow_client_seed=True, webhook_allow_private=True, notify_poll=3600.0
    )
    app = create_app(settings)
    async with AsyncExitStack() as stack:
        await stack.enter_async_context(app.router.lifespan_context(app))
        transport = httpx.ASGITransport(app=app)
        client = await stack.enter_async_context(
            httpx.AsyncClient(transport=transport, base_url="http://test")
        )
        game = await create_game(client, {"scenario": "duel", "seed": SEED}, game_id="leakgame0001")
        for seat in "AB":
            r = await client.post(
                f"/api/v1/games/{game.id}/notify",
                json={"webhook": f"http://127.0.0.1:9/{seat}"},
                headers={"Authorization": f"Bearer {game.tokens[seat]}"},
            )
            assert r.status_code == 200, r.text
        duel = _duel(game)
        await ok(client, duel, "A", _deploy("a1", A_DEPLOY, 0))
        await ok(client, duel, "B", _deploy("b1", b_at, 6))
        for _ in range(8):
            side, body = await next_command(client, duel)
            await ok(client, duel, side, body)
        rows = await outbox(app.state.db, game.id)
    out = []
    for r in rows:
        body = r["body"]
        out.append(
            (r["seat"], r["event"], r["seq"], json.loads(body) if isinstance(body, str) else body)
        )
    return out


def _duel(game: Any) -> Any:
    from tests.api.helpers import Duel

    return Duel(game.id, dict(game.tokens))


@pytest.fixture
def two_databases(tmp_path: Path, backend: str) -> Iterator[tuple[str, str]]:
    with (
        fresh_database(tmp_path, backend, "one") as one,
        fresh_database(tmp_path, backend, "two") as two,
    ):
        yield one, two


async def test_hidden_positions_change_no_notification(
    tmp_path: Path, two_databases: tuple[str, str]
) -> None:
    runs = []
    for url, name, b_at in zip(
        two_databases, ("one", "two"), ((41.75, 43.25), (30.5, 44.0)), strict=True
    ):
        runs.append(await _rows_of(url, tmp_path / name, b_at))
    assert runs[0] == runs[1]
    assert any(event == "your_turn" for _, event, _, _ in runs[0])
