"""Attacks on issue 12's ordnance over HTTP, on the selected database: each test names the rule
or secret it checks and what a fix must do."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.helpers import SALVO_RACK_SHIP
from tests.api.replay_check import Game, create, get_view, ok, send

SEED = "a7" * 32
LAUNCHER = SALVO_RACK_SHIP
STILL = {"speed_change": 0, "turn": 0}


async def _new_game(client: httpx.AsyncClient, game_id: str) -> Game:
    """A's salvo-rack launcher at (36,4) facing B's destroyer (two PDS) at (36,20); A first."""
    game = await create(
        client,
        {
            "sides": {
                "A": {"ships": [{"name": "Lance", "design": LAUNCHER}]},
                "B": {"ships": [{"name": "Warden", "design": "destroyer"}]},
            },
            "table": {"width": 72, "height": 24},
            "seed": SEED,
        },
        game_id=game_id,
    )
    place = {"ship": "a1", "position": {"x": 36, "y": 4}, "heading": 0, "speed": 0}
    await ok(client, game, "A", {"type": "deploy", "ships": [place]})
    place = {"ship": "b1", "position": {"x": 36, "y": 20}, "heading": 6, "speed": 0}
    await ok(client, game, "B", {"type": "deploy", "ships": [place]})
    return game


async def _b_moves(client: httpx.AsyncClient, game: Game) -> None:
    await ok(client, game, "B", {"type": "move", "ship": "b1", "orders": STILL})
    await ok(client, game, "B", {"type": "end_activation", "ship": "b1"})


async def test_a_launcher_ship_offered_a_ping_after_its_move_gets_it(
    client: httpx.AsyncClient,
) -> None:
    # RULES §4 / decision 16: step 2 before the move forfeits only the first ping. Today any
    # ship with a launcher is refused its ping after the move (409 wrong_step) although its
    # view's `legal.commands` lists `ping`. Fix: the ping after the move is allowed.
    game = await _new_game(client, "ordattack001")
    for _ in range(3):
        view = await get_view(client, game, "A")
        if view["phase"]["side"] == "A":
            break
        await _b_moves(client, game)
    await ok(client, game, "A", {"type": "move", "ship": "a1", "orders": STILL})
    view = await get_view(client, game, "A")
    assert view["phase"]["step"] == "after_move"
    assert "ping" in view["phase"]["legal"]["commands"]
    r = await send(client, game, "A", {"type": "ping", "ship": "a1"})
    assert r.status_code == 200, r.text


async def _to_the_window(client: httpx.AsyncClient, game: Game) -> None:
    """Turn 1: A pings first, launches its salvo 1 mu from B's destroyer, moves; B stays.
    Turn 2: A1's step 2 opens the defence window."""
    launched = False
    for _ in range(40):
        ref: dict[str, Any] = await get_view(client, game, "referee")
        phase = ref["phase"]
        if phase["step"] == "defend":
            return
        if phase["step"] == "fire":
            seat = phase["awaiting"][0]
            aim = {"ship": "a1", "weapon": "rack-1", "aim": {"x": 36, "y": 21}}
            shots = [] if launched or seat == "B" else [aim]
            body = {"type": "fire", "window": phase["fire"]["window"], "shots": shots}
            await ok(client, game, seat, body)
            launched = launched or bool(shots)
        elif phase["side"] == "B":
            await _b_moves(client, game)
        elif not launched:
            await ok(client, game, "A", {"type": "ping", "ship": "a1"})
        else:
            await ok(client, game, "A", {"type": "move", "ship": "a1", "orders": STILL})
    raise AssertionError("no defence window came")


async def test_the_defender_sees_the_attacking_salvo_in_its_view_markers(
    client: httpx.AsyncClient,
) -> None:
    # RULES §9.1 "Enemy markers are live while they attack"; API.md: the view's `markers`
    # holds enemy markers while live. Today no marker is ever made live, so B's view lists no
    # marker while the salvo attacks it. Fix: the window's attacking markers are live (public
    # kind and position, no aim or mother) until their mother's next step 2.
    game = await _new_game(client, "ordattack002")
    await _to_the_window(client, game)
    b_view = await get_view(client, game, "B")
    (attack,) = b_view["phase"]["defence"]["attacks"]
    shown = {m["id"]: m for m in b_view["markers"]}
    assert attack["marker"] in shown, f"B's markers: {b_view['markers']}"
    assert "aim" not in shown[attack["marker"]] and "mother" not in shown[attack["marker"]]
