"""On SQLite one process's writers take turns before ``BEGIN IMMEDIATE`` instead of waiting in
SQLite's busy handler, whose sleeps grow to 100 ms however soon the lock is free (a queue of
writers, such as a flood's commands, then cost every other command up to that much). The test
turns the busy handler off: a writer that met a held lock inside SQLite would fail at once
with "database is locked"; one that waits its turn in the process never meets it."""

from __future__ import annotations

import asyncio
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

from app.store.db import Database


def without_busy_handler(db: Database) -> None:
    @event.listens_for(db.engine.sync_engine, "connect")
    def _no_wait(dbapi_connection: Any, _record: Any) -> None:  # after the engine's own
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout=0")
        cursor.close()


async def test_writers_of_one_process_never_meet_inside_sqlite(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    without_busy_handler(db)
    async with db.unit() as conn:
        await conn.execute(sa.text("CREATE TABLE tally (writer INTEGER, step INTEGER)"))

    async def writer(n: int) -> None:
        async with db.unit() as conn:
            await conn.execute(sa.text("INSERT INTO tally VALUES (:n, 0)"), {"n": n})
            await asyncio.sleep(0.005)  # the lock is held across awaits, as a command holds it
            await conn.execute(sa.text("INSERT INTO tally VALUES (:n, 1)"), {"n": n})

    try:
        await asyncio.wait_for(asyncio.gather(*(writer(n) for n in range(12))), timeout=120)
        async with db.read() as conn:
            rows = (
                await conn.execute(sa.text("SELECT writer, step FROM tally ORDER BY rowid"))
            ).all()
        # every writer wrote both rows, one writer after the other
        assert sorted(rows) == [(n, s) for n in range(12) for s in (0, 1)]
        assert all(rows[i][0] == rows[i + 1][0] for i in range(0, len(rows), 2))
    finally:
        await db.dispose()
