"""On SQLite a read waits for no writer: it takes a snapshot (WAL), not the write lock. Before,
every read began ``BEGIN IMMEDIATE`` like a write, so views, streams and the lobby queued
behind commands for the one lock, and under load a read could wait out the busy timeout and
fail with "database is locked"."""

from __future__ import annotations

import asyncio

import sqlalchemy as sa

from app.store.db import Database


async def test_a_read_runs_while_a_write_transaction_is_open(sqlite_url: str) -> None:
    db = Database(sqlite_url)
    writing, read_done = asyncio.Event(), asyncio.Event()

    async def writer() -> None:
        async with db.unit() as conn:
            await conn.execute(sa.text("SELECT count(*) FROM games"))  # the lock is held
            writing.set()
            # the unit stays open until the read has ended: a read that waited for the
            # write lock would never end, and the busy timeout would fail it
            await read_done.wait()

    async def reader() -> int:
        await writing.wait()
        async with db.read() as conn:
            n = (await conn.execute(sa.text("SELECT count(*) FROM games"))).scalar_one()
        read_done.set()
        return int(n)

    try:
        _, count = await asyncio.wait_for(asyncio.gather(writer(), reader()), timeout=120)
        assert count == 0
    finally:
        await db.dispose()
