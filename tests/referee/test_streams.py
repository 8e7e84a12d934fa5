"""The referee's actions as the clients following a game live see them: a real
``pingduel serve`` on the selected backend (hints by pg_notify on PostgreSQL).

- Rewind: every open ``/stream`` (A, B, a spectator, the referee) delivers the public
  ``rewound`` event next, without gaps; the view each client then re-fetches is exactly the
  view of the state the referee's record computes (replaying the events still in force, then
  the ``rewound`` event); a stream opened afterwards carries the voided events marked; the game
  pages' hint stream says the new seq and the page's log shows the rewind.
- Replacing a seat: the old token's open ``/stream`` and its page's hint stream end by
  themselves (read to EOF under a deadline); ``/events``, the view, commands and new streams
  answer 401 for it; the other seat's stream goes on and gets the public ``seat_replaced``
  event; the new token works at once; the old cookie's page falls back to the spectator's.
- Presence: an open page (its hint stream) or API stream of A marks A connected in
  ``GET …/referee/presence`` within a few seconds and in every page's ``#presence``; closing it
  turns A away, and the closed row keeps when A was last seen.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import httpx

from app.rules import Event, evolve, replay, view
from tests.conftest import ADMIN, LiveServer, settle
from tests.live import SseEvent, SseReader, live_client, open_stream
from tests.referee.conftest import (
    Game,
    api_view,
    next_command,
    play,
    record,
    referee_game,
    referee_ok,
    send,
)
from tests.web import element

STREAM_SEATS = ("A", "B", "spectator", "referee")


def token(game: Game, seat: str) -> str | None:
    if seat == "spectator":
        return None
    if seat == "admin":
        return ADMIN
    return game.tokens[seat]


def cookie(game: Game, token: str) -> dict[str, str]:
    return {"Cookie": f"pd_seat_{game.id}={token}"}


@asynccontextmanager
async def page_stream(
    client: httpx.AsyncClient, game: Game, seat_token: str | None
) -> AsyncIterator[SseReader]:
    """The game page's hint stream (``event: seq``) for the page of a seat cookie."""
    headers = cookie(game, seat_token) if seat_token else {}
    async with client.stream("GET", f"/games/{game.id}/live", headers=headers) as response:
        assert response.status_code == 200, (await response.aread()).decode()
        yield SseReader(response)


async def seq_hint(reader: SseReader, timeout: float = 10.0) -> SseEvent:
    """The page stream's next ``seq`` hint; ``presence`` hints (someone's page or stream opened
    or closed, which these tests do all the time) come in between and are passed over."""
    while (hint := await reader.event(timeout)).event == "presence":
        pass
    return hint


async def until_eof(reader: SseReader, timeout: float = 10.0) -> list[SseEvent]:
    """Every event until the server ends the stream; fails if it is still open at the deadline."""
    events: list[SseEvent] = []
    async with asyncio.timeout(timeout):
        while (item := await reader.next(timeout)) is not None:
            if isinstance(item, SseEvent):
                events.append(item)
    return events


def computed_view(log: list[dict[str, Any]], seat: str) -> dict[str, Any]:
    """The seat's view of the state the referee's record gives: the events in force, replayed."""
    kept = [
        Event(e["seq"], e["turn"], e["type"], e["data"])
        for e in log
        if not e.get("voided") and e["type"] != "rewound"
    ]
    state = replay(kept)
    for e in log:
        if e["type"] == "rewound":
            state = evolve(state, Event(e["seq"], e["turn"], e["type"], e["data"]))
    return view(state, "referee" if seat == "admin" else seat)


