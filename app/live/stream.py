"""``GET /api/v1/games/{id}/stream``: Server-Sent Events of the caller's events.

Gap-free seqs, each event in the form the caller's seat may see, resuming after
``Last-Event-ID`` (or ``?after=N``). The log is the truth and a hint only a wake-up: a stream
reads the log when its game's hint (or the game's watcher, ``app.live.hub``) wakes it, and
never on a timer of its own. The caller's token is re-checked on every read, and the watcher
wakes every stream of a game when one of its seats is revoked, so a replaced seat's stream
ends at once. Spectators of a game see the same events: their streams share each read.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

import anyio
from fastapi import APIRouter, Header, Query, Request
from sse_starlette import EventSourceResponse

from app.deps import ReadingDep, TokenDep, cookie_token
from app.live.hub import CHECK, END, PRESENCE, SEQ, Hub, Subscription
from app.live.metrics import OPEN_STREAMS
from app.live.social import SIDE_FLAGS, follow_chat, side_frames
from app.live.sse import PING, LiveEvents, frame
from app.play.callers import Caller
from app.play.errors import Invalid, Problem, Unauthorized
from app.play.presence import SHOWN_SEATS
from app.play.reading import Reading
from app.problems import documented

T = TypeVar("T")

router = APIRouter(tags=["games"])
pages = APIRouter(include_in_schema=False)  # the game page's hint stream (cookie seat)


MAX_SEQ = 2**31 - 1  # as ``?after=``: the largest seq a client may name
_SEQ = re.compile(r"[0-9]{1,10}")
# what ``_start`` takes, said in the document (issue 14): empty, or 0 … 2147483647 in at most
# ten ASCII digits, leading zeros allowed
SEQ_OR_EMPTY = (
    r"^(|[0-9]{1,9}|[01][0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}"
    r"|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]"
    r"|214748364[0-7])$"
)
RESUME = (
    "Resumes after `Last-Event-ID` (what EventSource sends on a reconnect: the last `id:` it "
    "got) or else `?after=N`; with neither, from the start. Either must be a seq, ASCII "
    "digits 0 … 2147483647 (an empty `Last-Event-ID` counts as none): anything else is 422 "
    "before the stream opens. A seq beyond the game's last is fine: the stream waits for it."
)


async def settled(call: Awaitable[T]) -> T:
    """A stream's database call, run to its end even if the client leaves meanwhile: cancelled
    halfway, its transaction would be thrown away still open (on SQLite, holding the write lock
    that every command then waits for). The calls are short; a leaving client is noticed at the
    stream's next wait."""
    with anyio.CancelScope(shield=True):
        result = await call
    return result


_shared: dict[tuple[str, ...], asyncio.Future[Any]] = {}


async def shared(key: tuple[str, ...], read: Callable[[], Awaitable[T]]) -> T:
    """One read for every stream that asks the same question at the same moment (the
    spectators of a game, woken together by its hint): the first asks the database, the
    others wait for its answer."""
    pending = _shared.get(key)
    if pending is None:
        pending = asyncio.ensure_future(read())
        _shared[key] = pending
        pending.add_done_callback(lambda _: _shared.pop(key, None))
    result: T = await settled(asyncio.shield(pending))
    return result


async def _caller(reading: Reading, game_id: str, token: str | None) -> Caller:
    """Who opens the stream; spectators arriving together share one read (a crowd arriving
    at once would otherwise queue for the database's connections, each holding its request)."""
    if token is not None:
        return await reading.caller(game_id, token)
    return await shared(("caller", game_id), lambda: reading.caller(game_id, None))


async def _page_caller(
    reading: Reading, game_id: str, token: str | None
) -> tuple[str | None, Caller]:
    try:
        return token, await _caller(reading, game_id, token)
    except Unauthorized:
        if token is None:
            raise
        # a stale seat cookie (the seat was replaced): the page fell back to the spectator's
        # view (``routes._context``), so it follows the game as a spectator
        return None, await _caller(reading, game_id, None)


