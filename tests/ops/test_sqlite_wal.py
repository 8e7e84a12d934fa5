"""A SQLite file the migrations made (rollback journal) switches to WAL once, before the pool's
first connections: switching the journal mode never waits in SQLite's busy handler, so several
first connections that each asked for WAL at once failed with "database is locked" (a CI run
met it when two app instances opened the same fresh file)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.store.db import make_engine
from tests.conftest import migrated_sqlite


def journal_mode(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        return str(conn.execute("PRAGMA journal_mode").fetchone()[0])


async def first_connections(url: str, count: int) -> None:
    """The first connection of ``count`` engines at once (SQLAlchemy runs one engine's first
    connect alone; two app instances, or two processes, are two engines)."""
    engines = [make_engine(url) for _ in range(count)]
    try:

        async def read(engine: AsyncEngine) -> None:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT count(*) FROM games"))

        await asyncio.gather(*(read(engine) for engine in engines))
    finally:
        for engine in engines:
            await engine.dispose()


async def test_first_connections_at_once_on_a_fresh_file(tmp_path: Path) -> None:
    # the race hit about one try in six with three connections; forty tries of four each
    for n in range(40):
        path = tmp_path / f"fresh{n}.db"
        url = migrated_sqlite(path)
        assert journal_mode(path) == "delete"  # what the migrations leave
        await first_connections(url, 4)
        assert journal_mode(path) == "wal"
