"""In-process fan-out of hints to the streams this worker holds, and one watcher per game.

A hint carries only ``(game_id, seq)``: each stream then reads its own seat's events from the
log, so no payload is ever shared between two seats. A subscription is a wake-up flag, not a
queue: whatever woke a stream, it reads the log from its own last seq, so a burst of hints
costs one read, never memory.

The log is the truth and a hint only a wake-up. Hints can be lost (another process on the same
SQLite file, a LISTEN connection that died), so each game followed here has one watcher task
that reads the game's marks (its seq, its last revoked seat, its presence rows) on a jittered
interval and wakes the game's streams when one moved: one read per game per worker, however
many streams follow it, and the watchers of different games never wake together.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from app.live import metrics
from app.store import presence as P
from app.store.db import Database

log = logging.getLogger(__name__)
_HINT = re.compile(r"(.+):(-?[0-9]{1,10})")

# why a stream was woken (a stream may be woken for several at once)
SEQ = 1  # the game has a new seq
PRESENCE = 2  # a page or stream of a shown seat opened or closed somewhere
CHECK = 4  # a seat was revoked: every stream re-checks its token
END = 8  # the client left or the server is shutting down
CHAT = 16  # a chat line in the stream's channel (issue 15: no seq, no game event)
REMATCH = 32  # the game's rematch was offered or accepted
_SIDE = re.compile(r"(.+)!(chat\.(players|spectators)\.([0-9]{1,10})|rematch)")
_LAG_KEEP = 4096  # commits remembered for the hint lag (PostgreSQL: until their NOTIFY returns)


def parse_side_hint(payload: str) -> tuple[str, str] | None:
    """``"<game_id>!chat.<channel>.<n>"`` or ``"<game_id>!rematch"``; anything else: None."""
    match = _SIDE.fullmatch(payload)
    return (match.group(1), match.group(2)) if match else None


def parse_hint(payload: str) -> tuple[str, int] | None:
    """``"<game_id>:<seq>"`` → the hint; anything else on the channel (anyone with database
    access can NOTIFY) is ignored rather than let ``int()`` fail and drop the LISTEN connection."""
    match = _HINT.fullmatch(payload)
    return (match.group(1), int(match.group(2))) if match else None


class Subscription:
    """One open stream's wake-up: flags set by the hub, one future only while it waits."""

    __slots__ = ("_waiter", "chat", "chat_n", "flags", "game_id", "seq")

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.seq = -1  # the game's seq at the stream's last read (the watcher compares)
        self.flags = 0
        self.chat: str | None = None  # the chat channel this stream follows, if any
        self.chat_n = 0  # the highest line of that channel it was told of
        self._waiter: asyncio.Future[None] | None = None

    @property
    def ended(self) -> bool:
        return bool(self.flags & END)

    def wake(self, why: int) -> None:
        self.flags |= why
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def wait(self, timeout: float | None = None) -> int:
        """Until woken (or ``timeout`` seconds, then 0): the reasons, cleared (END stays)."""
        if not self.flags & ~END and not self.ended:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await asyncio.wait_for(self._waiter, timeout)
            except TimeoutError:
                pass
            finally:
                self._waiter = None
        flags, self.flags = self.flags, self.flags & END
        return flags


