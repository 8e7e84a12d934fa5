"""Streams survive their plumbing dying: every stream receives every seq once, none missing.

Two faults, each while a bot keeps playing (legal commands, each with an ``Idempotency-Key``)
and several streams of the game — both seats and a spectator — are open on each worker:

1. the LISTEN connections are killed from the database side (``pg_terminate_backend``), three
   times, while commands go on through both servers;
2. a worker process that holds some of the streams is SIGKILLed; its clients reconnect with
   ``Last-Event-ID`` to the same address (the other worker answers).

Each stream client is what a browser's EventSource does: on any break it reconnects, sending
the id of the last event it received. At the end every client must hold seqs 1…N exactly once
each, every event as its seat reads it from ``/events``. The servers re-check the log only every
30 s, so the streams keep up by hints (NOTIFY), not by the periodic re-check.
PostgreSQL whatever the selected backend (``pg_url``): LISTEN/NOTIFY is PostgreSQL's.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg

from tests.api.helpers import Duel, new_game
from tests.conftest import LiveServer, _psycopg_dsn
from tests.live import SseEvent, events_of, live_client, open_stream, scripted_game, step
from tests.live.test_workers import listening
from tests.ops.crashkit import Ack, Bot, Traffic, answer_again

# commands as fast as one address can send them: no rate limits (proven in tests/edge)
SLOW_RECHECK = {"PINGDUEL_STREAM_RECHECK": "30", "PINGDUEL_RATE_LIMITS": "off"}
CATCH_UP = 15.0  # seconds for every stream to reach the last seq: well below the re-check
SEATS = ("A", "B", None)  # None: a spectator


class Follower:
    """One stream client that reconnects with ``Last-Event-ID`` whenever its stream breaks."""

    def __init__(self, url: str, duel: Duel, seat: str | None) -> None:
        self.url = url
        self.duel = duel
        self.seat = seat
        self.events: list[SseEvent] = []
        self.client_port: int | None = None  # of the connection now open
        self.breaks = 0
        self.open = asyncio.Event()

    @property
    def last(self) -> int:
        return self.events[-1].seq if self.events else 0

    async def run(self) -> None:
        token = self.duel.tokens[self.seat] if self.seat else None
        while True:
            try:
                async with (
                    live_client(self.url) as client,
                    open_stream(
                        client, self.duel.game_id, token, last_event_id=self.last
                    ) as reader,
                ):
                    stream = reader.response.extensions["network_stream"]
                    self.client_port = int(stream.get_extra_info("client_addr")[1])
                    self.open.set()
                    while (item := await reader.next(timeout=30)) is not None:
                        if isinstance(item, SseEvent):
                            self.events.append(item)
            except httpx.TransportError:
                pass
            self.open.clear()
            self.breaks += 1
            await asyncio.sleep(0.1)


@asynccontextmanager
async def following(duel: Duel, urls: list[str], per_url: int) -> AsyncIterator[list[Follower]]:
    followers = [Follower(url, duel, SEATS[i % len(SEATS)]) for url in urls for i in range(per_url)]
    tasks = [asyncio.create_task(f.run()) for f in followers]
    try:
        await asyncio.wait_for(asyncio.gather(*(f.open.wait() for f in followers)), 30)
        yield followers
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def every_seq_once(client: httpx.AsyncClient, followers: list[Follower], last: int) -> None:
    """Every stream reaches ``last`` with seqs 1…last once each, as its seat reads the log."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + CATCH_UP
    while any(f.last < last for f in followers):
        behind = [(f.seat, f.last) for f in followers if f.last < last]
        assert loop.time() < deadline, f"streams behind {last}: {behind}"
        await asyncio.sleep(0.05)
    logs: dict[str | None, list[Any]] = {}
    for seat in SEATS:
        token = followers[0].duel.tokens[seat] if seat else None
        logs[seat] = (await events_of(client, followers[0].duel.game_id, token))["events"]
    for f in followers:
        assert [e.seq for e in f.events] == list(range(1, last + 1)), (f.seat, f.breaks)
        assert [e.json() for e in f.events] == logs[f.seat], f.seat


async def last_seq(client: httpx.AsyncClient, duel: Duel) -> int:
    return int((await events_of(client, duel.game_id, duel.tokens["A"]))["last_seq"])


class Player:
    """The bot's moves, one command at a time through the given servers in turn, until
    stopped. A command whose answer is lost to a dying worker is sent again with its key."""

    def __init__(self, duel: Duel, clients: list[httpx.AsyncClient]) -> None:
        self.traffic = Traffic()
        self.bot = Bot(duel, random.Random(14), self.traffic)
        self.clients = clients
        self.stop = asyncio.Event()
        self.commands = 0
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        turn = 0
        while not self.stop.is_set() and not self.bot.finished:
            client = self.clients[turn % len(self.clients)]
            turn += 1
            before = len(self.traffic.in_order)
            try:
                await self.bot.play(client, limit=1)
            except httpx.TransportError:
                await self._resolve(client)
            self.commands += len(self.traffic.in_order) - before
            await asyncio.sleep(0.02)

    async def _resolve(self, client: httpx.AsyncClient) -> None:
        while self.traffic.pending:
            sent = self.traffic.pending[0]
            try:
                r = await answer_again(client, self.bot.duel, sent)
            except httpx.TransportError:
                await asyncio.sleep(0.1)  # the dying worker again: a new connection next
                continue
            self.traffic.pending.pop(0)
            if r.status_code == 200:
                self.traffic.add(Ack(sent.game_id, sent.seat, sent.key, sent.body, r.json()))

    async def until(self, commands: int) -> None:
        while self.commands < commands and not self.bot.finished:
            if self.task is not None and self.task.done():
                self.task.result()  # the bot's failure, not a hang
            await asyncio.sleep(0.02)


