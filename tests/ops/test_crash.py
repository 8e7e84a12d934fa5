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
import json
import math
import random
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select

from app.rules import Event, replay
from app.rules.snapshot import state_to_dict
from app.store.db import Database
from app.store.models import EventRow, Game
from tests.api.helpers import API, Duel, new_game
from tests.conftest import LiveServer
from tests.live import events_of, live_client

GAMES = 4
KILL_AFTER = 40  # acknowledged commands (all games together) before the crash
MAX_COMMANDS = 600  # per game, a bound for the bot loop (a duel needs far fewer)


@dataclass
class Ack:
    seat: str
    key: str
    body: dict[str, Any]
    response: dict[str, Any]

    @property
    def last_seq(self) -> int:
        events = self.response["events"]
        return int(events[-1]["seq"]) if events else int(self.response["view"]["seq"])


@dataclass
class Traffic:
    acks: dict[str, list[Ack]] = field(default_factory=dict)  # per game
    in_flight: int = 0

    def count(self) -> int:
        return sum(len(a) for a in self.acks.values())


class Bot:
    """Plays both seats of one game, each from its own view; only legal commands."""

    def __init__(self, duel: Duel, rng: random.Random, traffic: Traffic) -> None:
        self.duel = duel
        self.rng = rng
        self.traffic = traffic
        self.refusals: list[tuple[dict[str, Any], Any]] = []
        traffic.acks.setdefault(duel.game_id, [])

    async def get_view(self, client: httpx.AsyncClient, seat: str) -> dict[str, Any]:
        r = await client.get(self.duel.path, headers=self.duel.auth(seat))
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        return body

    async def send(self, client: httpx.AsyncClient, seat: str, body: dict[str, Any]) -> int:
        key = str(uuid.uuid4())
        self.traffic.in_flight += 1
        try:
            r = await client.post(
                f"{self.duel.path}/commands",
                json=body,
                headers={**self.duel.auth(seat), "Idempotency-Key": key},
            )
        finally:
            self.traffic.in_flight -= 1
        if r.status_code == 200:
            self.traffic.acks[self.duel.game_id].append(Ack(seat, key, body, r.json()))
        else:
            assert r.status_code in (409, 422), r.text  # refused: nothing applied
            self.refusals.append((body, r.json()))
        return r.status_code

    async def play(self, client: httpx.AsyncClient, limit: int = MAX_COMMANDS) -> bool:
        """Play until the game ends (True) or ``limit`` commands were sent."""
        for _ in range(limit):
            public = await self.get_view(client, "A")
            if public["status"] == "finished":
                return True
            awaiting = public["phase"]["awaiting"]
            assert awaiting, public["phase"]
            seat = self.rng.choice(sorted(awaiting))
            seen = await self.get_view(client, seat)
            for body in self.choices(seen, seat):
                if await self.send(client, seat, body) == 200:
                    break
            else:
                raise AssertionError(
                    f"no legal command for {seat}: {seen['phase']} {self.refusals[-8:]}"
                )
        return False

    # -- choosing from the view --------------------------------------------------------------
    def choices(self, seen: dict[str, Any], seat: str) -> list[dict[str, Any]]:
        """Candidate commands, best first; the bot sends them until one is accepted."""
        phase = seen["phase"]
        legal = phase["legal"]
        commands = legal["commands"]
        rng = self.rng
        if "deploy" in commands:
            zone = seen["deployment_zones"][seat]
            ships = []
            for ship, limits in sorted(legal["deploy"].items()):
                x = rng.uniform(zone["x0"] + 12, zone["x1"] - 12)
                y = rng.uniform(zone["y0"] + 1, zone["y1"] - 1)
                heading = 0 if seat == "A" else 6
                speed = rng.randint(0, min(2, limits["max_speed"]))
                ships.append(
                    {"ship": ship, "position": {"x": x, "y": y}, "heading": heading, "speed": speed}
                )
            return [{"type": "deploy", "ships": ships}]
        if "fire" in commands:
            options = legal["fire_options"]
            shots: list[dict[str, Any]] = []
            if options and rng.random() < 0.8:
                target = rng.choice(options)["target"]
                used = set()
                for option in options:
                    gun = (option["ship"], option["weapon"])
                    if option["target"] == target and gun not in used:
                        used.add(gun)
                        shots.append({k: option[k] for k in ("ship", "weapon", "target")})
            out = [{"type": "fire", "window": legal["window"], "shots": shots}]
            if shots:
                out.append({"type": "fire", "window": legal["window"], "shots": []})
            return out
        ship = phase["ship"] or rng.choice(legal.get("activatable") or [None])
        assert ship is not None, phase
        own = next(s for s in seen["ships"] if s["id"] == ship)
        if "activate" in commands and any(c["type"] == "out_of_control" for c in own["conditions"]):
            return [{"type": "activate", "ship": ship}]  # it can only drift
        moves = [{"type": "move", "ship": ship, "orders": o} for o in self.orders(seen, ship)]
        ping = {"type": "ping", "ship": ship}
        if "move" in commands:
            if "ping" in commands and rng.random() < 0.35:
                return [ping, *moves]
            return moves
        if "end_activation" in commands:
            end = {"type": "end_activation", "ship": ship}
            return [ping, end] if rng.random() < 0.35 else [end, ping]
        raise AssertionError(f"nothing to do for {seat}: {legal}")

    def orders(self, seen: dict[str, Any], ship_id: str) -> list[dict[str, Any]]:
        """Steer for the middle of the table at a modest speed; fall back on alternatives."""
        ship = next(s for s in seen["ships"] if s["id"] == ship_id)
        legal = seen["phase"]["legal"]
        limits = legal.get("order_limits") or legal.get("ship_limits", {}).get(ship_id) or {}
        max_turn = int(limits.get("max_turn", 1))
        max_change = int(limits.get("max_speed_change", 1))
        speed = int(limits.get("speed", ship.get("velocity") or 0))
        table = seen["table"]
        pos = ship["position"]
        dx, dy = table["width"] / 2 - pos["x"], table["height"] / 2 - pos["y"]
        want = round(math.degrees(math.atan2(dx, dy)) / 30) % 12
        turn = ((want - ship["heading"] + 6) % 12) - 6
        turn = max(-max_turn, min(max_turn, turn))
        change = max(-max_change, min(max_change, self.rng.randint(1, 4) - speed))
        out = [{"speed_change": change, "turn": turn}]
        for t in (turn, 0, max_turn, -max_turn):
            for c in (change, -min(speed, max_change), 0):
                orders = {"speed_change": c, "turn": t}
                if orders not in out:
                    out.append(orders)
        out.append({"speed_change": 0, "turn": 0, "leave": True})
        return out


