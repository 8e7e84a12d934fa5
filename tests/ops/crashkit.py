"""What the kill -9 proofs share: bots that play over HTTP, and the checks after a crash.

Used by ``tests/ops/test_crash.py`` (one crash), ``tests/ops/test_crash_kills.py`` (the CI run
of the proof, 10 kills) and ``scripts/proof_crash.py`` (the proof, 100 kills by default).

A bot plays both seats of one game, each from its own view, with legal commands read from
``phase.legal``, one command at a time and each with a fresh ``Idempotency-Key``. A command
whose answer never came (the server died under it) is kept as *pending*: after the restart it
is sent again with the same key, and the answer it then gets is its answer — the stored one if
it was committed before the crash, else a new one. Every key then has exactly one answer, and
the log must be exactly the game's set-up plus the events of those answers, each seq once.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select

from app.rules import Event, replay
from app.rules.snapshot import state_to_dict
from app.store.db import Database
from app.store.models import EventRow, Game, OutboxRow
from tests.api.helpers import API, Duel, new_game
from tests.conftest import LiveServer
from tests.live import live_client

MAX_COMMANDS = 600  # per game, a bound for the bot loop (a duel needs far fewer)


@dataclass
class Ack:
    """A command that got its 200 answer (``after_crash``: only when sent again after one)."""

    game_id: str
    seat: str
    key: str
    body: dict[str, Any]
    response: dict[str, Any]
    after_crash: bool = False

    @property
    def seqs(self) -> list[int]:
        return [int(e["seq"]) for e in self.response["events"]]

    @property
    def last_seq(self) -> int:
        seqs = self.seqs
        return seqs[-1] if seqs else int(self.response["view"]["seq"])


@dataclass
class Pending:
    """A command sent whose answer never came: applied or not, nobody knows yet."""

    game_id: str
    seat: str
    key: str
    body: dict[str, Any]


@dataclass
class Traffic:
    acks: dict[str, list[Ack]] = field(default_factory=dict)  # per game
    pending: list[Pending] = field(default_factory=list)
    in_flight: int = 0  # commands sent and not answered yet
    in_order: list[Ack] = field(default_factory=list)  # every ack, as they came

    def add(self, ack: Ack) -> None:
        self.acks.setdefault(ack.game_id, []).append(ack)
        self.in_order.append(ack)

    def count(self) -> int:
        return sum(len(a) for a in self.acks.values())


class Bot:
    """Plays both seats of one game, each from its own view; only legal commands."""

    def __init__(self, duel: Duel, rng: random.Random, traffic: Traffic) -> None:
        self.duel = duel
        self.rng = rng
        self.traffic = traffic
        self.refusals: list[tuple[dict[str, Any], Any]] = []
        self.setup_seq: int | None = None  # the game's seq before the bot's first command
        self.finished = False
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
        except httpx.TransportError:
            self.traffic.pending.append(Pending(self.duel.game_id, seat, key, body))
            raise
        finally:
            self.traffic.in_flight -= 1
        if r.status_code == 200:
            self.traffic.add(Ack(self.duel.game_id, seat, key, body, r.json()))
        else:
            assert r.status_code in (409, 422), r.text  # refused: nothing applied
            self.refusals.append((body, r.json()))
        return r.status_code

    async def play(self, client: httpx.AsyncClient, limit: int = MAX_COMMANDS) -> bool:
        """Play until the game ends (True) or ``limit`` commands were sent."""
        for _ in range(limit):
            public = await self.get_view(client, "A")
            if self.setup_seq is None:
                self.setup_seq = int(public["seq"])
            if public["status"] == "finished":
                self.finished = True
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


# -- checks ------------------------------------------------------------------------------------
async def check_log(db_url: str, game_ids: list[str]) -> dict[str, int]:
    """Seqs contiguous from 1; every snapshot is the replay of its events. Returns last seqs.

    Read straight from the database (one repeatable-read transaction, so that the game rows
    and their events agree), not through a server."""
    db = Database(db_url)
    last: dict[str, int] = {}
    try:
        async with db.session() as session, session.begin():
            if db.postgres:
                await session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
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


async def seat_log(client: httpx.AsyncClient, game_id: str, token: str) -> dict[int, Any]:
    """The whole log of a game as one seat receives it, by seq (every page of it)."""
    out: dict[int, Any] = {}
    after = 0
    while True:
        r = await client.get(
            f"{API}/games/{game_id}/events",
            params={"after": after},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200, r.text
        page = r.json()
        for event in page["events"]:
            out[int(event["seq"])] = event
        if not page["events"] or page["events"][-1]["seq"] >= page["last_seq"]:
            return out
        after = int(page["events"][-1]["seq"])


async def answer_again(
    client: httpx.AsyncClient, duel: Duel, sent: Ack | Pending
) -> httpx.Response:
    """The same command sent again with the same key."""
    return await client.post(
        f"{API}/games/{sent.game_id}/commands",
        json=sent.body,
        headers={**duel.auth(sent.seat), "Idempotency-Key": sent.key},
    )


async def check_answers_again(client: httpx.AsyncClient, duel: Duel, acks: list[Ack]) -> None:
    """Every acknowledged key answers its first answer again (and so applies nothing twice)."""
    for ack in acks:
        r = await answer_again(client, duel, ack)
        assert r.status_code == 200, (ack.game_id, ack.key, r.text)
        assert r.json() == ack.response, (ack.game_id, ack.key)


async def check_game_accounted(
    client: httpx.AsyncClient, bot: Bot, last_seq: int
) -> dict[str, dict[int, Any]]:
    """The log is the game's set-up and then the events of the acknowledged commands, each seq
    once: none lost, none applied twice, nothing applied that no key answered for. Every
    acknowledged event is in the log as that seat received it. Returns the seats' logs."""
    gid = bot.duel.game_id
    logs = {seat: await seat_log(client, gid, token) for seat, token in bot.duel.tokens.items()}
    for seat, log in logs.items():
        assert sorted(log) == list(range(1, last_seq + 1)), (gid, seat)
    acks = bot.traffic.acks[gid]
    for ack in acks:
        for event in ack.response["events"]:
            assert logs[ack.seat].get(int(event["seq"])) == event, (gid, event["seq"])
    setup = bot.setup_seq if bot.setup_seq is not None else last_seq  # no command sent yet
    covered = list(range(1, setup + 1))
    for ack in acks:
        covered.extend(ack.seqs)
    assert sorted(covered) == list(range(1, last_seq + 1)), (gid, "log != set-up + answers")
    return logs