async def crowd_pause(sub: Subscription, pause: float) -> int:
    """A spectator waits a moment before reading: the hints of several commands in a row then
    cost the worker one read and one write per spectator, not one per command, and the
    players' commands are not queued behind every spectator's write. Returns what woke the
    stream meanwhile (it will read anyway)."""
    if pause <= 0:
        return 0
    await asyncio.sleep(pause)
    why, sub.flags = sub.flags, sub.flags & END
    return why & ~END


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
    # optional but never null (the document offers no null for them): ``None`` when absent
    after: int = Query(None, ge=0, le=MAX_SEQ),
    last_event_id: str = Header(None, alias="Last-Event-ID", max_length=20, pattern=SEQ_OR_EMPTY),
) -> LiveEvents:
    start = _start(last_event_id, after)  # 422 before the stream opens
    caller = await _caller(reading, game_id, token)  # 401/403/404 before the stream opens
    hub: Hub = request.app.state.hub
    settings = request.app.state.settings
    presence = request.app.state.presence
    seat = caller.seat
    sub = follow_chat(hub.subscribe(game_id), seat)

    async def read(after: int) -> tuple[bytes, int, int, int]:
        items, seq = await reading.events_for_token(game_id, token, seat, after)
        frames = b"".join(frame(item["type"], json.dumps(item), str(item["seq"])) for item in items)
        return frames, len(items), items[-1]["seq"] if items else after, seq

    async def events() -> AsyncIterator[bytes]:
        last = start
        conn = await settled(presence.open(game_id, seat, "stream"))
        OPEN_STREAMS.labels("stream").inc()
        if seat in SHOWN_SEATS:  # a spectator arriving wakes nobody
            hub.poke(game_id, opener=sub)
        try:
            while True:
                try:
                    if token is None:  # a spectator: the same answer as every other's
                        key = ("events", game_id, seat, str(last))
                        got = await shared(key, functools.partial(read, last))
                    else:
                        got = await settled(read(last))
                except Problem:
                    return  # the token was revoked (seat replaced): end the stream
                frames, count, last, seq = got
                if frames:
                    yield frames
                if count >= 1000:
                    continue  # more pages waiting
                sub.seq = seq
                while not (why := await sub.wait(settings.stream_keepalive)) & (SEQ | CHECK):
                    if sub.ended:
                        return
                    yield side_frames(sub, why) if why else PING
                if why & SIDE_FLAGS:  # woken for a seq and a chat line at once
                    yield side_frames(sub, why)
                if token is None:
                    await crowd_pause(sub, settings.spectator_pause)
        finally:
            hub.unsubscribe(sub)
            OPEN_STREAMS.labels("stream").dec()
            await settled(presence.close(conn))  # the client left: still record it
            if seat in SHOWN_SEATS:  # a spectator leaving wakes nobody
                hub.poke(game_id)

    return LiveEvents(events(), hub, sub)


@pages.get("/games/{game_id}/live")
async def page_stream(game_id: str, request: Request, reading: ReadingDep) -> LiveEvents:
    """For the game page: only "the game is at seq S" (``event: seq``), never a payload; each
    page then re-fetches its own fragments. The seat comes from the page's cookie."""
    token, caller = await _page_caller(reading, game_id, cookie_token(request, game_id))
    hub: Hub = request.app.state.hub
    settings = request.app.state.settings
    keepalive, pause = settings.stream_keepalive, settings.spectator_pause
    presence, seat = request.app.state.presence, caller.seat
    sub = follow_chat(hub.subscribe(game_id), seat)

    async def seq() -> int:
        return await reading.seq_for(game_id, token, seat)

    async def connected() -> frozenset[str]:
        return await reading.connected(game_id)

    async def hints() -> AsyncIterator[bytes]:
        last = -1
        here: frozenset[str] | None = None
        conn = await settled(presence.open(game_id, seat, "page"))
        OPEN_STREAMS.labels("page").inc()
        if seat in SHOWN_SEATS:  # a spectator arriving wakes nobody
            hub.poke(game_id, opener=sub)
        why = SEQ | PRESENCE
        try:
            while True:
                yield side_frames(sub, why)  # chat, rematch: nothing if neither woke it
                if why & (SEQ | CHECK):
                    try:
                        now_at = await (
                            shared(("seq", game_id), seq) if token is None else settled(seq())
                        )
                    except Problem:
                        yield frame("revoked", "this seat's token was replaced")
                        return
                    if now_at != last:
                        last = now_at
                        yield frame("seq", str(now_at), str(now_at))
                    sub.seq = now_at
                if why & PRESENCE:
                    # who is connected is public (every page shows it): "presence" has the page
                    # refresh its status block when it changed, without waiting for a game event
                    now = await shared(("connected", game_id), connected)
                    if here is not None and now != here:
                        yield frame("presence", ",".join(sorted(now)) or "-")
                    here = now
                while not (why := await sub.wait(keepalive)):
                    yield PING
                if sub.ended:
                    return
                if token is None:
                    why |= await crowd_pause(sub, pause)
        finally:
            hub.unsubscribe(sub)
            OPEN_STREAMS.labels("page").dec()
            await settled(presence.close(conn))  # the client left: still record it
            if seat in SHOWN_SEATS:  # a spectator leaving wakes nobody
                hub.poke(game_id)

    return LiveEvents(hints(), hub, sub)
