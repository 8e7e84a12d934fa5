"""The game's stream, followed in the background as a wake-up for the host.

The stream only says *that* the game moved (an event with a seq); the host then reads the view
and the events itself, so a frame lost in a reconnect costs nothing. It reconnects with
``Last-Event-ID``; while it is down the host polls (``Follower.wait`` times out sooner).
Its waits are the event loop's own, not the host's injected sleep: they pace a connection,
not a decision.
"""

from __future__ import annotations

import asyncio
import contextlib

import httpx

from app.remote.api import SeatApi, describe, retry_after
from app.remote.sse import messages

POLL_STREAM_UP = 5.0  # seconds between reads while the stream is up: a lost wake-up's cost
POLL_STREAM_DOWN = 1.0  # while it is down
RECONNECT_FIRST, RECONNECT_MAX = 0.5, 15.0
STREAM_TIMEOUT = httpx.Timeout(10.0, read=60.0)  # the server sends a keep-alive every 15 s


class Follower:
    def __init__(self, api: SeatApi, after: int) -> None:
        self.api = api
        self.last = after  # the last seq the stream gave (sent back as Last-Event-ID)
        self.up = False
        self.gone = False  # the server refused the stream for good (401/403/404)
        self.changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def wait(self) -> None:
        """Until the stream says the game moved, or the poll's time is up."""
        timeout = POLL_STREAM_UP if self.up else POLL_STREAM_DOWN
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), timeout)

    async def _run(self) -> None:
        pause = RECONNECT_FIRST
        while not self.gone:
            # dropped, or an answer it cannot read: reconnect after the pause (the host polls)
            with contextlib.suppress(httpx.HTTPError, httpx.StreamError, ValueError):
                pause = await self._follow(pause)
            if self.up:  # it was up: a wake-up may be lost with it, so the host reads now
                self.up = False
                self.changed.set()
                pause = RECONNECT_FIRST
            await asyncio.sleep(pause)
            pause = min(pause * 2, RECONNECT_MAX)

    async def _follow(self, pause: float) -> float:
        """One connection, until it ends; the pause before the next one."""
        headers = {**self.api.auth, "Accept": "text/event-stream", "Last-Event-ID": str(self.last)}
        url = f"{self.api.game_path}/stream"
        async with self.api.http.stream("GET", url, headers=headers, timeout=STREAM_TIMEOUT) as r:
            if r.status_code in (401, 403, 404):
                self.gone = True  # the host's next read says why, and ends the run
                self.changed.set()
                return 0.0
            if r.status_code != 200:  # 429: too many streams; else: try again later
                wait = retry_after(r, pause)
                self.api.note(f"the stream was refused ({describe(r)}): polling for {wait:g} s")
                return wait
            self.up = True
            async for message in messages(r.aiter_lines()):
                if message.id is not None and message.id.isdigit():
                    self.last = max(self.last, int(message.id))
                    self.changed.set()
            return RECONNECT_FIRST  # the server ended it (a restart, or it dropped us)