class Hub:
    def __init__(
        self, db: Database | None = None, recheck: float = 5.0, jitter: float = 0.25
    ) -> None:
        self.db = db
        self.recheck = recheck
        self.jitter = jitter
        self._subs: dict[str, set[Subscription]] = {}
        self._watchers: dict[str, asyncio.Task[None]] = {}
        self._committed: dict[tuple[str, int], float] = {}  # for the hint lag (PostgreSQL)
        self._drain: asyncio.Task[None] | None = None
        # games with a new stream since their watcher's last read: a seat revoked before
        # that read (but after the stream checked its token) must still end the stream
        self._joined: set[str] = set()
        self.marks_read: Counter[str] = Counter()  # watcher reads per game (tests count them)

    # -- subscriptions -------------------------------------------------------------------
    def subscribe(self, game_id: str) -> Subscription:
        sub = Subscription(game_id)
        subs = self._subs.setdefault(game_id, set())
        subs.add(sub)
        self._joined.add(game_id)
        if self.db is not None and game_id not in self._watchers:
            self._watchers[game_id] = asyncio.create_task(
                self._watch(game_id), name=f"pingduel-watch-{game_id}"
            )
        if self._drain is None:
            self._drain = asyncio.create_task(self._until_exit(), name="pingduel-drain")
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.game_id)
        if subs is None:
            return
        subs.discard(sub)
        if not subs:
            del self._subs[sub.game_id]
            self._joined.discard(sub.game_id)
            watcher = self._watchers.pop(sub.game_id, None)
            if watcher is not None:
                watcher.cancel()

    def _wake(self, game_id: str, why: int, but: Subscription | None = None) -> None:
        for sub in list(self._subs.get(game_id, ())):
            if sub is not but:
                sub.wake(why)

    def publish(self, game_id: str, seq: int) -> None:
        self._wake(game_id, SEQ)

    def committed(self, game_id: str, seq: int) -> None:
        """A command of this worker committed (``Database.on_hint``): its streams hear it now.
        On PostgreSQL the time is kept until the NOTIFY comes back on the LISTEN connection,
        which gives the hint lag; on SQLite this call is the hint, and the lag is nil."""
        if self.db is not None and self.db.postgres:
            if len(self._committed) >= _LAG_KEEP:
                self._committed.pop(next(iter(self._committed)))
            self._committed[(game_id, seq)] = time.monotonic()
        else:
            metrics.HINT_LAG.observe(0.0)
        self.publish(game_id, seq)

    def heard(self, game_id: str, seq: int) -> None:
        """A hint from the LISTEN connection (this worker's commits and every other's)."""
        sent = self._committed.pop((game_id, seq), None)
        if sent is not None:
            metrics.HINT_LAG.observe(time.monotonic() - sent)
        self.publish(game_id, seq)

    def side(self, game_id: str, kind: str) -> None:
        """A side hint (``Database.side_hint``): a chat line wakes only the streams of its
        channel (a spectator's line never reaches a player's stream, nor the reverse); a
        rematch wakes every stream of the game."""
        if kind == "rematch":
            self._wake(game_id, REMATCH)
            return
        _, channel, n = kind.split(".")
        for sub in list(self._subs.get(game_id, ())):
            # on PostgreSQL this worker hears its own lines twice (at once, then by LISTEN)
            if sub.chat == channel and int(n) > sub.chat_n:
                sub.chat_n = int(n)
                sub.wake(CHAT)

    def poke(self, game_id: str, opener: Subscription | None = None) -> None:
        """Wake this worker's other streams of a game without a new seq: a page or stream of
        a shown seat opened or closed, so the pages re-check who is connected (other workers'
        pages see it at their watcher's next read). The stream that opened is not woken by its
        own poke: it is about to read anyway."""
        self._wake(game_id, PRESENCE, but=opener)

    def wake_all(self) -> None:
        """Wake every stream of this worker to re-read its log: hints sent while this worker
        was not listening never reach it (LISTEN (re)connected, see ``PgListener``)."""
        for game_id in list(self._subs):
            self._wake(game_id, SEQ)  # SEQ, not a presence poke: the streams must re-read

    def count(self, game_id: str | None = None) -> int:
        if game_id is not None:
            return len(self._subs.get(game_id, ()))
        return sum(len(s) for s in self._subs.values())

    # -- the per-game watcher and the shutdown -------------------------------------------
    def _interval(self) -> float:
        return self.recheck * random.uniform(1 - self.jitter, 1 + self.jitter)

    async def _watch(self, game_id: str) -> None:
        """Reads the game's marks every ``recheck`` seconds (jittered; the first wait is a
        random share of it, so games followed since the same moment spread out)."""
        assert self.db is not None
        last: P.Marks | None = None
        await asyncio.sleep(random.uniform(0, self.recheck))
        while True:
            try:
                async with self.db.read() as conn:
                    marks = await P.marks(conn, game_id)
                self.marks_read[game_id] += 1
            except asyncio.CancelledError:
                raise
            except Exception:  # a failed read only delays: the next one comes
                log.warning("watcher of game %s could not read the log", game_id, exc_info=True)
                marks = None
            if marks is not None:
                for sub in list(self._subs.get(game_id, ())):
                    if 0 <= sub.seq < marks.seq:
                        sub.wake(SEQ)  # a hint that never came
                joined = game_id in self._joined
                self._joined.discard(game_id)
                if (last is not None and marks.revoked != last.revoked) or (
                    joined and marks.revoked is not None
                ):
                    self._wake(game_id, CHECK)
                if last is not None and marks.presence != last.presence:
                    self._wake(game_id, PRESENCE)
                last = marks
            await asyncio.sleep(self._interval())

    async def _until_exit(self) -> None:
        """The server is shutting down: end every stream, so that the worker can stop (a
        stream never ends by itself). sse-starlette watches uvicorn's exit for the process;
        one wait here serves every stream."""
        from sse_starlette.sse import EventSourceResponse

        await EventSourceResponse._listen_for_exit_signal()
        for subs in list(self._subs.values()):
            for sub in list(subs):
                sub.wake(END)

    async def stop(self) -> None:
        tasks = [*self._watchers.values(), *([self._drain] if self._drain else [])]
        self._watchers.clear()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


class PgListener:
    """One dedicated LISTEN connection per process; it reconnects by itself when it dies."""

    def __init__(self, db: Database, hub: Hub, channel: str) -> None:
        self.db = db
        self.hub = hub
        self.channel = channel
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.deliver: Callable[[str, int], Any] = hub.heard

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="pingduel-listen")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _dsn(self) -> str:
        return self.db.url.replace("postgresql+psycopg://", "postgresql://", 1)

    async def _run(self) -> None:
        import psycopg

        delay = 0.2
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._dsn(), autocommit=True
                ) as conn:
                    await conn.execute(f'LISTEN "{self.channel}"')
                    self.connected.set()
                    self.hub.wake_all()  # what was committed while nobody listened
                    delay = 0.2
                    async for note in conn.notifies():
                        hint = parse_hint(note.payload)
                        if hint is not None:
                            self.deliver(*hint)
                        elif (side := parse_side_hint(note.payload)) is not None:
                            self.hub.side(*side)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("LISTEN connection lost; reconnecting", exc_info=True)
            self.connected.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
