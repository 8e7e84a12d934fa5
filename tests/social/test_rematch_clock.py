"""A rematch keeps the time control (issue 15: the same settings, clock included), its clock
starting afresh for the new game."""

from __future__ import annotations

import httpx

from tests.api.helpers import new_game
from tests.social.test_rematch_api import finish, rematch, view

LIVE = {"kind": "live", "initial_s": 300, "increment_s": 5}


async def test_the_rematch_has_the_same_clock(client: httpx.AsyncClient) -> None:
    old = await new_game(client, {"scenario": "duel", "clock": LIVE})
    await finish(client, old)
    assert (await rematch(client, old, "A")).status_code == 202
    r = await rematch(client, old, "B")
    assert r.status_code == 200, r.text
    seen = await view(client, r.json()["game_id"], r.json()["token"])
    clock = seen["clock"]
    assert clock["kind"] == "live"
    assert clock["timeouts"] == {"A": 0, "B": 0}
    # deployment awaits both sides, each with the full bank of the settings
    assert clock["A"]["running"] and clock["B"]["running"]
    assert 290 < clock["A"]["left_s"] <= 300 and 290 < clock["B"]["left_s"] <= 300


async def test_a_game_without_a_clock_rematches_without_one(client: httpx.AsyncClient) -> None:
    old = await new_game(client, {"scenario": "duel"})
    await finish(client, old)
    await rematch(client, old, "B")
    r = await rematch(client, old, "A")
    assert r.status_code == 200, r.text
    assert (await view(client, r.json()["game_id"], r.json()["token"]))["clock"] is None