@asynccontextmanager
async def playing(player: Player) -> AsyncIterator[Player]:
    task = player.task = asyncio.create_task(player.run())
    try:
        yield player
        player.stop.set()
        await asyncio.wait_for(task, 60)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def terminate_listeners(pg_url: str) -> list[int]:
    """The query the issue names, limited to this test's database."""
    with psycopg.connect(_psycopg_dsn(pg_url), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND query LIKE 'LISTEN%'"
        ).fetchall()
    return [int(row[0]) for row in rows if row[1]]


async def test_killed_listen_connections_lose_no_seq(pg_url: str, tmp_path: Path) -> None:
    one = await asyncio.to_thread(LiveServer(pg_url, tmp_path / "d1", **SLOW_RECHECK).start)
    two = await asyncio.to_thread(LiveServer(pg_url, tmp_path / "d2", **SLOW_RECHECK).start)
    try:
        async with live_client(one.url) as c1, live_client(two.url) as c2:
            listeners = await listening(pg_url, 2)
            duel = await new_game(c1, {"scenario": "duel", "seed": "14" * 32})
            async with following(duel, [one.url, two.url], per_url=4) as followers:
                async with playing(Player(duel, [c1, c2])) as player:
                    for round_ in range(1, 4):
                        await player.until(8 * round_)
                        killed = await asyncio.to_thread(terminate_listeners, pg_url)
                        assert sorted(killed) == listeners, "each server's LISTEN connection"
                        listeners = await listening(pg_url, 2, old=listeners)
                    await player.until(8 * 4)  # hints again after the last reconnect
                assert player.commands >= 8 * 4 or player.bot.finished
                await every_seq_once(c1, followers, await last_seq(c1, duel))
                assert all(f.breaks == 0 for f in followers)  # nothing cut the streams
    finally:
        one.stop()
        two.stop()


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rpartition(")")[2].split()[1]) == pid:
                    out.append(int(entry))
    return out


def _holder(pids: list[int], server_port: int, client_port: int) -> int | None:
    """Which process holds the server's end of the connection from ``client_port``."""
    inode = None
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = fields[1], fields[2]
        if int(local.split(":")[1], 16) == server_port and int(remote.split(":")[1], 16) == (
            client_port
        ):
            inode = fields[9]
    if inode is None:
        return None
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                        return pid
    return None


async def test_a_killed_worker_loses_no_seq(pg_url: str, tmp_path: Path) -> None:
    server = LiveServer(pg_url, tmp_path / "data", workers=2, **SLOW_RECHECK)
    await asyncio.to_thread(server.start)
    try:
        assert server.proc is not None
        await listening(pg_url, 2)  # both workers up
        async with live_client(server.url) as client:
            duel = await new_game(client, {"scenario": "duel", "seed": "15" * 32})
            async with following(duel, [server.url], per_url=8) as followers:
                workers = _children(server.proc.pid)
                held: dict[int, list[Follower]] = {}
                for f in followers:
                    assert f.client_port is not None
                    pid = _holder(workers, server.port, f.client_port)
                    assert pid is not None, "a stream's connection held by no worker"
                    held.setdefault(pid, []).append(f)
                # the worker with the most streams (the kernel may have given it all of them)
                victim, cut = max(held.items(), key=lambda item: len(item[1]))
                async with playing(Player(duel, [client])) as player:
                    await player.until(10)
                    os.kill(victim, signal.SIGKILL)
                    await player.until(30)  # play on through the surviving worker
                assert all(f.breaks >= 1 for f in cut)  # their streams were cut and resumed
                await every_seq_once(client, followers, await last_seq(client, duel))
    finally:
        server.stop()


async def test_an_event_committed_while_listen_is_down_arrives_when_it_is_back(
    pg_url: str, tmp_path: Path
) -> None:
    """A hint sent while a worker does not listen is lost to that worker: once it listens
    again its streams must re-read the log, not wait for the (30 s) re-check."""
    one = await asyncio.to_thread(LiveServer(pg_url, tmp_path / "d1", **SLOW_RECHECK).start)
    two = await asyncio.to_thread(LiveServer(pg_url, tmp_path / "d2", **SLOW_RECHECK).start)
    try:
        async with live_client(one.url) as c1, live_client(two.url) as c2:
            listeners = await listening(pg_url, 2)
            duel, _ = await scripted_game(c2)
            last = await last_seq(c1, duel)
            async with open_stream(c1, duel.game_id, duel.tokens["A"]) as reader:
                await reader.until(last)
                killed = await asyncio.to_thread(terminate_listeners, pg_url)
                assert sorted(killed) == listeners
                # at once: the listeners wait 0.2 s before they connect again
                posted = await step(c2, duel)
                event = await reader.event(timeout=CATCH_UP)
                assert event.seq == posted[0]["seq"] == last + 1
    finally:
        one.stop()
        two.stop()
