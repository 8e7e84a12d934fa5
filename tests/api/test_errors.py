"""Every status and error code of API.md, through HTTP, on the selected database.

Each refusal is an ``application/problem+json`` body with ``type, title, status, detail, code``
and changes nothing: the referee's view and the whole log are compared before and after.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

from app.main import create_app
from tests.api.replay_check import (
    ADMIN_AUTH,
    API,
    Game,
    assert_problem,
    assert_replays,
    create,
    get_view,
    ok,
    out_of_control,
    play,
    send,
    state_of,
)
from tests.conftest import make_settings

SEED = "5e" * 32


async def refused(
    client: httpx.AsyncClient,
    game: Game,
    seat: str,
    body: Any,
    status: int,
    code: str,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Send a command that must be refused with ``status``/``code`` and change nothing."""
    before = await state_of(client, game)
    auth = game.auth(seat) if seat != "none" else {}
    r = await client.post(f"{game.path}/commands", json=body, headers={**auth, **(headers or {})})
    problem = assert_problem(r, status, code)
    assert await state_of(client, game) == before
    return problem


def placement(ship: str, x: float, y: float, heading: int, speed: int = 0) -> dict[str, Any]:
    return {"ship": ship, "position": {"x": x, "y": y}, "heading": heading, "speed": speed}


async def deployed_duel(client: httpx.AsyncClient, game_id: str | None = None) -> Game:
    game = await create(client, {"scenario": "duel", "seed": SEED}, game_id=game_id)
    await ok(client, game, "A", {"type": "deploy", "ships": [placement("a1", 36, 8, 0)]})
    await ok(client, game, "B", {"type": "deploy", "ships": [placement("b1", 36, 40, 6)]})
    return game


# -- 401 / 403 -------------------------------------------------------------------------------------
async def test_tokens_missing_invalid_malformed_and_of_another_game(
    client: httpx.AsyncClient, db_url: str
) -> None:
    game = await deployed_duel(client)
    other = await deployed_duel(client)
    side = (await get_view(client, game, "referee"))["phase"]["side"]
    body = {"type": "activate", "ship": f"{side.lower()}1"}
    # no token on a command: 401 even in a game open to spectators
    await refused(client, game, "none", body, 401, "missing_token")
    await refused(
        client, game, "none", body, 401, "invalid_token", {"Authorization": "Bearer nonsense"}
    )
    for header in ("Basic dXNlcjpwYXNz", "Bearer", "Bearer   ", "token-without-scheme"):
        problem = await refused(
            client, game, "none", body, 401, "invalid_token", {"Authorization": header}
        )
        assert problem["detail"]
    r = await client.get(game.path, headers={"Authorization": "Bearer nonsense"})
    assert_problem(r, 401, "invalid_token")
    assert r.headers.get("www-authenticate", "").lower().startswith("bearer")
    r = await client.get(f"{game.path}/events", headers={"Authorization": "Basic x"})
    assert_problem(r, 401, "invalid_token")
    # a valid token of another game: 403 on reads and on commands
    foreign = {"Authorization": f"Bearer {other.tokens[side]}"}
    await refused(client, game, "none", body, 403, "wrong_game", foreign)
    for path in (game.path, f"{game.path}/events", f"{game.path}/record"):
        assert_problem(await client.get(path, headers=foreign), 403, "wrong_game")
    # the admin is referee of every game: it reads, but sends no game command
    await refused(client, game, "none", body, 403, "forbidden", ADMIN_AUTH)
    # listing games is for the admin only
    listing = await client.get(f"{API}/games", headers=ADMIN_AUTH)
    assert listing.status_code == 200
    assert {g["game_id"] for g in listing.json()["games"]} >= {game.id, other.id}
    assert_problem(await client.get(f"{API}/games", headers=game.auth("A")), 403, "forbidden")
    assert_problem(await client.get(f"{API}/games"), 401, "missing_token")
    await assert_replays(db_url, game.id)
    await assert_replays(db_url, other.id)


