"""The server's computer seat (``app.play.computer``): a game against it through the API
reaches its end, the computer acting only through its seat; its turns are claimed from the
database, so a second worker never plays them twice and a restarted one loses none."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.bot import strategy
from app.bot.seat import awaited
from app.main import create_app
from app.play.service import GameService
from tests.api.helpers import API, Duel, command
from tests.api.replay_check import assert_replays
from tests.conftest import ADMIN, make_settings


@asynccontextmanager
async def served(
    db_url: str, data: Path, **extra: Any
) -> AsyncIterator[tuple[GameService, httpx.AsyncClient]]:
    settings = {"computer": True, "computer_delay_scale": 0, "computer_poll": 0.05, **extra}
    app = create_app(make_settings(db_url, data, **settings))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield app.state.service, client


async def against_computer(client: httpx.AsyncClient, body: dict[str, Any]) -> Duel:
    r = await client.post(f"{API}/games", json=body)
    assert r.status_code == 201, r.text
    created = r.json()
    return Duel(created["game_id"], {created["side"]: created["token"]}, created["invites"])


async def seat_view(client: httpx.AsyncClient, duel: Duel, seat: str) -> dict[str, Any]:
    r = await client.get(duel.path, headers=duel.auth(seat))
    assert r.status_code == 200, r.text
    return dict(r.json())


async def play_out(
    client: httpx.AsyncClient, duel: Duel, seat: str, seed: int, seconds: float = 120
) -> dict[str, Any]:
    """Play ``seat`` as a cadet over HTTP until the game ends; the final view."""
    human = strategy("cadet")
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        seen = await seat_view(client, duel, seat)
        if seen["status"] == "finished":
            return seen
        if not awaited(seen):
            await asyncio.sleep(0.02)
            continue
        answer = human.decide(seen, rng)
        assert answer is not None
        r = await command(client, duel, seat, {**answer, "at_seq": seen["seq"]})
        assert r.status_code in (200, 409), r.text  # 409: the computer answered first
    raise AssertionError(f"the game against the computer did not end in {seconds} s")


@pytest.mark.parametrize("creator", ["A", "B"])
async def test_a_game_against_the_computer_reaches_its_end(
    db_url: str, tmp_path: Path, creator: str
) -> None:
    async with served(db_url, tmp_path) as (_, client):
        body = {"scenario": "duel", "creator": creator, "opponent": {"computer": "cadet"}}
        duel = await against_computer(client, body)
        assert duel.invites == {}  # no seat is left to claim
        computer = "B" if creator == "A" else "A"
        seen = await seat_view(client, duel, creator)
        assert seen["status"] == "active"
        assert seen["seats"][computer]["name"] == "Computer (cadet)"
        final = await play_out(client, duel, creator, seed=7)
    assert final["winner"] in ("A", "B", "draw")
    await assert_replays(db_url, duel.game_id)


async def test_opponent_is_checked_and_a_refusal_creates_nothing(
    db_url: str, tmp_path: Path
) -> None:
    admin = {"Authorization": f"Bearer {ADMIN}"}
    async with served(db_url, tmp_path) as (_, client):
        for bad in ("human", {"computer": "admiral"}, {"level": "cadet"}, 3, None):
            r = await client.post(f"{API}/games", json={"scenario": "duel", "opponent": bad})
            if bad is None:  # JSON null: no opponent, an ordinary game
                assert r.status_code == 201, r.text
                continue
            assert r.status_code == 422, (bad, r.text)
            assert r.headers["content-type"].startswith("application/problem+json")
            assert "opponent" in r.text
        listed = await client.get(f"{API}/games", headers=admin)
        assert listed.status_code == 200, listed.text
        assert len(listed.json()["games"]) == 1


async def test_a_rematch_against_the_computer_starts_at_once(db_url: str, tmp_path: Path) -> None:
    async with served(db_url, tmp_path) as (_, client):
        body = {"scenario": "duel", "opponent": {"computer": "cadet"}}
        duel = await against_computer(client, body)
        r = await command(client, duel, "A", {"type": "resign"})
        assert r.status_code == 200, r.text
        r = await client.post(f"{duel.path}/rematch", headers=duel.auth("A"))
        assert r.status_code == 200, r.text  # no offer to wait on: the computer accepts
        again = Duel(r.json()["game_id"], {"B": r.json()["token"]})
        seen = await seat_view(client, again, "B")  # the players swap sides
        assert seen["status"] == "active"
        assert seen["seats"]["A"]["name"] == "Computer (cadet)"
        r = await client.post(f"{duel.path}/rematch", headers=duel.auth("A"))
        assert r.status_code == 200 and r.json()["token"] is None