# -- rewind ----------------------------------------------------------------------------------------
async def test_followers_receive_the_rewind_and_refetch_the_rewound_view(
    live_server: LiveServer,
) -> None:
    async with live_client(live_server.url) as client:
        game = await referee_game(client)
        played = await play(client, game, 9)
        last = played[-1].last_seq
        to_seq = played[2].last_seq  # a move's end: never inside a fire window
        async with (
            open_stream(client, game.id, token(game, "A")) as a_stream,
            open_stream(client, game.id, token(game, "B")) as b_stream,
            open_stream(client, game.id, None) as spectator_stream,
            open_stream(client, game.id, ADMIN) as referee_stream,
            page_stream(client, game, game.tokens["A"]) as a_page,
        ):
            streams = {
                "A": a_stream,
                "B": b_stream,
                "spectator": spectator_stream,
                "admin": referee_stream,
            }
            for seat, reader in streams.items():
                got = await reader.until(last)
                assert [e.seq for e in got] == list(range(1, last + 1)), seat
            hint = await seq_hint(a_page)
            assert (hint.event, hint.data) == ("seq", str(last))

            reason = "the captain of b1 sent the wrong orders"
            answer = await referee_ok(client, game, "rewind", {"to_seq": to_seq, "reason": reason})
            rewound_seq = answer["seq"]
            assert rewound_seq == last + 1

            log = await record(client, game)
            for seat, reader in streams.items():
                event = await reader.event()
                assert (event.seq, event.event) == (rewound_seq, "rewound"), seat
                data = event.json()
                assert data == log[-1], seat  # public: the same for every seat
                assert data["data"]["to_seq"] == to_seq
                assert data["data"]["voided"] == [to_seq + 1, last]
                assert data["data"]["reason"] == reason

                # the client re-fetches its view: the state the referee's record computes
                refetched = await api_view(client, game, seat)
                expected = computed_view(log, seat)
                assert refetched["seq"] == rewound_seq
                for key, value in expected.items():
                    assert refetched[key] == value, (seat, key)
            hint = await seq_hint(a_page)
            assert (hint.event, hint.data) == ("seq", str(rewound_seq))

        # a client that (re)connects from the start sees the voided events marked
        async with open_stream(client, game.id, token(game, "B")) as again:
            got = [e.json() for e in await again.until(rewound_seq)]
        assert [e["seq"] for e in got if e.get("voided")] == list(range(to_seq + 1, last + 1))
        assert got[-1]["type"] == "rewound"

        # the page of A after the refresh: the rewind in the log, the voided events marked
        r = await client.get(
            f"/games/{game.id}/fragments/log", headers=cookie(game, game.tokens["A"])
        )
        assert r.status_code == 200
        assert "ev-rewound" in r.text and reason in r.text
        assert r.text.count("(voided by a rewind)") == last - to_seq


# -- replacing a seat ------------------------------------------------------------------------------
async def test_a_replaced_seats_old_token_stops_working_at_once(live_server: LiveServer) -> None:
    async with live_client(live_server.url) as client:
        game = await referee_game(client)
        played = await play(client, game, 3)
        last = played[-1].last_seq
        old = game.tokens["A"]
        async with (
            open_stream(client, game.id, old) as a_stream,
            open_stream(client, game.id, token(game, "B")) as b_stream,
            page_stream(client, game, old) as a_page,
        ):
            await a_stream.until(last)
            await b_stream.until(last)
            assert (await seq_hint(a_page)).data == str(last)

            reason = "A's player lost the device"
            replaced = await referee_ok(
                client, game, "replace-seat", {"side": "A", "reason": reason}, seat="admin"
            )
            new = replaced["token"]
            assert new != old and replaced["view"]["you"] == "referee"

            # the old token's streams end by themselves, without the new event
            assert await until_eof(a_stream) == []
            ended = await until_eof(a_page)
            assert [e.event for e in ended] == ["revoked"]
            # the other seat's stream goes on, with the public seat_replaced event
            event = await b_stream.event()
            assert event.event == "seat_replaced" and event.seq == last + 1
            assert event.json()["data"] == {"side": "A", "reason": reason}

            # the old token is refused everywhere; the new one works at once
            for method, path, body in [
                ("GET", f"/api/v1/games/{game.id}", None),
                ("GET", f"/api/v1/games/{game.id}/events?after=0", None),
                ("GET", f"/api/v1/games/{game.id}/stream", None),
                ("POST", f"/api/v1/games/{game.id}/commands", {"type": "resign"}),
            ]:
                r = await client.request(
                    method, path, json=body, headers={"Authorization": f"Bearer {old}"}
                )
                assert r.status_code == 401, (path, r.text)
                assert r.json()["code"] == "invalid_token", r.text

            game.tokens["A"] = new
            assert (await api_view(client, game, "A"))["you"] == "A"
            async with open_stream(client, game.id, new) as fresh:
                got = await fresh.until(last + 1)
                assert got[-1].event == "seat_replaced"
                seat, body = await next_command(client, game)
                done = await send(client, game, seat, body, None)  # A's new token may play
                assert (await fresh.event()).seq == done.first_seq
            assert (await b_stream.event()).seq == done.first_seq

        # the old cookie's page falls back to the spectator's page, and follows the game as a
        # spectator (its hint stream counts as a spectator's, never as A's); the new link is A's
        r = await client.get(f"/games/{game.id}", headers=cookie(game, old))
        assert r.status_code == 200
        assert 'data-seat="spectator"' in r.text
        assert "Spectator" in element(r.text, "status")
        assert 'id="orders-form"' not in r.text and 'id="seat-link"' not in r.text
        assert old not in r.text and new not in r.text
        async with page_stream(client, game, old) as fallback:
            assert (await fallback.event()).data == str(done.last_seq)
            assert (await presence(client, game))["spectator"]["pages"] == 1

            async def a_away() -> bool:  # the closed streams of A's old and new token
                return not (await presence(client, game))["A"]["connected"]

            await settle(a_away)
            seat, body = await next_command(client, game)
            moved = await send(client, game, seat, body, None)
            assert (await fallback.event()).data == str(moved.last_seq)
        r = await client.get(f"/seat/{new}")  # the new link names A's seat (a confirmation)
        assert r.status_code == 200 and "Play side A here?" in r.text
        r = await client.get(f"/games/{game.id}", headers=cookie(game, new))
        assert 'data-seat="A"' in r.text


