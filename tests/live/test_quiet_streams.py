"""Idle streams cost the database (almost) nothing: the server runs in this test's event loop
(uvicorn on a free port), so the test can count what it writes and reads.

- an idle spectator stream (API or page) writes nothing to the presence table, ever;
- a seat's presence heartbeat is one row per seat and game per beat, however many streams;
- the log's marks are re-read by one watcher per game, not per stream, and idle streams read
  nothing themselves; the re-check intervals are jittered;
- a lost hint is still delivered, by the game's watcher.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI

from app.live.hub import Hub
from app.main import create_app
from app.store.db import Database
from tests.conftest import make_settings, settle, uvicorn_in_process
from tests.live import events_of, live_client, open_stream, scripted_game, step

QUICK = {"stream_recheck": 0.1, "presence_beat": 0.1}


@asynccontextmanager
async def serving(db_url: str, tmp_path: Path) -> AsyncIterator[tuple[FastAPI, str]]:
    settings = make_settings(db_url, tmp_path, allow_client_seed=True)
    app = create_app(settings.model_copy(update=QUICK))
    async with uvicorn_in_process(app) as url:
        yield app, url


async def _true(value: bool) -> bool:
    return value


class Statements:
    """Every SQL statement the app's engine runs, with the rows it changed (and, given a hub,
    its parameters and the hub's count of marks read per game as the statement ran)."""

    def __init__(self, db: Database, hub: Hub | None = None) -> None:
        self.seen: list[tuple[str, int]] = []
        self.hub = hub
        self.marks: list[tuple[str, list[Any], dict[str, int]]] = []
        sa.event.listen(db.engine.sync_engine, "after_cursor_execute", self._after)

    def _after(self, _conn: Any, cursor: Any, statement: str, params: Any, *_: Any) -> None:
        text = " ".join(statement.split())
        self.seen.append((text, cursor.rowcount))
        if self.hub is not None:
            values = list(params.values()) if isinstance(params, dict) else list(params or ())
            self.marks.append((text, values, dict(self.hub.marks_read)))

    def mark(self) -> int:
        return len(self.seen)

    def since(self, mark: int, *words: str) -> list[tuple[str, int]]:
        return [(s, n) for s, n in self.seen[mark:] if all(w in s for w in words)]


async def presence_rows(db: Database, game_id: str) -> int:
    async with db.read() as conn:
        got = await conn.execute(
            sa.text("SELECT count(*) FROM presence WHERE game_id = :g"), {"g": game_id}
        )
        return int(got.scalar_one())


async def _rows_are(db: Database, game_id: str, n: int) -> bool:
    return await presence_rows(db, game_id) == n


async def page_stream(
    stack: AsyncExitStack, client: httpx.AsyncClient, game_id: str, token: str | None = None
) -> None:
    headers = {"Cookie": f"pd_seat_{game_id}={token}"} if token else {}
    response = await stack.enter_async_context(
        client.stream("GET", f"/games/{game_id}/live", headers=headers)
    )
    assert response.status_code == 200


async def test_an_idle_spectator_writes_nothing_to_presence(db_url: str, tmp_path: Path) -> None:
    async with serving(db_url, tmp_path) as (app, url), live_client(url) as client:
        db: Database = app.state.db
        duel, _ = await scripted_game(client)
        last = (await events_of(client, duel.game_id, None))["last_seq"]
        sql = Statements(db)
        mark = sql.mark()
        async with AsyncExitStack() as stack:
            reader = await stack.enter_async_context(open_stream(client, duel.game_id, None))
            await reader.until(last)
            await page_stream(stack, client, duel.game_id)
            for _ in range(3):  # idle through many re-check intervals and heartbeats
                watched = sum(app.state.hub.marks_read.values())
                await settle(lambda w=watched: _true(sum(app.state.hub.marks_read.values()) > w))
                await asyncio.sleep(0.3)
            assert await presence_rows(db, duel.game_id) == 0
            seen = await referee_presence(client, duel.game_id)
            # the referee still sees them: from this worker's memory
            assert seen["spectator"]["streams"] == 1 and seen["spectator"]["pages"] == 1
        await settle(lambda: _true(app.state.hub.count(duel.game_id) == 0))
        assert await presence_rows(db, duel.game_id) == 0
        assert sql.since(mark, "presence", "INSERT") == []
        assert sql.since(mark, "presence", "UPDATE") == []
        assert sql.since(mark, "presence", "DELETE") == []
        assert app.state.presence.beats == 0
        left = await referee_presence(client, duel.game_id)
        assert left["spectator"]["connected"] is False
        assert left["spectator"]["last_seen"] is not None  # when the last one left


