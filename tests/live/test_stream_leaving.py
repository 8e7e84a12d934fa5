"""Streams whose clients leave at any moment (a closed tab, a reconnect, a flaky network) never
leave a transaction half done (selected backend, a real ``pingduel serve``).

A stream's reads and heartbeats are transactions; a client that leaves cancels the stream's
task. Cancelled mid-transaction, a connection was thrown away with its transaction still open:
on SQLite every transaction begins IMMEDIATE, so that one held the write lock until the
connection was collected, and every command behind it waited out the busy timeout and then
failed with "database is locked"; on PostgreSQL the connection was closed mid-query. Here many
clients open streams (API and page) and drop them after random short times while the players
keep sending commands: every answer is the expected one, and the server logs no error.
"""

from __future__ import annotations

import asyncio
import random

import httpx

from tests.api.helpers import API, new_game
from tests.conftest import LiveServer
from tests.live import live_client

LEAVERS = 6
STREAMS_EACH = 40
COMMANDS = 30


async def _leave_at_random(url: str, path: str, token: str | None, rng: random.Random) -> None:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    for _ in range(STREAMS_EACH):
        async with httpx.AsyncClient(base_url=url, timeout=10) as client:
            try:
                async with client.stream("GET", path, headers=headers):
                    await asyncio.sleep(rng.random() * 0.03)
            except httpx.HTTPError:
                pass  # the server was slow to answer before we left: the same as leaving


async def test_clients_that_leave_mid_stream_leave_nothing_locked(
    live_server: LiveServer,
) -> None:
    async with live_client(live_server.url) as client:
        duel = await new_game(client, {"scenario": "duel", "spectators": True})
        gid = duel.game_id
        rng = random.Random(11)
        paths = [f"{API}/games/{gid}/stream", f"/games/{gid}/live"]
        leavers = [
            _leave_at_random(
                live_server.url, paths[i % 2], duel.tokens["AB"[i % 2]], random.Random(i)
            )
            for i in range(LEAVERS)
        ]

        async def play() -> list[int]:
            statuses = []
            for _ in range(COMMANDS):
                # refused commands: each still takes the game's lock and reads its state
                body = {"type": "deploy", "ships": []}
                r = await client.post(
                    f"{API}/games/{gid}/commands",
                    json=body,
                    headers={"Authorization": f"Bearer {duel.tokens['A']}"},
                )
                statuses.append(r.status_code)
                await asyncio.sleep(rng.random() * 0.02)
            return statuses

        *_, statuses = await asyncio.gather(*leavers, play())
    assert set(statuses) == {422}, statuses
    log = live_server.log_tail(200_000)
    for sign in ("Traceback", "database is locked", "Task was destroyed", "Exception"):
        assert sign not in log, log[-3000:]
