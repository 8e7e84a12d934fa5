"""A lean Server-Sent Events response: the stream's own coroutine and one task that waits for
the client to leave, nothing else per stream.

sse-starlette runs four tasks in an anyio task group per stream (the events, the keep-alive,
the disconnect, the server's exit) and a queue-fed keep-alive: about half of what an idle
stream cost. Here the keep-alive is the stream's own timed wait, the server's exit is watched
once per worker (``Hub``), and the client's leaving wakes the stream like a hint does.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.live.hub import END, Hub, Subscription

PING = b": ping\r\n\r\n"  # a comment line: keeps proxies from closing an idle stream


def frame(event: str, data: str, id_: str | None = None) -> bytes:
    """One event as sse-starlette wrote it (CRLF line ends; one ``data:`` line per line)."""
    lines = [f"id: {id_}"] if id_ is not None else []
    lines.append(f"event: {event}")
    lines += [f"data: {line}" for line in data.splitlines() or [""]]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


class LiveEvents(Response):
    media_type = "text/event-stream"

    def __init__(self, chunks: AsyncIterator[bytes], hub: Hub, sub: Subscription) -> None:
        self.chunks = chunks
        self.hub = hub
        self.sub = sub
        self.status_code = 200
        self.background = None
        self.init_headers(
            {
                "Cache-Control": "no-store",
                "Connection": "keep-alive",
                "X-Accel-Buffering": "no",  # nginx: pass each event on at once
            }
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = {"type": "http.response.start", "status": 200, "headers": self.raw_headers}
        if scope.get("method", "GET").upper() == "HEAD":  # headers only: no stream opens
            self.hub.unsubscribe(self.sub)
            await send(start)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        await send(start)
        gone = asyncio.create_task(self._until_gone(receive))
        try:
            async for chunk in self.chunks:
                if chunk:  # a wake-up with nothing to say (``app.live.social``) sends nothing
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
            # the end (a client gone already makes this a no-op in uvicorn)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await gone
            await self.chunks.aclose()  # type: ignore[attr-defined]

    async def _until_gone(self, receive: Receive) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        self.sub.wake(END)
