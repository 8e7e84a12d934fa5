"""API benchmark on PostgreSQL: our server against a bare one-transaction endpoint.

Prints numbers; asserts nothing (not a test). In one run it:

1. creates a fresh database on the PostgreSQL server (default 127.0.0.1:5432, user postgres),
2. starts ``pingduel serve`` on it (migrations first) on a free port and drives ``--games``
   concurrent games with simple bots over HTTP for ``--seconds``: each bot plays both seats of
   its game with legal commands read from ``phase.legal`` (deploy in the zone, activate, ping
   or move steering towards the table's centre, fire with the offered ``fire_options``, end
   activations); a finished game (turn limit, resignation) is replaced by a new one,
3. starts a bare ASGI endpoint (a tiny Starlette app under uvicorn, same worker count, same
   pool size) that does one PostgreSQL transaction per request, shaped like a command's —
   lock a game row, insert an event ``RETURNING`` its id, update the row — and drives it with
   the same concurrency,
4. prints requests/s, p50 and p99 latency of each, the ratio ours/bare and where the CPU
   went, then drops the database.

    .venv/bin/python scripts/bench_api.py --workers 2 --games 50 --seconds 20

``--rounds N`` keeps both servers up and alternates them N times, the measured seconds split
between the rounds, so that background load on a shared machine falls on both alike.

Targets to report against (not asserted): at least 50% of the bare throughput, p99 < 50 ms at
50 concurrent games on 2 cores. Client, servers and PostgreSQL share this machine's cores, so
the client's own CPU share is printed too. ``--profile out.prof`` runs our server with one
worker under cProfile, timed by the process's CPU clock (not the wall clock: on a busy machine
that charges the sends that wake PostgreSQL for the wait for a core), and prints its top functions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
API = "/api/v1"
PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


# -- processes and databases -------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _dsn(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def create_database(server_url: str) -> str:
    import psycopg

    name = f"pingduel_bench_{secrets.token_hex(4)}"
    with psycopg.connect(_dsn(server_url), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server_url.rpartition('/')[0]}/{name}"


def drop_database(server_url: str, url: str) -> None:
    import psycopg

    name = url.rpartition("/")[2]
    with psycopg.connect(_dsn(server_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def prepare_bare_tables(url: str, games: int) -> None:
    import psycopg

    with psycopg.connect(_dsn(url), autocommit=True) as conn:
        conn.execute("CREATE TABLE bench_games (id integer PRIMARY KEY, seq integer NOT NULL)")
        conn.execute(
            "CREATE TABLE bench_events (id bigserial PRIMARY KEY, game_id integer NOT NULL,"
            " seq integer NOT NULL, data jsonb NOT NULL, UNIQUE (game_id, seq))"
        )
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO bench_games (id, seq) VALUES (%s, 0)", [(k,) for k in range(games)]
            )


class Server:
    """A server subprocess in its own process group, on a free port of 127.0.0.1."""

    def __init__(self, argv: list[str], env: dict[str, str], ready_path: str) -> None:
        self.port = free_port()
        self.argv = [a.replace("{port}", str(self.port)) for a in argv]
        self.env = env
        self.ready_path = ready_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 (lives as long as the server)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> Server:
        import httpx

        self.proc = subprocess.Popen(
            self.argv,
            cwd=ROOT,
            env={**os.environ, **self.env},
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited:\n{self.output()[-3000:]}")
            try:
                if httpx.get(self.url + self.ready_path, timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server not ready:\n{self.output()[-3000:]}")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGINT)  # uvicorn's graceful stop (cProfile dumps)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


# -- CPU accounting (from /proc: who used the shared cores) ------------------------------------
def _cpu_seconds() -> dict[str, float]:
    """CPU seconds so far of this client, the server process groups and PostgreSQL."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {"postgres": 0.0}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                raw = f.read()
        except OSError:
            continue
        comm = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2 :].split()
        pgrp, used = int(fields[2]), (int(fields[11]) + int(fields[12])) / tick
        if comm == "postgres":
            out["postgres"] += used
        key = f"pgrp:{pgrp}"
        out[key] = out.get(key, 0.0) + used
    out["client"] = time.process_time()
    return out


