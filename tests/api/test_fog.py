"""Fog of war through HTTP: the view, ``/events`` and the finished ``/record`` for A, B, the
referee and a spectator (the SSE stream's fog is tested elsewhere).

B deploys and moves in secret; A and a spectator must not find B's true coordinates anywhere in
what they receive (the JSON text is scanned for the numbers as ``json.dumps`` prints them). Then
both ping: revealing is public and identical for every seat, the ECM dice only go to the target's
owner and the referee, and a spectator never gets more than either player.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.api.helpers import new_game
from tests.api.replay_check import (
    Game,
    assert_problem,
    assert_replays,
    create,
    get_events,
    get_view,
    ok,
)
from tests.conftest import ADMIN, LiveServer
from tests.live import events_of, live_client, open_stream

SEATS = ("A", "B", "referee", "spectator")
SEED = f"{11:064x}"
TRUTH_KEYS = {"position", "heading", "velocity", "orders", "orders_log", "trail", "weapons"}


def numbers(*points: dict[str, float]) -> set[str]:
    """The coordinates as json.dumps prints them."""
    return {json.dumps(p[axis]) for p in points for axis in ("x", "y")}


async def everything(client: httpx.AsyncClient, game: Game, seat: str) -> str:
    """All a seat can read now, as text."""
    view = await get_view(client, game, seat)
    events = await get_events(client, game, seat)
    return json.dumps(view) + json.dumps(events)


def within(small: Any, big: Any, where: str = "") -> None:
    """``small`` tells nothing that ``big`` does not (``redacted`` markers aside; a null tells
    nothing, e.g. a field that is null for both)."""
    if small is None:
        return
    if isinstance(small, dict):
        assert isinstance(big, dict), where
        for key, value in small.items():
            if key == "redacted":
                continue
            assert key in big, f"{where}.{key} only in the smaller"
            within(value, big[key], f"{where}.{key}")
    elif isinstance(small, list):
        assert isinstance(big, list) and len(small) == len(big), where
        for i, (a, b) in enumerate(zip(small, big, strict=True)):
            within(a, b, f"{where}[{i}]")
    else:
        assert small == big, (where, small, big)


def public(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what is per caller by design (who you are, what you may send)."""
    out = {k: v for k, v in view.items() if k != "you"}
    out["phase"] = {k: v for k, v in view["phase"].items() if k != "legal"}
    return out


async def check_fog(client: httpx.AsyncClient, game: Game, secrets: set[str]) -> None:
    """Every rule of this file that holds at any moment of the game."""
    views = {seat: await get_view(client, game, seat) for seat in SEATS}
    events = {seat: await get_events(client, game, seat) for seat in SEATS}
    # every seat receives every seq, and the same types
    shapes = {seat: [(e["seq"], e["type"]) for e in events[seat]] for seat in SEATS}
    assert all(shapes[seat] == shapes["referee"] for seat in SEATS)
    # nothing is redacted for the referee
    assert not any(e.get("redacted") for e in events["referee"])
    # revealing is public: revealed and last_known are the same for every seat
    for ship in views["referee"]["ships"]:
        for seat in SEATS:
            theirs = next(s for s in views[seat]["ships"] if s["id"] == ship["id"])
            assert theirs["revealed"] == ship["revealed"], (seat, ship["id"])
            assert theirs["last_known"] == ship["last_known"], (seat, ship["id"])
    # A knows nothing of b1 beyond public facts: a position only while it is live
    b1 = next(s for s in views["A"]["ships"] if s["id"] == "b1")
    assert not (TRUTH_KEYS - {"position", "heading"}) & set(b1)
    if b1["revealed"] == "live":
        lk = b1["last_known"]
        assert b1["position"] == {"x": lk["x"], "y": lk["y"]} and b1["heading"] == lk["heading"]
    else:
        assert "position" not in b1 and "heading" not in b1
    spectator_b1 = next(s for s in views["spectator"]["ships"] if s["id"] == "b1")
    assert spectator_b1 == b1
    # B's moves reach A and the spectator as "b1 moved", its deployment as "B deployed"
    for seat in ("A", "spectator"):
        for e in events[seat]:
            if e["type"] == "ship_moved" and e["data"]["ship"] == "b1":
                assert e["redacted"] is True and set(e["data"]) == {"ship", "drift"}
            if e["type"] == "deployed" and e["data"]["side"] == "B":
                assert e["redacted"] is True and e["data"] == {"side": "B"}
    # the spectator never gets more than either player
    for seat in ("A", "B"):
        within(public(views["spectator"]), public(views[seat]), f"view/{seat}")
        within(events["spectator"], events[seat], f"events/{seat}")
        within(public(views[seat]), public(views["referee"]), f"referee-view/{seat}")
        within(events[seat], events["referee"], f"referee-events/{seat}")
    # the seed is for nobody before the end, the referee included (RULES §12)
    if views["referee"]["status"] != "finished":
        for seat in ("A", "B", "spectator", "referee"):
            assert views[seat]["seed"] is None
            assert SEED not in json.dumps(views[seat]) + json.dumps(events[seat])
    # no true position of B in what A or a spectator can read; B and the referee have them
    for seat in ("A", "spectator"):
        text = json.dumps(views[seat]) + json.dumps(events[seat])
        leaked = {s for s in secrets if s in text}
        assert not leaked, (seat, leaked)
    for seat in ("B", "referee"):
        text = json.dumps(views[seat]) + json.dumps(events[seat])
        assert all(s in text for s in secrets), seat


