"""Against a live server (streams stay open; clients bind their own loopback addresses):
open streams per address and per game, released on close; and the flood's short version —
a client flooding commands from one address gets 429s, the others playing from 127.0.0.2 and
up get none. Behaviour only: the timing figures are ``scripts/proof_flood.py``'s."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack
from pathlib import Path

import httpx
import pytest

from tests.conftest import LiveServer
from tests.edge.conftest import clear_of_the_hours_end
from tests.live import KEEPALIVE

API = "/api/v1"


def client_from(server: LiveServer, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address, limits=KEEPALIVE)
    return httpx.AsyncClient(transport=transport, base_url=server.url, timeout=20)


@pytest.fixture
def limited_server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(
        db_url,
        tmp_path / "data",
        PINGDUEL_LIMIT_STREAMS_PER_ADDRESS="2",
        PINGDUEL_LIMIT_STREAMS_PER_GAME="3",
    ).start()
    try:
        yield server
    finally:
        server.stop()


async def _open(c: httpx.AsyncClient, stack: AsyncExitStack, game: str) -> httpx.Response:
    r = await stack.enter_async_context(c.stream("GET", f"{API}/games/{game}/stream"))
    return r


@pytest.fixture
async def game(limited_server: LiveServer) -> AsyncIterator[str]:
    async with client_from(limited_server, "127.0.0.9") as c:
        r = await c.post(f"{API}/games", json={"scenario": "duel"})
        assert r.status_code == 201, r.text
        yield r.json()["game_id"]


async def test_open_streams_are_limited_per_address_and_released_on_close(
    limited_server: LiveServer, game: str
) -> None:
    async with client_from(limited_server, "127.0.0.2") as c:
        async with AsyncExitStack() as streams:
            assert [(await _open(c, streams, game)).status_code for _ in range(2)] == [200] * 2
            async with AsyncExitStack() as third:
                r = await _open(c, third, game)
                assert r.status_code == 429 and r.headers["Retry-After"].isdigit()
                await r.aread()
                assert r.json()["limit"] == "streams_per_address"
        # both closed: the address may open streams again (the server notices the close)
        for _ in range(50):
            async with AsyncExitStack() as again:
                if (await _open(c, again, game)).status_code == 200:
                    break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the closed streams were never given back")


async def test_open_streams_are_limited_per_game(limited_server: LiveServer, game: str) -> None:
    async with AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(client_from(limited_server, f"127.0.0.{n}"))
            for n in range(2, 6)
        ]
        for c in clients[:3]:
            assert (await _open(c, stack, game)).status_code == 200
        r = await _open(clients[3], stack, game)
        assert r.status_code == 429
        await r.aread()
        assert r.json()["limit"] == "streams_per_game"


async def _player(server: LiveServer, address: str, sends: int) -> list[int]:
    """A normal client: its own game, a command every 0.2 s (refused by the game or not)."""
    async with client_from(server, address) as c:
        made = (await c.post(f"{API}/games", json={"scenario": "duel"})).json()
        claim = await c.post(f"{API}/invites/{made['invites']['B']}/claim", json={})
        statuses = [claim.status_code]
        auth = {"Authorization": f"Bearer {made['token']}"}
        for _ in range(sends):
            r = await c.get(f"{API}/games/{made['game_id']}", headers=auth)
            statuses.append(r.status_code)
            r = await c.post(
                f"{API}/games/{made['game_id']}/commands",
                json={"type": "end_activation", "ship": "a1"},
                headers=auth,
            )
            statuses.append(r.status_code)
            await asyncio.sleep(0.2)
        return statuses


async def _flooder(server: LiveServer, sends: int) -> list[int]:
    async with client_from(server, "127.0.0.1") as c:
        made = (await c.post(f"{API}/games", json={"scenario": "duel"})).json()
        auth = {"Authorization": f"Bearer {made['token']}"}
        path = f"{API}/games/{made['game_id']}/commands"
        statuses = []
        for _ in range(sends):
            r = await c.post(path, json={"type": "end_activation", "ship": "a1"}, headers=auth)
            statuses.append(r.status_code)
        return statuses


async def test_a_flood_from_one_address_is_refused_and_the_others_are_not(
    db_url: str, tmp_path: Path
) -> None:
    # an hour's window: however slow the machine, the 60 sends fall in the limiter's first
    # window, where its count is exact (with 10 s, a loaded run spilled into the next window
    # and the sliding count let a 21st through)
    server = LiveServer(db_url, tmp_path / "data", PINGDUEL_LIMIT_COMMANDS="20/hour").start()
    try:
        await clear_of_the_hours_end()  # and no full hour falls among them either
        players = [_player(server, f"127.0.0.{n}", 8) for n in range(2, 5)]
        *normal, flood = await asyncio.gather(*players, _flooder(server, 60))
    finally:
        server.stop()
    assert flood.count(429) == 60 - 20, flood
    assert flood[:20].count(429) == 0 and set(flood[20:]) == {429}, flood
    for statuses in normal:
        assert 429 not in statuses, statuses
        assert all(s < 500 for s in statuses)