# -- measuring ---------------------------------------------------------------------------------
@dataclass
class Stats:
    start: float = 0.0
    end: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=dict)
    statuses: dict[str, dict[int, int]] = field(default_factory=dict)
    games_finished: int = 0
    wall: float = 0.0  # seconds the whole drive took
    total: int = 0  # every request, warm-up and wind-down included (for CPU per request)

    def measuring(self, now: float) -> bool:
        return self.start <= now <= self.end

    def merge(self, other: Stats) -> None:
        """Add another round's figures to these."""
        for kind, values in other.latencies.items():
            self.latencies.setdefault(kind, []).extend(values)
        for kind, counts in other.statuses.items():
            mine = self.statuses.setdefault(kind, {})
            for status, n in counts.items():
                mine[status] = mine.get(status, 0) + n
        self.games_finished += other.games_finished
        self.wall += other.wall
        self.total += other.total

    def record(self, kind: str, started: float, status: int) -> None:
        now = time.perf_counter()
        self.total += 1
        if self.measuring(now):
            self.latencies.setdefault(kind, []).append(now - started)
            counts = self.statuses.setdefault(kind, {})
            counts[status] = counts.get(status, 0) + 1


def pct(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the bots ----------------------------------------------------------------------------------
class Refused(Exception):
    pass


class Bot:
    """Plays both seats of one game at a time, one request in flight, with legal commands."""

    def __init__(self, client: Any, stats: Stats, stop: asyncio.Event, index: int) -> None:
        self.client = client
        self.stats = stats
        self.stop = stop
        self.rng = random.Random(index)

    async def call(self, kind: str, method: str, path: str, **kw: Any) -> Any:
        started = time.perf_counter()
        r = await self.client.request(method, API + path, **kw)
        self.stats.record(kind, started, r.status_code)
        await think()
        if r.status_code >= 500:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        if r.status_code >= 400:
            raise Refused(f"{r.status_code} {r.text[:200]}")
        return r.json()

    async def run(self) -> None:
        while not self.stop.is_set():
            try:
                await self.play()
            except Refused:
                continue  # a refusal we did not expect: start a new game

    async def play(self) -> None:
        made = await self.call(
            "create", "POST", "/games", json={"scenario": "duel", "turn_limit": 4}
        )
        claimed = await self.call(
            "claim", "POST", f"/invites/{made['invites']['B']}/claim", json={}
        )
        game = made["game_id"]
        auth = {
            "A": {"Authorization": f"Bearer {made['token']}"},
            "B": {"Authorization": f"Bearer {claimed['token']}"},
        }
        views: dict[str, dict[str, Any]] = {}
        latest = await self.call("view", "GET", f"/games/{game}", headers=auth["A"])
        views["A"] = latest
        refusals = 0
        cautious = False
        while not self.stop.is_set():
            if latest["status"] == "finished":
                self.stats.games_finished += 1
                return
            awaiting = latest["phase"]["awaiting"]
            if not awaiting:
                return
            seat = self.rng.choice(awaiting)
            seen = views.get(seat)
            if seen is None or seen["seq"] != latest["seq"]:
                seen = await self.call("view", "GET", f"/games/{game}", headers=auth[seat])
                views[seat] = seen
            body = self.choose(seen, seat, cautious, refusals)
            try:
                out = await self.call(
                    "command", "POST", f"/games/{game}/commands", json=body, headers=auth[seat]
                )
            except Refused:
                refusals += 1
                cautious = body["type"] == "move"
                views.pop(seat, None)
                if refusals > 6:
                    await self.call(
                        "command",
                        "POST",
                        f"/games/{game}/commands",
                        json={"type": "resign"},
                        headers=auth[seat],
                    )
                    self.stats.games_finished += 1
                    return
                continue
            refusals, cautious = 0, False
            latest = views[seat] = out["view"]

    def choose(
        self, view: dict[str, Any], seat: str, cautious: bool, refusals: int
    ) -> dict[str, Any]:
        phase = view["phase"]
        legal = phase["legal"]
        commands = legal["commands"]
        own = {s["id"]: s for s in view["ships"] if s["side"] == seat}
        table = view["table"]
        if "deploy" in commands:
            zone = view["deployment_zones"][seat]
            placements = []
            for i, (ship, limits) in enumerate(sorted(legal["deploy"].items())):
                x = zone["x0"] + (zone["x1"] - zone["x0"]) * (i + 1) / (len(legal["deploy"]) + 1)
                y = (zone["y0"] + zone["y1"]) / 2
                heading = 0 if y < table["height"] / 2 else 6
                speed = min(2, limits["max_speed"])
                placements.append(
                    {"ship": ship, "position": {"x": x, "y": y}, "heading": heading, "speed": speed}
                )
            return {"type": "deploy", "ships": placements}
        if "fire" in commands:
            shots, used = [], set()
            for option in legal.get("fire_options", []):
                key = (option["ship"], option["weapon"])
                if key not in used:
                    used.add(key)
                    shots.append({k: option[k] for k in ("ship", "weapon", "target")})
            return {"type": "fire", "window": legal["window"], "shots": shots}
        step = phase["step"]
        if step == "activate" and legal.get("activatable"):
            ship = self.rng.choice(legal["activatable"])
            if self.rng.random() < 0.4:
                return {"type": "ping", "ship": ship}
            return self.move(own[ship], legal["ship_limits"][ship], table, cautious, refusals)
        ship_id = phase.get("ship")
        if step == "start" and ship_id in own:
            if self.rng.random() < 0.4:
                return {"type": "ping", "ship": ship_id}
            return self.move(own[ship_id], legal["order_limits"], table, cautious, refusals)
        if step == "after_ping" and ship_id in own:
            return self.move(own[ship_id], legal["order_limits"], table, cautious, refusals)
        if step == "after_move" and ship_id in own:
            kind = "ping" if self.rng.random() < 0.3 else "end_activation"
            return {"type": kind, "ship": ship_id}
        if "core_action" in commands:
            ship = next(s["id"] for s in own.values() if s["status"] == "active")
            return {"type": "core_action", "ship": ship, "action": "dump"}
        return {"type": "resign"}

    def move(
        self,
        ship: dict[str, Any],
        limits: dict[str, Any],
        table: dict[str, Any],
        cautious: bool,
        refusals: int,
    ) -> dict[str, Any]:
        """Steer towards the table's centre at a modest speed (slower after a refusal)."""
        pos, heading = ship["position"], ship["heading"]
        dx, dy = table["width"] / 2 - pos["x"], table["height"] / 2 - pos["y"]
        wanted = round(math.degrees(math.atan2(dx, dy)) / 30) % 12
        delta = (wanted - heading + 6) % 12 - 6
        max_turn = int(limits.get("max_turn", 0))
        turn = max(-max_turn, min(max_turn, delta))
        max_change = int(limits.get("max_speed_change", 0))
        target = 0 if cautious else 3
        change = max(-max_change, min(max_change, target - int(limits.get("speed", 0))))
        orders: dict[str, Any] = {"speed_change": change, "turn": turn}
        if refusals >= 3:
            orders["leave"] = True  # nothing else fits: leave the table (ends the game)
        return {"type": "move", "ship": ship["id"], "orders": orders}


THINK = 0.0  # seconds a player takes between requests (--think); 0 = as fast as possible


async def think() -> None:
    """A player's pause between requests, spread so that the games do not march in step."""
    if THINK > 0:
        await asyncio.sleep(THINK * random.uniform(0.5, 1.5))


async def bare_loop(client: Any, stats: Stats, stop: asyncio.Event, index: int) -> None:
    body = {"type": "move", "ship": "a1", "orders": {"speed_change": 0, "turn": 1}}
    while not stop.is_set():
        started = time.perf_counter()
        r = await client.post(f"/tx/{index}", json=body)
        stats.record("bare", started, r.status_code)
        await think()
        if r.status_code != 200:
            raise RuntimeError(f"bare endpoint: {r.status_code} {r.text[:300]}")


async def drive(
    base_url: str,
    concurrency: int,
    seconds: float,
    warmup: float,
    worker: Callable[[Any, Stats, asyncio.Event, int], Coroutine[Any, Any, None]],
) -> Stats:
    import httpx

    stats = Stats()
    stop = asyncio.Event()
    began = time.perf_counter()
    # one client (one keep-alive connection) per game: a single shared pool of 50 connections
    # costs the client several times more CPU per request (httpcore scans its pool)
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    # each bot from its own loopback address (127.0.0.2 and up), as separate players would be:
    # the server's rate limits count per address, and one address for 50 bots is one client
    clients = [
        httpx.AsyncClient(
            base_url=base_url,
            transport=httpx.AsyncHTTPTransport(local_address=bot_address(i), limits=limits),
            timeout=60,
        )
        for i in range(concurrency)
    ]
    try:
        now = time.perf_counter()
        stats.start, stats.end = now + warmup, now + warmup + seconds
        tasks = [
            asyncio.create_task(worker(client, stats, stop, i)) for i, client in enumerate(clients)
        ]
        await asyncio.sleep(warmup + seconds)
        stop.set()
        done, _ = await asyncio.wait(tasks, timeout=30)
        for task in done:
            if task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
    finally:
        for client in clients:
            await client.aclose()
    stats.wall = time.perf_counter() - began
    return stats


def bot_address(index: int) -> str:
    """127.0.0.2, 127.0.0.3, … 127.0.1.2, …: one loopback address per bot."""
    return f"127.0.{index // 250}.{index % 250 + 2}"


def bot_worker(
    client: Any, stats: Stats, stop: asyncio.Event, index: int
) -> Coroutine[Any, Any, None]:
    return Bot(client, stats, stop, index).run()


# -- the bare endpoint (runs in its own uvicorn subprocess) ------------------------------------
def bare_app() -> Any:
    """One PostgreSQL transaction per request, shaped like a command's unit of work."""
    from contextlib import asynccontextmanager

    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    engine = create_async_engine(
        os.environ["BENCH_DATABASE_URL"], pool_size=10, max_overflow=10, pool_pre_ping=True
    )
    lock = text("SELECT seq FROM bench_games WHERE id = :k FOR UPDATE")
    insert = text(
        "INSERT INTO bench_events (game_id, seq, data) VALUES (:k, :s, CAST(:d AS jsonb))"
        " RETURNING id"
    )
    bump = text("UPDATE bench_games SET seq = :s WHERE id = :k")

    async def tx(request: Request) -> JSONResponse:
        k = int(request.path_params["k"])
        data = await request.json()
        async with engine.begin() as conn:
            seq = (await conn.execute(lock, {"k": k})).scalar_one() + 1
            row = (await conn.execute(insert, {"k": k, "s": seq, "d": json.dumps(data)})).scalar()
            await conn.execute(bump, {"k": k, "s": seq})
        return JSONResponse({"id": row, "seq": seq})

    async def ready(_: Request) -> JSONResponse:
        return JSONResponse({"status": "ready"})

    @asynccontextmanager
    async def lifespan(_: Starlette) -> Any:
        yield
        await engine.dispose()

    return Starlette(
        routes=[Route("/tx/{k:int}", tx, methods=["POST"]), Route("/ready", ready)],
        lifespan=lifespan,
    )


def serve_bare(port: int, workers: int) -> None:
    import uvicorn

    uvicorn.run(
        "bench_api:bare_app",
        factory=True,
        app_dir=str(Path(__file__).resolve().parent),
        host="127.0.0.1",
        port=port,
        workers=workers,
        log_level="warning",
        access_log=False,
    )


# -- reporting ---------------------------------------------------------------------------------
def summarize(name: str, stats: Stats, kinds: list[str], seconds: float) -> float:
    values = [v for k in kinds for v in stats.latencies.get(k, [])]
    rate = len(values) / seconds
    print(
        f"  {name:<28} {rate:9.1f}/s   p50 {pct(values, 0.50) * 1000:7.2f} ms"
        f"   p99 {pct(values, 0.99) * 1000:7.2f} ms   (n={len(values)})"
    )
    return rate


def cpu_spent(before: dict[str, float], after: dict[str, float], pgrp: int) -> dict[str, float]:
    """CPU seconds the server (its process group), PostgreSQL and this client used between."""

    def spent(key: str) -> float:
        return after.get(key, 0.0) - before.get(key, 0.0)

    return {
        "server": spent(f"pgrp:{pgrp}"),
        "postgres": spent("postgres"),
        "client": spent("client"),
    }


def add(total: dict[str, float], more: dict[str, float]) -> None:
    for key, value in more.items():
        total[key] = total.get(key, 0.0) + value


def per_request(spent: dict[str, float], stats: Stats) -> float:
    """The server's CPU milliseconds per request (warm-up and wind-down included)."""
    return spent["server"] * 1000 / max(stats.total, 1)


def cpu_lines(spent: dict[str, float], stats: Stats) -> str:
    """Who used the shared cores during the run, and the CPU each request cost."""
    seconds = stats.wall
    server, postgres, client = spent["server"], spent["postgres"], spent["client"]
    per = 1000 / max(stats.total, 1)
    return (
        f"  CPU (100% = one core): server {server / seconds:.0%}, postgres "
        f"{postgres / seconds:.0%}, bench client {client / seconds:.0%}\n"
        f"  CPU per request: server {server * per:.2f} ms, postgres {postgres * per:.2f} ms, "
        f"bench client {client * per:.2f} ms   ({stats.total} requests)"
    )


# ``python -c PROFILED_SERVE OUT serve …``: our server under cProfile timed by the process's CPU
# clock, not the wall clock (cProfile's default): on a busy machine the wall clock charges a
# function for the time the process waited for a core, mostly at the sends that wake PostgreSQL
PROFILED_SERVE = """
import cProfile, sys, time
from app.cli import main
out, sys.argv = sys.argv[1], ["pingduel", *sys.argv[2:]]
profile = cProfile.Profile(time.process_time)
try:
    profile.runcall(main)
finally:
    profile.dump_stats(out)
"""


def print_profile(path: str, top: int = 30) -> None:
    import pstats

    print(f"\n== cProfile of our server (one worker), top {top} by own time ==")
    stats = pstats.Stats(path)
    stats.sort_stats("tottime").print_stats(top)
    print(f"== top {top} by cumulative time ==")
    stats.sort_stats("cumulative").print_stats(top)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2, help="server workers (each server)")
    parser.add_argument("--games", type=int, default=50, help="concurrent games (= concurrency)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds per server")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds first")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="alternate the two servers this many times, --seconds split between the rounds "
        "(background load on a shared machine then falls on both alike)",
    )
    parser.add_argument("--pg", default=PG_DEFAULT, help="a PostgreSQL URL on the server to use")
    parser.add_argument("--profile", metavar="PATH", help="cProfile our server (1 worker)")
    parser.add_argument("--skip-bare", action="store_true", help="only our server")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds each game's player waits between requests (0: saturate the server)",
    )
    args = parser.parse_args()
    global THINK
    THINK = args.think
    if args.profile:
        args.workers = 1
    rounds = max(1, args.rounds)
    seconds = args.seconds / rounds

    cores = os.cpu_count()
    print(
        f"pingduel API benchmark: {args.games} concurrent games, {args.workers} worker(s) per "
        f"server, {args.seconds:g} s measured after {args.warmup:g} s warm-up"
        + (f" ({rounds} alternating rounds)" if rounds > 1 else "")
        + f", {cores} cores, think time {args.think:g} s"
    )
    # other work on the machine skews everything: say how busy it was
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    url = create_database(args.pg)
    print(f"database {url.rpartition('/')[2]} on {args.pg.split('@')[-1].rpartition('/')[0]}")
    servers: list[Server] = []
    try:
        serve = [sys.executable, "-m", "app.cli", "serve", "--port", "{port}"]
        serve += ["--workers", str(args.workers)]
        if args.profile:
            serve[1:3] = ["-c", PROFILED_SERVE, str(Path(args.profile).resolve())]
        data_dir = tempfile.mkdtemp(prefix="pingduel-bench-")
        ours = Server(
            serve, {"PINGDUEL_DATABASE_URL": url, "PINGDUEL_DATA_DIR": data_dir}, "/readyz"
        )
        servers.append(ours.start())
        bare = None
        if not args.skip_bare:
            prepare_bare_tables(url, args.games)
            bare = Server(
                [sys.executable, __file__, "--serve-bare", "{port}", str(args.workers)],
                {"BENCH_DATABASE_URL": url},
                "/ready",
            )
            servers.append(bare.start())
        stats, bare_stats = Stats(), Stats()
        spent: dict[str, float] = {}
        bare_spent: dict[str, float] = {}
        ratios: list[float] = []
        for number in range(1, rounds + 1):
            assert ours.proc is not None
            before = _cpu_seconds()
            mine = asyncio.run(drive(ours.url, args.games, seconds, args.warmup, bot_worker))
            used = cpu_spent(before, _cpu_seconds(), ours.proc.pid)
            stats.merge(mine)
            add(spent, used)
            line = f"round {number}: ours {per_request(used, mine):.2f} ms/request"
            if bare is not None:
                assert bare.proc is not None
                before = _cpu_seconds()
                theirs = asyncio.run(drive(bare.url, args.games, seconds, args.warmup, bare_loop))
                used_bare = cpu_spent(before, _cpu_seconds(), bare.proc.pid)
                bare_stats.merge(theirs)
                add(bare_spent, used_bare)
                ratios.append(per_request(used, mine) / per_request(used_bare, theirs))
                line += (
                    f", bare {per_request(used_bare, theirs):.2f} ms/request,"
                    f" ratio {ratios[-1]:.2f}"
                )
            print(line + f"   (server CPU; load average {os.getloadavg()[0]:.2f})")
        for server in servers:
            server.stop()

        print("\nour server (pingduel serve):")
        commands = summarize("commands", stats, ["command"], args.seconds)
        summarize("views (GET)", stats, ["view"], args.seconds)
        summarize("create + claim", stats, ["create", "claim"], args.seconds)
        everything = summarize(
            "all requests", stats, ["command", "view", "create", "claim"], args.seconds
        )
        refused = sum(n for s, n in stats.statuses.get("command", {}).items() if s != 200)
        print(f"  games finished or resigned: {stats.games_finished}; commands refused: {refused}")
        print(cpu_lines(spent, stats))
        if args.profile:
            print_profile(args.profile)
        p99 = pct(stats.latencies.get("command", []), 0.99) * 1000
        if bare is not None:
            print(
                "\nbare endpoint (Starlette + one transaction: lock row, insert RETURNING, update):"
            )
            bare_rate = summarize("requests", bare_stats, ["bare"], args.seconds)
            print(cpu_lines(bare_spent, bare_stats))
            print(
                f"\nratio ours/bare: commands {commands / bare_rate:.0%}, "
                f"all requests {everything / bare_rate:.0%}   (target: >= 50%)"
            )
            ours_cpu, bare_cpu = per_request(spent, stats), per_request(bare_spent, bare_stats)
            print(
                f"server CPU per request, ours/bare: {ours_cpu / bare_cpu:.2f} over all rounds,"
                f" median of the rounds {statistics.median(ratios):.2f}   (target: <= 1.4)"
            )
        print(f"our command p99: {p99:.1f} ms   (target: < 50 ms at 50 games on 2 cores)")
        print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    finally:
        for server in servers:
            server.stop()  # also after a failure: no server outlives the run
        drop_database(args.pg, url)
        print(f"dropped {url.rpartition('/')[2]}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--serve-bare":
        serve_bare(int(sys.argv[2]), int(sys.argv[3]))
        sys.exit(0)
    sys.exit(main())