def check_ping(events: dict[str, list[dict[str, Any]]], pinger: str, target: str) -> None:
    """The latest ping of ``pinger``: ECM dice only for the target's owner and the referee."""
    owner = target[0].upper()
    for seat, seen in events.items():
        ping = [e for e in seen if e["type"] == "ping" and e["data"]["ship"] == pinger][-1]
        (item,) = ping["data"]["detections"]
        assert item["target"] == target and item["ping_dice"]
        ecm = {k for k in item if k.startswith("ecm")}
        if seat in (owner, "referee"):
            assert "ecm_dice" in ecm, seat
        else:
            assert not ecm, (seat, item)


async def fire_nothing(client: httpx.AsyncClient, game: Game) -> None:
    """Each awaited side holds fire (they are too far apart to hit anything)."""
    ref = await get_view(client, game, "referee")
    for seat in ref["phase"]["awaiting"]:
        await ok(
            client,
            game,
            seat,
            {"type": "fire", "window": ref["phase"]["fire"]["window"], "shots": []},
        )


async def test_fog_of_war_for_every_seat(client: httpx.AsyncClient, db_url: str) -> None:
    game = await create(client, {"scenario": "duel", "seed": SEED}, game_id="foggame00001")
    a_at = {"x": 20.5, "y": 3.25}
    b_at = {"x": 41.37, "y": 43.91}
    await ok(
        client,
        game,
        "A",
        {"type": "deploy", "ships": [{"ship": "a1", "position": a_at, "heading": 0, "speed": 2}]},
    )
    await ok(
        client,
        game,
        "B",
        {"type": "deploy", "ships": [{"ship": "b1", "position": b_at, "heading": 6, "speed": 3}]},
    )
    secrets = numbers(b_at)
    await check_fog(client, game, secrets)

    # turn 1: both move in secret and go on overwatch; B turns a point to starboard
    order = (await get_view(client, game, "referee"))["phase"]["side"]
    for side in (order, "B" if order == "A" else "A"):
        ship = f"{side.lower()}1"
        orders = {"speed_change": 1, "turn": 1} if side == "B" else {"speed_change": 0, "turn": 0}
        await ok(client, game, side, {"type": "move", "ship": ship, "orders": orders})
        await ok(client, game, side, {"type": "end_activation", "ship": ship})
    ref = await get_view(client, game, "referee")
    b1 = next(s for s in ref["ships"] if s["id"] == "b1")
    assert b1["position"] != b_at and b1["heading"] == 7 and b1["velocity"] == 4
    moved = next(
        e
        for e in await get_events(client, game, "referee")
        if e["type"] == "ship_moved" and e["data"]["ship"] == "b1"
    )
    secrets |= numbers(b1["position"], *moved["data"]["path"][1:])
    for seat in ("A", "spectator"):
        seen = next(s for s in (await get_view(client, game, seat))["ships"] if s["id"] == "b1")
        assert seen["revealed"] == "unseen" and seen["last_known"] is None
    await check_fog(client, game, secrets)
    hidden_after_turn_1 = numbers(b1["position"])

    # turn 2: each pings before it moves
    assert ref["turn"] == 2
    order = ref["phase"]["side"]
    for side in (order, "B" if order == "A" else "A"):
        ship, target = f"{side.lower()}1", ("b1" if side == "A" else "a1")
        reply = await ok(client, game, side, {"type": "ping", "ship": ship})
        if side == "A":
            detection = next(e for e in reply["events"] if e["type"] == "ping")["data"][
                "detections"
            ][0]
            assert detection["revealed"], "this seed's ping finds b1"
            # b1 is live where it stopped in turn 1: that is public now
            secrets -= hidden_after_turn_1
            seen = next(s for s in reply["view"]["ships"] if s["id"] == "b1")
            assert seen["revealed"] == "live" and seen["position"] == b1["position"]
        await check_fog(client, game, secrets)
        check_ping({seat: await get_events(client, game, seat) for seat in SEATS}, ship, target)
        await fire_nothing(client, game)
        orders = {"speed_change": 0, "turn": -1} if side == "B" else {"speed_change": 0, "turn": 0}
        await ok(client, game, side, {"type": "move", "ship": ship, "orders": orders})
        await check_fog(client, game, secrets)
    # b1 moved after it was seen: stale for everyone, its new position secret again
    ref = await get_view(client, game, "referee")
    b1_now = next(s for s in ref["ships"] if s["id"] == "b1")
    assert b1_now["revealed"] == "stale" and b1_now["position"] != b1["position"]
    secrets |= numbers(b1_now["position"])
    await check_fog(client, game, secrets)

    # before the end, the record is the referee's only
    for seat in ("A", "B", "spectator"):
        assert_problem(await client.get(f"{game.path}/record", headers=game.auth(seat)), 403)
    r = await client.get(f"{game.path}/record", headers=game.auth("referee"))
    assert r.status_code == 200 and all(s in r.text for s in secrets)
    assert r.json()["seed"] is None  # every die rolled so far, but none to come

    # after the end every reader gets the same unredacted record, B's secrets included
    await ok(client, game, "A", {"type": "resign"})
    records = []
    for seat in SEATS:
        r = await client.get(f"{game.path}/record", headers=game.auth(seat))
        assert r.status_code == 200
        records.append(r.json())
        assert all(s in r.text for s in secrets)
        assert not any(e.get("redacted") for e in r.json()["events"])
    assert all(rec == records[0] for rec in records)
    # the log itself stays redacted per seat, the seed alone is now public
    await check_fog(client, game, secrets)
    for seat in SEATS:
        assert (await get_view(client, game, seat))["seed"] == SEED
    await assert_replays(db_url, game.id)