# -- presence --------------------------------------------------------------------------------------
def stamp(value: str | None) -> datetime:
    assert value is not None
    when = datetime.fromisoformat(value)
    return when if when.tzinfo else when.replace(tzinfo=UTC)  # SQLite hands back naive UTC


async def presence(client: httpx.AsyncClient, game: Game) -> dict[str, Any]:
    r = await client.get(f"{game.path}/referee/presence", headers=game.auth("referee"))
    assert r.status_code == 200, r.text
    seats: dict[str, Any] = r.json()["seats"]
    return seats


async def pills(client: httpx.AsyncClient, game: Game, seat_token: str | None) -> dict[str, str]:
    """The ``#presence`` pills of a page: side → "connected" | "away"."""
    headers = cookie(game, seat_token) if seat_token else {}
    r = await client.get(f"/games/{game.id}", headers=headers)
    assert r.status_code == 200
    found = re.findall(
        r'<span class="pill who (on|off)" data-side="([AB])">[^<]*: (connected|away)', r.text
    )
    assert len(found) == 2, element(r.text, "presence")
    out = {}
    for css, side, word in found:
        assert (css == "on") is (word == "connected")
        out[side] = word
    return out


async def test_presence_follows_open_pages_and_streams(live_server: LiveServer) -> None:
    async with live_client(live_server.url) as client:
        game = await referee_game(client)
        await play(client, game, 2)
        start = await presence(client, game)
        assert {s: start[s]["connected"] for s in ("A", "B")} == {"A": False, "B": False}
        assert start["A"]["last_seen"] is None
        assert await pills(client, game, game.tokens["B"]) == {"A": "away", "B": "away"}

        async def connected(side: str, want: bool) -> bool:
            return bool((await presence(client, game))[side]["connected"] is want)

        # A opens its page (the page's hint stream)
        async with page_stream(client, game, game.tokens["A"]) as a_page:
            await seq_hint(a_page)
            await settle(lambda: connected("A", True))
            seen = await presence(client, game)
            assert seen["A"]["pages"] == 1 and seen["B"]["connected"] is False
            a_seen = stamp(seen["A"]["last_seen"])
            assert await pills(client, game, game.tokens["B"]) == {"A": "connected", "B": "away"}
            assert await pills(client, game, None) == {"A": "connected", "B": "away"}
            # B follows the API stream
            async with open_stream(client, game.id, game.tokens["B"]) as b_stream:
                await b_stream.event()
                await settle(lambda: connected("B", True))
                seen = await presence(client, game)
                assert seen["B"]["streams"] == 1
                b_seen = stamp(seen["B"]["last_seen"])
                assert await pills(client, game, game.tokens["A"]) == {
                    "A": "connected",
                    "B": "connected",
                }
            await settle(lambda: connected("B", False))
        await settle(lambda: connected("A", False))

        # away now; each closed row keeps when its side was last seen (at the close)
        after = await presence(client, game)
        for side, while_open in (("A", a_seen), ("B", b_seen)):
            assert after[side]["connected"] is False
            assert after[side]["pages"] == after[side]["streams"] == 0
            assert stamp(after[side]["last_seen"]) >= while_open, side
        assert await pills(client, game, game.tokens["B"]) == {"A": "away", "B": "away"}
        # every page says since when each side is away, the referee's and a player's alike
        for seat in ("referee", "A"):
            r = await client.get(f"/games/{game.id}", headers=cookie(game, game.tokens[seat]))
            for side in ("A", "B"):
                pill = re.search(rf'data-side="{side}">([^<]*)</span>', r.text)
                found = pill and re.search(r": away since \d\d:\d\d:\d\d UTC$", pill.group(1))
                assert found, (seat, side)
