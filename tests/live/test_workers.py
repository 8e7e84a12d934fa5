"""Several workers on one PostgreSQL: LISTEN/NOTIFY carries the hints between them.

The servers here re-check the log only every 30 s (``PINGDUEL_STREAM_RECHECK=30``), so an event
that reaches a stream on another worker within a few seconds came by NOTIFY, not by the re-check.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import psycopg

from tests.conftest import LiveServer, _psycopg_dsn, settle
from tests.live import events_of, live_client, open_stream, scripted_game, step

SLOW_RECHECK = {"PINGDUEL_STREAM_RECHECK": "30"}
PROMPT = 10.0  # seconds: far below the 30 s re-check


def _listeners(pg_url: str) -> list[int]:
    """Backend pids of the LISTEN connections on this test's database."""
    with psycopg.connect(_psycopg_dsn(pg_url), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND query ILIKE 'LISTEN%'"
        ).fetchall()
    return sorted(int(row[0]) for row in rows)


async def listening(pg_url: str, count: int, old: list[int] | None = None) -> list[int]:
    """Wait until ``count`` LISTEN connections (none of ``old``) are up on the database."""

    async def ready() -> bool:
        pids = await asyncio.to_thread(_listeners, pg_url)
        return len(set(pids) - set(old or ())) >= count

    await settle(ready)
    return await asyncio.to_thread(_listeners, pg_url)


@asynccontextmanager
async def servers(pg_url: str, tmp_path: Path, *workers: int) -> AsyncIterator[list[LiveServer]]:
    started: list[LiveServer] = []
    try:
        for i, n in enumerate(workers):
            started.append(
                await asyncio.to_thread(
                    LiveServer(pg_url, tmp_path / f"data{i}", workers=n, **SLOW_RECHECK).start
                )
            )
        yield started
    finally:
        for server in started:
            server.stop()


async def test_an_event_posted_on_one_server_reaches_a_stream_on_another(
    pg_url: str, tmp_path: Path
) -> None:
    async with (
        servers(pg_url, tmp_path, 1, 1) as (one, two),
        live_client(one.url) as c1,
        live_client(two.url) as c2,
    ):
        await listening(pg_url, 2)
        duel, _ = await scripted_game(c2)
        last = (await events_of(c1, duel.game_id, duel.tokens["B"]))["last_seq"]
        async with open_stream(c1, duel.game_id, duel.tokens["B"]) as reader:
            await reader.until(last)
            for _ in range(4):  # every hint, not only the first
                for posted in await step(c2, duel):
                    event = await reader.event(timeout=PROMPT)
                    assert event.seq == posted["seq"]
                    assert event.event == posted["type"]


async def test_two_workers_on_one_port(pg_url: str, tmp_path: Path) -> None:
    async with servers(pg_url, tmp_path, 2) as (server,), AsyncExitStack() as stack:
        await listening(pg_url, 2)  # each worker process holds its own LISTEN connection
        client = await stack.enter_async_context(live_client(server.url))
        duel, _ = await scripted_game(client)
        last = (await events_of(client, duel.game_id, duel.tokens["A"]))["last_seq"]
        # streams on separate connections: the kernel spreads them over both workers
        readers = []
        for _ in range(6):
            c = await stack.enter_async_context(live_client(server.url))
            readers.append(
                await stack.enter_async_context(
                    open_stream(c, duel.game_id, duel.tokens["A"], after=last)
                )
            )
        for _ in range(4):
            async with live_client(server.url) as poster:  # a new connection, either worker
                posted = await step(poster, duel)
            for reader in readers:
                got = [await reader.event(timeout=PROMPT) for _ in posted]
                assert [e.seq for e in got] == [p["seq"] for p in posted]


async def test_the_listen_connection_reconnects_by_itself(pg_url: str, tmp_path: Path) -> None:
    async with (
        servers(pg_url, tmp_path, 1, 1) as (one, two),
        live_client(one.url) as c1,
        live_client(two.url) as c2,
    ):
        before = await listening(pg_url, 2)
        duel, _ = await scripted_game(c2)
        last = (await events_of(c1, duel.game_id, duel.tokens["A"]))["last_seq"]
        async with open_stream(c1, duel.game_id, duel.tokens["A"]) as reader:
            await reader.until(last)
            killed = await asyncio.to_thread(_terminate_listeners, pg_url)
            assert sorted(killed) == before
            await listening(pg_url, 2, old=before)  # both processes listen again
            posted = await step(c2, duel)
            event = await reader.event(timeout=PROMPT)  # by NOTIFY on the new connection
            assert event.seq == posted[0]["seq"] == last + 1


def _terminate_listeners(pg_url: str) -> list[int]:
    with psycopg.connect(_psycopg_dsn(pg_url), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND query ILIKE 'LISTEN%'"
        ).fetchall()
    assert all(row[1] for row in rows)
    return [int(row[0]) for row in rows]