async def test_referee_seat_and_other_side_ship(client: httpx.AsyncClient, db_url: str) -> None:
    game = await create(client, {"scenario": "duel", "creator": "referee", "seed": SEED})
    assert set(game.tokens) == {"referee", "A", "B"}
    # a ship of the other side: 403 not_your_ship (in deployment and in play)
    await refused(
        client,
        game,
        "A",
        {"type": "deploy", "ships": [placement("b1", 36, 4, 0)]},
        403,
        "not_your_ship",
    )
    await ok(client, game, "A", {"type": "deploy", "ships": [placement("a1", 36, 8, 0)]})
    await ok(client, game, "B", {"type": "deploy", "ships": [placement("b1", 36, 40, 6)]})
    side = (await get_view(client, game, "referee"))["phase"]["side"]
    enemy = "b1" if side == "A" else "a1"
    for body in (
        {"type": "move", "ship": enemy, "orders": {"speed_change": 0, "turn": 0}},
        {"type": "ping", "ship": enemy},
        {"type": "activate", "ship": enemy},
    ):
        await refused(client, game, side, body, 403, "not_your_ship")
    # the referee's own seat token sends no game command either
    for body in ({"type": "resign"}, {"type": "activate", "ship": "a1"}):
        await refused(client, game, "referee", body, 403, "forbidden")
    await assert_replays(db_url, game.id)


# -- 404 -------------------------------------------------------------------------------------------
async def test_unknown_game_route_and_invite(client: httpx.AsyncClient) -> None:
    game = await deployed_duel(client)
    missing = f"{API}/games/nosuchgame00"
    for r in (
        await client.get(missing),
        await client.get(f"{missing}/events"),
        await client.get(f"{missing}/record", headers=ADMIN_AUTH),
        await client.post(f"{missing}/commands", json={"type": "resign"}, headers=game.auth("A")),
    ):
        assert_problem(r, 404, "unknown_game")
    for r in (
        await client.get(f"{API}/no/such/route"),
        await client.get("/nowhere"),
        await client.post(f"{game.path}/nope", json={}),
    ):
        assert_problem(r, 404, "not_found")
    assert_problem(await client.delete(f"{API}/games", headers=ADMIN_AUTH), 405)
    r = await client.post(f"{API}/invites/not-a-real-code/claim", json={})
    assert_problem(r, 404, "unknown_invite")
    r = await client.post(
        f"{API}/games",
        json={
            "sides": {
                "A": {"ships": [{"name": "X", "design": "nope"}]},
                "B": {"ships": [{"name": "Y", "design": "frigate"}]},
            }
        },
    )
    assert_problem(r, 404, "unknown_design")


# -- 409 -------------------------------------------------------------------------------------------
async def test_conflicts_turn_step_stale_started_finished(
    client: httpx.AsyncClient, db_url: str
) -> None:
    # the game starts only when both seats are taken
    waiting = await create(client, {"scenario": "duel", "seed": SEED}, claim=False)
    await refused(
        client,
        waiting,
        "A",
        {"type": "deploy", "ships": [placement("a1", 36, 8, 0)]},
        409,
        "game_not_started",
    )
    await refused(client, waiting, "A", {"type": "resign"}, 409, "game_not_started")

    game = await create(client, {"scenario": "duel", "seed": SEED})
    # deployment: nothing but deploy
    await refused(client, game, "A", {"type": "activate", "ship": "a1"}, 409, "wrong_step")
    await ok(client, game, "A", {"type": "deploy", "ships": [placement("a1", 36, 8, 0)]})
    await refused(
        client,
        game,
        "A",
        {"type": "deploy", "ships": [placement("a1", 30, 8, 0)]},
        409,
        "wrong_step",
    )
    await ok(client, game, "B", {"type": "deploy", "ships": [placement("b1", 36, 40, 6)]})
    ref = await get_view(client, game, "referee")
    side = ref["phase"]["side"]
    other = "B" if side == "A" else "A"
    mine, theirs = f"{side.lower()}1", f"{other.lower()}1"
    # the other side's turn
    await refused(client, game, other, {"type": "activate", "ship": theirs}, 409, "not_your_turn")
    await refused(client, game, other, {"type": "ping", "ship": theirs}, 409, "not_your_turn")
    # a command made against an older seq: stale, nothing applied; the current seq works
    seq = ref["seq"]
    stale = {"type": "activate", "ship": mine, "at_seq": seq - 1}
    problem = await refused(client, game, side, stale, 409, "stale_state")
    assert str(seq) in problem["detail"]
    await ok(client, game, side, {"type": "activate", "ship": mine, "at_seq": seq})
    # named, not moved: no end_activation yet; no second activate
    await refused(client, game, side, {"type": "end_activation", "ship": mine}, 409, "wrong_step")
    await refused(client, game, side, {"type": "activate", "ship": mine}, 409, "wrong_step")
    # no window is open: a declaration names a closed window and is refused as stale
    await refused(
        client, game, side, {"type": "fire", "window": seq, "shots": []}, 409, "stale_state"
    )
    await ok(
        client, game, side, {"type": "move", "ship": mine, "orders": {"speed_change": 0, "turn": 0}}
    )
    await refused(
        client,
        game,
        side,
        {"type": "move", "ship": mine, "orders": {"speed_change": 0, "turn": 0}},
        409,
        "wrong_step",
    )
    # resign finishes it; then every command is 409 game_finished
    await ok(client, game, other, {"type": "resign"})
    for seat, body in (
        (side, {"type": "end_activation", "ship": mine}),
        (other, {"type": "resign"}),
        (side, {"type": "resign", "at_seq": 1}),
    ):
        await refused(client, game, seat, body, 409, "game_finished")
    await assert_replays(db_url, waiting.id)
    await assert_replays(db_url, game.id)


