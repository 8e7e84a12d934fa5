"""Missiles and torpedoes over HTTP (RULES §9; issue 12), on the selected database: a game of the
ordnance presets, a launch through the API, what each seat's view and events hold of it (the
owner's marker with its aim; nothing for the other seat and the spectator while it is not
live), ``legal.fire_options`` launch items, the refusals as problem+json (``out_of_range`` with
its distance and reach, ``unknown_marker`` the same for an enemy marker and a made-up id), the
other side's design copies without loads, the Missile duel scenario and the OpenAPI shapes.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.replay_check import (
    ADMIN_AUTH,
    API,
    Game,
    assert_problem,
    assert_replays,
    create,
    get_events,
    get_view,
    ok,
    send,
)

SEED = "6c" * 32
STILL = {"speed_change": 0, "turn": 0}
A_SHIPS = [("Quiver", "missile_frigate"), ("Lance", "missile_destroyer")]
B_SHIPS = [("Salvo", "missile_cruiser"), ("Aegis", "pd_escort"), ("Spark", "amt_boat")]
PLACES = {
    "a1": (30.0, 8.0, 0),
    "a2": (40.0, 8.0, 0),
    "b1": (30.0, 32.0, 6),
    "b2": (40.0, 32.0, 6),
    "b3": (50.0, 32.0, 6),
}


def _ship(v: dict[str, Any], ship_id: str) -> dict[str, Any]:
    return next(s for s in v["ships"] if s["id"] == ship_id)


async def _game(client: httpx.AsyncClient) -> Game:
    game = await create(
        client,
        {
            "sides": {
                "A": {"ships": [{"name": n, "design": d} for n, d in A_SHIPS]},
                "B": {"ships": [{"name": n, "design": d} for n, d in B_SHIPS]},
            },
            "table": {"width": 72, "height": 40},
            "seed": SEED,
        },
        game_id="ordnance0001",
    )
    for side in ("A", "B"):
        ships = [
            {"ship": sid, "position": {"x": x, "y": y}, "heading": h, "speed": 0}
            for sid, (x, y, h) in PLACES.items()
            if sid[0] == side.lower()
        ]
        await ok(client, game, side, {"type": "deploy", "ships": ships})
    return game


async def _until_a_fires(client: httpx.AsyncClient, game: Game) -> Any:
    """Play until a fire window awaits A after one of its ships pinged: every ship stays put, A's
    ping after its move, B's go on overwatch; B holds its fire; defence windows get nothing."""
    for _ in range(200):
        phase = (await get_view(client, game, "referee"))["phase"]
        step, side = phase["step"], phase["side"]
        if step == "fire":
            if "A" in phase["awaiting"]:
                return await get_view(client, game, "A")
            window = phase["fire"]["window"]
            await ok(client, game, "B", {"type": "fire", "window": window, "shots": []})
        elif step == "defend":
            for seat in phase["awaiting"]:
                legal = (await get_view(client, game, seat))["phase"]["legal"]["defend"]
                body = {"type": "defend", "window": legal["window"], "allocations": []}
                await ok(client, game, seat, body)
        elif step == "activate":
            legal = (await get_view(client, game, side))["phase"]["legal"]
            ship = legal["activatable"][0]
            await ok(client, game, side, {"type": "activate", "ship": ship})
        elif step in ("start", "after_ping"):
            await ok(client, game, side, {"type": "move", "ship": phase["ship"], "orders": STILL})
        elif step == "after_move":
            kind = "ping" if side == "A" else "end_activation"
            await ok(client, game, side, {"type": kind, "ship": phase["ship"]})
        else:
            raise AssertionError(f"unexpected step {step}")
    raise AssertionError("A never got a fire window")


