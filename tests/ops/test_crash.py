"""A crash (SIGKILL) in the middle of play loses nothing acknowledged and half-applies nothing.

Bots play several games over HTTP with legal commands from their own views (``phase.legal``),
each command with an ``Idempotency-Key``. When enough commands are acknowledged and requests
are in flight, the server is killed. A new server on the same database must show: every
acknowledged command's events in the log, seqs contiguous from 1, each stored snapshot equal to
``app.rules.replay`` of the stored events, every acknowledged key answering its first answer
again — and play goes on to the end of every game.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx

from tests.api.helpers import new_game
from tests.conftest import LiveServer
from tests.live import events_of, live_client
from tests.ops.crashkit import Bot, Traffic, check_answers_again, check_log

GAMES = 4
KILL_AFTER = 40  # acknowledged commands (all games together) before the crash


async def test_a_crash_loses_nothing_acknowledged(db_url: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    traffic = Traffic()
    server = await asyncio.to_thread(LiveServer(db_url, data, PINGDUEL_RATE_LIMITS="off").start)
    bots: list[Bot] = []
    try:
        async with live_client(server.url) as client:
            for i in range(GAMES):
                duel = await new_game(client, {"scenario": "duel", "seed": f"{i + 1:02x}" * 32})
                bots.append(Bot(duel, random.Random(i), traffic))

            crashed = asyncio.Event()

            async def run(bot: Bot) -> None:
                try:
                    await bot.play(client)
                except httpx.TransportError:
                    if not crashed.is_set():
                        raise  # a real failure, not the crash

            async def crash() -> None:
                while traffic.count() < KILL_AFTER or traffic.in_flight < 2:
                    await asyncio.sleep(0.005)
                    assert traffic.count() < KILL_AFTER * 20, "never saw a request in flight"
                crashed.set()
                in_flight = traffic.in_flight
                await asyncio.to_thread(server.kill)  # the bots keep sending meanwhile
                assert in_flight >= 2
                print(f"crash after {traffic.count()} acknowledged, {in_flight} in flight")

            tasks = [asyncio.create_task(run(bot)) for bot in bots]
            await asyncio.wait_for(crash(), 120)
            await asyncio.wait_for(asyncio.gather(*tasks), 60)
    finally:
        server.kill()
    acked = traffic.count()
    assert acked >= KILL_AFTER

    game_ids = [bot.duel.game_id for bot in bots]
    at_crash = await check_log(db_url, game_ids)  # straight from the database, before a restart
    for gid in game_ids:
        seqs = [ack.last_seq for ack in traffic.acks[gid]]
        assert seqs == sorted(seqs) and all(seq <= at_crash[gid] for seq in seqs), gid

    again = await asyncio.to_thread(LiveServer(db_url, data, PINGDUEL_RATE_LIMITS="off").start)
    try:
        async with live_client(again.url) as client:
            for bot in bots:
                gid = bot.duel.game_id
                logs = {
                    seat: {e["seq"]: e for e in (await events_of(client, gid, token))["events"]}
                    for seat, token in bot.duel.tokens.items()
                }
                for ack in traffic.acks[gid]:
                    # every acknowledged event is in the log, as that seat saw it
                    for event in ack.response["events"]:
                        assert logs[ack.seat].get(event["seq"]) == event, (gid, event["seq"])
                # each key answers its first answer again and applies nothing twice
                await check_answers_again(client, bot.duel, traffic.acks[gid])
            # the replayed answers changed nothing
            assert await check_log(db_url, game_ids) == at_crash
            for bot in bots:
                seen = await bot.get_view(client, "A")
                assert seen["seq"] == at_crash[bot.duel.game_id]

            # play goes on: every game to its end
            for bot in bots:
                assert await bot.play(client), f"game {bot.duel.game_id} did not finish"
        final = await check_log(db_url, game_ids)
        print(f"{acked} acknowledged before the crash, {traffic.count()} in all; seqs {final}")
    finally:
        again.stop()