async def test_out_of_control_ship_is_only_named_with_activate(
    client: httpx.AsyncClient, db_url: str
) -> None:
    """With this seed (and id) b1 loses its bridge in turn 2 (see test_game_flow)."""
    game = await create(client, {"scenario": "duel", "seed": f"{5:064x}"}, game_id="flowduel0001")
    await ok(client, game, "A", {"type": "deploy", "ships": [placement("a1", 36, 8, 0, 12)]})
    await ok(client, game, "B", {"type": "deploy", "ships": [placement("b1", 36, 40, 6, 12)]})

    def due(ref: dict[str, Any]) -> bool:
        side = ref["phase"]["side"]
        return ref["phase"]["step"] == "activate" and any(
            s["side"] == side and not s["activated"] and out_of_control(s) for s in ref["ships"]
        )

    await play(client, game, until=due)
    ref = await get_view(client, game, "referee")
    assert due(ref), "this seed puts b1 out of control"
    side = ref["phase"]["side"]
    ship = next(s for s in ref["ships"] if s["side"] == side and out_of_control(s))["id"]
    for body in (
        {"type": "ping", "ship": ship},
        {"type": "move", "ship": ship, "orders": {"speed_change": 0, "turn": 0}},
    ):
        await refused(client, game, side, body, 409, "out_of_control")
    reply = await ok(client, game, side, {"type": "activate", "ship": ship})
    assert [e["type"] for e in reply["events"]][:3] == [
        "activation_started",
        "ship_moved",
        "activation_ended",
    ]
    await assert_replays(db_url, game.id)


# -- 410 and invites -------------------------------------------------------------------------------
async def test_invites_single_use_and_reissue(client: httpx.AsyncClient, db_url: str) -> None:
    game = await create(client, {"scenario": "duel", "creator": "A"}, claim=False)
    old = game.created["invites"]["B"]
    # the creator reissues the unclaimed seat: the old code stops working
    r = await client.post(f"{game.path}/invites/B/reissue", headers=game.auth("A"))
    assert r.status_code == 200, r.text
    new = r.json()["code"]
    assert new != old and r.json()["side"] == "B"
    assert_problem(await client.post(f"{API}/invites/{old}/claim", json={}), 410, "invite_used")
    assert_problem(await client.post(f"{game.path}/invites/B/reissue"), 401, "missing_token")
    assert_problem(
        await client.post(f"{game.path}/invites/referee/reissue", headers=game.auth("A")), 404
    )
    r = await client.post(f"{API}/invites/{new}/claim", json={"name": "Bea"})
    assert r.status_code == 200 and r.json()["side"] == "B"
    game.tokens["B"] = r.json()["token"]
    before = await state_of(client, game)
    # a code works once
    assert_problem(await client.post(f"{API}/invites/{new}/claim", json={}), 410, "invite_used")
    # a seat already taken cannot be reissued; the other seat may not reissue at all
    r = await client.post(f"{game.path}/invites/B/reissue", headers=game.auth("A"))
    assert_problem(r, 409, "seat_taken")
    r = await client.post(f"{game.path}/invites/A/reissue", headers=game.auth("B"))
    assert_problem(r, 403, "forbidden")
    assert await state_of(client, game) == before

    # a referee's game: A's seat may not reissue B's invite; the referee may
    refereed = await create(client, {"scenario": "duel", "creator": "referee"}, claim=False)
    r = await client.post(f"{API}/invites/{refereed.created['invites']['A']}/claim", json={})
    assert r.status_code == 200
    refereed.tokens["A"] = r.json()["token"]
    r = await client.post(f"{refereed.path}/invites/B/reissue", headers=refereed.auth("A"))
    assert_problem(r, 403, "forbidden")
    r = await client.post(f"{refereed.path}/invites/A/reissue", headers=refereed.auth("referee"))
    assert_problem(r, 409, "seat_taken")
    r = await client.post(f"{refereed.path}/invites/B/reissue", headers=ADMIN_AUTH)
    assert r.status_code == 200
    stale = refereed.created["invites"]["B"]
    assert_problem(await client.post(f"{API}/invites/{stale}/claim", json={}), 410, "invite_used")
    r = await client.post(f"{API}/invites/{r.json()['code']}/claim", json={})
    assert r.status_code == 200 and r.json()["side"] == "B"
    assert (await get_view(client, refereed, "referee"))["status"] == "active"
    await assert_replays(db_url, game.id)
    await assert_replays(db_url, refereed.id)


