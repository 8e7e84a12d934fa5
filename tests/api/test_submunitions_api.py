"""Submunition racks over HTTP (C2.1; docs/rules.md §7), on the selected database: designable
and priced by the design API, fired in a window, spent for the rest of the game in every seat's
view, and a second use refused as a problem+json ``weapon_spent``.
"""

from __future__ import annotations

from typing import Any

import httpx

from app.rules.designs import preset
from tests.api.replay_check import API, Game, assert_problem, create, get_view, ok, send

SEED = "5b" * 32
RACK = {"id": "rack-1", "type": "submunitions", "arcs": ["F"]}


async def test_the_design_api_prices_a_rack_and_lists_its_row(client: httpx.AsyncClient) -> None:
    frigate = preset("frigate").to_dict()
    r = await client.post(f"{API}/designs/validate", json=frigate)
    assert r.status_code == 200, r.text
    before = r.json()
    racked = {**frigate, "mass": 31, "systems": [*frigate["systems"], RACK]}
    r = await client.post(f"{API}/designs/validate", json=racked)
    assert r.status_code == 200, r.text
    after = r.json()
    assert after["problems"] == []
    assert after["mass_used"] == before["mass_used"] + 1  # decision: 1 mass
    rack = next(s for s in after["systems"] if s["id"] == "rack-1")
    assert (rack["mass"], rack["points"]) == (1, 3)  # decision: 3 points per mass
    two_arcs = {**racked, "systems": [*frigate["systems"], {**RACK, "arcs": ["F", "FS"]}]}
    r = await client.post(f"{API}/designs/validate", json=two_arcs)
    assert r.status_code in (200, 422), r.text
    assert any("at most 1" in p for p in r.json()["problems"]), r.text
    rows = (await client.get(f"{API}/systems")).json()["systems"]
    row = next(s for s in rows if s["type"] == "submunitions")
    assert (row["section"], row["screens"], row["once_per_game"]) == ("C2.1", False, True)
    assert [b["notation"] for b in row["profiles"][0]["bands"]] == ["3BD*", "2BD*", "1BD*"]
    assert [b["to"] for b in row["profiles"][0]["bands"]] == [6.0, 12.0, 18.0]
    assert len(row["decisions"]) == 3
    designs = (await client.get(f"{API}/designs")).json()["designs"]
    assert "strike_frigate" in {d["id"] for d in designs}


async def _turn(client: httpx.AsyncClient, game: Game) -> dict[str, Any]:
    """Play until A's strike frigate is in a fire window after its own ping: B stays put on
    overwatch and holds its fire. Returns A's view there."""
    while True:
        phase = (await get_view(client, game, "referee"))["phase"]
        if phase["step"] == "fire" and phase["awaiting"] == ["A"]:
            return await get_view(client, game, "A")
        if phase["step"] == "fire":  # B's overwatch answer to A's ping: hold
            window = phase["fire"]["window"]
            await ok(client, game, "B", {"type": "fire", "window": window, "shots": []})
        elif phase["side"] == "B":
            await ok(client, game, "B", {"type": "move", "ship": "b1", "orders": _still()})
            await ok(client, game, "B", {"type": "end_activation", "ship": "b1"})
        else:
            await ok(client, game, "A", {"type": "move", "ship": "a1", "orders": _still()})
            await ok(client, game, "A", {"type": "ping", "ship": "a1"})


def _still() -> dict[str, int]:
    return {"speed_change": 0, "turn": 0}


def _ship(v: dict[str, Any], ship_id: str) -> dict[str, Any]:
    return next(s for s in v["ships"] if s["id"] == ship_id)


async def test_a_rack_fires_once_then_is_spent_and_refused(client: httpx.AsyncClient) -> None:
    game = await create(
        client,
        {
            "sides": {
                "A": {"ships": [{"name": "Lance", "design": "strike_frigate"}]},
                # a scout: no ECM, so A's ping always reveals it (RULES §5)
                "B": {"ships": [{"name": "Warden", "design": "scout"}]},
            },
            "table": {"width": 72, "height": 24},
            "seed": SEED,
        },
        game_id="racks0000001",
    )
    place = {"ship": "a1", "position": {"x": 30, "y": 8}, "heading": 0, "speed": 0}
    await ok(client, game, "A", {"type": "deploy", "ships": [place]})
    place = {"ship": "b1", "position": {"x": 30, "y": 16}, "heading": 6, "speed": 0}
    await ok(client, game, "B", {"type": "deploy", "ships": [place]})

    a_view = await _turn(client, game)
    options = a_view["phase"]["legal"]["fire_options"]
    rack = next(o for o in options if o["weapon"] == "rack-1")
    # 8 mu dead ahead: the F rack's second band, read with no screen
    assert (rack["band"], rack["dice"], rack["screen"], rack["path"]) == (2, "2BD*", 0, "standard")
    assert not {"rack-2", "rack-3"} & {o["weapon"] for o in options}  # FP and FS: out of arc
    window = a_view["phase"]["fire"]["window"]
    shot = {"ship": "a1", "weapon": "rack-1", "target": "b1"}
    reply = await ok(client, game, "A", {"type": "fire", "window": window, "shots": [shot]})
    resolved = [e for e in reply["events"] if e["type"] == "fire_resolved"]
    if not resolved:  # B was awaited too: hold, and the volley resolves
        phase = (await get_view(client, game, "referee"))["phase"]
        assert phase["awaiting"] == ["B"], phase
        reply = await ok(client, game, "B", {"type": "fire", "window": window, "shots": []})
        resolved = [e for e in reply["events"] if e["type"] == "fire_resolved"]
    fired = next(s for s in resolved[0]["data"]["shots"] if s["weapon"] == "rack-1")
    assert fired["weapon_type"] == "submunitions" and fired["screen"] == 0

    for seat in ("A", "B", "referee", "spectator"):
        a1 = _ship(await get_view(client, game, seat), "a1")
        spent = {s["id"] for s in a1["systems"] if s.get("spent")}
        assert spent == {"rack-1"}, seat
    own = {w["id"]: w for w in _ship(await get_view(client, game, "A"), "a1")["weapons"]}
    assert own["rack-1"]["spent"] is True and own["rack-2"]["spent"] is False

    a_view = await _turn(client, game)  # the next turn's window
    assert a_view["turn"] == 2
    assert "rack-1" not in {o["weapon"] for o in a_view["phase"]["legal"]["fire_options"]}
    window = a_view["phase"]["fire"]["window"]
    r = await send(client, game, "A", {"type": "fire", "window": window, "shots": [shot]})
    problem = assert_problem(r, 422, "weapon_spent")
    assert "rack-1 is spent" in problem["detail"] and "once per game" in problem["detail"]
