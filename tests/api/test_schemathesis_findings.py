"""What ``schemathesis run … --checks all`` found (issue 14), one test each: requests the
document allows must not be refused by the schema layer, and a 405 names every method of the
path."""

from __future__ import annotations

import re

import httpx

from app.rules.designs import preset
from tests.api.helpers import API, new_game, ok
from tests.conftest import ADMIN


async def test_a_405_allows_every_method_the_path_serves(client: httpx.AsyncClient) -> None:
    for method, path, allowed in (
        ("OPTIONS", "/games", "GET, POST"),
        ("DELETE", "/designs", "GET, POST"),
        ("PUT", "/games/g/commands", "POST"),
        # its own path, though GET /designs/{design_id} would take it as an id
        ("OPTIONS", "/designs/validate", "POST"),
    ):
        r = await client.request(method, f"{API}{path}")
        assert r.status_code == 405, r.text
        assert r.headers["allow"] == allowed, (method, path, r.headers)
        assert r.json()["code"] == "method_not_allowed"


async def test_integral_floats_are_integers(client: httpx.AsyncClient) -> None:
    """JSON Schema's integer includes 3.0: taken as 3 (2.5 and true are still refused)."""
    game = await new_game(client, {"scenario": "duel", "turn_limit": 3.0})
    placement = {"ship": "a1", "position": {"x": 36, "y": 8}, "heading": 0.0, "speed": 2.0}
    seq = (await client.get(game.path, headers=game.auth("A"))).json()["seq"]
    deploy = {"type": "deploy", "ships": [placement], "at_seq": float(seq)}
    reply = await ok(client, game, "A", deploy)
    assert reply["view"]["turn_limit"] == 3
    design = {**preset("scout").to_dict(), "mass": float(preset("scout").mass)}
    r = await client.post(f"{API}/designs/validate", json=design)
    assert r.status_code == 200, r.text
    for bad in (2.5, True):
        r = await client.post(f"{API}/games", json={"scenario": "duel", "turn_limit": bad})
        assert r.status_code == 422 and r.json()["code"] == "invalid_request", r.text


async def test_the_document_says_what_the_bodies_need(client: httpx.AsyncClient) -> None:
    doc = (await client.get(f"{API}/openapi.json")).json()
    design = doc["paths"][f"{API}/designs"]["post"]["requestBody"]["content"]
    schema = design["application/json"]["schema"]
    assert set(schema["required"]) == {"id", "name", "class", "mass", "thrust", "hull"}
    assert schema["additionalProperties"] is False
    game = doc["components"]["schemas"]["CreateGameIn"]
    assert game["if"]["required"] == ["scenario"] and game["else"]["required"] == ["sides"]
    r = await client.post(f"{API}/games", json={})  # neither: refused, as the document says
    assert r.status_code == 422
    stream = doc["paths"][f"{API}/games/{{game_id}}/stream"]["get"]["parameters"]
    pattern = next(p for p in stream if p["name"] == "Last-Event-ID")["schema"]["pattern"]
    assert re.match(pattern, "0000000005") and re.match(pattern, "2147483647")
    assert not re.match(pattern, "0" * 20) and not re.match(pattern, "2147483648")
    headers = {"Authorization": f"Bearer {ADMIN}"}
    assert (await client.get(f"{API}/games", headers=headers)).status_code == 200
