"""Rematch over the API (issue 15): offer, accept, the players on each other's sides, the same
settings, a new seed, each seat handed out once."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.api.helpers import API, Duel, new_game
from tests.conftest import ADMIN

ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}
CUSTOM = {
    "sides": {
        "A": {"name": "Red fleet", "ships": [{"name": "Ajax", "design": "frigate"}]},
        "B": {"name": "Blue fleet", "ships": [{"name": "Brutus", "design": "destroyer"},
                                               {"name": "Castor", "design": "frigate"}]},
    },
    "movement": "vector",
    "turn_limit": 7,
    "spectators": False,
}  # fmt: skip


async def finish(client: httpx.AsyncClient, duel: Duel) -> None:
    r = await client.post(
        f"{duel.path}/referee/end", json={"winner": "A", "reason": "test"}, headers=ADMIN_AUTH
    )
    assert r.status_code == 200, r.text


async def rematch(client: httpx.AsyncClient, duel: Duel, seat: str) -> httpx.Response:
    headers = duel.auth(seat) if seat in duel.tokens else ADMIN_AUTH if seat == "admin" else {}
    return await client.post(f"{duel.path}/rematch", headers=headers)


async def view(client: httpx.AsyncClient, game_id: str, token: str) -> dict[str, Any]:
    r = await client.get(f"{API}/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    return dict(r.json())


async def test_offer_accept_swaps_the_players(client: httpx.AsyncClient) -> None:
    old = await new_game(client, CUSTOM)
    await finish(client, old)
    r = await rematch(client, old, "A")
    assert (r.status_code, r.json()) == (202, {"offered": True})
    assert (await rematch(client, old, "A")).status_code == 202  # idempotent
    state = (await client.get(f"{old.path}/rematch", headers=old.auth("B"))).json()
    assert state == {"offered_by": "A", "game_id": None, "token_waiting": False}
    r = await rematch(client, old, "B")
    assert r.status_code == 200, r.text
    new_id, b_token = r.json()["game_id"], r.json()["token"]
    assert new_id != old.game_id and b_token
    # the old B is now side A: it plays the fleet the old A had
    b_view = await view(client, new_id, b_token)
    assert b_view["you"] == "A"
    own = {s["name"] for s in b_view["ships"] if s["side"] == "A"}
    assert own == {"Ajax"}
    state = (await client.get(f"{old.path}/rematch", headers=old.auth("A"))).json()
    assert state == {"offered_by": "A", "game_id": new_id, "token_waiting": True}
    r = await rematch(client, old, "A")
    assert r.status_code == 200 and r.json()["game_id"] == new_id
    a_token = r.json()["token"]
    a_view = await view(client, new_id, a_token)
    assert a_view["you"] == "B"
    assert {s["name"] for s in a_view["ships"] if s["side"] == "B"} == {"Brutus", "Castor"}
    assert a_view["status"] == "active"
    # later calls: the id, never a second token
    for seat in ("A", "B"):
        r = await rematch(client, old, seat)
        assert r.status_code == 200 and r.json() == {"game_id": new_id, "token": None}
    assert (await view(client, new_id, a_token))["you"] == "B"  # still the live token
    # same settings, new seed
    old_view = await view(client, old.game_id, old.tokens["A"])
    for key in ("movement", "side_names", "turn_limit", "table"):
        if key in old_view:
            assert a_view[key] == old_view[key], key
    assert a_view["seed_commitment"] != old_view["seed_commitment"]
    # the names go with the players: the old B ("Player B") now sits at A
    assert a_view["seats"] == {"A": {"name": "Player B"}, "B": {"name": None}}
    r = await client.get(f"{API}/games/{new_id}")
    assert r.status_code == 401  # spectators: off, as in the old game


async def test_refusals(client: httpx.AsyncClient) -> None:
    duel = await new_game(client)
    r = await rematch(client, duel, "A")
    assert r.status_code == 409 and r.json()["code"] == "game_not_finished"
    await finish(client, duel)
    r = await client.post(f"{duel.path}/rematch")
    assert r.status_code == 401
    r = await rematch(client, duel, "admin")
    assert r.status_code == 403
    other = await new_game(client)
    r = await client.post(f"{duel.path}/rematch", headers=other.auth("A"))
    assert r.status_code == 403
    assert (
        await client.post(f"{API}/games/nope/rematch", headers=duel.auth("A"))
    ).status_code == 404
    assert (await client.get(f"{duel.path}/rematch")).json()["offered_by"] is None


async def test_concurrent_accepts_make_one_game(client: httpx.AsyncClient) -> None:
    duel = await new_game(client)
    await finish(client, duel)
    assert (await rematch(client, duel, "A")).status_code == 202
    seats = ("B", "B", "A", "B")
    answers = await asyncio.gather(*(rematch(client, duel, s) for s in seats))
    ids = {r.json().get("game_id") for r in answers if r.status_code == 200}
    assert len(ids) == 1, [r.text for r in answers]
    (new_id,) = ids
    for seat, r in zip(seats, answers, strict=True):
        if r.status_code == 409:
            assert r.json()["code"] == "rematch_busy"
        else:  # the offerer may call while the accept is under way: still an offer
            assert r.status_code == 200 or (seat, r.status_code) == ("A", 202), r.text
    later = [await rematch(client, duel, seat) for seat in ("A", "B", "A", "B")]
    handed = [r.json()["token"] for r in [*answers, *later] if r.status_code == 200]
    tokens = [t for t in handed if t]
    assert len(tokens) == 2, handed  # one per seat, never a second one
    got = {(await view(client, new_id, token))["you"] for token in tokens}
    assert got == {"A", "B"}


async def test_a_human_referee_follows_into_the_rematch(client: httpx.AsyncClient) -> None:
    r = await client.post(f"{API}/games", json={"scenario": "duel", "creator": "referee"})
    assert r.status_code == 201, r.text
    made = r.json()
    duel = Duel(made["game_id"], {"referee": made["token"]})
    for side, code in made["invites"].items():
        claimed = await client.post(f"{API}/invites/{code}/claim", json={"name": f"P{side}"})
        duel.tokens[side] = claimed.json()["token"]
    await finish(client, duel)
    assert (await rematch(client, duel, "referee")).status_code == 403  # players decide
    assert (await rematch(client, duel, "B")).status_code == 202
    r = await rematch(client, duel, "A")
    new_id = r.json()["game_id"]
    assert (await view(client, new_id, r.json()["token"]))["you"] == "B"
    state = await client.get(f"{duel.path}/rematch", headers=duel.auth("referee"))
    assert state.json()["token_waiting"] is True
    r = await rematch(client, duel, "referee")
    assert r.status_code == 200 and r.json()["game_id"] == new_id
    ref_view = await view(client, new_id, r.json()["token"])
    assert ref_view["you"] == "referee" and ref_view["creator"] == "referee"
    assert (await rematch(client, duel, "referee")).json()["token"] is None
    r = await client.post(f"{duel.path}/rematch")  # a spectator
    assert r.status_code == 401
