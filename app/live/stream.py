"""``GET /api/v1/games/{id}/stream``: Server-Sent Events of the caller's events.

Gap-free seqs, each event in the form the caller's seat may see, resuming after
``Last-Event-ID`` (or ``?after=N``). The log is the truth and a hint only a wake-up: an idle
stream re-reads the log every few seconds, so a lost hint delays an event but never loses it.
The caller's token is re-checked on every wake, so a replaced seat's stream ends at once.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import AsyncIterator, Awaitable
from typing import Annotated, Any, TypeVar

import anyio
from fastapi import APIRouter, Header, Query, Request
from sse_starlette import EventSourceResponse

from app.deps import ReadingDep, TokenDep, cookie_token
from app.live.hub import Hub
from app.play.errors import Invalid, Problem, Unauthorized
from app.play.presence import SHOWN_SEATS
from app.problems import documented

T = TypeVar("T")

router = APIRouter(tags=["games"])
pages = APIRouter(include_in_schema=False)  # the game page's hint stream (cookie seat)


MAX_SEQ = 2**31 - 1  # as ``?after=``: the largest seq a client may name
_SEQ = re.compile(r"[0-9]{1,10}")
RESUME = (
    "Resumes after `Last-Event-ID` (what EventSource sends on a reconnect: the last `id:` it "
    "got) or else `?after=N`; with neither, from the start. Either must be a seq, ASCII "
    "digits 0 … 2147483647 (an empty `Last-Event-ID` counts as none): anything else is 422 "
    "before the stream opens. A seq beyond the game's last is fine: the stream waits for it."
)


class Heartbeat:
    """When an open stream refreshes its presence row: at most once per ``every`` seconds,
    however often hints and pokes wake it (the first is due one period after opening)."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.last = time.monotonic()

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last < self.every:
            return False
        self.last = now
        return True


async def settled(call: Awaitable[T]) -> T:
    """A stream's database call, run to its end even if the client leaves meanwhile: cancelled
    halfway, its transaction would be thrown away still open (on SQLite, holding the write lock
    that every command then waits for). The calls are short; a leaving client is noticed at the
    stream's next wait."""
    with anyio.CancelScope(shield=True):
        result = await call
    return result


def _start(last_event_id: str | None, after: int | None) -> int:
    """Where the stream resumes. ``int()`` alone would take ``"²"``'s cousins and numbers no
    database column holds, and the stream would die at its first read."""
    text = (last_event_id or "").strip()
    if not text:
        return after or 0
    if not _SEQ.fullmatch(text) or int(text) > MAX_SEQ:
        raise Invalid(
            f"Last-Event-ID: {text[:20]!r} is not a seq of this stream; send the id of the last "
            f"event received (0 … {MAX_SEQ}), or no Last-Event-ID to start from ?after or the "
            "beginning"
        )
    return int(text)