async def test_the_pinger_is_not_told_which_hidden_ship_is_within_range(
    live_server: LiveServer,
) -> None:
    """RULES §5 over HTTP: in the hunt (ping range 36 mu) a ping's ``in_range`` goes only to the
    targets' owner and the referee; the pinger's command reply, ``/events`` and ``/stream`` (and
    a spectator's) show an unrevealed target as not revealed, nothing more."""
    async with live_client(live_server.url) as client:
        game = await new_game(client, {"scenario": "hunt"})
        # Longsight flies east to (16, 24): Whisper 32 mu away (within), Mirage 56 mu (beyond)
        hunter = {"ship": "a1", "position": {"x": 8, "y": 24}, "heading": 3, "speed": 8}
        await ok(client, game, "A", {"type": "deploy", "ships": [hunter]})
        quarry = [
            {"ship": "b1", "position": {"x": 48, "y": 24}, "heading": 9, "speed": 0},
            {"ship": "b2", "position": {"x": 70, "y": 40}, "heading": 9, "speed": 0},
        ]
        await ok(client, game, "B", {"type": "deploy", "ships": quarry})
        still = {"speed_change": 0, "turn": 0}
        await ok(client, game, "B", {"type": "move", "ship": "b2", "orders": still})
        await ok(client, game, "B", {"type": "end_activation", "ship": "b2"})
        await ok(client, game, "A", {"type": "move", "ship": "a1", "orders": still})
        reply = await ok(client, game, "A", {"type": "ping", "ship": "a1"})
        (ping,) = [e for e in reply["events"] if e["type"] == "ping"]
        assert [d["target"] for d in ping["data"]["detections"]] == ["b1", "b2"]
        assert "in_range" not in json.dumps(reply), reply["events"]
        seq = reply["view"]["seq"]

        for seat in SEATS:
            token = game.tokens.get(seat) if seat in ("A", "B") else None
            if seat == "referee":
                token = ADMIN
            events = (await events_of(client, game.game_id, token))["events"]
            async with open_stream(client, game.game_id, token, after=0) as stream:
                streamed = [e.json() for e in await stream.until(seq)]
            for seen in (events, streamed):
                (ping,) = [e for e in seen if e["type"] == "ping"]
                verdicts = [d.get("in_range") for d in ping["data"]["detections"]]
                if seat in ("B", "referee"):
                    assert verdicts == [True, False], (seat, ping)
                else:
                    # Mirage is beyond the range and unrevealed: for the pinger simply hidden
                    assert verdicts == [None, None], (seat, ping)
                    assert ping["data"]["detections"][1]["revealed"] is False
                    assert "in_range" not in json.dumps(seen), seat
