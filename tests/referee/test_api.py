"""Who may act as referee, pause/resume and the end, through the API and the pages (selected
backend).

- Every referee route (``pause``, ``resume``, ``rewind``, ``end``, ``replace-seat``,
  ``presence``) refuses a player's token (403), a spectator (no token: 401), a token of another
  game (403), a mistyped or malformed token (401) — and the game does not change; the admin token
  and the token of a referee seat (a game created with ``"creator": "referee"``) work.
- The pages: ``/referee`` shows the sign-in form and no game to anyone without the admin cookie
  (a player's seat cookie, a referee seat's token typed into the form); the admin signs in and
  gets the list, with its filters; the game page's referee forms
  (``POST /games/{id}/referee/{action}``) refuse a player (403), a spectator (401) and a
  missing CSRF field, and work for the admin and a referee seat.
- Pause blocks every command (409 ``game_paused``, nothing applied), the view says
  ``paused: true`` with ``awaiting: []`` for every seat, the players read the reason in their
  log; resume restores exactly what the game awaited; pausing twice / resuming a running game
  is a 409.
- The end: the referee's result and reason are public; nothing more can happen.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.conftest import ADMIN
from tests.referee.conftest import (
    ADMIN_AUTH,
    Game,
    api_events,
    api_view,
    next_command,
    play,
    player_game,
    record,
    referee_game,
    referee_ok,
)
from tests.web import Browser, element

ACTIONS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("post", "pause", {"reason": "tea break"}),
    ("post", "resume", {"reason": "back"}),
    ("post", "rewind", {"to_seq": 4, "reason": "undo"}),
    ("post", "end", {"winner": "A", "reason": "B left"}),
    ("post", "replace-seat", {"side": "B", "reason": "lost the link"}),
    ("get", "presence", None),
]


async def call(
    client: httpx.AsyncClient,
    game: Game,
    method: str,
    action: str,
    body: dict[str, Any] | None,
    headers: dict[str, str],
) -> httpx.Response:
    url = f"{game.path}/referee/{action}"
    if method == "get":
        return await client.get(url, headers=headers)
    return await client.post(url, json=body, headers=headers)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def everything(client: httpx.AsyncClient, game: Game) -> tuple[Any, ...]:
    """All a referee could change: the log, the referee's view, the seats' access."""
    return (
        await record(client, game),
        await api_view(client, game, "admin"),
        [(await client.get(game.path, headers=game.auth(s))).status_code for s in ("A", "B")],
    )


@pytest.mark.parametrize("creator", ["A", "referee"])
async def test_only_the_referee_and_the_admin_may_act(
    client: httpx.AsyncClient, creator: str
) -> None:
    game = await (referee_game(client) if creator == "referee" else player_game(client))
    played = await play(client, game, 4)
    other = await referee_game(client)  # a game whose referee and players have no say here
    refused: dict[str, tuple[dict[str, str], int, str]] = {
        "player A": (game.auth("A"), 403, "forbidden"),
        "player B": (game.auth("B"), 403, "forbidden"),
        "spectator": ({}, 401, "missing_token"),
        "another game's referee": (other.auth("referee"), 403, "wrong_game"),
        "another game's player": (other.auth("A"), 403, "wrong_game"),
        "a mistyped token": (bearer(game.tokens["A"][:-2] + "xx"), 401, "invalid_token"),
        "not a bearer token": ({"Authorization": f"Basic {ADMIN}"}, 401, "invalid_token"),
    }
    before = await everything(client, game)
    for method, action, body in ACTIONS:
        for who, (headers, status, code) in refused.items():
            r = await call(client, game, method, action, body, headers)
            assert r.status_code == status, (action, who, r.text)
            assert r.headers["content-type"].startswith("application/problem+json")
            assert r.json()["code"] == code, (action, who, r.text)
    assert await everything(client, game) == before

    # the admin is referee of every game; a referee seat of its own game
    holders = ["admin"] if creator == "A" else ["admin", "referee"]
    for holder in holders:
        for method, action, body in ACTIONS:
            if action in ("end", "replace-seat", "rewind"):
                continue  # below, once: they change the game for good
            r = await call(client, game, method, action, body, game.auth(holder))
            assert r.status_code == 200, (holder, action, r.text)
            if method == "post":
                assert r.json()["you"] == "referee"
    holder = holders[-1]
    rewind = {"to_seq": played[1].last_seq, "reason": "undo"}
    r = await call(client, game, "post", "rewind", rewind, game.auth(holder))
    assert r.status_code == 200, r.text
    r = await call(client, game, "post", "replace-seat", ACTIONS[4][2], game.auth(holder))
    assert r.status_code == 200, r.text
    assert set(r.json()) >= {"token", "view"}
    r = await call(client, game, "post", "end", ACTIONS[3][2], game.auth(holder))
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text


async def test_unknown_game_is_404_for_the_admin(client: httpx.AsyncClient) -> None:
    r = await client.post(
        "/api/v1/games/nosuchgame/referee/pause", json={"reason": "x"}, headers=ADMIN_AUTH
    )
    assert r.status_code == 404 and r.json()["code"] == "unknown_game", r.text


# -- pause and resume ------------------------------------------------------------------------------
async def test_pause_blocks_every_command_and_resume_restores_them(
    client: httpx.AsyncClient,
) -> None:
    game = await referee_game(client)
    await play(client, game, 3)
    running = {seat: await api_view(client, game, seat) for seat in ("A", "B", "referee")}
    awaited = running["referee"]["phase"]["awaiting"]
    due_seat, due = await next_command(client, game)  # what the game waits for
    assert awaited and due_seat in awaited
    other_seat = "A" if due_seat == "B" else "B"

    reason = "Checking the measuring tape on a1's move"
    view = await referee_ok(client, game, "pause", {"reason": reason})
    assert view["paused"] is True and view["phase"]["awaiting"] == []
    for seat in ("A", "B", "referee", "spectator"):
        seen = await api_view(client, game, seat)
        assert seen["paused"] is True, seat
        assert seen["phase"]["awaiting"] == [], seat
        assert seen["phase"]["legal"]["commands"] == [], seat
    paused_at = await record(client, game)
    for who, body in [
        (due_seat, due),
        (due_seat, {"type": "resign"}),
        (other_seat, {"type": "resign"}),
    ]:
        r = await client.post(f"{game.path}/commands", json=body, headers=game.auth(who))
        assert r.status_code == 409, r.text
        assert r.json()["code"] == "game_paused", r.text
    assert await record(client, game) == paused_at

    # the reason is public: every seat receives the paused event in full
    for seat in ("A", "B", "spectator"):
        last = (await api_events(client, game, seat))[-1]
        assert last["type"] == "paused" and last["data"]["reason"] == reason, seat
        assert not last.get("redacted")

    # the players' pages: the paused state and the reason in the log; no order forms
    for side in ("A", "B"):
        browser = Browser(client)
        try:
            await browser.enter(game.tokens[side])
            page = (await browser.page(game.id)).text
        finally:
            await browser.close()
        assert "Paused by the referee" in element(page, "status")
        assert reason in element(page, "log"), "the players read the referee's reason"
        assert "The referee has paused the game" in element(page, "controls")
        assert 'id="orders-form"' not in page and 'id="deploy-form"' not in page

    again = await client.post(
        f"{game.path}/referee/pause", json={"reason": "again"}, headers=game.auth("referee")
    )
    assert again.status_code == 409 and again.json()["code"] == "already_paused", again.text

    resumed = await referee_ok(client, game, "resume", {"reason": "tape checked"}, seat="admin")
    assert resumed["paused"] is False
    for who, before in running.items():
        now = await api_view(client, game, who)
        assert now["phase"] == before["phase"], who
        assert now["seq"] == before["seq"] + 2
    again = await client.post(
        f"{game.path}/referee/resume", json={"reason": "again"}, headers=ADMIN_AUTH
    )
    assert again.status_code == 409 and again.json()["code"] == "not_paused", again.text
    assert len(await play(client, game, 2)) == 2  # commands work again


async def test_the_referee_ends_the_game(client: httpx.AsyncClient) -> None:
    game = await referee_game(client)
    await play(client, game, 4)
    reason = "A's captain had to leave; B wins by forfeit"
    view = await referee_ok(client, game, "end", {"winner": "B", "reason": reason})
    assert view["status"] == "finished" and view["winner"] == "B"
    for seat in ("A", "B", "spectator"):
        seen = await api_view(client, game, seat)
        assert (seen["status"], seen["winner"], seen["finish_reason"]) == (
            "finished",
            "B",
            "referee",
        )
        assert seen["seed"] is not None  # public at the end
        last = (await api_events(client, game, seat))[-1]
        assert last["type"] == "game_finished"
        assert last["data"]["reason"] == "referee" and last["data"]["note"] == reason
    r = await client.post(f"{game.path}/commands", json={"type": "resign"}, headers=game.auth("A"))
    assert r.status_code == 409 and r.json()["code"] == "game_finished", r.text
    for action, body in [("pause", {"reason": "x"}), ("end", {"winner": "A", "reason": "x"})]:
        r = await client.post(
            f"{game.path}/referee/{action}", json=body, headers=game.auth("referee")
        )
        assert r.status_code == 409 and r.json()["code"] == "game_finished", r.text
    browser = Browser(client)
    try:
        await browser.enter(game.tokens["A"])
        log = element((await browser.page(game.id)).text, "log")
    finally:
        await browser.close()
    assert reason in log


# -- the pages -------------------------------------------------------------------------------------
def listed(html: str) -> set[str]:
    return set(re.findall(r'<a href="/games/([^"/]+)">', html))


async def test_the_referee_home_needs_the_admin_token(client: httpx.AsyncClient) -> None:
    game = await referee_game(client)
    await play(client, game, 2)

    # a spectator and a player (with a seat cookie) get the sign-in form, never the list
    for seat in (None, "A", "referee"):
        browser = Browser(client)
        try:
            if seat is not None:
                await browser.enter(game.tokens[seat])
                assert (await browser.page(game.id)).status_code == 200
            r = await browser.get("/referee")
            assert r.status_code == 200
            assert "Referee sign-in" in r.text and 'name="token"' in r.text
            assert game.id not in r.text and "<table" not in r.text
            for filt in ("active", "finished", "your_call"):
                assert game.id not in (await browser.get(f"/referee?filter={filt}")).text
            # typing a seat token into the form does not help either
            if seat is not None:
                r = await browser.form("/referee/login", {"token": game.tokens[seat]})
                assert r.status_code == 401, r.text
                assert "That is not the admin token." in r.text
                assert "pd_admin" not in r.headers.get("set-cookie", "")
                assert game.id not in (await browser.get("/referee")).text
        finally:
            await browser.close()

    # a forged admin cookie is no key
    browser = Browser(client)
    try:
        browser.http.cookies.set("pd_admin", game.tokens["referee"], domain="test.local")
        assert game.id not in (await browser.get("/referee")).text
        r = await browser.post("/referee/login", {"token": ADMIN})  # no CSRF field
        assert r.status_code == 403 and "pd_admin" not in r.headers.get("set-cookie", "")
    finally:
        await browser.close()


async def test_the_admin_signs_in_and_filters_the_games(client: httpx.AsyncClient) -> None:
    waiting = await create_waiting(client)
    active = await referee_game(client)
    await play(client, active, 3)
    paused = await referee_game(client)
    await play(client, paused, 3)
    await referee_ok(client, paused, "pause", {"reason": "dispute"})
    finished = await referee_game(client)
    await referee_ok(client, finished, "end", {"winner": "draw", "reason": "no show"})

    browser = Browser(client)
    try:
        r = await browser.form("/referee/login", {"token": ADMIN})
        assert r.status_code == 303 and r.headers["location"] == "/referee"
        cookie = r.headers["set-cookie"]
        assert "pd_admin=" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
        everyone = {waiting.id, active.id, paused.id, finished.id}
        expected = {
            "all": everyone,
            "active": {active.id, paused.id},
            "waiting": {active.id},  # waiting on a player: active and not paused
            "your_call": {paused.id},  # paused: the referee has to decide
            "finished": {finished.id},
        }
        for filt, ids in expected.items():
            r = await browser.get(f"/referee?filter={filt}")
            assert r.status_code == 200
            assert listed(r.text) == ids, filt
        # signed in, the admin's game page is the referee's page of any game
        page = (await browser.page(active.id)).text
        assert 'data-seat="referee"' in page and 'id="referee-panel"' in page
        r = await browser.form("/referee/logout", {})
        assert r.status_code == 303
        assert "Referee sign-in" in (await browser.get("/referee")).text
    finally:
        await browser.close()


async def create_waiting(client: httpx.AsyncClient) -> Game:
    r = await client.post(
        "/api/v1/games",
        json={"scenario": "duel", "creator": "referee", "seed": "ab" * 32},
        headers=ADMIN_AUTH,
    )
    assert r.status_code == 201, r.text
    created = r.json()
    return Game(created["game_id"], {"referee": created["token"]}, created["invites"])


async def test_the_game_pages_referee_forms(client: httpx.AsyncClient) -> None:
    game = await referee_game(client)
    await play(client, game, 3)
    actions = [
        ("pause", {"reason": "tea"}),
        ("rewind", {"to_seq": "4", "reason": "undo"}),
        ("end", {"winner": "A", "reason": "forfeit"}),
        ("replace-seat", {"side": "B", "reason": "new device"}),
        ("resume", {"reason": "on"}),
    ]
    before = await everything(client, game)
    for who, status in (("A", 403), ("B", 403), (None, 401)):
        browser = Browser(client)
        try:
            if who is not None:
                await browser.enter(game.tokens[who])
                page = (await browser.page(game.id)).text
                assert 'id="referee-panel"' not in page and "/referee/" not in page
            for action, fields in actions:
                r = await browser.form(f"/games/{game.id}/referee/{action}", fields)
                assert r.status_code == status, (who, action, r.text)
        finally:
            await browser.close()
    assert await everything(client, game) == before

    # the referee seat (its link) and the admin (signed in) use the forms
    referee = Browser(client)
    admin = Browser(client)
    try:
        await referee.enter(game.tokens["referee"])
        page = (await referee.page(game.id)).text
        assert 'id="referee-panel"' in page
        r = await referee.post(f"/games/{game.id}/referee/pause", {"reason": "no csrf"})
        assert r.status_code == 403  # the CSRF field is required
        r = await referee.form(f"/games/{game.id}/referee/pause", {"reason": "a dispute"})
        assert r.status_code == 303 and r.headers["location"] == f"/games/{game.id}", r.text
        assert (await api_view(client, game, "A"))["paused"] is True
        r = await referee.form(f"/games/{game.id}/referee/resume", {"reason": ""})
        assert r.status_code == 422 and "write the reason" in r.text
        assert (await admin.form("/referee/login", {"token": ADMIN})).status_code == 303
        r = await admin.form(f"/games/{game.id}/referee/resume", {"reason": "settled"})
        assert r.status_code == 303, r.text
        assert (await api_view(client, game, "A"))["paused"] is False
        r = await admin.form(
            f"/games/{game.id}/referee/replace-seat", {"side": "B", "reason": "lost link"}
        )
        assert r.status_code == 200 and "Side B has a new seat link" in r.text
        link = re.search(r'id="new-seat" readonly value="([^"]+)"', r.text)
        assert link and "/seat/" in link.group(1)
    finally:
        await referee.close()
        await admin.close()
