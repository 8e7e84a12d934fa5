"""A first pass through the API on the selected database."""

from __future__ import annotations

import httpx

from tests.api.helpers import API, deploy_duel, new_game, view


async def test_create_claim_deploy_and_view(client: httpx.AsyncClient) -> None:
    duel = await new_game(client)
    result = await deploy_duel(client, duel)
    assert [e["type"] for e in result["events"]] == ["deployed", "turn_started"]
    seen = await view(client, duel, "A")
    assert seen["status"] == "active"
    assert seen["phase"]["step"] == "activate"
    assert seen["phase"]["awaiting"] == [seen["phase"]["side"]]
    enemy = next(s for s in seen["ships"] if s["id"] == "b1")
    assert "position" not in enemy and enemy["revealed"] == "unseen"
    r = await client.get(f"{API}/games/{duel.game_id}/events", params={"after": 0})
    assert [e["type"] for e in r.json()["events"]] == [
        "game_started",
        "seat_claimed",
        "deployed",
        "deployed",
        "turn_started",
    ]
    assert all(e.get("redacted") for e in r.json()["events"] if e["type"] == "deployed")
