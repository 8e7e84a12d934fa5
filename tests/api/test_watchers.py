"""The write hook: every room that writes a game tells the watchers inside its transaction."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncConnection

from app.play.watch import Change
from tests.api.helpers import API, command, deploy_duel, new_game, view
from tests.conftest import ADMIN


class Recorder:
    def __init__(self) -> None:
        self.seen: list[tuple[str, int, int | None, int]] = []
        self.fail = False

    async def written(self, conn: AsyncConnection, change: Change) -> None:
        before = change.before.seq if change.before is not None else None
        self.seen.append((change.head.status, change.head.seq, before, change.after.seq))
        if self.fail:
            raise RuntimeError("a watcher failed")


def _service(client: httpx.AsyncClient) -> Any:
    return client._transport.app.state.service  # type: ignore[attr-defined]


async def test_claims_commands_and_referee_actions_are_watched(
    client: httpx.AsyncClient,
) -> None:
    recorder = Recorder()
    _service(client).watchers.add(recorder)
    duel = await new_game(client, {"scenario": "duel", "creator": "A"})
    assert recorder.seen[-1][0] == "active"  # the claim that started the game
    await deploy_duel(client, duel)
    status, seq, before, after = recorder.seen[-1]
    assert (status, seq) == ("active", after) and before is not None and before < after
    r = await client.post(
        f"{duel.path}/referee/pause",
        json={"reason": "tea"},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    assert r.status_code == 200, r.text
    assert recorder.seen[-1][1] == r.json()["seq"]


async def test_a_failing_watcher_rolls_the_write_back(client: httpx.AsyncClient) -> None:
    duel = await new_game(client, {"scenario": "duel", "creator": "A"})
    seq = (await view(client, duel, "A"))["seq"]
    recorder = Recorder()
    recorder.fail = True
    _service(client).watchers.add(recorder)
    deploy = {
        "type": "deploy",
        "ships": [{"ship": "a1", "position": {"x": 36, "y": 4}, "heading": 0, "speed": 0}],
    }
    with pytest.raises(RuntimeError):
        await command(client, duel, "A", deploy)
    recorder.fail = False
    assert (await view(client, duel, "A"))["seq"] == seq
    r = await client.get(f"{API}/games/{duel.game_id}/events?after=0", headers=duel.auth("A"))
    assert r.json()["last_seq"] == seq
