"""Whole games through HTTP, creation to finish, on the selected database.

The dice are ``HMAC(seed, f"{game_id}:{k}")`` (RULES.md §12): with a fixed seed *and* a fixed
game id (see ``replay_check.create``) a game plays the same every time, so these tests know how
each one ends. The players are ``replay_check.choose``: they read only their own view.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

import httpx

from app.rules.designs import preset
from tests.api.replay_check import (
    API,
    Game,
    assert_dice,
    assert_problem,
    assert_replays,
    assert_seed_commitment,
    create,
    get_events,
    get_view,
    ok,
    out_of_control,
    play,
    send,
    state_of,
)

SEATS = ("A", "B", "referee", "spectator")


def seed_of(n: int) -> str:
    return f"{n:064x}"


def raider() -> dict[str, Any]:
    """A full design object: a frigate hull without ECM."""
    design = preset("frigate").to_dict()
    design.update(id="raider", name="Raider")
    design["systems"] = [s for s in design["systems"] if s["type"] != "ecm"]
    return design


async def check_finished(
    client: httpx.AsyncClient,
    db_url: str,
    game: Game,
    last_reply: dict[str, Any],
    winner: str,
    reason: str,
    diced: tuple[str, ...] = ("ping", "fire_resolved"),
) -> dict[str, Any]:
    """Everything API.md promises once a game is over; returns the record."""
    assert game.seed is not None
    finished = last_reply["events"][-1]
    assert finished["type"] == "game_finished"
    assert finished["data"]["winner"] == winner
    assert finished["data"]["reason"] == reason
    assert finished["data"]["seed"] == game.seed
    # every seat receives the finish with the seed, unredacted
    for seat in SEATS:
        events = await get_events(client, game, seat)
        last = events[-1]
        assert last["type"] == "game_finished" and not last.get("redacted")
        assert last["data"]["seed"] == game.seed and last["data"]["winner"] == winner
        seen = await get_view(client, game, seat)
        assert seen["status"] == "finished"
        assert seen["seed"] == game.seed
        assert seen["winner"] == winner
        assert seen["phase"]["awaiting"] == []
    # the commitment published at creation is the SHA-256 of the seed now shown
    assert_seed_commitment(game.seed, game.created["seed_commitment"])
    # no command is taken any more, and a refusal changes nothing
    before = await state_of(client, game)
    for seat in ("A", "B"):
        for body in (
            {"type": "resign"},
            {"type": "activate", "ship": f"{seat.lower()}1"},
            {"type": "fire", "window": 1, "shots": []},
        ):
            assert_problem(await send(client, game, seat, body), 409, "game_finished")
    assert await state_of(client, game) == before
    # the record is open to everyone who may read the game, identical for all, unredacted
    records = {}
    for seat in SEATS:
        r = await client.get(f"{game.path}/record", headers=game.auth(seat))
        assert r.status_code == 200, (seat, r.text)
        records[seat] = r.json()
    record: dict[str, Any] = records["referee"]
    assert all(records[seat] == record for seat in SEATS)
    assert record["status"] == "finished" and record["seed"] == game.seed
    assert record["seed_commitment"] == game.created["seed_commitment"]
    assert hashlib.sha256(bytes.fromhex(record["seed"])).hexdigest() == record["seed_commitment"]
    assert record["designs"]
    full = await get_events(client, game, "referee")
    assert record["events"] == full
    assert not any(e.get("redacted") for e in record["events"])
    assert [e["seq"] for e in record["events"]] == list(range(1, len(record["events"]) + 1))
    for event in record["events"]:
        if event["type"] == "ship_moved":
            assert {"from", "to", "orders", "path"} <= set(event["data"])
        if event["type"] == "deployed":
            assert event["data"]["ships"]
        if event["type"] == "ping":
            assert all("ecm_dice" in item for item in event["data"]["detections"])
    checked = assert_dice(record, game.id)
    assert all(checked.get(kind, 0) > 0 for kind in diced), checked
    await assert_replays(db_url, game.id)
    return record


async def test_duel_scenario_fought_to_destruction(client: httpx.AsyncClient, db_url: str) -> None:
    seed = seed_of(5)
    game = await create(
        client,
        {"scenario": "duel", "creator": "A", "creator_name": "Ann", "seed": seed},
        game_id="flowduel0001",
        claim=False,
    )
    created = game.created
    assert created["side"] == "A" and set(created["invites"]) == {"B"}
    assert created["seed_commitment"] == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    waiting = await get_view(client, game, "A")
    assert waiting["status"] == "waiting" and waiting["seed"] is None
    assert waiting["seed_commitment"] == created["seed_commitment"]
    r = await client.post(f"{API}/invites/{created['invites']['B']}/claim", json={"name": "Bo"})
    assert r.status_code == 200, r.text
    assert r.json()["game_id"] == game.id and r.json()["side"] == "B"
    game.tokens["B"] = r.json()["token"]

    seen = await get_view(client, game, "B")
    assert seen["status"] == "active" and seen["you"] == "B"
    assert seen["phase"]["step"] == "deploy" and seen["phase"]["awaiting"] == ["A", "B"]
    assert seen["phase"]["legal"]["commands"][0] == "deploy"
    assert seen["seed"] is None

    # ships deployed at full speed towards each other; the players brake by 4 a move, move,
    # then ping, and fire whatever their view says can fire
    first = await ok(
        client,
        game,
        "A",
        {
            "type": "deploy",
            "ships": [{"ship": "a1", "position": {"x": 36, "y": 8}, "heading": 0, "speed": 12}],
        },
    )
    assert [e["type"] for e in first["events"]] == ["deployed"]
    assert first["view"]["phase"]["awaiting"] == ["B"]
    second = await ok(
        client,
        game,
        "B",
        {
            "type": "deploy",
            "ships": [{"ship": "b1", "position": {"x": 36, "y": 40}, "heading": 6, "speed": 12}],
        },
    )
    assert [e["type"] for e in second["events"]] == ["deployed", "turn_started"]

    drifted: list[str] = []

    async def before(seat: str, v: dict[str, Any], body: dict[str, Any]) -> None:
        """An out-of-control ship may only be named with activate (409 out_of_control)."""
        if body["type"] != "activate":
            return
        ship = next(s for s in v["ships"] if s["id"] == body["ship"])
        assert out_of_control(ship)
        was = await state_of(client, game)
        for refused in (
            {"type": "ping", "ship": ship["id"]},
            {"type": "move", "ship": ship["id"], "orders": {"speed_change": 0, "turn": 0}},
        ):
            assert_problem(await send(client, game, seat, refused), 409, "out_of_control")
        assert await state_of(client, game) == was
        drifted.append(ship["id"])

    replies = await play(client, game, before=before)
    assert drifted, "this seed puts a ship out of control"
    kinds = Counter(e["type"] for reply in replies for e in reply["events"])
    for kind in (
        "ping",
        "ship_revealed",
        "fire_window",
        "fire_declared",
        "fire_resolved",
        "damage",
        "threshold_check",
        "system_damaged",
        "damage_control",
        "ship_destroyed",
        "game_finished",
    ):
        assert kinds[kind] > 0, (kind, kinds)
    record = await check_finished(client, db_url, game, replies[-1], "A", "no_ships_left")
    destroyed = [e["data"]["ship"] for e in record["events"] if e["type"] == "ship_destroyed"]
    assert destroyed == ["b1"]
    drifts = [e for e in record["events"] if e["type"] == "ship_moved" and e["data"]["drift"]]
    assert len(drifts) == len(drifted)


async def test_explicit_sides_vector_game_to_the_turn_limit(
    client: httpx.AsyncClient, db_url: str
) -> None:
    design = raider()
    r = await client.post(f"{API}/designs/validate", json=design)
    assert r.status_code == 200, r.text
    assert r.json()["problems"] == [] and r.json()["mass_used"] <= design["mass"]
    seed = seed_of(1)
    game = await create(
        client,
        {
            "sides": {
                "A": {"name": "Hunters", "ships": [{"name": "Vigilant", "design": "frigate"}]},
                "B": {"name": "Raiders", "ships": [{"name": "Shade", "design": design}]},
            },
            "movement": "vector",
            "table": {"width": 48, "height": 24},
            "turn_limit": 3,
            "creator": "referee",
            "seed": seed,
        },
        game_id="flowvect0001",
    )
    assert game.created["side"] == "referee" and set(game.created["invites"]) == {"A", "B"}
    ref = await get_view(client, game, "referee")
    assert ref["you"] == "referee" and ref["movement"] == "vector"
    assert ref["table"] == {"width": 48, "height": 24} and ref["turn_limit"] == 3
    assert ref["deployment_zones"]["A"] == {"x0": 0, "y0": 0, "x1": 48, "y1": 8}
    assert ref["deployment_zones"]["B"] == {"x0": 0, "y0": 16, "x1": 48, "y1": 24}
    shade = next(s for s in ref["ships"] if s["id"] == "b1")
    assert shade["name"] == "Shade" and shade["design"]["id"] == "raider"
    assert "ecm" not in {s["type"] for s in shade["design"]["systems"]}

    await ok(
        client,
        game,
        "A",
        {
            "type": "deploy",
            "ships": [
                {
                    "ship": "a1",
                    "position": {"x": 24, "y": 7},
                    "heading": 0,
                    "velocity": {"x": 0, "y": 0},
                }
            ],
        },
    )
    started = await ok(
        client,
        game,
        "B",
        {
            "type": "deploy",
            "ships": [
                {
                    "ship": "b1",
                    "position": {"x": 24, "y": 17},
                    "heading": 6,
                    "velocity": {"x": 0, "y": 0},
                }
            ],
        },
    )
    assert started["events"][-1]["type"] == "turn_started"
    own = next(s for s in started["view"]["ships"] if s["id"] == "b1")
    assert own["velocity"] == {"x": 0.0, "y": 0.0}
    replies = await play(client, game)
    moves = [e for reply in replies for e in reply["events"] if e["type"] == "ship_moved"]
    assert moves and all(
        set(e["data"]["orders"]) >= {"rotate", "thrust"} for e in moves if not e.get("redacted")
    )
    kinds = Counter(e["type"] for reply in replies for e in reply["events"])
    assert kinds["fire_resolved"] > 0 and kinds["damage"] > 0 and kinds["turn_ended"] == 3
    record = await check_finished(client, db_url, game, replies[-1], "draw", "turn_limit")
    assert record["designs"]["raider"] == design
    assert record["events"][-1]["turn"] == 3


async def test_resign_finishes_the_game(client: httpx.AsyncClient, db_url: str) -> None:
    game = await create(client, {"scenario": "duel", "seed": seed_of(2)}, game_id="flowresign01")
    await ok(
        client,
        game,
        "A",
        {
            "type": "deploy",
            "ships": [{"ship": "a1", "position": {"x": 10, "y": 4}, "heading": 0, "speed": 2}],
        },
    )
    await ok(
        client,
        game,
        "B",
        {
            "type": "deploy",
            "ships": [{"ship": "b1", "position": {"x": 60, "y": 44}, "heading": 6, "speed": 2}],
        },
    )
    # before the end the record is for the referee only
    for seat in ("A", "B", "spectator"):
        r = await client.get(f"{game.path}/record", headers=game.auth(seat))
        assert_problem(r, 403)
    r = await client.get(f"{game.path}/record", headers=game.auth("referee"))
    assert r.status_code == 200 and r.json()["status"] == "active"
    # a ping first, so that the record has dice to check
    side = (await get_view(client, game, "referee"))["phase"]["side"]
    ship = f"{side.lower()}1"
    await ok(client, game, side, {"type": "ping", "ship": ship})
    v = await get_view(client, game, side)
    if "fire" in v["phase"]["legal"]["commands"]:
        await ok(
            client,
            game,
            side,
            {"type": "fire", "window": v["phase"]["fire"]["window"], "shots": []},
        )
    other = "B" if side == "A" else "A"
    v = await get_view(client, game, other)
    if "fire" in v["phase"]["legal"]["commands"]:
        await ok(
            client,
            game,
            other,
            {"type": "fire", "window": v["phase"]["fire"]["window"], "shots": []},
        )
    # 50+ mu apart: nothing can reach, the volley is empty; now B resigns mid-activation
    reply = await ok(client, game, "B", {"type": "resign"})
    assert [e["type"] for e in reply["events"]] == ["game_finished"]
    await check_finished(client, db_url, game, reply, "A", "resigned", diced=("ping",))
