"""The defence window over HTTP (RULES §9.5; decisions 17, 18), on the selected database: a
salvo launched in a fire window attacks at its mother's next activation, the window waits for
the defender, whose view alone offers the pairings; refusals are problem+json with a detail a
person can act on; the attacker's view and events hold no allocation before the resolution; and
``standing_orders`` is public and open only to a side a window could wait for.
"""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.helpers import SALVO_RACK_SHIP
from tests.api.replay_check import Game, assert_problem, create, get_events, get_view, ok, send

SEED = "d3" * 32
AIM = {"x": 36, "y": 21}  # 1 mu from B's destroyer at (36,20); 17 mu from A1
LAUNCHER = SALVO_RACK_SHIP


def _still() -> dict[str, int]:
    return {"speed_change": 0, "turn": 0}


async def _new_game(client: httpx.AsyncClient) -> Game:
    game = await create(
        client,
        {
            "sides": {
                "A": {"ships": [{"name": "Lance", "design": LAUNCHER}]},
                # a destroyer: two PDS and a class-1 beam, no ECM (A's ping always finds it)
                "B": {"ships": [{"name": "Warden", "design": "destroyer"}]},
            },
            "table": {"width": 72, "height": 24},  # zones: A y 0-8, B y 16-24
            "seed": SEED,
        },
        game_id="defence00001",
    )
    place = {"ship": "a1", "position": {"x": 36, "y": 4}, "heading": 0, "speed": 0}
    await ok(client, game, "A", {"type": "deploy", "ships": [place]})
    place = {"ship": "b1", "position": {"x": 36, "y": 20}, "heading": 6, "speed": 0}
    await ok(client, game, "B", {"type": "deploy", "ships": [place]})
    return game


async def _to_the_window(client: httpx.AsyncClient, game: Game) -> dict[str, Any]:
    """Turn 1: A pings, launches a salvo at 1 mu from B's destroyer and stays; B stays and holds
    its fire. Turn 2: A1 activates and sends its step 2. Returns the markers reply."""
    launched = False
    for _ in range(40):
        ref = await get_view(client, game, "referee")
        phase = ref["phase"]
        if phase["step"] == "fire":
            seat = phase["awaiting"][0]
            shots = (
                [] if launched or seat == "B" else [{"ship": "a1", "weapon": "rack-1", "aim": AIM}]
            )
            await ok(
                client,
                game,
                seat,
                {"type": "fire", "window": phase["fire"]["window"], "shots": shots},
            )
            launched = launched or bool(shots)
        elif phase["side"] == "B":
            await ok(client, game, "B", {"type": "move", "ship": "b1", "orders": _still()})
            await ok(client, game, "B", {"type": "end_activation", "ship": "b1"})
        elif not launched:
            await ok(client, game, "A", {"type": "ping", "ship": "a1"})
        elif ref["turn"] == 1:
            await ok(client, game, "A", {"type": "move", "ship": "a1", "orders": _still()})
        else:
            await ok(client, game, "A", {"type": "activate", "ship": "a1"})
            return await ok(client, game, "A", {"type": "markers", "ship": "a1", "orders": []})
    raise AssertionError("A1's step 2 never came")