# -- 400 / 413 / 422 on the request itself ---------------------------------------------------------
async def test_malformed_oversized_and_invalid_bodies(
    client: httpx.AsyncClient, db_url: str
) -> None:
    game = await deployed_duel(client)
    side = (await get_view(client, game, "referee"))["phase"]["side"]
    ship = f"{side.lower()}1"
    path = f"{game.path}/commands"
    before = await state_of(client, game)
    # malformed JSON with a JSON content type: 400
    r = await client.post(
        path,
        content=b'{"type": "activate", "ship": ',
        headers={**game.auth(side), "Content-Type": "application/json"},
    )
    assert_problem(r, 400, "malformed_json")
    # over the body limit: 413, whether the length is announced or streamed
    big = {"type": "activate", "ship": ship, "pad": "x" * 70_000}
    assert_problem(await client.post(path, json=big, headers=game.auth(side)), 413)

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"type": "activate", "ship": "' + ship.encode() + b'", "pad": "'
        for _ in range(20):
            yield b"x" * 4096
        yield b'"}'

    r = await client.post(
        path, content=chunks(), headers={**game.auth(side), "Content-Type": "application/json"}
    )
    assert_problem(r, 413, "body_too_large")
    assert await state_of(client, game) == before
    # well-formed JSON of the wrong shape: 422 invalid_request, naming the field
    for body, where in (
        ({"type": "deploy", "ships": [{**placement(ship, 36, 8, 0), "heading": False}]}, "heading"),
        ({"type": "deploy", "ships": [{**placement(ship, 36, 8, 0), "speed": 1.5}]}, "speed"),
        ({"type": "activate", "ship": 1.5}, "ship"),
        ({"type": "activate", "ship": 1}, "ship"),
        ({"type": "activate", "ship": ship, "at_seq": False}, "at_seq"),
        ({"type": "activate", "ship": ship, "extra": 1}, "extra"),
        ({"type": "warp", "ship": ship}, ""),
        ({"ship": ship}, ""),
        ({"type": "move", "ship": ship, "orders": {"speed_change": 0, "turn": "1"}}, ""),
        # (1.0 is an integer to JSON Schema: taken as 1, see test_integral_floats_are_integers)
        ({"type": "fire", "window": 1.5, "shots": []}, "window"),
        ({"type": "fire", "window": -1, "shots": []}, "window"),
        ([{"type": "resign"}], ""),
        ("resign", ""),
    ):
        problem = await refused(client, game, side, body, 422, "invalid_request")
        assert where in problem["detail"], (body, problem)
    r = await client.get(f"{game.path}/events", params={"after": -1})
    assert_problem(r, 422, "invalid_request")
    r = await client.get(f"{game.path}/events", params={"after": "x"})
    assert_problem(r, 422, "invalid_request")
    # the same Idempotency-Key with another body
    activate = {"type": "activate", "ship": ship}
    key = {"Idempotency-Key": "k-1"}
    r = await send(client, game, side, activate, key)
    assert r.status_code == 200
    assert (await send(client, game, side, activate, key)).json() == r.json()
    await refused(
        client, game, side, {"type": "ping", "ship": ship}, 422, "idempotency_key_reused", key
    )
    await assert_replays(db_url, game.id)


