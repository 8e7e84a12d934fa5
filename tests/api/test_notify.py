"""'Your turn' notifications: the outbox, the webhook sender, its address rules (issue 15)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.play.sender import Sender
from tests.api.helpers import API, Duel, new_game, ok
from tests.api.notify_helpers import drain, outbox, receiver, serving
from tests.conftest import settle
from tests.live import A_DEPLOY, B_DEPLOY, SEED, live_client, next_command, open_stream

ALLOW = {"webhook_allow_private": True}


def _body(row: dict[str, Any]) -> dict[str, Any]:
    body = row["body"]
    return json.loads(body) if isinstance(body, str) else dict(body)


async def _hook(client: httpx.AsyncClient, duel: Duel, seat: str, url: str | None) -> Any:
    r = await client.post(f"{duel.path}/notify", json={"webhook": url}, headers=duel.auth(seat))
    assert r.status_code == 200, r.text
    return r.json()


def _deploy(ship: str, at: tuple[float, float], heading: int) -> dict[str, Any]:
    return {
        "type": "deploy",
        "ships": [
            {"ship": ship, "position": {"x": at[0], "y": at[1]}, "heading": heading, "speed": 0}
        ],
    }


async def _awaited(client: httpx.AsyncClient, duel: Duel) -> list[str]:
    r = await client.get(duel.path, headers=duel.auth("A"))
    return list(r.json()["phase"]["awaiting"])


async def _play_until(client: httpx.AsyncClient, duel: Duel, seat: str) -> dict[str, Any]:
    """Plays the other side's plain commands until the game awaits ``seat``."""
    while True:
        side, body = await next_command(client, duel)
        assert side != seat
        done: dict[str, Any] = await ok(client, duel, side, body)
        if seat in done["view"]["phase"]["awaiting"]:
            return done


async def test_sent_when_newly_awaited_and_offline_never_while_its_stream_is_open(
    db_url: str, tmp_path: Path
) -> None:
    async with (
        receiver() as hooks,
        serving(db_url, tmp_path, **ALLOW) as (app, url),
        live_client(url) as client,
    ):
        duel = await new_game(client, {"scenario": "duel", "seed": SEED})
        shown = await _hook(client, duel, "A", f"{hooks.url}/A")
        assert shown == {"webhook": f"{hooks.url}/A", "push": False, "email": None}
        await _hook(client, duel, "B", f"{hooks.url}/B")
        await ok(client, duel, "A", _deploy("a1", A_DEPLOY, 0))
        await drain(app)
        assert hooks.got == []  # B was awaited before A deployed: nothing new
        await ok(client, duel, "B", _deploy("b1", B_DEPLOY, 6))
        first = (await _awaited(client, duel))[0]
        other = "B" if first == "A" else "A"
        await drain(app)
        # the first side to act was awaited while both deployed, unless it is B (deployed last)
        sent = {seat: len(hooks.to(f"/{seat}")) for seat in "AB"}
        assert sent == {first: 0 if first == "B" else 1, other: 0}
        before = len(hooks.got)
        # the other side's stream is open: its turn comes, nothing is sent
        async with open_stream(client, duel.game_id, duel.tokens[other]):
            reading = app.state.service.reading
            await settle(lambda: _has(reading, duel.game_id, other))
            await _play_until(client, duel, other)
            await drain(app)
            assert len(hooks.got) == before
            rows = await outbox(app.state.db, duel.game_id)
            assert rows[-1]["seat"] == other and rows[-1]["state"] == "skipped"
        await settle(lambda: _gone(app.state.service.reading, duel.game_id, other))
        # offline now: the next turn that comes to it is sent, once, with public facts only
        await _play_until(client, duel, first)
        done = await _play_until(client, duel, other)
        await drain(app)
        got = hooks.to(f"/{other}")
        assert len(got) == 1
        body = json.loads(got[0].body)
        assert body["event"] == "your_turn" and body["game_id"] == duel.game_id
        assert body["seq"] == done["view"]["seq"]
        assert f"/games/{duel.game_id}" in body["content"] and "/seat" not in body["content"]
        for token in duel.tokens.values():
            assert token not in got[0].body.decode()
        assert got[0].headers["Content-Type"] == "application/json"


