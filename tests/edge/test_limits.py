"""Every limit refuses with 429, Retry-After and problem+json; keys by address and by token."""

from __future__ import annotations

from typing import Any

import httpx
from prometheus_client import REGISTRY

from tests.conftest import ADMIN

API = "/api/v1"
DUEL = {"scenario": "duel"}
ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}


def refused(r: httpx.Response, limit: str) -> dict[str, Any]:
    assert r.status_code == 429, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["code"] == "rate_limited" and body["limit"] == limit, body
    assert body["type"] == "/problems/rate_limited" and body["status"] == 429
    wait = r.headers["Retry-After"]
    assert wait.isdigit() and int(wait) >= 1 and int(wait) == body["retry_after"]
    assert f"wait {wait} s" in body["detail"]
    return body


def refusals(limit: str) -> float:
    return REGISTRY.get_sample_value("pingduel_rate_limited_total", {"limit": limit}) or 0.0


async def create(c: httpx.AsyncClient, **headers: str) -> httpx.Response:
    return await c.post(f"{API}/games", json=DUEL, headers=headers)


async def test_game_creation_is_limited_per_address_and_counted(edge: Any) -> None:
    async with edge(limit_games="2/hour") as e:
        here, there = e.client("127.0.0.1"), e.client("192.0.2.7")
        before = refusals("games")
        assert [(await create(here)).status_code for _ in range(2)] == [201, 201]
        body = refused(await create(here), "games")
        assert "games created from this address" in body["detail"]
        assert refusals("games") == before + 1
        # another address has its own count
        assert (await create(there)).status_code == 201


async def test_design_saving_is_limited_per_address(edge: Any) -> None:
    async with edge(limit_designs="1/hour") as e:
        c = e.client()
        design = (await c.get(f"{API}/designs/frigate")).json()
        design = {k: v for k, v in design.items() if k not in ("points", "summary")}
        assert (await c.post(f"{API}/designs", json=design)).status_code == 201
        refused(await c.post(f"{API}/designs", json=design), "designs")


async def test_invite_claims_are_limited_per_address(edge: Any) -> None:
    async with edge(limit_claims="2/hour") as e:
        c = e.client()
        for _ in range(2):  # wrong codes count too: guessing is what the limit stops
            assert (await c.post(f"{API}/invites/nosuchcode/claim", json={})).status_code == 404
        refused(await c.post(f"{API}/invites/nosuchcode/claim", json={}), "claims")


async def test_commands_are_limited_per_token_and_per_address_independently(edge: Any) -> None:
    async with edge(limit_commands="3/hour", limit_commands_per_address="4/hour") as e:
        here, there = e.client("127.0.0.1"), e.client("198.51.100.9")
        one, two = (await create(there)).json(), (await create(there)).json()

        async def send(c: httpx.AsyncClient, game: dict[str, Any]) -> httpx.Response:
            auth = {"Authorization": f"Bearer {game['token']}"}
            path = f"{API}/games/{game['game_id']}/commands"
            return await c.post(path, json={"type": "resign"}, headers=auth)

        # the game waits for B: each command is refused by the game (409), and counted
        assert [(await send(here, one)).status_code for _ in range(3)] == [409] * 3
        refused(await send(here, one), "commands")
        refused(await send(there, one), "commands")  # the same token from elsewhere: still
        assert (await send(here, two)).status_code == 409  # another token: the address's 4th
        refused(await send(here, two), "commands_per_address")
        assert (await send(there, two)).status_code == 409  # that address is not spent