async def test_rules_refusals_in_deployment_and_orders(
    client: httpx.AsyncClient, db_url: str
) -> None:
    game = await create(client, {"scenario": "duel", "seed": SEED})
    problem = await refused(
        client,
        game,
        "A",
        {"type": "deploy", "ships": [placement("a1", 36, 20, 0)]},
        422,
        "out_of_zone",
    )
    assert "zone" in problem["detail"]
    problem = await refused(
        client,
        game,
        "A",
        {"type": "deploy", "ships": [placement("a1", 36, 8, 0, 13)]},
        422,
        "illegal_orders",
    )
    assert "12" in problem["detail"]
    await refused(client, game, "A", {"type": "deploy", "ships": []}, 422, "invalid_command")
    await ok(client, game, "A", {"type": "deploy", "ships": [placement("a1", 36, 8, 0, 2)]})
    await ok(client, game, "B", {"type": "deploy", "ships": [placement("b1", 36, 40, 6, 2)]})
    side = (await get_view(client, game, "referee"))["phase"]["side"]
    ship = f"{side.lower()}1"
    # a frigate: thrust 6, so at most 3 points of turn and 6 of speed change (speed 2 → ≥ 0)
    for orders, words in (
        ({"speed_change": 0, "turn": 4}, "limit of 3"),
        ({"speed_change": 7, "turn": 0}, "6"),
        ({"speed_change": -3, "turn": 0}, ""),
        ({"speed_change": 4, "turn": 3}, ""),
    ):
        body = {"type": "move", "ship": ship, "orders": orders}
        problem = await refused(client, game, side, body, 422, "illegal_orders")
        assert words in problem["detail"], problem
    # vector orders in a cinematic game are refused too
    body = {"type": "move", "ship": ship, "orders": {"rotate": 1, "thrust": 1}}
    await refused(client, game, side, body, 422, "illegal_orders")
    await refused(client, game, side, {"type": "activate", "ship": "z9"}, 422, "unknown_ship")
    await ok(
        client, game, side, {"type": "move", "ship": ship, "orders": {"speed_change": 0, "turn": 1}}
    )
    await assert_replays(db_url, game.id)