async def test_a_launch_over_http_is_the_owners_until_it_is_live(
    client: httpx.AsyncClient, db_url: str
) -> None:
    game = await _game(client)
    a_view = await _until_a_fires(client, game)
    options = a_view["phase"]["legal"]["fire_options"]
    launches = {(o["ship"], o["weapon"]): o for o in options if "launch" in o}
    assert all("target" not in o for o in launches.values())
    rack = launches[("a1", "smr-1")]
    assert set(rack) == {"ship", "weapon", "launch", "arcs", "loads", "aim_at"}
    assert (rack["launch"], rack["arcs"]) == ("salvo", ["F"])
    assert rack["loads"] == [{"load": "salvo", "reach": 24.0, "left": 1}]
    er = launches[("a1", "smr-2")]
    assert er["loads"] == [{"load": "er_salvo", "reach": 36.0, "left": 1}]
    for suggestion in rack["aim_at"]:  # only where A knows a B ship to be
        known = _ship(a_view, suggestion["target"])["last_known"]
        assert suggestion["aim"] == {"x": known["x"], "y": known["y"]}
    window = a_view["phase"]["fire"]["window"]

    # a1 at (30, 8) heading 0 (+y): 27.5 mu dead ahead is on the table but out of reach
    far = {"ship": "a1", "weapon": "smr-1", "aim": {"x": 30.0, "y": 35.5}}
    r = await send(client, game, "A", {"type": "fire", "window": window, "shots": [far]})
    problem = assert_problem(r, 422, "out_of_range")
    assert problem["detail"] == "aim point 27.5 mu away; this salvo reaches 24"
    off = {**far, "weapon": "smr-2", "aim": {"x": 30.0, "y": 41.0}}
    r = await send(client, game, "A", {"type": "fire", "window": window, "shots": [off]})
    assert "off the table" in assert_problem(r, 422, "out_of_range")["detail"]

    aim = {"x": 31.2345, "y": 29.8765}
    shot = {"ship": "a1", "weapon": "smr-1", "aim": aim}
    reply = await ok(client, game, "A", {"type": "fire", "window": window, "shots": [shot]})
    if "ordnance_launched" not in [e["type"] for e in reply["events"]]:
        phase = (await get_view(client, game, "referee"))["phase"]
        assert phase["awaiting"] == ["B"], phase
        await ok(client, game, "B", {"type": "fire", "window": window, "shots": []})

    # the owner and the referee: the marker with its aim; B and the spectator: nothing
    own = (await get_view(client, game, "A"))["markers"]
    assert len(own) == 1 and own[0]["aim"] == aim and own[0]["mother"] == "a1"
    assert (own[0]["kind"], own[0]["strength"], own[0]["live"]) == ("salvo", 6, False)
    marker = own[0]["id"]
    assert (await get_view(client, game, "referee"))["markers"] == own
    for seat in ("B", "spectator"):
        v = await get_view(client, game, seat)
        assert v["markers"] == [], seat
        assert _ship(v, "a1")["design"]["systems"]  # hardware is public
        events = await get_events(client, game, seat)
        launched = [e for e in events if e["type"] == "ordnance_launched"]
        assert [e["data"] for e in launched] == [
            {"ship": "a1", "launcher": "smr-1", "kind": "salvo"}
        ], seat
        assert launched[0]["redacted"] is True
        text = str(events) + str(v)
        assert marker not in text and "31.2345" not in text, seat
    mine = [e for e in await get_events(client, game, "A") if e["type"] == "ordnance_launched"]
    assert mine[0]["data"]["marker"] == marker and mine[0]["data"]["aim"] == aim
    b_a1 = _ship(await get_view(client, game, "B"), "a1")
    spent = {s["id"] for s in b_a1["systems"] if s.get("spent")}
    assert spent == {"smr-1"}  # racks spent are public

    # the game goes on from here and its log replays to its snapshot
    await _until_a_fires(client, game)
    await assert_replays(db_url, game.id)


async def test_unknown_marker_is_the_same_for_an_enemy_marker_and_a_made_up_id(
    client: httpx.AsyncClient,
) -> None:
    """In a B ship's step 2, A's hidden marker id and an id nobody has get one refusal."""
    game = await _game(client)
    a_view = await _until_a_fires(client, game)
    window = a_view["phase"]["fire"]["window"]
    shot = {"ship": "a1", "weapon": "smr-1", "aim": {"x": 30.5, "y": 30.5}}
    reply = await ok(client, game, "A", {"type": "fire", "window": window, "shots": [shot]})
    if "ordnance_launched" not in [e["type"] for e in reply["events"]]:
        await ok(client, game, "B", {"type": "fire", "window": window, "shots": []})
    marker = (await get_view(client, game, "A"))["markers"][0]["id"]
    for _ in range(200):  # to a B ship's step 2
        phase = (await get_view(client, game, "referee"))["phase"]
        v = await get_view(client, game, "B")
        if phase["side"] == "B" and "markers" in v["phase"]["legal"]["commands"]:
            break
        await _one_quiet_command(client, game, phase)
    else:
        raise AssertionError("no B step 2")
    ship = phase["ship"]
    problems = []
    for wrong in (marker, "m-0123456789ab"):
        body = {"type": "markers", "ship": ship, "orders": [{"marker": wrong}]}
        r = await send(client, game, "B", body)
        problem = assert_problem(r, 422, "unknown_marker")
        problems.append({**problem, "detail": problem["detail"].replace(wrong, "ID")})
    assert problems[0] == problems[1]
    assert "ID" in problems[0]["detail"]