async def _has(reading: Any, game_id: str, seat: str) -> bool:
    return seat in await reading.connected(game_id)


async def _gone(reading: Any, game_id: str, seat: str) -> bool:
    return seat not in await reading.connected(game_id)


async def test_game_finished_goes_to_both_players(db_url: str, tmp_path: Path) -> None:
    async with (
        receiver() as hooks,
        serving(db_url, tmp_path, **ALLOW) as (app, url),
        live_client(url) as client,
    ):
        duel = await new_game(client, {"scenario": "duel", "seed": SEED})
        for seat in "AB":
            await _hook(client, duel, seat, f"{hooks.url}/{seat}")
        r = await client.post(
            f"{duel.path}/referee/end",
            json={"winner": "B", "reason": "A left"},
            headers={"Authorization": "Bearer " + _admin()},
        )
        assert r.status_code == 200, r.text
        await drain(app)
        for seat in "AB":
            (got,) = hooks.to(f"/{seat}")
            body = json.loads(got.body)
            assert body["event"] == "game_finished"
            assert "side B wins" in body["content"]


def _admin() -> str:
    from tests.conftest import ADMIN

    return ADMIN


async def test_a_failure_is_retried_and_delivered_once(db_url: str, tmp_path: Path) -> None:
    async with (
        receiver() as hooks,
        serving(db_url, tmp_path, notify_backoff=0.0, **ALLOW) as (app, url),
        live_client(url) as client,
    ):
        duel = await new_game(client, {"scenario": "duel", "seed": SEED})
        await _hook(client, duel, "A", f"{hooks.url}/A")
        hooks.answers["/A"] = [500]
        await ok(client, duel, "B", _deploy("b1", B_DEPLOY, 6))
        await ok(client, duel, "A", _deploy("a1", A_DEPLOY, 0))
        await drain(app)
        if await _awaited(client, duel) == ["A"]:  # A was awaited all along: nothing new
            await _play_until(client, duel, "B")
        await _play_until(client, duel, "A")
        await drain(app)
        got = hooks.to("/A")
        assert len(got) == 2  # the 500, then the 200
        assert got[0].body == got[1].body
        rows = [r for r in await outbox(app.state.db, duel.game_id) if r["seat"] == "A"]
        assert [(r["state"], r["attempts"]) for r in rows] == [("sent", 2)]


async def test_redirects_are_not_followed_and_private_addresses_refused_at_send(
    db_url: str, tmp_path: Path
) -> None:
    async with (
        receiver() as hooks,
        serving(db_url, tmp_path, **ALLOW) as (app, url),
        live_client(url) as client,
    ):
        duel = await new_game(client, {"scenario": "duel", "seed": SEED})
        await _hook(client, duel, "A", f"{hooks.url}/A")
        hooks.answers["/A"] = [302]
        await app.state.service.referee.end(duel.game_id, _admin(), "draw", "agreed")
        await drain(app)
        # a game whose row goes to a sender that no longer allows private addresses (a
        # changed DNS answer looks the same to it: the address is checked at send time too)
        second = await new_game(client, {"scenario": "duel", "seed": SEED})
        await _hook(client, second, "B", f"{hooks.url}/B")
        await app.state.service.referee.end(second.game_id, _admin(), "draw", "agreed")
        strict = Sender(app.state.db, _strict(app.state.sender.options))
        try:
            while await strict.run_once():
                pass
        finally:
            await strict.stop()
        assert [r.path for r in hooks.got] == ["/A"]  # never /redirected, never /B
        (row,) = await outbox(app.state.db, duel.game_id)
        assert row["state"] == "failed" and "redirect" in row["last_error"]
        (row,) = await outbox(app.state.db, second.game_id)
        assert row["state"] == "failed" and "private" in row["last_error"]


