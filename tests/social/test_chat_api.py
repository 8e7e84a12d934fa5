"""Chat over the API (issue 15): one channel for the seats and the referee, one for the
spectators, numbered per channel, validated, rate-limited, never a game event."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from app.main import create_app
from tests.api.helpers import API, Duel, new_game
from tests.conftest import ADMIN, make_settings

ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}


async def say(
    client: httpx.AsyncClient, duel: Duel, seat: str | None, text: object
) -> httpx.Response:
    headers = duel.auth(seat) if seat in duel.tokens else ADMIN_AUTH if seat == "admin" else {}
    return await client.post(f"{duel.path}/chat", json={"text": text}, headers=headers)


async def lines(
    client: httpx.AsyncClient, duel: Duel, seat: str | None, after: int = 0
) -> list[dict[str, object]]:
    headers = duel.auth(seat) if seat in duel.tokens else ADMIN_AUTH if seat == "admin" else {}
    r = await client.get(f"{duel.path}/chat", params={"after": after}, headers=headers)
    assert r.status_code == 200, r.text
    return list(r.json()["messages"])


async def test_seats_share_a_channel_and_spectators_have_their_own(
    client: httpx.AsyncClient,
) -> None:
    duel = await new_game(client)
    r = await say(client, duel, "A", "  good luck  ")
    assert r.status_code == 201, r.text
    assert r.json()["message"]["n"] == 1
    assert (await say(client, duel, "B", "you too")).status_code == 201
    assert (await say(client, duel, "admin", "referee here")).status_code == 201
    assert (await say(client, duel, None, "go A!")).status_code == 201
    seen = await lines(client, duel, "B")
    assert [(m["n"], m["text"]) for m in seen] == [
        (1, "good luck"),
        (2, "you too"),
        (3, "referee here"),
    ]
    assert seen[0]["from"] == "A" and seen[1]["from"] == "B · Player B"
    assert seen[2]["from"] == "referee"
    assert await lines(client, duel, "A") == seen
    assert [m["text"] for m in await lines(client, duel, "A", after=2)] == ["referee here"]
    watched = await lines(client, duel, None)
    assert [(m["n"], m["from"], m["text"]) for m in watched] == [(1, "spectator", "go A!")]
    assert set(watched[0]) == {"n", "from", "text", "at"}


async def test_chat_is_no_game_event(client: httpx.AsyncClient) -> None:
    duel = await new_game(client)
    before = (await client.get(f"{duel.path}/events", headers=duel.auth("A"))).json()
    view = (await client.get(duel.path, headers=duel.auth("A"))).json()
    for seat in ("A", "B", None):
        assert (await say(client, duel, seat, "hello <b>there</b>")).status_code == 201
    after = (await client.get(f"{duel.path}/events", headers=duel.auth("A"))).json()
    assert after == before
    again = (await client.get(duel.path, headers=duel.auth("A"))).json()
    assert again["seq"] == view["seq"] and again == view
    await client.post(
        f"{duel.path}/referee/end", json={"winner": "draw", "reason": "t"}, headers=ADMIN_AUTH
    )
    record = (await client.get(f"{duel.path}/record", headers=duel.auth("A"))).text
    assert "hello" not in record


@pytest.mark.parametrize(
    ("text", "why"),
    [("", "empty"), ("   ", "empty"), ("x" * 501, "501 characters"), ("a\nb", "control"),
     ("bell\x07", "control"), ("rtl\u202eevil", "control"), (5, "string")],
)  # fmt: skip
async def test_bad_text_is_refused(client: httpx.AsyncClient, text: object, why: str) -> None:
    duel = await new_game(client)
    r = await say(client, duel, "A", text)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    if not isinstance(text, int):
        assert r.json()["code"] == "chat_text_invalid"
        assert why in r.json()["detail"]
    assert await lines(client, duel, "A") == []
    assert (await say(client, duel, "A", "x" * 500)).status_code == 201


async def test_who_may_chat(client: httpx.AsyncClient) -> None:
    closed = await new_game(client, {"scenario": "duel", "spectators": False})
    r = await say(client, closed, None, "hi")
    assert r.status_code == 401 and r.json()["code"] == "missing_token"
    other = await new_game(client)
    r = await client.post(f"{closed.path}/chat", json={"text": "x"}, headers=other.auth("A"))
    assert r.status_code == 403
    r = await client.get(f"{API}/games/nope/chat", headers=closed.auth("A"))
    assert r.status_code == 404


async def test_numbering_under_concurrent_posts(tmp_path: Path, db_url: str) -> None:
    """Many posts at once on both channels: each channel numbered 1..N without a gap or a
    collision (a file database and real concurrency, not one shared connection)."""
    app = create_app(make_settings(db_url, tmp_path, rate_limits=False))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            duel = await new_game(client)
            posts = [
                say(client, duel, seat, f"{seat}-{i}")
                for i in range(12)
                for seat in ("A", "B", None)
            ]
            answers = await asyncio.gather(*posts)
            assert all(r.status_code == 201 for r in answers), [r.text for r in answers]
            players = await lines(client, duel, "A")
            assert [m["n"] for m in players] == list(range(1, 25))
            assert [m["n"] for m in await lines(client, duel, None)] == list(range(1, 13))
            assert all(str(m["text"]).startswith("None") for m in await lines(client, duel, None))


@pytest.fixture
async def limited(db_url: str, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(make_settings(db_url, tmp_path, limit_chat="3/minute"))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            yield c


async def test_rate_limited(limited: httpx.AsyncClient) -> None:
    duel = await new_game(limited)
    for i in range(3):
        assert (await say(limited, duel, "A", f"line {i}")).status_code == 201
    r = await say(limited, duel, "A", "one too many")
    assert r.status_code == 429
    assert r.json()["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
    # per token: the other seat still talks
    assert (await say(limited, duel, "B", "fine")).status_code == 201
    assert [m["text"] for m in await lines(limited, duel, "B")][-1] == "fine"
