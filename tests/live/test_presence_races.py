"""Presence writes that overlap never deadlock each other on PostgreSQL: streams of one seat
closing together, each refreshing the seat's next row, while heartbeats refresh rows they
listed a moment before. A deadlock aborts one transaction, and the stream that opened or
closed would answer an error (seen under load in the stream tests)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx

from app.main import create_app
from app.play.presence import HERE, PresenceTracker
from app.store import presence as P
from app.store.db import Database
from tests.conftest import make_settings

ROUNDS = 40
STREAMS = 6


async def _a_game(pg_url: str, tmp_path: Path) -> str:
    app = create_app(make_settings(pg_url, tmp_path))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            r = await c.post("/api/v1/games", json={"scenario": "duel"})
            assert r.status_code == 201, r.text
            return str(r.json()["game_id"])


async def test_closes_and_heartbeats_of_one_seat_never_deadlock(
    pg_url: str, tmp_path: Path
) -> None:
    game = await _a_game(pg_url, tmp_path)
    db = Database(pg_url, pool_size=STREAMS + 4)
    tracker = PresenceTracker(db, beat=3600)  # beats sent by hand below, not by its timer
    rng = random.Random(14)
    try:
        for _ in range(ROUNDS):
            contacts = [await tracker.open(game, "A", "stream") for _ in range(STREAMS)]
            rng.shuffle(contacts)

            async def beat_late() -> None:
                rows = HERE.beacons()  # listed now, written after some closes began
                await asyncio.sleep(rng.random() * 0.002)
                async with db.unit() as conn:
                    await P.beat(conn, rows)

            work = [tracker.close(c) for c in contacts]
            work += [tracker.beat_once(), beat_late(), beat_late()]
            rng.shuffle(work)
            results = await asyncio.gather(*work, return_exceptions=True)
            failures = [r for r in results if isinstance(r, BaseException)]
            assert not failures, failures
    finally:
        await db.dispose()
