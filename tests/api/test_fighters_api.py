"""Fighters and drones over HTTP (RULES §9.8; issue 13), on the selected database: the Carrier
hunt scenario and its presets through the API, and what each seat receives of the bays — the
group types in the owner's design only, never in the other side's or a spectator's copy of the
design or of ``game_started``, whose points leave the groups out.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.replay_check import (
    API,
    assert_problem,
    assert_replays,
    create,
    get_events,
    get_view,
    ok,
    send,
)

SEED = "7d" * 32
GROUP_TYPES = ("standard", "attack", "fast", "interceptor")


def _ship(v: dict[str, Any], ship_id: str) -> dict[str, Any]:
    return next(s for s in v["ships"] if s["id"] == ship_id)


def _bay_loads(design: dict[str, Any]) -> list[Any]:
    return [s.get("load") for s in design["systems"] if s["type"].endswith("_bay")]


async def test_the_carrier_hunt_scenario_is_listed_and_plays(client: httpx.AsyncClient) -> None:
    listed = (await client.get(f"{API}/scenarios")).json()["scenarios"]
    hunt = next(s for s in listed if s["id"] == "carrier_hunt")
    assert hunt["name"] == "Carrier hunt" and hunt["ping_range"] == 36.0
    assert hunt["ships"]["A"] == [
        {"name": "Albatross", "design": "light_carrier"},
        {"name": "Bulwark", "design": "escort_carrier"},
    ]
    game = await create(client, {"scenario": "carrier_hunt", "seed": SEED})
    v = await get_view(client, game, "referee")
    assert [s["design"]["id"].split("~")[0] for s in v["ships"]] == [
        "light_carrier",
        "escort_carrier",
        "hunter",
        "drone_tender",
    ]


async def test_bay_groups_reach_their_owner_only(client: httpx.AsyncClient) -> None:
    game = await create(client, {"scenario": "carrier_hunt", "seed": SEED})
    full = {"a1": ["standard", "attack"], "a2": ["interceptor", "interceptor"]}
    full |= {"b1": [], "b2": ["standard", "attack", "fast"]}
    points = {"a1": 269, "a2": 249, "b1": 260, "b2": 240}
    groups = {"a1": 18 + 24, "a2": 18 + 18, "b1": 0, "b2": 18 + 24 + 24}
    for seat in ("A", "B", "spectator"):
        v = await get_view(client, game, seat)
        started = (await get_events(client, game, seat))[0]
        assert started["type"] == "game_started"
        for ship_id, loads in full.items():
            design = _ship(v, ship_id)["design"]
            own = seat == ship_id[0].upper()
            assert _bay_loads(design) == (loads if own else [None] * len(loads)), (seat, ship_id)
            assert design["points"] == points[ship_id] - (0 if own else groups[ship_id])
            key = next(s["design"] for s in started["data"]["ships"] if s["id"] == ship_id)
            text = str(started["data"]["designs"][key])
            if not own:
                assert not any(f"'{g}'" in text for g in GROUP_TYPES), (seat, ship_id)


STILL = {"speed_change": 0, "turn": 0}
PLACES = {"a1": (36.0, 4.0, 0), "b1": (36.0, 42.0, 6), "b2": (62.0, 44.0, 6)}


async def _carrier_game(client: httpx.AsyncClient) -> Any:
    game = await create(
        client,
        {
            "sides": {
                "A": {"ships": [{"name": "Albatross", "design": "light_carrier"}]},
                "B": {
                    "ships": [
                        {"name": "Shade", "design": "frigate"},
                        {"name": "Wraith", "design": "frigate"},
                    ]
                },
            },
            "seed": SEED,
        },
        game_id="fighters0001",
    )
    for side in ("A", "B"):
        ships = [
            {"ship": sid, "position": {"x": x, "y": y}, "heading": h, "speed": 0}
            for sid, (x, y, h) in PLACES.items()
            if sid[0] == side.lower()
        ]
        await ok(client, game, side, {"type": "deploy", "ships": ships})
    return game


async def _quiet(client: httpx.AsyncClient, game: Any, seat: str, ship: str) -> None:
    await ok(client, game, seat, {"type": "move", "ship": ship, "orders": STILL})
    await ok(client, game, seat, {"type": "end_activation", "ship": ship})


async def test_a_launch_and_an_attack_choice_over_http(
    client: httpx.AsyncClient, db_url: str
) -> None:
    """B (two ships) goes first; A's carrier launches in secret, its group flies within 6 mu of
    Shade next turn, the game rests in the fighters step; refusals are problem+json."""
    game = await _carrier_game(client)
    await _quiet(client, game, "B", "b1")
    await ok(client, game, "A", {"type": "activate", "ship": "a1"})
    legal = (await get_view(client, game, "A"))["phase"]["legal"]
    assert "markers" in legal["commands"]
    assert legal["launch"] == [
        {"bay": "bay-1", "group": "standard", "reach": 12.0},
        {"bay": "bay-2", "group": "attack", "reach": 12.0},
    ]
    far = {
        "type": "markers",
        "ship": "a1",
        "orders": [],
        "launch": [{"bay": "bay-1", "to": {"x": 36, "y": 16.5}}],
    }
    problem = assert_problem(await send(client, game, "A", far), 422, "out_of_range")
    assert "12.5 mu" in problem["detail"]
    twice = {
        "type": "markers",
        "ship": "a1",
        "orders": [],
        "launch": [{"bay": "bay-1"}, {"bay": "bay-1"}],
    }
    assert_problem(await send(client, game, "A", twice), 422, "invalid_command")
    launch = {
        "type": "markers",
        "ship": "a1",
        "orders": [],
        "launch": [{"bay": "bay-1", "to": {"x": 36, "y": 16}}],
    }
    reply = await ok(client, game, "A", launch)
    acted = next(e for e in reply["events"] if e["type"] == "ordnance_acted")
    (item,) = acted["data"]["markers"]
    assert (item["result"], item["bay"], item["strength"]) == ("launched", "bay-1", 6)
    group = item["marker"]

    a_view, b_view = await get_view(client, game, "A"), await get_view(client, game, "B")
    assert [m["id"] for m in a_view["markers"]] == [group]
    assert _ship(a_view, "a1")["bays"]["bay-1"] is None
    assert b_view["markers"] == [] and "bays" not in _ship(b_view, "a1")
    for seat in ("B", "spectator"):
        seen = [e for e in await get_events(client, game, seat) if e["type"] == "ordnance_acted"]
        assert seen[-1]["redacted"] is True and seen[-1]["data"] == {"ship": "a1"}, seat
        assert group not in str(await get_events(client, game, seat)), seat

    await _quiet(client, game, "A", "a1")
    await _quiet(client, game, "B", "b2")
    await _quiet(client, game, "B", "b2")  # turn 2: B first again
    await ok(client, game, "A", {"type": "activate", "ship": "a1"})
    order = {
        "type": "markers",
        "ship": "a1",
        "orders": [{"marker": group, "to": {"x": 36, "y": 38}}],
    }
    reply = await ok(client, game, "A", order)
    types = [e["type"] for e in reply["events"]]
    assert types == ["ordnance_acted", "ship_revealed", "fighters_step"], types
    a_view = await get_view(client, game, "A")
    assert a_view["phase"]["step"] == "fighters"
    assert a_view["phase"]["legal"]["fighters"] == [{"marker": group, "targets": ["b1"]}]
    assert "fighters" not in (await get_view(client, game, "B"))["phase"]["legal"]["commands"]
    assert (await get_view(client, game, "B"))["phase"]["awaiting"] == ["A"]
    missing = {"type": "fighters", "choices": []}
    problem = assert_problem(await send(client, game, "A", missing), 422, "invalid_command")
    assert group in problem["detail"]
    wrong = {"type": "fighters", "choices": [{"marker": group, "attack": "b2"}]}
    assert_problem(await send(client, game, "A", wrong), 422, "invalid_command")
    reply = await ok(
        client, game, "A", {"type": "fighters", "choices": [{"marker": group, "attack": None}]}
    )
    assert [e["type"] for e in reply["events"]] == ["fighters_chosen"]
    b_events = await get_events(client, game, "B")
    assert b_events[-1]["type"] == "fighters_chosen" and b_events[-1]["data"] == {"ship": "a1"}
    await _quiet(client, game, "A", "a1")
    await assert_replays(db_url, game.id)
