"""The dice seed (RULES.md §12, API.md "Creating a game", "Referee"), attacked through HTTP.

- Choosing the seed: a creator who picks the seed knows every roll. A ``seed`` is accepted only
  with the admin token and only on a server that allows client seeds; anyone else (no token, a
  seat's token, a made-up token) gets 422 ``client_seed_not_allowed`` with a detail that says
  what to do, and no game is created. The lobby's form takes no seed from a browser.
- Reading the seed: before the end the seed is in nothing anyone can read — not the referee's
  or the admin's view, events, command or action answers, record (``seed`` is null), error
  bodies, the referee's game page and its blocks, ``record.json``, the admin's games list and
  home page, the referee's and the admin's ``/stream`` (a real server). At the end it is
  published (``game_finished``, every view, the record).
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from app.main import create_app
from tests.conftest import ADMIN, LiveServer, make_settings
from tests.live import live_client, open_stream
from tests.referee.conftest import Game, play, referee_ok
from tests.web import Browser, create_game

API = "/api/v1"
ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}
SEED = "d1ce" * 16
CHOSEN = {"scenario": "duel", "creator": "A", "seed": SEED}


async def game_ids(client: httpx.AsyncClient) -> list[str]:
    r = await client.get(f"{API}/games", headers=ADMIN_AUTH)
    assert r.status_code == 200, r.text
    return [g["game_id"] for g in r.json()["games"]]


def assert_seed_refused(r: httpx.Response, *words: str) -> None:
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    problem = r.json()
    assert problem["code"] == "client_seed_not_allowed", problem
    for word in words:
        assert word in problem["detail"], problem["detail"]


async def published_seed(client: httpx.AsyncClient, game_id: str) -> str:
    """End the game (admin) and read the seed the record then publishes."""
    r = await client.post(
        f"{API}/games/{game_id}/referee/end",
        json={"winner": "draw", "reason": "seed check"},
        headers=ADMIN_AUTH,
    )
    assert r.status_code == 200, r.text
    r = await client.get(f"{API}/games/{game_id}/record", headers=ADMIN_AUTH)
    assert r.status_code == 200, r.text
    seed: str = r.json()["seed"]
    assert re.fullmatch(r"[0-9a-f]{64}", seed), seed
    return seed


# -- choosing the seed -----------------------------------------------------------------------------
async def test_a_seed_is_accepted_only_from_the_admin_token(
    client: httpx.AsyncClient, db_url: str, tmp_path: Path
) -> None:
    other = await create_game(client, {"scenario": "duel", "creator": "A"})
    before = await game_ids(client)
    for headers in (
        {},
        other.auth("A"),
        other.auth("B"),
        {"Authorization": "Bearer not-the-admin-token"},
    ):
        r = await client.post(f"{API}/games", json=CHOSEN, headers=headers)
        assert_seed_refused(r, "admin token", "leave out 'seed'")
        assert await game_ids(client) == before

    # the admin may choose; the game rolls that seed's dice (published at the end)
    r = await client.post(f"{API}/games", json=CHOSEN, headers=ADMIN_AUTH)
    assert r.status_code == 201, r.text
    created = r.json()
    assert created["side"] == "A" and set(created["invites"]) == {"B"}
    assert await published_seed(client, created["game_id"]) == SEED
    # without a seed anyone may create, the admin too
    for headers in ({}, ADMIN_AUTH, other.auth("A")):
        r = await client.post(f"{API}/games", json={"scenario": "duel"}, headers=headers)
        assert r.status_code == 201, r.text

    # a server started without client seeds refuses one even from the admin
    strict = create_app(make_settings(db_url, tmp_path / "strict"))
    async with strict.router.lifespan_context(strict):
        transport = httpx.ASGITransport(app=strict)
        async with httpx.AsyncClient(transport=transport, base_url="http://strict") as c:
            listed = await game_ids(c)
            r = await c.post(f"{API}/games", json=CHOSEN, headers=ADMIN_AUTH)
            assert_seed_refused(r, "PINGDUEL_ALLOW_CLIENT_SEED")
            assert await game_ids(c) == listed


async def test_the_lobby_form_takes_no_seed(client: httpx.AsyncClient) -> None:
    browser = Browser(client)
    try:
        # even a browser signed in as the admin: the lobby is a player's form
        browser.http.cookies.set("pd_admin", ADMIN, domain="test.local", path="/")
        r = await browser.form(
            "/games", {"mode": "scenario", "scenario": "duel", "seat": "A", "seed": SEED}
        )
        assert r.status_code == 201, r.text
    finally:
        await browser.close()
    (game_id,) = [g for g in await game_ids(client)]
    assert await published_seed(client, game_id) != SEED


# -- reading the seed ------------------------------------------------------------------------------
async def referee_duel(client: httpx.AsyncClient) -> Game:
    """A duel whose creator took the referee seat, with a seed the admin chose."""
    r = await client.post(
        f"{API}/games",
        json={"scenario": "duel", "creator": "referee", "seed": SEED},
        headers=ADMIN_AUTH,
    )
    assert r.status_code == 201, r.text
    created = r.json()
    game = Game(created["game_id"], {"referee": created["token"]}, dict(created["invites"]))
    for side, code in created["invites"].items():
        c = await client.post(f"{API}/invites/{code}/claim", json={"name": f"Player {side}"})
        assert c.status_code == 200, c.text
        game.tokens[side] = c.json()["token"]
    return game


class Reader:
    """Every answer read, to look for the seed in all of them."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []

    def keep(self, where: str, r: httpx.Response) -> httpx.Response:
        self.seen.append((where, r.text))
        return r

    def leaks(self) -> list[str]:
        return [where for where, text in self.seen if SEED in text.lower()]


