"""The database connection: one async engine per process, SQLite or PostgreSQL.

SQLite is the embedded default: a file in WAL mode where every write starts with ``BEGIN
IMMEDIATE`` after the process's earlier writers, so two writers never interleave. PostgreSQL
locks the game row instead (``SELECT … FOR UPDATE``). After a commit, ``Database.hint`` tells
every worker "game N is at seq S": ``pg_notify`` on PostgreSQL (outside the transaction, which
would otherwise serialise every commit of the instance), in-process callbacks on SQLite.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import orjson
import psycopg
from sqlalchemy import event, make_url, text
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.store.driver import READS, driver_of, to_json, wants_transaction

log = logging.getLogger(__name__)

Hint = Callable[[str, int], None]
SideHint = Callable[[str, str], None]  # (game_id, kind): chat and rematch wake-ups, no seq
SIDE = "!"  # a side hint's payload: "<game_id>!<kind>" (a seq hint's is "<game_id>:<seq>")


def is_postgres_url(url: str) -> bool:
    return url.startswith("postgresql")


def make_engine(url: str, pool_size: int = 20) -> AsyncEngine:
    if is_postgres_url(url):
        return _postgres_engine(url, pool_size)
    _switch_to_wal(url)
    engine = create_async_engine(url, connect_args={"timeout": 30})

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # take transaction control from the driver so that BEGIN IMMEDIATE is ours to send
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        # a read takes a snapshot (deferred BEGIN: under WAL it waits for no writer); a write
        # takes the write lock at once, so that two writers never meet halfway and fail
        reads = conn.get_execution_options().get(READS, False)
        conn.exec_driver_sql("BEGIN" if reads else "BEGIN IMMEDIATE")

    return engine


def _switch_to_wal(url: str, attempts: int = 60) -> None:
    """Put the file in WAL mode (it stays so) before any pooled connection opens. Changing the
    journal mode does not wait in SQLite's busy handler: connections that each asked for it at
    once, from two engines or processes on a file the migrations left in rollback mode, failed
    with "database is locked". So it is done once here, retried while another holds the lock."""
    path = make_url(url).database
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    for attempt in range(attempts):
        try:
            conn = sqlite3.connect(path, timeout=30)
        except sqlite3.OperationalError:
            return  # no such directory: the pool's first connection says so (``/readyz``)
        try:
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
            if mode == "wal" or conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal":
                return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
        finally:
            conn.close()
        time.sleep(0.01 * (1 + attempt % 5))  # once, at start-up, only while another switches
    raise RuntimeError(f"could not put {path} in WAL mode")


def _postgres_engine(url: str, pool_size: int) -> AsyncEngine:
    # no pre-ping (a round trip per checkout on the hot path); connections are recycled
    # instead, and a dropped one fails one request that the client retries. The pool is big
    # enough for a saturated worker's requests: an overflow connection is opened and closed
    # again for one request (a backend fork and a handshake each time).
    # The driver is in autocommit mode: a read sends its statement and nothing else, and a unit
    # of work opens its own transaction — in the round trip of its first statement when that
    # goes to the driver directly (``app.store.driver``), else here as SQLAlchemy begins.
    # JSON columns read (snapshots, stored answers) and written by orjson: several times faster
    engine = create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=0,
        pool_recycle=1800,
        isolation_level="AUTOCOMMIT",
        json_deserializer=orjson.loads,
        json_serializer=to_json,
    )

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        if wants_transaction(conn, conn.connection.driver_connection):
            conn.exec_driver_sql("BEGIN")

    return engine


# every pending hint in one statement: under load, one round trip serves many commands
_NOTIFY = "SELECT pg_notify(%s, payload) FROM unnest(CAST(%s AS text[])) payload"


class Database:
    def __init__(self, url: str, channel: str = "pingduel", pool_size: int = 20) -> None:
        self.url = url
        self.channel = channel
        self.postgres = is_postgres_url(url)
        self.engine = make_engine(url, pool_size)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self._local: list[Hint] = []
        self._local_side: list[SideHint] = []
        self._pending: dict[str, int] = {}  # game_id -> highest seq not yet notified
        self._sent: asyncio.Future[None] | None = None  # resolves when the pending ones went
        self._sender: asyncio.Task[None] | None = None
        # the hints' own connection (autocommit): a pool checkout per hint costs more CPU than
        # the NOTIFY; opened at the first hint, again after a failure
        self._notifier: psycopg.AsyncConnection[Any] | None = None
        self._writers: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None

    def session(self) -> AsyncSession:
        return self.sessions()

    @asynccontextmanager
    async def unit(self) -> AsyncIterator[AsyncConnection]:
        """One write transaction on a Core connection, committed on exit (``BEGIN IMMEDIATE``
        on SQLite; on PostgreSQL the statements lock what they need, ``FOR UPDATE``)."""
        if not self.postgres:
            async with self._write_turn(), self.engine.begin() as conn:
                yield conn
            return
        async with self.engine.connect() as conn:
            # BEGIN goes out with the first statement (``app.store.driver``)
            try:
                yield conn
            except BaseException:
                with contextlib.suppress(Exception):  # a dead connection: the pool drops it
                    await (await driver_of(conn)).rollback()
                raise
            await (await driver_of(conn)).commit()  # none begun (nothing sent): no round trip

    def _write_turn(self) -> asyncio.Lock:
        """SQLite: this process's writers take turns here before ``BEGIN IMMEDIATE``. Waiting
        in SQLite's busy handler instead means sleeps that grow to 100 ms, however soon the
        lock is free: a queue of writers (a flood's commands) then costs everyone's latency.
        Other processes on the same file still meet the busy handler. One lock per event
        loop (a lock is bound to the loop it first waits in)."""
        loop = asyncio.get_running_loop()
        if self._writers is None or self._writers[0] is not loop:
            self._writers = (loop, asyncio.Lock())
        return self._writers[1]

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        """Reads. PostgreSQL: autocommit, no BEGIN/COMMIT round trips — each statement sees
        what was committed when it started, so what must agree is read in one statement.
        SQLite: a transaction that reads one snapshot and waits for no writer."""
        async with self.engine.connect() as conn:
            # a plain option (no driver call): what marks the connection as one of reads
            assert conn.sync_connection is not None
            conn.sync_connection.execution_options(**{READS: True})
            if self.postgres:
                yield conn
                return
            async with conn.begin():
                yield conn

    def on_hint(self, callback: Hint) -> None:
        """Hints committed by this process (SQLite has no other way to hear them)."""
        self._local.append(callback)

    async def hint(self, game_id: str, seq: int) -> None:
        """After a commit: tell every worker that ``game_id`` is at ``seq`` (never any state).

        Returns once the NOTIFY has gone out. Hints that arrive while one is being sent go
        together in the next statement (one per game, its highest seq)."""
        sent = self.hint_soon(game_id, seq)
        if sent is not None:
            await asyncio.shield(sent)

    def hint_soon(self, game_id: str, seq: int) -> asyncio.Future[None] | None:
        """``hint`` without waiting for the NOTIFY (a command's answer need not wait for it):
        this process's streams hear it at once; the future resolves when it went out."""
        for callback in self._local:
            callback(game_id, seq)
        if not self.postgres:
            return None
        if seq > self._pending.get(game_id, -1):
            self._pending[game_id] = seq
        if self._sent is None:
            self._sent = asyncio.get_running_loop().create_future()
        sent = self._sent
        if self._sender is None or self._sender.done():
            self._sender = asyncio.create_task(self._send_pending(), name="pingduel-notify")
        return sent

    def on_side_hint(self, callback: SideHint) -> None:
        self._local_side.append(callback)

    async def side_hint(self, game_id: str, kind: str) -> None:
        """After a commit: a wake-up that is no game event (a chat line, a rematch offer),
        carrying no seq; ``kind`` is public (``chat.players.7``). Lost ones only delay."""
        for callback in self._local_side:
            callback(game_id, kind)
        if not self.postgres:
            return
        try:
            await self._send_notify([f"{game_id}{SIDE}{kind}"])
        except Exception:
            log.warning("pg_notify of a side hint failed for %s", game_id, exc_info=True)

    async def _send_pending(self) -> None:
        while self._pending:
            batch, sent = self._pending, self._sent
            self._pending, self._sent = {}, None
            try:
                # autocommit: the NOTIFY goes out at once, without BEGIN/COMMIT round trips
                await self._send_notify([f"{game}:{seq}" for game, seq in batch.items()])
            except Exception:  # a lost hint only delays streams: they re-check the log
                log.warning("pg_notify failed for %s", sorted(batch.items()), exc_info=True)
            finally:
                if sent is not None and not sent.done():
                    sent.set_result(None)

    async def _send_notify(self, payloads: list[str]) -> None:
        conn = self._notifier
        if conn is None or conn.closed:
            args, kwargs = self.engine.dialect.create_connect_args(self.engine.url)
            conn = await psycopg.AsyncConnection.connect(*args, **kwargs, autocommit=True)
            self._notifier = conn
        try:
            await conn.execute(_NOTIFY, (self.channel, payloads))
        except BaseException:
            self._notifier = None  # opened again for the next hint
            with contextlib.suppress(Exception):
                await conn.close()
            raise

    async def ping(self) -> None:
        async with self.read() as conn:
            await conn.execute(text("SELECT 1"))

    async def dispose(self) -> None:
        if self._sender is not None and not self._sender.done():
            await asyncio.wait([self._sender], timeout=5)
        if self._notifier is not None:
            with contextlib.suppress(Exception):
                await self._notifier.close()
            self._notifier = None
        await self.engine.dispose()