async def test_fire_declaration_refusals_and_a_stale_window(
    client: httpx.AsyncClient, db_url: str
) -> None:
    """One raider (a frigate without ECM) against four on a 48 × 24 table with a 22 mu ping range.

    a1 at (24, 8) faces clock 2: b1 (24, 18) is 10 mu off its port bow, b2 (40, 17) 18 mu dead
    ahead, b3 (6, 17) 20 mu off its port quarter (outside the arcs of its class-2 beams), b4
    (46, 23) 27 mu away, beyond the ping range (never revealed)."""
    raider = {
        "id": "raider",
        "name": "Raider",
        "class": "frigate",
        "mass": 30,
        "thrust": 6,
        "hull": 10,
        "hull_rows": 4,
        "armour": 2,
        "broadside": False,
        "systems": [
            {"id": "fc-1", "type": "fire_control"},
            {"id": "beam-1", "type": "beam", "class": 2, "arcs": ["FP", "F", "FS"]},
            {"id": "beam-2", "type": "beam", "class": 2, "arcs": ["FP", "F", "FS"]},
            {
                "id": "beam-3",
                "type": "beam",
                "class": 1,
                "arcs": ["F", "FS", "AS", "A", "AP", "FP"],
            },
        ],
    }
    names = ("Shade", "Wisp", "Ghost", "Far")
    game = await create(
        client,
        {
            "sides": {
                "A": {"ships": [{"name": "Vigilant", "design": raider}]},
                "B": {"ships": [{"name": n, "design": raider} for n in names]},
            },
            "table": {"width": 48, "height": 24},
            "ping_range": 22,
            "seed": SEED,
        },
        game_id="errarena0001",
    )
    await ok(client, game, "A", {"type": "deploy", "ships": [placement("a1", 24, 8, 2)]})
    spots = {"b1": (24, 18), "b2": (40, 17), "b3": (6, 17), "b4": (46, 23)}
    await ok(
        client,
        game,
        "B",
        {"type": "deploy", "ships": [placement(s, x, y, 6) for s, (x, y) in spots.items()]},
    )
    # B has more ships: it goes first; b4 moves nowhere and goes on overwatch
    assert (await get_view(client, game, "referee"))["phase"]["side"] == "B"
    await refused(client, game, "A", {"type": "ping", "ship": "a1"}, 409, "not_your_turn")
    await ok(
        client, game, "B", {"type": "move", "ship": "b4", "orders": {"speed_change": 0, "turn": 0}}
    )
    await ok(client, game, "B", {"type": "end_activation", "ship": "b4"})
    # A's turn: a ship of the other side, then the ping
    await refused(
        client,
        game,
        "A",
        {"type": "move", "ship": "b1", "orders": {"speed_change": 0, "turn": 0}},
        403,
        "not_your_ship",
    )
    reply = await ok(client, game, "A", {"type": "ping", "ship": "a1"})
    ping = next(e for e in reply["events"] if e["type"] == "ping")
    seen = {d["target"]: d["revealed"] for d in ping["data"]["detections"]}
    assert seen == {"b1": True, "b2": True, "b3": True, "b4": False}
    window = reply["view"]["phase"]["fire"]["window"]
    assert reply["view"]["phase"]["awaiting"] == ["A", "B"]
    options = {(o["weapon"], o["target"]) for o in reply["view"]["phase"]["legal"]["fire_options"]}
    assert ("beam-1", "b1") in options and ("beam-1", "b3") not in options
    assert ("beam-3", "b2") not in options and ("beam-1", "b4") not in options

    def fire(*shots: tuple[str, str, str], at: int = window) -> dict[str, Any]:
        return {
            "type": "fire",
            "window": at,
            "shots": [{"ship": s, "weapon": w, "target": t} for s, w, t in shots],
        }

    for body, status, code in (
        (fire(("a1", "beam-1", "b3")), 422, "out_of_arc"),
        (fire(("a1", "beam-3", "b2")), 422, "out_of_range"),
        (fire(("a1", "beam-1", "b4")), 422, "target_not_revealed"),
        (fire(("a1", "beam-1", "b1"), ("a1", "beam-1", "b1")), 422, "duplicate_weapon"),
        (fire(("a1", "beam-1", "b1"), ("a1", "beam-2", "b2")), 422, "no_fire_control"),
        (fire(("a1", "beam-9", "b1")), 422, "unknown_weapon"),
        (fire(("b1", "beam-1", "a1")), 403, "not_your_ship"),
        (fire(("a1", "beam-1", "b1"), at=window + 5), 409, "stale_state"),
        ({"type": "activate", "ship": "a1"}, 409, "wrong_step"),
    ):
        problem = await refused(client, game, "A", body, status, code)
        assert problem["detail"]
    problem = await refused(client, game, "A", fire(("a1", "beam-1", "b3")), 422, "out_of_arc")
    assert "arc" in problem["detail"]
    await ok(
        client,
        game,
        "A",
        fire(("a1", "beam-1", "b1"), ("a1", "beam-2", "b1"), ("a1", "beam-3", "b1")),
    )
    await refused(client, game, "A", fire(), 409, "wrong_step")  # declared already
    await ok(client, game, "B", fire())
    # a1 pinged first: its move is due
    await refused(client, game, "A", {"type": "end_activation", "ship": "a1"}, 409, "wrong_step")
    await ok(
        client, game, "A", {"type": "move", "ship": "a1", "orders": {"speed_change": 0, "turn": 0}}
    )
    ref = await get_view(client, game, "referee")
    assert ref["phase"]["side"] == "B" and ref["phase"]["step"] == "activate"
    pinger = next(
        s["id"]
        for s in ref["ships"]
        if s["side"] == "B"
        and s["status"] == "active"
        and not s["activated"]
        and not out_of_control(s)
    )
    reply = await ok(client, game, "B", {"type": "ping", "ship": pinger})
    now = reply["view"]["phase"]["fire"]["window"]
    assert now > window
    # a declaration for the closed window while another is open: stale
    problem = await refused(client, game, "A", fire(at=window), 409, "stale_state")
    assert str(now) in problem["detail"]
    await assert_replays(db_url, game.id)


