"""Attacks on issue 13's fighters and drones over HTTP, on the selected database: each test
names the rule or secret it breaks today and what a fix must do."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.replay_check import Game, create, get_view, ok, send

SEED = "c3" * 32
STILL = {"speed_change": 0, "turn": 0}
LAUNCH_TO = {"x": 36, "y": 28}  # 24 mu from a1: inside A's 26 mu ping
AWAY = {"x": 50, "y": 44}  # 42 mu from a1, 40 from b2: beyond every ping


async def _new_game(client: httpx.AsyncClient, game_id: str) -> Game:
    """A's destroyer at (36,4); B's light carrier at (36,40) and destroyer at (10,40)."""
    game = await create(
        client,
        {
            "sides": {
                "A": {"ships": [{"name": "Warden", "design": "destroyer"}]},
                "B": {
                    "ships": [
                        {"name": "Albatross", "design": "light_carrier"},
                        {"name": "Picket", "design": "destroyer"},
                    ]
                },
            },
            "table": {"width": 72, "height": 48},
            "seed": SEED,
            "ping_range": 26,
        },
        game_id=game_id,
    )
    place = {"ship": "a1", "position": {"x": 36, "y": 4}, "heading": 0, "speed": 0}
    await ok(client, game, "A", {"type": "deploy", "ships": [place]})
    places = [
        {"ship": "b1", "position": {"x": 36, "y": 40}, "heading": 6, "speed": 0},
        {"ship": "b2", "position": {"x": 10, "y": 40}, "heading": 6, "speed": 0},
    ]
    await ok(client, game, "B", {"type": "deploy", "ships": places})
    return game


async def _group_id(client: httpx.AsyncClient, game: Game) -> str | None:
    ref = await get_view(client, game, "referee")
    return next((m["id"] for m in ref["markers"] if m["kind"] == "fighters"), None)


async def _a_sees(client: httpx.AsyncClient, game: Game, marker: str | None) -> bool:
    return any(m["id"] == marker for m in (await get_view(client, game, "A"))["markers"])


async def _to_a_fire_window_with_the_group_forgotten(
    client: httpx.AsyncClient, game: Game
) -> tuple[str, int]:
    """B1 launches a group towards A; A's ping sees it; at B1's next activation it flies out
    of every ping's reach (forgotten); then B2 pings and A may fire in the window it opens."""
    stage = "launch"  # launch -> seen -> forgotten
    for _ in range(80):
        ref = await get_view(client, game, "referee")
        phase = ref["phase"]
        step, ship = phase["step"], phase["ship"]
        if step == "fire":
            seat = phase["awaiting"][0]
            if seat == "A" and stage == "forgotten":
                g = await _group_id(client, game)
                assert g is not None and not await _a_sees(client, game, g)
                return g, phase["fire"]["window"]
            await ok(
                client,
                game,
                seat,
                {"type": "fire", "window": phase["fire"]["window"]} | {"shots": []},
            )
        elif step == "activate":
            mine = await get_view(client, game, phase["side"])
            ready = mine["phase"]["legal"]["activatable"]
            pick = "b1" if "b1" in ready and stage != "forgotten" else ready[0]
            await ok(client, game, phase["side"], {"type": "activate", "ship": pick})
        elif step == "start" and ship == "b1" and stage in ("launch", "seen"):
            body: dict[str, Any] = {"type": "markers", "ship": "b1", "orders": []}
            if stage == "launch":
                body["launch"] = [{"bay": "bay-1", "to": LAUNCH_TO}]
            else:
                g = await _group_id(client, game)
                body["orders"] = [{"marker": g, "to": AWAY}]
                stage = "forgotten"
            await ok(client, game, "B", body)
            await ok(client, game, "B", {"type": "move", "ship": "b1", "orders": STILL})
        elif step == "start" and (
            (ship == "a1" and stage == "launch") or (ship == "b2" and stage == "forgotten")
        ):
            await ok(client, game, phase["side"], {"type": "ping", "ship": ship})
            if ship == "a1" and await _a_sees(client, game, await _group_id(client, game)):
                stage = "seen"
        elif step in ("start", "after_ping"):
            await ok(client, game, phase["side"], {"type": "move", "ship": ship, "orders": STILL})
        elif step == "after_move":
            await ok(client, game, phase["side"], {"type": "end_activation", "ship": ship})
        else:
            raise AssertionError(phase)
    raise AssertionError("the game never reached the window")


async def test_fire_at_a_forgotten_group_is_refused_like_a_made_up_id(
    client: httpx.AsyncClient,
) -> None:
    """Defect: in a fire window A's shot at B's group — seen by A's ping, then flown out of
    reach and forgotten at its mother's activation — is refused 422 ``target_not_revealed``
    ("group … is not live"), a made-up id 404/422 ``unknown_ship``. A keeps the id of every
    group it saw and learns by one refused shot whether that group is still in flight (not
    landed, not destroyed). Rule (RULES §9.1): "an id the caller may not see is refused
    exactly like an unknown one"; landing stays secret. Fix: the same refusal for both."""
    game = await _new_game(client, "fgattack0001")
    group, window = await _to_a_fire_window_with_the_group_forgotten(client, game)
    out = []
    for target in (group, "m-0123456789ab"):
        shot = {"ship": "a1", "weapon": "beam-1", "target": target}
        r = await send(client, game, "A", {"type": "fire", "window": window, "shots": [shot]})
        body = r.json()
        out.append((r.status_code, body.get("code"), str(body.get("detail")).replace(target, "ID")))
    assert out[0] == out[1]