@router.get(
    "/games/{game_id}/stream",
    response_class=EventSourceResponse,
    responses={
        200: {
            "description": "text/event-stream: id = seq, event = type, data = the Event JSON",
            # one schema per event (how OpenAPI describes an event stream's items)
            "content": {
                "text/event-stream": {
                    "schema": {
                        "type": "object",
                        "required": ["id", "event", "data"],
                        "properties": {
                            "id": {"type": "string", "description": "the event's seq"},
                            "event": {"type": "string", "description": "the event's type"},
                            "data": {
                                "type": "string",
                                "contentMediaType": "application/json",
                                "contentSchema": {"$ref": "#/components/schemas/EventOut"},
                            },
                        },
                    }
                }
            },
        },
        **documented(401, 403, 404, 422),
    },
    summary="Server-Sent Events of the caller's events",
    description=RESUME,
)
async def stream(
    game_id: str,
    request: Request,
    reading: ReadingDep,
    token: TokenDep,
    after: Annotated[int | None, Query(ge=0, le=2**31 - 1)] = None,
    last_event_id: Annotated[str | None, Header(alias="Last-Event-ID", max_length=20)] = None,
) -> EventSourceResponse:
    start = _start(last_event_id, after)  # 422 before the stream opens
    caller = await reading.caller(game_id, token)  # 401/403/404 before the stream opens
    hub: Hub = request.app.state.hub
    settings = request.app.state.settings
    sub = hub.subscribe(game_id)

    presence = request.app.state.presence

    async def events() -> AsyncIterator[dict[str, Any]]:
        last = start
        conn = await settled(presence.open(game_id, caller.seat, "stream"))
        if caller.seat in SHOWN_SEATS:  # a spectator arriving wakes nobody
            hub.poke(game_id, opener=sub)
        beat = Heartbeat(settings.stream_recheck)
        try:
            while True:
                if beat.due():
                    await settled(presence.beat(conn))
                try:
                    items, _ = await settled(
                        reading.events_for_token(game_id, token, caller.seat, last)
                    )
                except Problem:
                    return  # the token was revoked (seat replaced): end the stream
                for item in items:
                    last = item["seq"]
                    yield {"id": str(item["seq"]), "event": item["type"], "data": json.dumps(item)}
                if len(items) >= 1000:
                    continue  # more pages waiting
                if sub.overflowed:
                    return  # too slow: the client resumes with Last-Event-ID
                await sub.wait(settings.stream_recheck)
        finally:
            hub.unsubscribe(sub)
            await settled(presence.close(conn))  # the client left: still record it
            if caller.seat in SHOWN_SEATS:  # a spectator arriving wakes nobody
                hub.poke(game_id)

    return EventSourceResponse(events(), ping=settings.stream_keepalive)


@pages.get("/games/{game_id}/live")
async def page_stream(game_id: str, request: Request, reading: ReadingDep) -> EventSourceResponse:
    """For the game page: only "the game is at seq S" (``event: seq``), never a payload; each
    page then re-fetches its own fragments. The seat comes from the page's cookie."""
    token = cookie_token(request, game_id)
    try:
        caller = await reading.caller(game_id, token)
    except Unauthorized:
        if token is None:
            raise
        # a stale seat cookie (the seat was replaced): the page fell back to the spectator's
        # view (``routes._context``), so it follows the game as a spectator
        token = None
        caller = await reading.caller(game_id, None)
    hub: Hub = request.app.state.hub
    settings = request.app.state.settings
    sub = hub.subscribe(game_id)

    presence = request.app.state.presence

    async def hints() -> AsyncIterator[dict[str, Any]]:
        last = -1
        here: frozenset[str] | None = None
        conn = await settled(presence.open(game_id, caller.seat, "page"))
        if caller.seat in SHOWN_SEATS:  # a spectator arriving wakes nobody
            hub.poke(game_id, opener=sub)
        beat = Heartbeat(settings.stream_recheck)
        try:
            while True:
                if beat.due():
                    await settled(presence.beat(conn))
                try:
                    seq = await settled(reading.seq_for(game_id, token, caller.seat))
                except Problem:
                    yield {"event": "revoked", "data": "this seat's token was replaced"}
                    return
                if seq != last:
                    last = seq
                    yield {"event": "seq", "data": str(seq), "id": str(seq)}
                # who is connected is public (every page shows it): "presence" has the page
                # refresh its status block when it changed, without waiting for a game event
                now = await settled(reading.connected(game_id))
                if here is not None and now != here:
                    yield {"event": "presence", "data": ",".join(sorted(now)) or "-"}
                here = now
                if sub.overflowed:
                    return
                await sub.wait(settings.stream_recheck)
        finally:
            hub.unsubscribe(sub)
            await settled(presence.close(conn))  # the client left: still record it
            if caller.seat in SHOWN_SEATS:  # a spectator arriving wakes nobody
                hub.poke(game_id)

    return EventSourceResponse(hints(), ping=settings.stream_keepalive)
