"""The database connection: one async engine per process, SQLite or PostgreSQL.

SQLite is the embedded default: a file in WAL mode where every transaction starts with
``BEGIN IMMEDIATE``, so two writers never interleave. PostgreSQL locks the game row instead
(``SELECT … FOR UPDATE``). After a commit, ``Database.hint`` tells every worker "game N is at
seq S": ``pg_notify`` on PostgreSQL (outside the transaction, which would otherwise serialise
every commit of the instance), in-process callbacks on SQLite.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

log = logging.getLogger(__name__)

Hint = Callable[[str, int], None]


def is_postgres_url(url: str) -> bool:
    return url.startswith("postgresql")


def make_engine(url: str, pool_size: int = 10) -> AsyncEngine:
    if is_postgres_url(url):
        # no pre-ping (a round trip per checkout on the hot path); connections are recycled
        # instead, and a dropped one fails one request that the client retries
        return create_async_engine(
            url, pool_size=pool_size, max_overflow=pool_size, pool_recycle=1800
        )
    engine = create_async_engine(url, connect_args={"timeout": 30})

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # take transaction control from the driver so that BEGIN IMMEDIATE is ours to send
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


class Database:
    def __init__(self, url: str, channel: str = "pingduel", pool_size: int = 10) -> None:
        self.url = url
        self.channel = channel
        self.postgres = is_postgres_url(url)
        self.engine = make_engine(url, pool_size)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._local: list[Hint] = []

    def session(self) -> AsyncSession:
        return self.sessions()

    def on_hint(self, callback: Hint) -> None:
        """Hints committed by this process (SQLite has no other way to hear them)."""
        self._local.append(callback)

    async def hint(self, game_id: str, seq: int) -> None:
        """After a commit: tell every worker that ``game_id`` is at ``seq`` (never any state)."""
        for callback in self._local:
            callback(game_id, seq)
        if self.postgres:
            try:
                async with self.engine.connect() as conn:
                    # autocommit: the NOTIFY goes out at once, without BEGIN/COMMIT round trips
                    auto = await conn.execution_options(isolation_level="AUTOCOMMIT")
                    await auto.execute(
                        text("SELECT pg_notify(:channel, :payload)"),
                        {"channel": self.channel, "payload": f"{game_id}:{seq}"},
                    )
            except Exception:  # a lost hint only delays streams: they re-check the log
                log.warning("pg_notify failed for %s:%s", game_id, seq, exc_info=True)

    async def ping(self) -> None:
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def dispose(self) -> None:
        await self.engine.dispose()