async def read_everything(client: httpx.AsyncClient, game: Game, reader: Reader) -> None:
    """Every channel the referee seat and the admin can read, mid-game (errors included)."""
    path = f"{API}/games/{game.id}"
    for who in ("referee", "admin"):
        auth = game.auth(who)
        for part in ("", "/events", "/events?after=3", "/record", "/referee/presence"):
            r = reader.keep(f"{who} GET {part}", await client.get(path + part, headers=auth))
            assert r.status_code == 200, (who, part, r.text)
        # refusals: a command, a bad rewind, a reissue of a taken seat
        reader.keep(
            f"{who} command",
            await client.post(f"{path}/commands", json={"type": "resign"}, headers=auth),
        )
        reader.keep(
            f"{who} rewind",
            await client.post(
                f"{path}/referee/rewind", json={"to_seq": 10**6, "reason": "x"}, headers=auth
            ),
        )
        reader.keep(f"{who} reissue", await client.post(f"{path}/invites/B/reissue", headers=auth))
    reader.keep("admin list", await client.get(f"{API}/games", headers=ADMIN_AUTH))
    # each action answers with the referee's view
    for action, body in (("pause", {"reason": "tea"}), ("resume", {"reason": "back"})):
        r = reader.keep(
            f"referee {action}",
            await client.post(f"{path}/referee/{action}", json=body, headers=game.auth("referee")),
        )
        assert r.status_code == 200, r.text

    # the pages: the referee seat's and the admin's
    for who in ("referee", "admin"):
        browser = Browser(client)
        try:
            if who == "referee":
                browser.hold(game.id, game.tokens["referee"])
            else:
                browser.http.cookies.set("pd_admin", ADMIN, domain="test.local", path="/")
                reader.keep("admin home", await browser.get("/referee"))
            page = reader.keep(f"{who} page", await browser.page(game.id))
            assert "referee-panel" in page.text
            for name in ("status", "map", "controls", "sheets", "log"):
                reader.keep(f"{who} {name}", await browser.fragment(game.id, name))
            r = reader.keep(
                f"{who} record.json", await browser.get(f"/games/{game.id}/record.json")
            )
            assert r.status_code == 200, r.text
        finally:
            await browser.close()


async def test_the_seed_is_in_no_channel_before_the_end(client: httpx.AsyncClient) -> None:
    game = await referee_duel(client)
    reader = Reader()
    played = await play(client, game, 9)
    assert any(e["type"] == "fire_resolved" for p in played for e in p.answer["events"])
    for p in played:  # the players' command answers
        assert SEED not in str(p.answer).lower(), p.body
    await read_everything(client, game, reader)

    for who in ("referee", "admin"):
        r = await client.get(f"{API}/games/{game.id}/record", headers=game.auth(who))
        assert r.json()["seed"] is None and r.json()["seed_commitment"], who
        assert (await client.get(f"{API}/games/{game.id}", headers=game.auth(who))).json()[
            "seed"
        ] is None
    # a rewind's answer and the rewound event carry no seed either
    r = reader.keep(
        "rewind",
        await client.post(
            f"{API}/games/{game.id}/referee/rewind",
            json={"to_seq": played[1].last_seq, "reason": "recount"},
            headers=game.auth("referee"),
        ),
    )
    assert r.status_code == 200, r.text
    await read_everything(client, game, reader)
    assert reader.leaks() == []

    # the end publishes it: the last event, every view, the record
    ended = await referee_ok(client, game, "end", {"winner": "draw", "reason": "time"})
    assert ended["seed"] == SEED
    for who in ("A", "B", "spectator", "referee", "admin"):
        auth = game.auth(who)
        view = (await client.get(f"{API}/games/{game.id}", headers=auth)).json()
        assert view["seed"] == SEED, who
        events = (await client.get(f"{API}/games/{game.id}/events", headers=auth)).json()
        assert events["events"][-1]["type"] == "game_finished"
        assert events["events"][-1]["data"]["seed"] == SEED, who
        record = (await client.get(f"{API}/games/{game.id}/record", headers=auth)).json()
        assert record["seed"] == SEED, who


async def test_the_seed_is_in_no_stream_before_the_end(live_server: LiveServer) -> None:
    async with live_client(live_server.url) as client:
        game = await referee_duel(client)
        await play(client, game, 9)
        last = (await client.get(f"{API}/games/{game.id}", headers=ADMIN_AUTH)).json()["seq"]
        for token in (game.tokens["referee"], ADMIN):
            async with open_stream(client, game.id, token) as reader:
                events = await reader.until(last)
                assert [e.seq for e in events] == list(range(1, last + 1))
                assert SEED not in reader.text().lower()
        async with open_stream(client, game.id, ADMIN, after=last) as reader:
            ended = await referee_ok(client, game, "end", {"winner": "A", "reason": "forfeit"})
            (finished,) = await reader.until(ended["seq"])
            assert finished.event == "game_finished"
            assert finished.json()["data"]["seed"] == SEED
