"""Concurrent requests on one game, on the selected database (SQLite: ``BEGIN IMMEDIATE``;
PostgreSQL: ``SELECT … FOR UPDATE``): commands serialise, retries apply once.

The requests are fired together with ``asyncio.gather`` on one client; the checks hold for any
interleaving the database lets happen, so nothing here depends on timing.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from app.rules import Event, SeededDice, decide, evolve, replay
from app.rules.errors import RulesError
from app.rules.state import GameState
from tests.api.replay_check import (
    Game,
    assert_problem,
    assert_replays,
    create,
    get_events,
    get_view,
    ok,
    send,
    state_of,
)

SEED = f"{21:064x}"


def placement(ship: str, x: float, y: float, heading: int, speed: int = 0) -> dict[str, Any]:
    return {"ship": ship, "position": {"x": x, "y": y}, "heading": heading, "speed": speed}


async def deployed(client: httpx.AsyncClient, game_id: str) -> Game:
    game = await create(client, {"scenario": "duel", "seed": SEED}, game_id=game_id)
    await ok(client, game, "A", {"type": "deploy", "ships": [placement("a1", 36, 8, 0, 4)]})
    await ok(client, game, "B", {"type": "deploy", "ships": [placement("b1", 36, 40, 6, 4)]})
    return game


def contiguous(events: list[dict[str, Any]], first: int) -> None:
    assert [e["seq"] for e in events] == list(range(first, first + len(events)))


async def test_one_idempotency_key_twenty_times_applies_once(
    client: httpx.AsyncClient, db_url: str
) -> None:
    game = await create(client, {"scenario": "duel", "seed": SEED}, game_id="concidem0001")
    deploy = {"type": "deploy", "ships": [placement("a1", 30, 6, 0, 2)]}
    key = {"Idempotency-Key": "deploy-a-1"}
    before = len(await get_events(client, game, "referee"))
    replies = await asyncio.gather(*(send(client, game, "A", deploy, key) for _ in range(20)))
    assert [r.status_code for r in replies] == [200] * 20, [r.text for r in replies]
    bodies = [r.json() for r in replies]
    assert all(b == bodies[0] for b in bodies)
    log = await get_events(client, game, "referee")
    assert [e["type"] for e in log[before:]] == ["deployed"]
    assert bodies[0]["events"] == log[before:]
    contiguous(log, 1)
    # the same key with another body: 422, nothing applied
    was = await state_of(client, game)
    other = {"type": "deploy", "ships": [placement("a1", 31, 6, 0, 2)]}
    assert_problem(await send(client, game, "A", other, key), 422, "idempotency_key_reused")
    # without the key the same body is a new command, refused now (A has deployed)
    assert_problem(await send(client, game, "A", deploy), 409, "wrong_step")
    assert await state_of(client, game) == was
    # the key is scoped to the caller's token: B may use it for its own command
    b_deploy = {"type": "deploy", "ships": [placement("b1", 30, 42, 6, 2)]}
    replies = await asyncio.gather(*(send(client, game, "B", b_deploy, key) for _ in range(20)))
    assert [r.status_code for r in replies] == [200] * 20
    assert all(r.json() == replies[0].json() for r in replies)
    assert [e["type"] for e in replies[0].json()["events"]] == ["deployed", "turn_started"]

    # a command that rolls dice: twenty identical pings with one key roll once
    side = (await get_view(client, game, "referee"))["phase"]["side"]
    ping = {"type": "ping", "ship": f"{side.lower()}1"}
    key = {"Idempotency-Key": "ping-1"}
    seq = (await get_view(client, game, "referee"))["seq"]
    replies = await asyncio.gather(*(send(client, game, side, ping, key) for _ in range(20)))
    assert [r.status_code for r in replies] == [200] * 20
    assert all(r.json() == replies[0].json() for r in replies)
    log = await get_events(client, game, "referee", after=seq)
    assert [e["type"] for e in log].count("ping") == 1
    assert [e["seq"] for e in replies[0].json()["events"]] == [e["seq"] for e in log]
    contiguous(log, seq + 1)
    await assert_replays(db_url, game.id)


async def test_racing_commands_of_one_seat_serialise(
    client: httpx.AsyncClient, db_url: str
) -> None:
    game = await deployed(client, "concrace0001")
    ref = await get_view(client, game, "referee")
    side, start = ref["phase"]["side"], ref["seq"]
    ship = f"{side.lower()}1"
    bodies: list[dict[str, Any]] = [
        {"type": "move", "ship": ship, "orders": {"speed_change": s, "turn": t}}
        for s, t in ((0, 0), (1, 0), (2, 1), (-1, -1), (0, 2))
    ]
    bodies += [{"type": "ping", "ship": ship}] * 3
    bodies += [{"type": "activate", "ship": ship}] * 3
    bodies += [{"type": "end_activation", "ship": ship}] * 3
    bodies += [{"type": "deploy", "ships": [placement(ship, 20, 44 if side == "B" else 4, 0)]}] * 3
    bodies += [{"type": "fire", "window": start, "shots": []}] * 2
    bodies += [{"type": "ping", "ship": "z9"}]
    assert len(bodies) == 20
    replies = await asyncio.gather(*(send(client, game, side, b) for b in bodies))

    accepted = []
    refusals = []
    for body, r in zip(bodies, replies, strict=True):
        if r.status_code == 200:
            accepted.append((r.json()["events"][0]["seq"], body, r.json()))
        else:
            refusals.append((body, assert_problem(r, r.status_code)["code"]))
            assert r.status_code in (409, 422), r.text
    assert accepted, "some command must go through"
    accepted.sort(key=lambda item: item[0])

    # the log: contiguous seqs, made of exactly the accepted commands' events, in their order
    full = await get_events(client, game, "referee", after=start)
    contiguous(full, start + 1)
    mine = await get_events(client, game, side, after=start)
    assert [e for _, _, reply in accepted for e in reply["events"]] == mine
    # replaying the accepted commands one after another gives the same events, dice included
    dice = SeededDice.from_hex(SEED, game.id)
    state = replay([Event.from_dict(e) for e in await get_events(client, game, "referee")][:start])
    states: list[GameState] = [state]
    produced: list[dict[str, Any]] = []
    for _, body, _ in accepted:
        events = decide(state, side, body, dice).events
        for event in events:
            state = evolve(state, event)
        states.append(state)
        produced += [e.to_dict() for e in events]
    assert produced == full
    # and every refusal is what the game says at some point of that serial order
    for body, code in refusals:
        codes = set()
        for s in states:
            try:
                decide(s, side, body, dice)
            except RulesError as error:
                codes.add(error.code)
        assert code in codes, (body, code, codes)
    await assert_replays(db_url, game.id)


async def test_racing_deployments_of_both_sides(client: httpx.AsyncClient, db_url: str) -> None:
    game = await create(client, {"scenario": "duel", "seed": SEED}, game_id="concdepl0001")
    sends: list[tuple[str, dict[str, Any]]] = []
    for i in range(10):
        for seat, ship, y, heading in (("A", "a1", 2, 0), ("B", "b1", 46, 6)):
            command = {"type": "deploy", "ships": [placement(ship, 5 + 6 * i, y, heading, i)]}
            sends.append((seat, command))
    replies = await asyncio.gather(*(send(client, game, seat, body) for seat, body in sends))
    won: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for (seat, body), r in zip(sends, replies, strict=True):
        if r.status_code == 200:
            assert seat not in won
            won[seat] = (body, r.json())
        else:
            assert_problem(r, 409, "wrong_step")
    assert set(won) == {"A", "B"}
    log = await get_events(client, game, "referee")
    contiguous(log, 1)
    assert [e["type"] for e in log].count("turn_started") == 1
    deployed_events = {e["data"]["side"]: e for e in log if e["type"] == "deployed"}
    for seat, (body, reply) in won.items():
        placed = deployed_events[seat]["data"]["ships"][0]
        sent = body["ships"][0]
        assert placed["position"] == {k: float(v) for k, v in sent["position"].items()}
        assert placed["speed"] == sent["speed"]
        assert deployed_events[seat]["seq"] in [e["seq"] for e in reply["events"]]
    ref = await get_view(client, game, "referee")
    for ship in ref["ships"]:
        seat = ship["side"]
        assert ship["position"] == deployed_events[seat]["data"]["ships"][0]["position"]
    assert json.dumps(ref["phase"]["awaiting"]) in ('["A"]', '["B"]')
    await assert_replays(db_url, game.id)