async def _one_quiet_command(client: httpx.AsyncClient, game: Game, phase: dict[str, Any]) -> None:
    step, side = phase["step"], phase["side"]
    if step == "fire":
        window = phase["fire"]["window"]
        for seat in phase["awaiting"]:
            await ok(client, game, seat, {"type": "fire", "window": window, "shots": []})
    elif step == "defend":
        for seat in phase["awaiting"]:
            legal = (await get_view(client, game, seat))["phase"]["legal"]["defend"]
            body = {"type": "defend", "window": legal["window"], "allocations": []}
            await ok(client, game, seat, body)
    elif step == "activate":
        legal = (await get_view(client, game, side))["phase"]["legal"]
        await ok(client, game, side, {"type": "activate", "ship": legal["activatable"][0]})
    elif step in ("start", "after_ping"):
        await ok(client, game, side, {"type": "move", "ship": phase["ship"], "orders": STILL})
    elif step == "after_move":
        await ok(client, game, side, {"type": "end_activation", "ship": phase["ship"]})
    else:
        raise AssertionError(f"unexpected step {step}")


async def test_the_other_side_sees_designs_without_loads(client: httpx.AsyncClient) -> None:
    game = await _game(client)
    own = _ship(await get_view(client, game, "A"), "a2")["design"]["systems"]
    mag = next(s for s in own if s["id"] == "mag-1")
    assert mag["loads"]["standard"] == 3 and "capacity" not in mag
    assert next(s for s in own if s["id"] == "hmr-1")["load"] == "misericorde"
    assert _ship(await get_view(client, game, "A"), "a2")["magazines"]["mag-1"]["standard"] == 3
    for seat in ("B", "spectator"):
        v = await get_view(client, game, seat)
        a2 = _ship(v, "a2")
        systems = {s["id"]: s for s in a2["design"]["systems"]}
        assert "loads" not in systems["mag-1"] and systems["mag-1"]["capacity"] == 8, seat
        assert "load" not in systems["hmr-1"], seat
        assert "magazines" not in a2
        # a salvo rack's load is its hardware (public)
        assert {s["id"]: s.get("load") for s in _ship(v, "a1")["design"]["systems"]}["smr-2"] == (
            "er_salvo"
        )
        started = (await get_events(client, game, seat))[0]
        assert started["type"] == "game_started"
        design = started["data"]["designs"][started["data"]["ships"][1]["design"]]
        assert "misericorde" not in str(design) and "long_lance" not in str(design), seat


async def test_the_missile_duel_scenario(client: httpx.AsyncClient) -> None:
    game = await create(client, {"scenario": "missile_duel", "seed": SEED})
    v = await get_view(client, game, "referee")
    designs = {s["design"]["id"].split("~")[0] for s in v["ships"]}
    assert {"missile_cruiser", "pd_escort", "missile_destroyer", "missile_frigate"} <= designs
    assert {"amt_boat"} <= designs


async def test_the_openapi_document_has_the_ordnance_shapes(client: httpx.AsyncClient) -> None:
    doc = (await client.get(f"{API}/openapi.json")).json()
    schemas = doc["components"]["schemas"]
    shot = schemas["ShotIn"]["properties"]
    assert {"aim", "load", "system", "target"} <= set(shot)
    names = set(schemas)
    for command in ("MarkersIn", "DefendIn", "StandingOrdersIn"):
        assert command in names, sorted(names)
    markers = schemas["MarkersIn"]["properties"]
    assert {"ship", "orders"} <= set(markers)
    assert {"marker", "to"} <= set(schemas["MarkerOrderIn"]["properties"])
    assert {"window", "allocations"} <= set(schemas["DefendIn"]["properties"])
    assert {"against", "ship", "system"} <= set(schemas["AllocationIn"]["properties"])
    assert "auto_defend" in schemas["StandingOrdersIn"]["properties"]


async def test_the_referees_end_discards_the_markers_in_flight(
    client: httpx.AsyncClient, db_url: str
) -> None:
    """A finish of any kind discards what is in flight (decision, RULES §9.3): the referee's
    end too, in one ``marker_removed`` before ``game_finished``; the finished view draws none."""
    game = await _game(client)
    a_view = await _until_a_fires(client, game)
    window = a_view["phase"]["fire"]["window"]
    shot = {"ship": "a1", "weapon": "smr-1", "aim": {"x": 30.0, "y": 28.0}}
    reply = await ok(client, game, "A", {"type": "fire", "window": window, "shots": [shot]})
    if "ordnance_launched" not in [e["type"] for e in reply["events"]]:
        await ok(client, game, "B", {"type": "fire", "window": window, "shots": []})
    assert len((await get_view(client, game, "referee"))["markers"]) == 1
    r = await client.post(
        f"{game.path}/referee/end",
        json={"winner": "draw", "reason": "time"},
        headers=ADMIN_AUTH,
    )
    assert r.status_code == 200, r.text
    events = await get_events(client, game, "referee")
    assert [e["type"] for e in events[-2:]] == ["marker_removed", "game_finished"]
    assert events[-2]["data"]["reason"] == "game_over"
    for seat in ("A", "B", "spectator", "referee"):
        assert (await get_view(client, game, seat))["markers"] == [], seat
    await assert_replays(db_url, game.id)
