"""``GET /api/v1/games/{id}/stream`` against a real ``pingduel serve`` (selected backend).

Each seat's stream carries exactly its ``/events`` — same seqs (gap-free), same JSON — and never
a hidden coordinate; it resumes after ``Last-Event-ID`` or ``?after=N``; it stays open with
comment lines; it pushes new events; bad tokens and unknown games fail before it opens; and a
lost hint (another process on the same SQLite file) only delays an event.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import update

from app.play import tokens
from app.store.db import Database
from app.store.migrate import upgrade
from app.store.models import Seat, utcnow
from tests.api.helpers import API, Duel, new_game, ok
from tests.conftest import ADMIN, LiveServer
from tests.live import (
    HIDDEN_FROM,
    Comment,
    SseReader,
    events_of,
    live_client,
    open_stream,
    scripted_game,
)

SEATS = ("A", "B", "referee", "spectator")


def token_of(duel: Duel, seat: str) -> str | None:
    if seat == "referee":
        return ADMIN
    if seat == "spectator":
        return None
    return duel.tokens[seat]


def coordinates(value: Any) -> list[tuple[float, float]]:
    """Every {"x", "y"} point anywhere in a JSON value."""
    found: list[tuple[float, float]] = []
    if isinstance(value, dict):
        if "x" in value and "y" in value:
            found.append((value["x"], value["y"]))
        for item in value.values():
            found += coordinates(item)
    elif isinstance(value, list):
        for item in value:
            found += coordinates(item)
    return found


def mentions(text: str, number: str) -> bool:
    """Whether a number stands in the text as a number (not inside a keep-alive timestamp)."""
    return re.search(rf"(?<![\d.:]){re.escape(number)}(?!\d)", text) is not None


async def activate_next(client: httpx.AsyncClient, duel: Duel) -> dict[str, Any]:
    """One more command (the side to act names its ship): one public event."""
    r = await client.get(duel.path, headers=duel.auth("A"))
    side = r.json()["phase"]["side"]
    body = {"type": "activate", "ship": "a1" if side == "A" else "b1"}
    result: dict[str, Any] = await ok(client, duel, side, body)
    return result


async def test_each_seat_streams_its_own_events(live_server: LiveServer) -> None:
    async with live_client(live_server.url) as client:
        duel, _ = await scripted_game(client)
        texts: dict[str, str] = {}
        for seat in SEATS:
            token = token_of(duel, seat)
            expected = await events_of(client, duel.game_id, token)
            last = expected["last_seq"]
            async with open_stream(client, duel.game_id, token) as reader:
                got = await reader.until(last)
                texts[seat] = reader.text()
            assert [e.seq for e in got] == list(range(1, last + 1)), seat
            assert [e.event for e in got] == [e["type"] for e in expected["events"]], seat
            assert [e.json() for e in got] == expected["events"], seat
            for event in got:
                assert event.json()["seq"] == event.seq
            moves = {e.json()["data"]["ship"]: e.json() for e in got if e.event == "ship_moved"}
            assert set(moves) == {"a1", "b1"}, seat
            for ship, moved in moves.items():
                own = seat == "referee" or ship[0].upper() == seat
                if own:
                    assert "to" in moved["data"] and not moved.get("redacted"), seat
                else:  # an enemy's (or, for a spectator, anybody's) move: only that it moved
                    assert moved["redacted"] is True, seat
                    assert set(moved["data"]) <= {"ship", "drift"}, seat
                    assert coordinates(moved) == [], seat

        # nothing hidden in any seat's text: neither in events nor anywhere else in the stream
        for seat, hidden in HIDDEN_FROM.items():
            for number in hidden:
                assert not mentions(texts[seat], number), (seat, number)
        for number in HIDDEN_FROM["A"] + HIDDEN_FROM["B"]:
            assert not mentions(texts["spectator"], number), number
            assert mentions(texts["referee"], number), number  # the check above can see them


async def test_resumes_after_last_event_id_and_after(live_server: LiveServer) -> None:
    async with live_client(live_server.url) as client:
        duel, _ = await scripted_game(client)
        token = duel.tokens["B"]
        expected = await events_of(client, duel.game_id, token)
        last = expected["last_seq"]
        by_seq = {e["seq"]: e for e in expected["events"]}
        cut = last // 2

        # first connection: read up to the cut, then drop it
        async with open_stream(client, duel.game_id, token) as reader:
            head = await reader.until(cut)
        # reconnect the way EventSource does: Last-Event-ID = the last id seen
        async with open_stream(client, duel.game_id, token, last_event_id=head[-1].seq) as reader:
            tail = await reader.until(last)
        seqs = [e.seq for e in head + tail]
        assert seqs == list(range(1, last + 1))  # no duplicates, no gaps
        assert [e.json() for e in tail] == [by_seq[s] for s in range(cut + 1, last + 1)]

        # ?after=N for clients that cannot set headers
        async with open_stream(client, duel.game_id, token, after=cut) as reader:
            again = await reader.until(last)
        assert [e.seq for e in again] == list(range(cut + 1, last + 1))
        assert [e.json() for e in again] == [by_seq[s] for s in range(cut + 1, last + 1)]

        # resuming at the end sends nothing old; the next new event comes with the next seq
        async with open_stream(client, duel.game_id, token, after=last) as reader:
            await activate_next(client, duel)
            nxt = await reader.event()
        assert nxt.seq == last + 1


async def test_keepalive_comments_while_idle(live_server: LiveServer) -> None:
    async with live_client(live_server.url) as client:
        duel = await new_game(client, {"scenario": "duel"})
        last = (await events_of(client, duel.game_id, duel.tokens["A"]))["last_seq"]
        async with open_stream(client, duel.game_id, duel.tokens["A"], after=last) as reader:
            items = [await reader.next() for _ in range(3)]  # keepalive is 1 s in LiveServer
        assert all(isinstance(item, Comment) for item in items), items


async def test_new_event_arrives_on_an_open_stream(live_server: LiveServer) -> None:
    async with live_client(live_server.url) as client:
        duel, _ = await scripted_game(client)
        readers: dict[str, SseReader] = {}
        expected = {s: await events_of(client, duel.game_id, token_of(duel, s)) for s in SEATS}
        last = expected["A"]["last_seq"]
        async with (
            open_stream(client, duel.game_id, token_of(duel, "A")) as readers["A"],
            open_stream(client, duel.game_id, token_of(duel, "B")) as readers["B"],
            open_stream(client, duel.game_id, token_of(duel, "referee")) as readers["referee"],
            open_stream(client, duel.game_id, None) as readers["spectator"],
        ):
            for reader in readers.values():
                await reader.until(last)  # caught up; the stream now waits
            result = await activate_next(client, duel)
            (posted,) = result["events"]
            for seat, reader in readers.items():
                event = await reader.event()  # pushed, no reconnect
                assert event.seq == last + 1 == posted["seq"], seat
                assert event.event == "activation_started", seat
                assert event.json() == posted, seat


async def test_bad_tokens_and_unknown_games_fail_before_the_stream_opens(
    live_server: LiveServer, db_url: str
) -> None:
    async with live_client(live_server.url) as client:
        duel = await new_game(client, {"scenario": "duel", "spectators": False})
        stream = f"{duel.path}/stream"

        async def refused(path: str, token: str | None, status: int, code: str) -> None:
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            async with client.stream("GET", path, headers=headers) as r:
                body = json.loads(await r.aread())
            assert r.status_code == status, body
            assert r.headers["content-type"].startswith("application/problem+json")
            assert body["code"] == code and body["status"] == status

        await refused(stream, "not-a-token", 401, "invalid_token")
        await refused(stream, None, 401, "missing_token")  # no spectators in this game
        await refused(f"{API}/games/nosuchgame/stream", ADMIN, 404, "unknown_game")
        await refused(f"{API}/games/nosuchgame/stream", duel.tokens["A"], 404, "unknown_game")
        other = await new_game(client, {"scenario": "duel"})
        await refused(stream, other.tokens["A"], 403, "wrong_game")

        # a revoked token: an open stream ends, and a new one is refused with 401
        token = duel.tokens["A"]
        last = (await events_of(client, duel.game_id, token))["last_seq"]
        async with open_stream(client, duel.game_id, token) as reader:
            await reader.until(last)
            await _revoke(db_url, token)
            async with asyncio.timeout(10):  # the re-check (0.5 s) sees the revoked token
                while (item := await reader.next()) is not None:
                    assert isinstance(item, Comment), item  # no event after the revocation
        await refused(stream, token, 401, "invalid_token")


async def _revoke(db_url: str, token: str) -> None:
    db = Database(db_url)
    try:
        async with db.session() as session, session.begin():
            await session.execute(
                update(Seat)
                .where(Seat.token_hash == tokens.digest(token))
                .values(revoked_at=utcnow())
            )
    finally:
        await db.dispose()


async def test_a_lost_hint_only_delays(tmp_path: Path) -> None:
    """Two processes on one SQLite file: hints stay in-process, the re-check finds the event."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'shared.db'}"
    await asyncio.to_thread(upgrade, url)  # Alembic runs its own event loop
    one = LiveServer(url, tmp_path / "one").start()
    two = LiveServer(url, tmp_path / "two").start()
    try:
        async with live_client(one.url) as c1, live_client(two.url) as c2:
            duel, _ = await scripted_game(c2)
            last = (await events_of(c1, duel.game_id, duel.tokens["A"]))["last_seq"]
            async with open_stream(c1, duel.game_id, duel.tokens["A"]) as reader:
                await reader.until(last)
                result = await activate_next(c2, duel)  # committed by the other process
                event = await reader.event()  # found by the periodic re-check (0.5 s)
            assert event.seq == last + 1 == result["events"][0]["seq"]
    finally:
        one.stop()
        two.stop()