async def check_log(db_url: str, game_ids: list[str]) -> dict[str, int]:
    """Seqs contiguous from 1; every snapshot is the replay of its events. Returns last seqs."""
    db = Database(db_url)
    last: dict[str, int] = {}
    try:
        async with db.session() as session, session.begin():
            for game_id in game_ids:
                game = await session.get(Game, game_id)
                assert game is not None
                rows = list(
                    await session.scalars(
                        select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq)
                    )
                )
                assert [r.seq for r in rows] == list(range(1, game.seq + 1)), game_id
                events = [Event(r.seq, r.turn, r.type, r.data) for r in rows]
                rebuilt = state_to_dict(replay(events))
                assert _norm(rebuilt) == _norm(game.snapshot), game_id
                last[game_id] = game.seq
    finally:
        await db.dispose()
    return last


def _norm(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


async def test_a_crash_loses_nothing_acknowledged(db_url: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    traffic = Traffic()
    server = await asyncio.to_thread(LiveServer(db_url, data).start)
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

    again = await asyncio.to_thread(LiveServer(db_url, data).start)
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
                    # the key answers the first answer again and applies nothing twice
                    r = await client.post(
                        f"{API}/games/{gid}/commands",
                        json=ack.body,
                        headers={**bot.duel.auth(ack.seat), "Idempotency-Key": ack.key},
                    )
                    assert r.status_code == 200, r.text
                    assert r.json() == ack.response
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
