"""The computer's turns are claimed from the database: two workers on one database never both
play a turn, and a turn claimed by a worker that died is played by another at the release
time recorded when the computer was first asked."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from app.bot.timing import RELEASE_S
from app.play.service import GameService
from app.store.computer import computer as computer_table
from tests.api.replay_check import assert_replays
from tests.computer.test_server_seat import against_computer, play_out, seat_view, served


def count_sends(service: GameService, sent: Counter[tuple[str, int]]) -> None:
    """Count the computer's commands the pipeline applied, by game and ``at_seq``."""
    send = service.commands.computer_command

    async def counted(game_id: str, hashed: str, body: Any, key: str | None) -> Any:
        result = await send(game_id, hashed, body, key)
        sent[(game_id, body["at_seq"])] += 1
        return result

    service.commands.computer_command = counted  # type: ignore[method-assign]


async def test_two_workers_never_both_play_a_turn(db_url: str, tmp_path: Path) -> None:
    sent: Counter[tuple[str, int]] = Counter()
    async with (
        served(db_url, tmp_path / "one") as (one, c1),
        served(db_url, tmp_path / "two") as (two, c2),
    ):
        count_sends(one, sent)
        count_sends(two, sent)
        duel = await against_computer(c1, {"scenario": "duel", "opponent": {"computer": "cadet"}})
        final = await play_out(c2, duel, "A", seed=3)
    assert final["status"] == "finished"
    assert sent, "the computer played"
    assert max(sent.values()) == 1, [k for k, n in sent.items() if n > 1]
    await assert_replays(db_url, duel.game_id)


class FakeNow:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


async def test_a_dead_workers_turn_is_played_at_its_recorded_release(
    db_url: str, tmp_path: Path
) -> None:
    asked_at = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
    # a worker that is off plays nothing: the game waits with the computer's deployment due
    async with served(db_url, tmp_path / "off", computer=False) as (service, client):
        duel = await against_computer(
            client, {"scenario": "duel", "opponent": {"computer": "cadet"}}
        )
        seq = (await seat_view(client, duel, "A"))["seq"]
        # as a worker that died while it held the deployment leaves the row: asked, leased
        async with service.db.unit() as conn:
            await conn.execute(
                sa.update(computer_table)
                .where(computer_table.c.game_id == duel.game_id)
                .values(
                    asked_seq=seq,
                    asked_at=asked_at,
                    lease_owner="dead-worker",
                    lease_until=asked_at + timedelta(seconds=120),
                )
            )
    async with served(db_url, tmp_path / "on", computer_delay_scale=1, computer=False) as (
        service,
        client,
    ):
        now = FakeNow(asked_at + timedelta(seconds=1))
        waits: list[float] = []

        async def sleep(seconds: float) -> None:
            waits.append(seconds)
            now.at += timedelta(seconds=seconds)

        computer = service.computer
        computer.now, computer.sleep = now, sleep
        # the lease still holds: this worker leaves the turn alone
        assert await computer.run_pending() == 0
        now.at = asked_at + timedelta(seconds=121)  # the lease ran out
        assert await computer.run_pending() == 1
        await computer.idle()
        seen = await seat_view(client, duel, "A")
        assert "B" in seen["phase"]["deployed"]
        # released when first asked plus the deployment's delay: that was long ago
        assert waits == []
        assert seen["seq"] > seq


async def test_an_answer_waits_for_the_delay_of_its_kind(db_url: str, tmp_path: Path) -> None:
    async with served(db_url, tmp_path, computer_delay_scale=1, computer=False) as (
        service,
        client,
    ):
        start = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)
        now = FakeNow(start)
        waits: list[float] = []

        async def sleep(seconds: float) -> None:
            waits.append(seconds)
            now.at += timedelta(seconds=seconds)

        computer = service.computer
        computer.now, computer.sleep = now, sleep
        duel = await against_computer(
            client, {"scenario": "duel", "opponent": {"computer": "cadet"}}
        )
        assert await computer.run_pending() == 1
        await computer.idle()
        assert waits == [RELEASE_S["deploy"]]
        assert "B" in (await seat_view(client, duel, "A"))["phase"]["deployed"]
        # nothing is asked of the computer now (A's deployment is due): it waits, idle
        assert await computer.run_pending() == 1
        await computer.idle()
        assert await computer.run_pending() == 0
