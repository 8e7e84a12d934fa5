"""``hand_to_computer``: once the other side has timed out three decisions in a row, a player
may hand it to the server's computer instead of claiming the win; the absent player's token
stops working and the computer plays on."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.api.clock_helpers import LIVE, FakeNow, apps, b_times_out, play_own_decision
from tests.api.helpers import command, new_game, ok, view
from tests.api.replay_check import assert_problem, assert_replays

DEPLOY_A = {
    "type": "deploy",
    "ships": [{"ship": "a1", "position": {"x": 36, "y": 4}, "heading": 0, "speed": 0}],
}


async def test_a_side_that_keeps_timing_out_is_handed_to_the_computer(
    db_url: str, tmp_path: Path
) -> None:
    now = FakeNow()
    async with apps(
        db_url, tmp_path, now, computer=True, computer_delay_scale=0, computer_poll=0.05
    ) as [(app, client)]:
        duel = await new_game(client, {"scenario": "duel", "clock": LIVE})
        r = await command(client, duel, "A", {"type": "hand_to_computer"})
        assert "timed out 0" in assert_problem(r, 409, "claim_not_allowed")["detail"]
        await ok(client, duel, "A", DEPLOY_A)
        await b_times_out(app, client, duel, now, 3)
        r = await command(client, duel, "B", {"type": "hand_to_computer"})
        assert_problem(r, 409, "claim_not_allowed")  # A never timed out
        r = await command(client, duel, "A", {"type": "hand_to_computer", "level": "cadet"})
        assert_problem(r, 422)
        body = await ok(client, duel, "A", {"type": "hand_to_computer"})
        (replaced,) = [e for e in body["events"] if e["type"] == "seat_replaced"]
        assert replaced["data"]["side"] == "B" and "computer" in replaced["data"]["reason"]
        assert (await view(client, duel, "A"))["seats"]["B"]["name"] == "Computer (captain)"
        # the absent player's token is the seat's no longer
        r = await client.get(duel.path, headers=duel.auth("B"))
        assert r.status_code == 401, r.text
        r = await command(client, duel, "A", {"type": "hand_to_computer"})
        assert_problem(r, 409, "already_computer")
        # the computer plays B from now on: a decision of B's made in time starts the count
        # of its timeouts again
        for _ in range(400):
            seen = await view(client, duel, "A")
            if seen["clock"]["timeouts"]["B"] == 0:
                break
            if "A" in seen["phase"]["awaiting"]:
                await play_own_decision(client, duel, "A")
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the computer never answered for B")
    await assert_replays(db_url, duel.game_id)
