"""The dice seed (RULES.md §12, API.md "Creating a game", "Referee"), attacked through HTTP.

- Choosing the seed: a creator who picks the seed knows every roll. A ``seed`` is accepted only
  with the admin token and only on a server that allows client seeds; anyone else (no token, a
  seat's token, a made-up token) gets 422 ``client_seed_not_allowed`` with a detail that says
  what to do, and no game is created. The lobby's form takes no seed from a browser.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from app.main import create_app
from tests.conftest import ADMIN, make_settings
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