# -- game creation ---------------------------------------------------------------------------------
async def test_creation_refusals(client: httpx.AsyncClient, db_url: str, tmp_path: Path) -> None:
    async def games() -> list[str]:
        r = await client.get(f"{API}/games", headers=ADMIN_AUTH)
        return sorted(g["game_id"] for g in r.json()["games"])

    before = await games()
    r = await client.post(f"{API}/games", json={"scenario": "nope"})
    assert "duel" in assert_problem(r, 422, "unknown_scenario")["detail"]
    bad = {
        "id": "brick",
        "name": "Brick",
        "class": "frigate",
        "mass": 5,
        "thrust": 6,
        "hull": 40,
        "hull_rows": 4,
        "armour": 2,
        "systems": [{"id": "beam-1", "type": "beam", "class": 2, "arcs": ["F"]}],
    }
    sides = {
        "A": {"ships": [{"name": "Vigilant", "design": "frigate"}]},
        "B": {"ships": [{"name": "Brick", "design": bad}]},
    }
    problem = assert_problem(
        await client.post(f"{API}/games", json={"sides": sides}), 422, "invalid_design"
    )
    assert isinstance(problem["problems"], list) and len(problem["problems"]) >= 2
    assert any("mass" in p for p in problem["problems"])
    problem = assert_problem(
        await client.post(f"{API}/designs/validate", json=bad), 422, "invalid_design"
    )
    assert problem["problems"]
    for body in (
        {"scenario": "duel", "turn_limit": False},
        {"scenario": "duel", "turn_limit": 0},
        {"scenario": "duel", "movement": "warp"},
        {"scenario": "duel", "creator": "C"},
        {"scenario": "duel", "spectators": "no"},
        {"scenario": "duel", "seed": "12"},
        {"scenario": "duel", "colour": "red"},
        {"scenario": "duel", "sides": sides},
        {},
        {"sides": {"A": sides["A"]}},
        {"sides": {**sides, "A": {"ships": []}}},
    ):
        assert_problem(await client.post(f"{API}/games", json=body), 422, "invalid_request")
    r = await client.post(
        f"{API}/games", content=b"{", headers={"Content-Type": "application/json"}
    )
    assert_problem(r, 400, "malformed_json")
    r = await client.post(f"{API}/games", json={"scenario": "duel", "pad": "x" * 70_000})
    assert_problem(r, 413)
    assert await games() == before

    # a server started without client seeds refuses them
    strict = create_app(make_settings(db_url, tmp_path))
    async with strict.router.lifespan_context(strict):
        transport = httpx.ASGITransport(app=strict)
        async with httpx.AsyncClient(transport=transport, base_url="http://strict") as other:
            r = await other.post(f"{API}/games", json={"scenario": "duel", "seed": SEED})
            assert_problem(r, 422, "client_seed_not_allowed")
            assert await games() == before
            r = await other.post(f"{API}/games", json={"scenario": "duel"})
            assert r.status_code == 201
    assert len(await games()) == len(before) + 1


# -- spectators ------------------------------------------------------------------------------------
async def test_spectators_switched_off(client: httpx.AsyncClient, db_url: str) -> None:
    game = await create(client, {"scenario": "duel", "spectators": False})
    for path in (game.path, f"{game.path}/events", f"{game.path}/record"):
        assert_problem(await client.get(path), 401, "missing_token")
    seen = await get_view(client, game, "A")
    assert seen["you"] == "A"
    open_game = await create(client, {"scenario": "duel"})
    seen = await get_view(client, open_game, "spectator")
    assert seen["you"] == "spectator" and seen["phase"]["legal"]["commands"] == []
    # a spectator of an open game still may not read the record before the end
    assert_problem(await client.get(f"{open_game.path}/record"), 403)
    await assert_replays(db_url, game.id)


async def test_commands_while_paused(client: httpx.AsyncClient, db_url: str) -> None:
    game = await deployed_duel(client)
    side = (await get_view(client, game, "referee"))["phase"]["side"]
    r = await client.post(
        f"{game.path}/referee/pause", json={"reason": "tea break"}, headers=ADMIN_AUTH
    )
    assert r.status_code == 200, r.text
    assert r.json()["paused"] is True and r.json()["phase"]["awaiting"] == []
    for seat, body in (
        (side, {"type": "activate", "ship": f"{side.lower()}1"}),
        ("A", {"type": "resign"}),
    ):
        await refused(client, game, seat, body, 409, "game_paused")
    # only a referee pauses
    r = await client.post(
        f"{game.path}/referee/resume", json={"reason": "back"}, headers=game.auth("A")
    )
    assert_problem(r, 403)
    r = await client.post(
        f"{game.path}/referee/resume", json={"reason": "back"}, headers=ADMIN_AUTH
    )
    assert r.status_code == 200 and r.json()["paused"] is False
    await ok(client, game, side, {"type": "activate", "ship": f"{side.lower()}1"})
    await assert_replays(db_url, game.id)