async def test_wrong_tokens_are_limited_with_a_growing_wait(edge: Any) -> None:
    """The admin's list with a wrong token is 403, a game read with one 401: both count; once
    a window is full every request with a token is refused, the right admin token excepted."""
    async with edge(limit_token_failures="2/5seconds;4/hour") as e:
        c = e.client()
        game = (await create(c)).json()
        wrong = {"Authorization": "Bearer " + "w" * 40}
        # the limiter's windows start at multiples of their length: begin near the start of one,
        # so the first three requests fall in the same 5 s (across a boundary the sliding
        # count weighs the earlier window less and might let the third through)
        await _start_of_window(5)
        assert (await c.get(f"{API}/games", headers=wrong)).status_code == 403
        assert (await c.get(f"{API}/games/{game['game_id']}", headers=wrong)).status_code == 401
        first = refused(await c.get(f"{API}/games", headers=wrong), "token_failures")
        assert 1 <= first["retry_after"] <= 5
        seat = {"Authorization": f"Bearer {game['token']}"}
        refused(await c.get(f"{API}/games/{game['game_id']}", headers=seat), "token_failures")
        assert (await c.get(f"{API}/games", headers=ADMIN_AUTH)).status_code == 200
        assert (await c.get(f"{API}/games/{game['game_id']}")).status_code == 200  # no token
        # the second window fills with two more failures: the wait is now the hour's
        for _ in range(2):
            r = await _when_allowed(c, f"{API}/games", wrong)
            assert r.status_code == 403
        later = refused(await c.get(f"{API}/games", headers=wrong), "token_failures")
        assert later["retry_after"] > first["retry_after"]


async def _start_of_window(seconds: int) -> None:
    import asyncio
    import time

    while time.time() % seconds > 0.5:
        await asyncio.sleep(0.05)


async def _when_allowed(c: httpx.AsyncClient, path: str, headers: dict[str, str]) -> httpx.Response:
    """Ask until the answer is not a 429 (a refused request is not a failure: it never reaches
    the token check), at most a few seconds."""
    import asyncio

    for _ in range(100):
        r = await c.get(path, headers=headers)
        if r.status_code != 429:
            return r
        await asyncio.sleep(0.1)
    raise AssertionError("still refused")


async def test_the_admin_token_is_never_limited(edge: Any) -> None:
    async with edge(limit_games="1/hour", limit_token_failures="1/hour") as e:
        c = e.client()
        assert (await create(c)).status_code == 201
        refused(await create(c), "games")
        assert (await c.get(f"{API}/games", headers={"Authorization": "Bearer nope"})).status_code
        for _ in range(5):
            assert (await create(c, **ADMIN_AUTH)).status_code == 201
            assert (await c.get(f"{API}/games", headers=ADMIN_AUTH)).status_code == 200


async def test_the_off_switch_turns_every_limit_off(edge: Any) -> None:
    async with edge(rate_limits=False, limit_games="1/hour", limit_claims="1/hour") as e:
        c = e.client()
        for _ in range(4):
            assert (await create(c)).status_code == 201
            assert (await c.post(f"{API}/invites/x/claim", json={})).status_code == 404


async def test_the_servers_own_work_is_not_limited(edge: Any) -> None:
    """A limit guards HTTP requests only: the rooms themselves (what the server does on its
    own: timeouts, a computer player) create and play without meeting one."""
    from app.play.lobby import NewGame

    async with edge(limit_games="1/hour") as e:
        c = e.client()
        assert (await create(c)).status_code == 201
        refused(await create(c), "games")
        lobby = e.app.state.service.lobby
        for _ in range(3):
            made = await lobby.create_game(NewGame(scenario="duel"))
            assert made["game_id"]


async def test_the_openapi_document_names_the_429(edge: Any) -> None:
    async with edge() as e:
        doc = (await e.client().get(f"{API}/openapi.json")).json()
        for path, method in (
            ("/api/v1/games", "post"),
            ("/api/v1/designs", "post"),
            ("/api/v1/invites/{code}/claim", "post"),
            ("/api/v1/games/{game_id}/commands", "post"),
            ("/api/v1/games/{game_id}/stream", "get"),
            ("/api/v1/games/{game_id}", "get"),  # takes a token: the failure window
        ):
            answer = doc["paths"][path][method]["responses"]["429"]
            assert "Retry-After" in answer["headers"], path
        assert "429" not in doc["paths"]["/api/v1/scenarios"]["get"]["responses"]
