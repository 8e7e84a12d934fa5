"""The counts behind the rate limits: the ``limits`` library's sliding window counter, in the
worker's memory or in Redis.

The sliding window counter keeps two numbers per key (this window's and the last one's), where
a moving window keeps one time stamp per request: a token allowed 600 commands a minute would
hold 600 entries. In memory the library's calls are plain functions (no await, no lock
contention in one event loop); Redis goes through the library's asyncio storage so that a round
trip never blocks the loop. A storage that fails (Redis down) lets the request through: a limit
is a guard, not a reason to refuse a player.
"""

from __future__ import annotations

import logging
import math
import threading
import time

from limits import RateLimitItem
from limits.aio.strategies import SlidingWindowCounterRateLimiter as AsyncLimiter
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import SlidingWindowCounterRateLimiter

log = logging.getLogger(__name__)
SWEEP_SECONDS = 10.0


class _SweptRarely(MemoryStorage):
    """The library's memory storage sweeps out expired keys 10 ms after any hit, in a new
    thread each time (under load: a thread start and a walk over every key a hundred times a
    second). Expired counts are already ignored when read, so a sweep every few seconds only
    frees their memory, as well."""

    def _MemoryStorage__schedule_expiry(self) -> None:  # the parent's private hook
        if not self.timer.is_alive():
            self.timer = threading.Timer(SWEEP_SECONDS, self._MemoryStorage__expire_events)  # type: ignore[attr-defined]
            self.timer.daemon = True  # never hold up the process's exit
            self.timer.start()


def _wait(reset_time: float) -> int:
    """Seconds until the count lets one more through: Retry-After is a whole number ≥ 1."""
    return max(1, math.ceil(reset_time - time.time()))


class Counters:
    """Hit, test and time the windows of a limit (one ``RateLimitItem`` per window)."""

    def __init__(self, uri: str) -> None:
        self.sync: SlidingWindowCounterRateLimiter | None = None
        self.aio: AsyncLimiter | None = None
        self.local = uri.startswith("memory://")  # only this worker counts (see ``Recent``)
        if self.local:
            self.sync = SlidingWindowCounterRateLimiter(_SweptRarely())
        else:
            storage = storage_from_string(f"async+{uri}", implementation="redispy")
            self.aio = AsyncLimiter(storage)

    async def hit(self, items: list[RateLimitItem], *key: str) -> int:
        """Count one request in every window; 0 if all had room, else the seconds to wait for
        the first that had none (the windows before it counted the request: hammering while
        refused does not help)."""
        try:
            for item in items:
                if self.sync is not None:
                    if not self.sync.hit(item, *key):
                        return _wait(self.sync.get_window_stats(item, *key).reset_time)
                elif self.aio is not None and not await self.aio.hit(item, *key):
                    return _wait((await self.aio.get_window_stats(item, *key)).reset_time)
        except Exception:  # the storage failed: let the request through
            log.warning("rate limit storage failed; not limiting", exc_info=True)
        return 0

    async def full(self, items: list[RateLimitItem], *key: str) -> int:
        """0 if every window has room, else the longest wait among the full ones (the
        backoff: a longer window, once full, makes a longer wait)."""
        wait = 0
        try:
            for item in items:
                if self.sync is not None:
                    if not self.sync.test(item, *key):
                        stats = self.sync.get_window_stats(item, *key)
                        wait = max(wait, _wait(stats.reset_time))
                elif self.aio is not None and not await self.aio.test(item, *key):
                    stats = await self.aio.get_window_stats(item, *key)
                    wait = max(wait, _wait(stats.reset_time))
        except Exception:
            log.warning("rate limit storage failed; not limiting", exc_info=True)
            return 0
        return wait


class Open:
    """Requests open at once per key (streams), in this worker: taken on entry, given back
    when the response ends, however it ends."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}

    def take(self, key: str, limit: int) -> bool:
        n = self.counts.get(key, 0)
        if n >= limit:
            return False
        self.counts[key] = n + 1
        return True

    def give(self, key: str) -> None:
        n = self.counts.get(key, 0) - 1
        if n > 0:
            self.counts[key] = n
        else:
            self.counts.pop(key, None)


class Recent:
    """The addresses with a refused token lately, in this worker: most requests carry a token,
    and testing three windows for each costs more than the rest of the limits together. With
    the counts in this worker's memory an address absent here has nothing to test; with a
    shared storage another worker may have counted it, so every request is tested there."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.last: dict[str, float] = {}

    def failed(self, address: str) -> None:
        now = time.monotonic()
        if len(self.last) > 10000:  # forget the long quiet ones, now and then
            self.last = {a: t for a, t in self.last.items() if now - t < self.seconds}
        self.last[address] = now

    def suspect(self, address: str) -> bool:
        when = self.last.get(address)
        if when is None:
            return False
        if time.monotonic() - when < self.seconds:
            return True
        del self.last[address]
        return False