def _strict(options: Any) -> Any:
    from dataclasses import replace

    return replace(options, allow_private=False)


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("ftp://example.com/x", "bad_webhook"),
        ("http://user:pw@example.com/x", "bad_webhook"),
        ("https://" + "a" * 2100 + ".com/", "bad_webhook"),
        ("http://127.0.0.1:9/x", "private_address"),
        ("http://10.1.2.3/x", "private_address"),
        ("http://169.254.169.254/latest", "private_address"),
        ("http://[::1]/x", "private_address"),
        ("http://localhost/x", "private_address"),
        ("http://224.0.0.1/x", "private_address"),
        ("http://0.0.0.0/x", "private_address"),
    ],
)
async def test_bad_or_private_webhooks_are_refused(
    client: httpx.AsyncClient, url: str, code: str
) -> None:
    duel = await new_game(client, {"scenario": "duel"})
    r = await client.post(f"{duel.path}/notify", json={"webhook": url}, headers=duel.auth("A"))
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == code
    assert (await client.get(f"{duel.path}/notify", headers=duel.auth("A"))).json()[
        "webhook"
    ] is None


async def test_who_may_set_and_what_is_shown(client: httpx.AsyncClient) -> None:
    duel = await new_game(client, {"scenario": "duel", "spectators": True})
    path = f"{duel.path}/notify"
    body = {"webhook": "https://example.com/hook"}
    assert (await client.post(path, json=body)).status_code in (401, 403)
    r = await client.post(path, json=body, headers={"Authorization": "Bearer " + _admin()})
    assert r.status_code == 403
    r = await client.post(path, json={"webhook": None, "push": None}, headers=duel.auth("A"))
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"  # one kind at a time
    r = await client.post(path, json={"email": "a@example.com"}, headers=duel.auth("A"))
    assert r.status_code == 422 and r.json()["code"] == "email_not_configured"
    r = await client.post(
        path,
        json={"push": {"endpoint": "x", "keys": {"p256dh": "k", "auth": "a"}}},
        headers=duel.auth("A"),
    )
    assert r.status_code == 422 and r.json()["code"] == "bad_subscription"
    # a subscription holds the browser's members and no others: an unknown one is named
    sub = {"endpoint": "https://push.example/x", "expirationTime": None, "keys": {"p256dh": "k"}}
    r = await client.post(
        path,
        json={"push": {**sub, "extra": 1, "keys": {"p256dh": "k", "auth": "a"}}},
        headers=duel.auth("A"),
    )
    assert r.status_code == 422 and r.json()["code"] == "invalid_request"
    assert "push.extra" in {e["field"] for e in r.json()["errors"]}, r.json()
    r = await client.post(f"{API}/games/nope/notify", json=body, headers=duel.auth("A"))
    assert r.status_code == 404


async def test_the_pages_post_needs_its_csrf_token(client: httpx.AsyncClient) -> None:
    duel = await new_game(client, {"scenario": "duel"})
    cookies = {f"pd_seat_{duel.game_id}": duel.tokens["A"]}
    client.cookies.update(cookies)
    r = await client.post(f"/games/{duel.game_id}/notify", json={"webhook": None})
    assert r.status_code == 403
    page = await client.get(f"/games/{duel.game_id}")
    found = re.search(
        r'id="notify"[^>]*>\s*<input type="hidden" name="csrf" value="([0-9a-f]+)"', page.text
    )
    assert found is not None, "the panel is on a seat's page"
    headers = {"X-CSRF-Token": found.group(1)}
    r = await client.post(f"/games/{duel.game_id}/notify", json={"a": 1}, headers=headers)
    assert r.status_code == 422 and r.json()["code"] == "bad_notify"
    r = await client.post(f"/games/{duel.game_id}/notify", json={"webhook": None}, headers=headers)
    assert r.status_code == 200 and r.json()["webhook"] is None
    shown = await client.get(f"/games/{duel.game_id}/notify")
    assert shown.json()["email_available"] is False