async def test_a_defend_round_trip_with_refusals_and_secrecy(client: httpx.AsyncClient) -> None:
    game = await _new_game(client)
    reply = await _to_the_window(client, game)
    assert [e["type"] for e in reply["events"]][-1] == "defence_window"

    b_view = await get_view(client, game, "B")
    assert b_view["phase"]["step"] == "defend" and b_view["phase"]["awaiting"] == ["B"]
    legal = b_view["phase"]["legal"]
    assert "defend" in legal["commands"]
    defend = legal["defend"]
    salvo = b_view["phase"]["defence"]["attacks"][0]
    assert salvo["kind"] == "salvo" and salvo["target"] == "b1"
    marker = salvo["marker"]
    pairs = {(p["ship"], p["system"]): p["odds"] for p in defend["pairings"]}
    assert pairs == {("b1", "pds-1"): 0.8, ("b1", "pds-2"): 0.8, ("b1", "beam-4"): 0.8}
    assert defend["default"] == [
        {"ship": "b1", "system": "pds-1", "against": marker},
        {"ship": "b1", "system": "pds-2", "against": marker},
    ]

    # A sees the public window (its own attack) but no pairing, no default, no defend
    a_view = await get_view(client, game, "A")
    assert a_view["phase"]["defence"]["attacks"] == b_view["phase"]["defence"]["attacks"]
    assert a_view["phase"]["defence"]["declared"] == []
    assert "defend" not in a_view["phase"]["legal"]["commands"]
    assert "defend" not in a_view["phase"]["legal"]

    window = defend["window"]
    pds = {"ship": "b1", "system": "pds-1", "against": marker}
    refusals = [
        ("B", [{**pds, "against": "m-nope"}], window, 422, "unknown_marker", "m-nope"),
        ("B", [{**pds, "system": "fc-1"}], window, 422, "illegal_pairing", "cannot defend"),
        ("B", [pds, pds], window, 422, "duplicate_weapon", "fires once"),
        ("B", [pds], window - 1, 409, "stale_state", f"the open window is {window}"),
        ("A", [], window, 409, "wrong_step", "does not wait for side A"),
    ]
    for seat, allocations, w, status, code, words in refusals:
        body = {"type": "defend", "window": w, "allocations": allocations}
        problem = assert_problem(await send(client, game, seat, body), status, code)
        assert words in problem["detail"], problem
    r = await send(client, game, "B", {"type": "defend", "window": window, "allocations": "all"})
    assert_problem(r, 422)

    answer = {"type": "defend", "window": window, "allocations": [pds]}
    reply = await ok(client, game, "B", answer)
    types = [e["type"] for e in reply["events"]]
    assert types[:2] == ["defence_declared", "defence_resolved"] and "salvo_attack" in types
    attack = next(e for e in reply["events"] if e["type"] == "salvo_attack")["data"]
    resolved = next(e for e in reply["events"] if e["type"] == "defence_resolved")["data"]
    # decision 18: missiles on target = the salvo's 1D6 less the kills, never below 0
    assert attack["kills"] == resolved["kills"][marker] <= 6
    assert attack["missiles"] == max(0, attack["missiles_die"] - attack["kills"])

    # A's copy of B's declaration names the side and window only; the resolution shows all
    a_events = await get_events(client, game, "A")
    declared = next(e for e in a_events if e["type"] == "defence_declared")
    assert declared["data"] == {"side": "B", "window": window}
    shown = next(e for e in a_events if e["type"] == "defence_resolved")["data"]
    assert [(d["ship"], d["system"]) for d in shown["defences"]] == [("b1", "pds-1")]
    b_events = await get_events(client, game, "B")
    mine = next(e for e in b_events if e["type"] == "defence_declared")
    assert mine["data"]["allocations"] == [pds]

    after = await get_view(client, game, "A")
    assert after["phase"]["step"] != "defend" and after["markers"] == []
    problem = assert_problem(await send(client, game, "B", answer), 409, "stale_state")
    assert "closed" in problem["detail"]


async def test_standing_orders_are_public_and_open_only_to_a_side_that_can_be_awaited(
    client: httpx.AsyncClient,
) -> None:
    game = await _new_game(client)
    b_view = await get_view(client, game, "B")
    assert "standing_orders" in b_view["phase"]["legal"]["commands"]
    a_view = await get_view(client, game, "A")
    # B's destroyer launches nothing: no window can ever wait for A
    assert "standing_orders" not in a_view["phase"]["legal"]["commands"]
    r = await send(client, game, "A", {"type": "standing_orders", "auto_defend": True})
    problem = assert_problem(r, 409, "wrong_step")
    assert "no defence window can wait for side A" in problem["detail"]
    r = await send(client, game, "B", {"type": "standing_orders", "auto_defend": "yes"})
    problem = assert_problem(r, 422)
    assert "auto_defend" in problem["detail"]

    await ok(client, game, "B", {"type": "standing_orders", "auto_defend": True})
    for seat in ("A", "B", "referee", "spectator"):
        assert (await get_view(client, game, seat))["auto_defend"] == ["B"], seat
    a_events = await get_events(client, game, "A")
    order = next(e for e in a_events if e["type"] == "standing_orders")
    assert order["data"] == {"side": "B", "auto_defend": True}

    # with the standing order on, A's step 2 opens and closes the window in one command
    reply = await _to_the_window(client, game)
    types = [e["type"] for e in reply["events"]]
    assert types[types.index("defence_window") + 1 : types.index("defence_window") + 3] == [
        "defence_declared",
        "defence_resolved",
    ]
    declared = next(e for e in reply["events"] if e["type"] == "defence_declared")
    assert declared["data"].get("auto") is True
    assert (await get_view(client, game, "B"))["phase"]["step"] != "defend"