async def referee_presence(client: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    from tests.conftest import ADMIN

    r = await client.get(
        f"/api/v1/games/{game_id}/referee/presence", headers={"Authorization": f"Bearer {ADMIN}"}
    )
    assert r.status_code == 200, r.text
    seats: dict[str, Any] = r.json()["seats"]
    return seats


async def test_a_seats_heartbeat_is_one_row_per_beat_whatever_its_streams(
    db_url: str, tmp_path: Path
) -> None:
    async with serving(db_url, tmp_path) as (app, url), live_client(url) as client:
        db: Database = app.state.db
        duel, _ = await scripted_game(client)
        async with AsyncExitStack() as stack:
            for _ in range(6):  # six API streams of A and two pages of A
                await stack.enter_async_context(open_stream(client, duel.game_id, duel.tokens["A"]))
            for _ in range(2):
                await page_stream(stack, client, duel.game_id, duel.tokens["A"])
            await stack.enter_async_context(open_stream(client, duel.game_id, duel.tokens["B"]))
            await settle(lambda: _true(app.state.hub.count(duel.game_id) == 9))
            # each open is written as the stream starts, before it reads anything
            await settle(lambda: _rows_are(db, duel.game_id, 9))
            # and the worker holds every one in memory: a stream's row is committed a moment
            # before the worker adds it to what its heartbeat refreshes, so a beat that began in
            # between refreshes A's row alone (and was counted below as a beat of one row); the
            # second beat from now began after the first ended, when the worker held them all
            await settle(lambda: _holds(client, duel.game_id, (6, 2, 1)))
            held = app.state.presence.beats
            await settle(lambda: _true(app.state.presence.beats >= held + 2))
            sql = Statements(db)
            beats = app.state.presence.beats
            await settle(lambda: _true(app.state.presence.beats >= beats + 4))
            done = app.state.presence.beats
            updates = sql.since(0, "UPDATE presence")
            # one statement per beat, each refreshing one row per seat and game: A and B
            assert 4 <= len(updates) <= done - beats + 1
            assert all(rows == 2 for _, rows in updates), updates
            seen = await referee_presence(client, duel.game_id)
            assert (seen["A"]["streams"], seen["A"]["pages"], seen["B"]["streams"]) == (6, 2, 1)
            assert seen["A"]["connected"] and seen["B"]["connected"]


async def _holds(client: httpx.AsyncClient, game_id: str, counts: tuple[int, int, int]) -> bool:
    """The worker holds (A's streams, A's pages, B's streams) open, as the referee sees them."""
    seen = await referee_presence(client, game_id)
    return (seen["A"]["streams"], seen["A"]["pages"], seen["B"]["streams"]) == counts


async def test_the_log_is_rechecked_once_per_game_not_per_stream(
    db_url: str, tmp_path: Path
) -> None:
    async with serving(db_url, tmp_path) as (app, url), live_client(url) as client:
        hub: Hub = app.state.hub
        busy, _ = await scripted_game(client)
        quiet, _ = await scripted_game(client)
        async with AsyncExitStack() as stack:
            for game, n in ((busy, 24), (quiet, 2)):
                last = (await events_of(client, game.game_id, None))["last_seq"]
                for _ in range(n):
                    await stack.enter_async_context(
                        open_stream(client, game.game_id, None, after=last)
                    )
            await settle(lambda: _true(hub.count() == 26))
            await asyncio.sleep(0.3)  # every stream has made its first read and waits
            assert len(hub._watchers) == 2  # one watcher per game followed here
            sql = Statements(app.state.db, hub)
            before = Counter(hub.marks_read)
            await settle(lambda: _true(hub.marks_read[quiet.game_id] >= before[quiet.game_id] + 6))
            reads = Counter(hub.marks_read)
            reads.subtract(before)
            # the game with 24 streams is re-checked no more often than the one with 2
            assert reads[busy.game_id] <= reads[quiet.game_id] + 3, reads
            # and the idle streams read nothing themselves: only the watchers' marks
            assert sql.since(0, "FROM events") == []
            # every read of a game's row is its watcher's next mark: each ran when one more of
            # the watcher's reads had been counted than at the one before (a stream reading by
            # itself would run one between two counts). Counting both at one instant instead
            # raced a read in flight: its statement ran, its count came a moment later
            # (the deadline task's poll, one statement a second per worker whatever the
            # streams, reads no game row by id: left out, issue 15)
            games = [(v, m) for t, v, m in sql.marks if "FROM games" in t and "deadline" not in t]
            for gid in (busy.game_id, quiet.game_id):
                counts = [m.get(gid, 0) for v, m in games if gid in v]
                assert counts == list(range(counts[0], counts[0] + len(counts))), counts
                assert hub.marks_read[gid] - counts[0] in (len(counts) - 1, len(counts))
            assert all(busy.game_id in v or quiet.game_id in v for v, _ in games)


def test_the_rechecks_are_jittered(monkeypatch: pytest.MonkeyPatch) -> None:
    hub = Hub(recheck=2.0, jitter=0.25)
    waits = [hub._interval() for _ in range(200)]
    assert all(1.5 <= w <= 2.5 for w in waits)
    assert len({round(w, 6) for w in waits}) > 150  # no two watchers on one beat
    assert max(waits) - min(waits) > 0.5
    hub.jitter = 0.0
    assert {hub._interval() for _ in range(5)} == {2.0}  # the jitter is what spreads them
    random.seed()


async def test_a_lost_hint_is_delivered_by_the_games_watcher(db_url: str, tmp_path: Path) -> None:
    async with serving(db_url, tmp_path) as (app, url), live_client(url) as client:
        db: Database = app.state.db
        duel, _ = await scripted_game(client)
        last = (await events_of(client, duel.game_id, duel.tokens["B"]))["last_seq"]
        async with open_stream(client, duel.game_id, duel.tokens["B"]) as reader:
            await reader.until(last)
            db._local.clear()  # this worker hears no hint of its own commits any more
            if app.state.listener is not None:  # nor of anyone's (PostgreSQL)
                app.state.listener.deliver = lambda game, seq: None
            watched = app.state.hub.marks_read[duel.game_id]
            posted = await step(client, duel)
            event = await reader.event()
            assert event.seq == posted[0]["seq"] == last + 1
            assert app.state.hub.marks_read[duel.game_id] > watched  # the watcher found it
