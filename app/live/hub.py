"""In-process fan-out of hints to the streams this worker holds.

A hint carries only ``(game_id, seq)``: each stream then reads its own seat's events from the
log, so no payload is ever shared between two seats. Queues are bounded; a client that falls
that far behind is dropped and resumes with ``Last-Event-ID``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from dataclasses import dataclass, field

from app.store.db import Database

log = logging.getLogger(__name__)
_HINT = re.compile(r"(.+):(-?[0-9]{1,10})")


def parse_hint(payload: str) -> tuple[str, int] | None:
    """``"<game_id>:<seq>"`` → the hint; anything else on the channel (anyone with database
    access can NOTIFY) is ignored rather than let ``int()`` fail and drop the LISTEN connection."""
    match = _HINT.fullmatch(payload)
    return (match.group(1), int(match.group(2))) if match else None


@dataclass(eq=False)
class Subscription:
    game_id: str
    queue: asyncio.Queue[int]
    overflowed: bool = False
    closed: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait(self, timeout: float) -> None:
        """Until a hint arrives (or the timeout passes); drains what is queued."""
        try:
            await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return
        while not self.queue.empty():
            self.queue.get_nowait()


class Hub:
    def __init__(self, queue_size: int = 64) -> None:
        self.queue_size = queue_size
        self._subs: dict[str, set[Subscription]] = {}

    def subscribe(self, game_id: str) -> Subscription:
        sub = Subscription(game_id, asyncio.Queue(self.queue_size))
        self._subs.setdefault(game_id, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.game_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.game_id]

    def publish(self, game_id: str, seq: int) -> None:
        for sub in list(self._subs.get(game_id, ())):
            try:
                sub.queue.put_nowait(seq)
            except asyncio.QueueFull:
                sub.overflowed = True

    def poke(self, game_id: str, opener: Subscription | None = None) -> None:
        """Wake this worker's other streams of a game without a new seq: a page or stream of
        it opened or closed, so the pages re-check who is connected (other workers' pages see
        it at their next re-check). The stream that opened is not woken by its own poke: it is
        about to read anyway, and waking it mid-start made streams on SQLite stall."""
        for sub in list(self._subs.get(game_id, ())):
            if sub is opener:
                continue
            try:
                sub.queue.put_nowait(-1)
            except asyncio.QueueFull:
                sub.overflowed = True

    def count(self, game_id: str | None = None) -> int:
        if game_id is not None:
            return len(self._subs.get(game_id, ()))
        return sum(len(s) for s in self._subs.values())


class PgListener:
    """One dedicated LISTEN connection per process; it reconnects by itself when it dies."""

    def __init__(self, db: Database, hub: Hub, channel: str) -> None:
        self.db = db
        self.hub = hub
        self.channel = channel
        self.connected = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

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
                    delay = 0.2
                    async for note in conn.notifies():
                        hint = parse_hint(note.payload)
                        if hint is not None:
                            self.hub.publish(*hint)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("LISTEN connection lost; reconnecting", exc_info=True)
            self.connected.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
