"""The per-process state cache (``app.store.cache``) and the one-statement reads of the command
path: a worker's cached state is used only at the seq the game row has, so a worker that missed
another's commands reads the snapshot again; and a command that waited for the game's lock
re-reads what the other writer changed (PostgreSQL's ``FOR UPDATE`` re-check)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import psycopg

from app.main import create_app
from app.play.service import GameService
from app.rules import GameState
from app.store.cache import NO_SEQ, StateCache
from tests.api.helpers import API, Duel, command, new_game, view
from tests.api.replay_check import assert_problem, assert_replays
from tests.conftest import make_settings


@asynccontextmanager
async def worker(db_url: str, data: Path) -> AsyncIterator[tuple[GameService, httpx.AsyncClient]]:
    """One app — one process's service and cache — over the shared database."""
    app = create_app(make_settings(db_url, data, allow_client_seed=True))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield app.state.service, client


def placement(ship: str, x: float, y: float, heading: int) -> dict[str, Any]:
    return {"ship": ship, "position": {"x": x, "y": y}, "heading": heading, "speed": 2}


async def ok(client: httpx.AsyncClient, duel: Duel, seat: str, body: dict[str, Any]) -> Any:
    r = await command(client, duel, seat, body)
    assert r.status_code == 200, r.text
    return r.json()


async def test_a_warm_cache_behind_the_row_is_not_used(db_url: str, tmp_path: Path) -> None:
    async with (
        worker(db_url, tmp_path / "one") as (one, c1),
        worker(db_url, tmp_path / "two") as (two, c2),
    ):
        duel = await new_game(c1, {"scenario": "duel"})
        start = (await view(c1, duel, "A"))["seq"]
        assert (await view(c2, duel, "B"))["seq"] == start
        # both processes hold the state at the game's seq
        assert one.states.seq(duel.game_id) == two.states.seq(duel.game_id) == start

        # A deploys through the first process: the second one's cached state is now behind
        a = await ok(c1, duel, "A", {"type": "deploy", "ships": [placement("a1", 36, 8, 0)]})
        moved = a["view"]["seq"]
        assert moved > start
        assert one.states.seq(duel.game_id) == moved
        assert two.states.seq(duel.game_id) == start

        # the second process sees the new state: in a view ...
        assert await view(c2, duel, "B") == await view(c1, duel, "B")
        # ... and in a command, which starts from A's deployment (a stale state would append
        # B's events at seqs A's took, or lose A's deployment from the snapshot)
        b = await ok(c2, duel, "B", {"type": "deploy", "ships": [placement("b1", 36, 40, 6)]})
        assert b["events"][0]["seq"] == moved + 1
        assert two.states.seq(duel.game_id) == b["view"]["seq"]

        # now the first process is behind: it reads B's deployment too
        seen = await view(c1, duel, "A")
        assert seen["seq"] == b["view"]["seq"]
        assert seen["phase"]["step"] != "deploy"
        await assert_replays(db_url, duel.game_id)


async def test_a_state_is_cached_only_once_committed(db_url: str, tmp_path: Path) -> None:
    async with worker(db_url, tmp_path / "one") as (service, client):
        duel = await new_game(client, {"scenario": "duel"})
        at = (await view(client, duel, "A"))["seq"]
        # refused by the rules: the transaction rolls back, the cache keeps the committed state
        r = await command(
            client, duel, "A", {"type": "deploy", "ships": [placement("a1", 36, 200, 0)]}
        )
        assert r.status_code >= 400, r.text
        assert service.states.seq(duel.game_id) == at
        # a poisoned entry at another seq is never used: the row's seq decides
        cached = service.states.get(duel.game_id, at)
        assert cached is not None
        service.states.forget(duel.game_id)
        service.states.put(duel.game_id, replace(cached, seq=at - 1, turn=99))
        assert (await view(client, duel, "A"))["turn"] != 99
        assert service.states.seq(duel.game_id) == at


async def test_a_command_that_waited_for_the_lock_sees_the_seat_replaced(
    pg_url: str, tmp_path: Path
) -> None:
    """The seat and the game are read in one ``SELECT … FOR UPDATE``: if the game's lock was
    held by a writer that replaced the seat, the command must see the seat as it is once it
    holds the lock (PostgreSQL re-reads only the locked row, so the statement runs again)."""
    dsn = pg_url.replace("postgresql+psycopg://", "postgresql://", 1)
    async with worker(pg_url, tmp_path / "one") as (_, client):
        duel = await new_game(client, {"scenario": "duel"})
        holder = await psycopg.AsyncConnection.connect(dsn)
        watcher = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
        try:
            # a writer replaces seat A the way the referee does: game locked, seat revoked,
            # game row updated — and has not committed yet
            await holder.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (duel.game_id,))
            await holder.execute(
                "UPDATE seats SET revoked_at = now() WHERE game_id = %s AND side = 'A'",
                (duel.game_id,),
            )
            await holder.execute(
                "UPDATE games SET updated_at = now() WHERE id = %s", (duel.game_id,)
            )
            deploy = {"type": "deploy", "ships": [placement("a1", 36, 8, 0)]}
            sent = asyncio.create_task(command(client, duel, "A", deploy))
            async with asyncio.timeout(30):  # until the command waits for the game's lock
                while not await _waiting_for_a_lock(watcher):
                    await asyncio.sleep(0.02)
            await holder.commit()
            assert_problem(await sent, 401, "invalid_token")
        finally:
            await holder.close()
            await watcher.close()
        assert (await client.get(f"{API}/games/{duel.game_id}")).json()["phase"]["step"] == (
            "deploy"
        )


async def _waiting_for_a_lock(conn: psycopg.AsyncConnection[Any]) -> bool:
    cur = await conn.execute(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    )
    row = await cur.fetchone()
    return bool(row and row[0])


def _state(seq: int) -> GameState:
    return replace(_BASE, seq=seq)


def test_the_cache_keeps_the_newest_state_and_forgets_the_oldest_game() -> None:
    cache = StateCache(size=2)
    assert cache.seq("g1") == NO_SEQ and cache.get("g1", 1) is None
    cache.put("g1", _state(5))
    assert cache.seq("g1") == 5
    assert cache.get("g1", 5) is not None
    assert cache.get("g1", 4) is None and cache.get("g1", 6) is None
    cache.put("g1", _state(3))  # an older row read late never replaces a newer state
    assert cache.seq("g1") == 5
    cache.put("g2", _state(1))
    cache.get("g1", 5)  # g1 used last: g2 is the oldest
    cache.put("g3", _state(1))
    assert len(cache) == 2
    assert cache.seq("g2") == NO_SEQ and cache.seq("g1") == 5


def _base() -> GameState:
    from app.rules import game_started, start_state
    from app.rules.game import GameSetup

    return start_state(game_started("cachetest", GameSetup.from_scenario("duel", "cinematic")))


_BASE = _base()