# -- the proof: many kills on one database -----------------------------------------------------
@dataclass
class Kill:
    number: int
    acked: int  # commands acknowledged since the server before this one became ready
    unanswered: int  # commands sent whose answer never came (the server died under them)
    committed: int  # of those: committed before the crash (their stored answer came back)
    ready_seconds: float  # from the new server's start until its /readyz answered 200


class CrashProof:
    """``kills`` times: let the bots play for a random moment, SIGKILL the server while a
    command is in flight, start a new one on the same database, check everything, go on.

    The bots are parked while the server is down and while the checks run, so that the
    checks see a still log; each new server gets a new port, so that no request meant for a
    dead server reaches its successor in the middle of the checks."""

    def __init__(
        self,
        db_url: str,
        data_dir: Path,
        *,
        games: int = 4,
        workers: int = 1,
        seed: int = 0,
        window: tuple[float, float] = (0.1, 1.5),
        say: Callable[[str], None] = print,
    ) -> None:
        self.db_url = db_url
        self.data_dir = data_dir
        self.games = games
        self.workers = workers
        self.seed = seed
        self.window = window
        self.say = say
        self.rng = random.Random(seed)
        self.traffic = Traffic()
        self.bots: dict[str, Bot] = {}  # by game id
        self.up = asyncio.Event()
        self.done = False
        self.parked = 0
        self.server: LiveServer | None = None
        self.client: httpx.AsyncClient | None = None
        self.tasks: list[asyncio.Task[None]] = []

    # -- the run -----------------------------------------------------------------------------
    async def run(self, kills: int) -> list[Kill]:
        report: list[Kill] = []
        await self._start()
        try:
            self.tasks = [asyncio.create_task(self._player(i)) for i in range(self.games)]
            self.up.set()
            for number in range(1, kills + 1):
                report.append(await self._kill_and_check(number))
                self.up.set()
            self.done = True
            await asyncio.wait_for(asyncio.gather(*self.tasks), 60)
            await self._final_check()
        except BaseException:
            if self.server is not None:
                self.say(f"== the server's stderr (end) ==\n{self.server.log_tail()}")
            raise
        finally:
            self.done = True
            self.up.set()
            for task in self.tasks:
                task.cancel()
            await asyncio.gather(*self.tasks, return_exceptions=True)
            await self._stop()
        return report

    async def _kill_and_check(self, number: int) -> Kill:
        mark = len(self.traffic.in_order)
        await self._sleep(self.rng.uniform(*self.window))
        await self._command_in_flight()
        assert self.server is not None
        self.up.clear()  # from now on a transport error is the crash, not a failure
        await asyncio.to_thread(self.server.kill)
        await self._all_parked()
        acked = len(self.traffic.in_order) - mark
        ready = await self._start()
        unanswered, committed = await self._resolve_pending()
        await self._check_since(mark)
        kill = Kill(number, acked, unanswered, committed, ready)
        self.say(
            f"kill {number:3}: {acked:3} acknowledged, {unanswered} unanswered"
            f" ({committed} committed before the crash); ready again in {ready:.2f} s"
        )
        return kill

    # -- the bots ----------------------------------------------------------------------------
    async def _player(self, slot: int) -> None:
        rng = random.Random(f"{self.seed}-{slot}")
        bot: Bot | None = None
        while not self.done:
            if not self.up.is_set():
                self.parked += 1
                await self.up.wait()
                self.parked -= 1
                continue
            client = self.client
            assert client is not None
            try:
                if bot is None or bot.finished:
                    bot = await self._new_bot(client, rng)
                await bot.play(client, limit=1)
            except httpx.TransportError:
                if self.up.is_set():
                    raise  # the server is meant to be up: a real failure

    async def _new_bot(self, client: httpx.AsyncClient, rng: random.Random) -> Bot:
        seed = f"{rng.getrandbits(256):064x}"
        duel = await new_game(client, {"scenario": "duel", "seed": seed})
        bot = Bot(duel, rng, self.traffic)
        self.bots[duel.game_id] = bot
        return bot

    async def _sleep(self, seconds: float) -> None:
        """Sleep while the bots play; a bot that failed fails the run at once."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while loop.time() < deadline:
            self._raise_if_a_bot_failed()
            await asyncio.sleep(0.01)

    async def _command_in_flight(self, timeout: float = 10.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.traffic.in_flight == 0:
            assert loop.time() < deadline, "no command in flight to kill the server under"
            await self._sleep(0.002)

    async def _all_parked(self, timeout: float = 30.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.parked < self.games:
            assert loop.time() < deadline, "a bot did not notice the crash"
            await self._sleep(0.005)

    def _raise_if_a_bot_failed(self) -> None:
        for task in self.tasks:
            if task.done():
                task.result()  # raises what the bot met
                raise AssertionError("a bot stopped playing")

    # -- the server --------------------------------------------------------------------------
    async def _start(self) -> float:
        await self._stop()
        # a new free port each time; SIGKILL goes to the whole process group (every worker)
        # a load test from one address: the rate limits would refuse its bots (they are
        # proven apart, in tests/edge and scripts/proof_flood.py)
        server = LiveServer(
            self.db_url, self.data_dir, workers=self.workers, PINGDUEL_RATE_LIMITS="off"
        )
        started = time.monotonic()
        self.server = await asyncio.to_thread(server.start, 60.0)
        ready = time.monotonic() - started
        self.client = live_client(server.url)
        return ready

    async def _stop(self) -> None:
        if self.client is not None:
            await self.client.aclose()
            self.client = None
        if self.server is not None:
            await asyncio.to_thread(self.server.stop)  # a killed one is already gone
            self.server = None

    # -- the checks --------------------------------------------------------------------------
    async def _resolve_pending(self) -> tuple[int, int]:
        """Send every unanswered command again with its key: its answer now is its answer.
        Returns how many there were and how many had been committed before the crash."""
        assert self.client is not None
        pending, self.traffic.pending = self.traffic.pending, []
        at_crash = await check_log(self.db_url, sorted({p.game_id for p in pending}))
        committed = 0
        for sent in pending:
            r = await answer_again(self.client, self.bots[sent.game_id].duel, sent)
            if r.status_code != 200:
                assert r.status_code in (409, 422), r.text  # refused now: never applied
                continue
            ack = Ack(sent.game_id, sent.seat, sent.key, sent.body, r.json(), after_crash=True)
            self.traffic.add(ack)
            if ack.seqs and ack.seqs[0] <= at_crash[sent.game_id]:
                committed += 1
        return len(pending), committed

    async def _check_since(self, mark: int) -> None:
        """The acks since ``mark`` answer their first answer again; the games they touched
        (and every game in play) are contiguous, replay to their snapshots and are accounted
        for to the last seq."""
        assert self.client is not None
        fresh = self.traffic.in_order[mark:]
        touched = {a.game_id for a in fresh} | {
            gid for gid, bot in self.bots.items() if not bot.finished
        }
        for ack in fresh:
            await check_answers_again(self.client, self.bots[ack.game_id].duel, [ack])
        last = await check_log(self.db_url, sorted(touched))
        for gid in sorted(touched):
            await check_game_accounted(self.client, self.bots[gid], last[gid])

    async def _final_check(self) -> None:
        """Every key of the whole run answers its first answer; every game accounted for."""
        assert self.client is not None
        for ack in self.traffic.in_order:
            await check_answers_again(self.client, self.bots[ack.game_id].duel, [ack])
        last = await check_log(self.db_url, sorted(self.bots))
        for gid, bot in sorted(self.bots.items()):
            await check_game_accounted(self.client, bot, last[gid])

    def finished_games(self) -> int:
        return sum(bot.finished for bot in self.bots.values())


# -- the proof under due work: deadlines and notifications -------------------------------------
CLOCK = {"kind": "live", "initial_s": 60, "increment_s": 60}  # a timeout leaves 60 s again
FINAL_STATES = ("sent", "skipped", "dropped", "failed")


class Receiver:
    """A webhook receiver in the test process: answers 200 and records every delivery as
    (game_id, seat, seq, event), the seat read from the path its URL was given."""

    def __init__(self) -> None:
        import http.server
        import threading

        self.deliveries: list[tuple[str, str, int, str]] = []
        lock = threading.Lock()
        seen = self.deliveries

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                seat = self.path.rstrip("/").rpartition("/")[2]
                with lock:
                    seen.append((body["game_id"], seat, int(body["seq"]), body["event"]))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, game_id: str, seat: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook/{game_id}/{seat}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@dataclass
class DueKill:
    number: int
    due_deadlines: int  # games whose deadline had passed, unapplied, at the kill
    queued: int  # outbox rows queued (due or leased) at the kill
    leased: int  # of those: leased by the server that was killed
    ready_seconds: float


@dataclass
class DueReport:
    kills: list[DueKill]
    games: int
    finished: int
    timeouts: int  # timed_out events in the logs, each a deadline the harness made due
    rows: dict[str, int]  # outbox rows by final state
    delivered: int  # deliveries the receiver got
    twice: int  # (game, seat, seq, event) delivered more than once


class DueCrashProof:
    """``kills`` times: SIGKILL the server while deadlines and notifications are due, start a
    new one on the same database; at the end every due deadline applied exactly once and every
    notification sent at least once (the count sent twice is reported).

    Nobody sends a command: clocked games (both seats with a webhook to ``Receiver``, no page
    or stream open, so every notification is due) move only by their timeouts. The harness
    acts as the operator on the database: to make a deadline due without waiting out the
    60 s minimum clock, it sets the running sides' time left to 0 as of a second ago and
    ``games.deadline`` to then, under the row's lock, as ``app.play.clock_math`` would have
    left them had the time passed; and after each kill it lets the dead server's outbox
    leases run out at once (``lease_until`` = now, as after ``app.play.sender.LEASE``), which
    is what waiting would do, since nothing of the dead server still holds them."""

    def __init__(
        self,
        db_url: str,
        data_dir: Path,
        *,
        games: int = 4,
        seed: int = 0,
        window: tuple[float, float] = (0.2, 1.5),
        say: Callable[[str], None] = print,
    ) -> None:
        self.db_url = db_url
        self.data_dir = data_dir
        self.games = games
        self.window = window
        self.say = say
        self.rng = random.Random(seed)
        self.db = Database(db_url)
        self.receiver = Receiver()
        self.duels: dict[str, Duel] = {}
        self.made_due: list[tuple[str, str, str, int]] = []  # (game, side, key, turn)
        self.server: LiveServer | None = None
        self.client: httpx.AsyncClient | None = None
        self.stop_expiring = False
        self.expirer: asyncio.Task[None] | None = None

    async def run(self, kills: int) -> DueReport:
        report: list[DueKill] = []
        await self._start()
        expirer = self.expirer = asyncio.create_task(self._expire_forever())
        try:
            await self._top_up()
            for number in range(1, kills + 1):
                report.append(await self._kill(number))
                await self._top_up()
            self.stop_expiring = True
            await expirer
            await self._settle()
            return await self._check(report)
        except BaseException:
            if self.server is not None:
                self.say(f"== the server's stderr (end) ==\n{self.server.log_tail()}")
            raise
        finally:
            self.stop_expiring = True
            expirer.cancel()
            await asyncio.gather(expirer, return_exceptions=True)
            await self._stop()
            self.receiver.close()
            await self.db.dispose()

    # -- the server --------------------------------------------------------------------------
    async def _start(self) -> float:
        await self._stop()
        server = LiveServer(
            self.db_url,
            self.data_dir,
            PINGDUEL_RATE_LIMITS="off",
            PINGDUEL_WEBHOOK_ALLOW_PRIVATE="1",  # the receiver is on this machine
            PINGDUEL_CLOCK_POLL="0.1",
            PINGDUEL_NOTIFY_POLL="0.1",
        )
        started = time.monotonic()
        self.server = await asyncio.to_thread(server.start, 60.0)
        ready = time.monotonic() - started
        self.client = live_client(server.url)
        return ready

    async def _stop(self) -> None:
        if self.client is not None:
            await self.client.aclose()
            self.client = None
        if self.server is not None:
            await asyncio.to_thread(self.server.stop)
            self.server = None

    async def _top_up(self) -> None:
        """New clocked games until ``games`` are in play, each seat with its webhook."""
        assert self.client is not None
        async with self.db.session() as session:
            active = set(
                await session.scalars(
                    select(Game.id).where(Game.id.in_(list(self.duels)), Game.status != "finished")
                )
            )
        for _ in range(self.games - len(active)):
            seed = f"{self.rng.getrandbits(256):064x}"
            duel = await new_game(self.client, {"scenario": "duel", "seed": seed, "clock": CLOCK})
            for seat in ("A", "B"):
                r = await self.client.post(
                    f"{duel.path}/notify",
                    json={"webhook": self.receiver.url(duel.game_id, seat)},
                    headers=duel.auth(seat),
                )
                assert r.status_code == 200, r.text
            self.duels[duel.game_id] = duel

    # -- the operator's hand: deadlines due now ----------------------------------------------
    async def _expire_forever(self) -> None:
        while not self.stop_expiring:
            for game_id in list(self.duels):
                await self._expire(game_id)
            await asyncio.sleep(self.rng.uniform(0.05, 0.3))

    async def _expire(self, game_id: str) -> None:
        """The running sides' time out a second ago, if the game's deadline is still ahead (one
        made due and not applied yet is left alone: applied once, it gets a new one)."""
        from datetime import UTC, datetime, timedelta

        now = datetime.now(UTC)
        async with self.db.session() as session, session.begin():
            game = await session.get(Game, game_id, with_for_update=True)
            assert game is not None
            clock = game.clock
            if game.status != "active" or game.paused or clock is None or game.deadline is None:
                return
            if game.deadline <= now:
                return
            clock = json.loads(json.dumps(clock))
            gone = now - timedelta(seconds=1)
            for side, held in sorted(clock["sides"].items()):
                if held["since"] is not None:
                    held["left"], held["since"] = 0.0, gone.isoformat()
                    self.made_due.append((game_id, side, held["key"], int(game.snapshot["turn"])))
            clock["deadline"] = gone.isoformat()
            game.clock = clock
            game.deadline = gone

    # -- the kills ---------------------------------------------------------------------------
    async def _due_now(self) -> tuple[int, int, int]:
        from datetime import UTC, datetime

        from sqlalchemy import func

        now = datetime.now(UTC)
        async with self.db.session() as session:
            due = await session.scalar(
                select(func.count())
                .select_from(Game)
                .where(Game.status == "active", Game.deadline <= now)
            )
            queued = await session.scalar(
                select(func.count()).select_from(OutboxRow).where(OutboxRow.state == "queued")
            )
            leased = await session.scalar(
                select(func.count())
                .select_from(OutboxRow)
                .where(OutboxRow.state == "queued", OutboxRow.lease_until > now)
            )
        return int(due or 0), int(queued or 0), int(leased or 0)

    async def _kill(self, number: int) -> DueKill:
        await asyncio.sleep(self.rng.uniform(*self.window))
        loop = asyncio.get_running_loop()
        give_up = loop.time() + 10
        while True:  # a moment with work due: a deadline not applied or a row not sent
            due, queued, leased = await self._due_now()
            if due or queued:
                break
            assert loop.time() < give_up, "nothing due to kill the server under"
            if self.expirer is not None and self.expirer.done():
                self.expirer.result()  # raises what stopped it
            await self._top_up()  # the games may all have finished meanwhile
            await asyncio.sleep(0.005)
        assert self.server is not None
        await asyncio.to_thread(self.server.kill)
        await self._lapse_leases()
        ready = await self._start()
        kill = DueKill(number, due, queued, leased, ready)
        self.say(
            f"kill {number:3}: {due} deadline(s) due, {queued} notification(s) queued"
            f" ({leased} leased); ready again in {ready:.2f} s"
        )
        return kill

    async def _lapse_leases(self) -> None:
        from datetime import UTC, datetime

        from sqlalchemy import update

        now = datetime.now(UTC)
        async with self.db.session() as session, session.begin():
            await session.execute(
                update(OutboxRow)
                .where(OutboxRow.state == "queued", OutboxRow.lease_until > now)
                .values(lease_until=now)
            )

    # -- the end -----------------------------------------------------------------------------
    async def _settle(self, timeout: float = 60.0) -> None:
        """Wait (the last server up) until no deadline is due and no row is queued."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + timeout
        while True:
            due, queued, _ = await self._due_now()
            if not due and not queued:
                return
            assert loop.time() < give_up, f"still due: {due} deadline(s), {queued} row(s)"
            await asyncio.sleep(0.05)

    async def _check(self, kills: list[DueKill]) -> DueReport:
        from collections import Counter

        from app.rules.timeouts import decision_key

        game_ids = sorted(self.duels)
        await check_log(self.db_url, game_ids)  # gapless, every snapshot the replay of its log
        applied: list[tuple[str, str, str, int]] = []
        ended: dict[str, int] = {}  # finished games: their last turn
        async with self.db.session() as session:
            finished = 0
            for game_id in game_ids:
                rows = list(
                    await session.scalars(
                        select(EventRow).where(EventRow.game_id == game_id).order_by(EventRow.seq)
                    )
                )
                events = [Event(r.seq, r.turn, r.type, r.data) for r in rows]
                for i, event in enumerate(events):
                    if event.type == "timed_out":
                        before = replay(events[:i])
                        side = str(event.data["side"])
                        key = decision_key(before, side)
                        assert key is not None, (game_id, event.seq, "a side not awaited")
                        applied.append((game_id, side, key, before.turn))
                if any(e.type == "game_finished" for e in events):
                    finished += 1
                    ended[game_id] = events[-1].turn
            outbox = list(await session.scalars(select(OutboxRow)))
        # every deadline made due was applied, and exactly once
        twice_applied = [d for d, n in Counter(applied).items() if n > 1]
        assert not twice_applied, twice_applied
        # a timeout that ends the game leaves the other side's deadline of that moment unplayed
        expected = Counter(d for d in self.made_due if d in applied or ended.get(d[0]) != d[3])
        assert Counter(applied) == expected, (
            sorted(set(expected) - set(applied)),
            sorted(set(applied) - set(expected)),
        )
        # every notification sent, none lost; duplicates only from a send cut by a kill
        states = Counter(row.state for row in outbox)
        assert set(states) <= set(FINAL_STATES), states
        assert states == {"sent": len(outbox)}, states  # nobody online, the receiver says 200
        wanted = Counter((r.game_id, r.seat, r.seq, r.event) for r in outbox)
        assert max(wanted.values(), default=1) == 1, "one row per seat, seq and event"
        got = Counter(self.receiver.deliveries)
        lost = set(wanted) - set(got)
        assert not lost, sorted(lost)
        assert not set(got) - set(wanted), "a delivery no outbox row asked for"
        twice = sum(1 for n in got.values() if n > 1)
        return DueReport(
            kills=kills,
            games=len(game_ids),
            finished=finished,
            timeouts=len(applied),
            rows=dict(states),
            delivered=len(self.receiver.deliveries),
            twice=twice,
        )
