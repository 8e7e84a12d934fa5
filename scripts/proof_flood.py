"""The flood proof: one client flooding at 10× a normal client's rate gets 429s, while the
others keep their command p99 (prints numbers; asserts nothing — ``tests/edge`` has the CI
version, which checks the behaviour only).

One live ``pingduel serve`` with the default limits, on SQLite (a temporary file) or on a
fresh PostgreSQL database. ``--clients`` normal clients, each from its own loopback address
(127.0.0.2 and up, the client socket bound to it), play duels with the API benchmark's bot
(``bench_api.Bot``: both seats, legal commands, ``--think`` seconds between requests). Phases
alternate for ``--rounds``: the normal clients alone, then the same with a flooder at 127.0.0.1
running the same bot on 4 connections, paced to ``--factor`` times the normal clients' measured
request rate.
Printed per phase and over all rounds: the normal clients' command p50/p99, the p99 ratio
flood / no flood (target ≤ 1.5) over all rounds, each round's ratio and their median, and the
flooder's requests, 429 share and rate.

    .venv/bin/python scripts/proof_flood.py --db sqlite --clients 5 --seconds 10 --rounds 6
    .venv/bin/python scripts/proof_flood.py --db postgresql
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_api
from bench_api import Bot, Server, Stats, pct

FLOODER = "127.0.0.1"
FLOOD_CONNECTIONS = 4


def client(base_url: str, address: str) -> Any:
    import httpx

    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base_url, transport=transport, timeout=30)


class PacedBot(Bot):
    """The same bot, its requests sent at a fixed rate whatever the answers (a 429 is quick:
    the flooder then sends more often, as a flood does)."""

    def __init__(self, client: Any, stats: Stats, stop: asyncio.Event, rate: float) -> None:
        super().__init__(client, stats, stop, 999)
        self.interval = 1.0 / rate
        self.next = time.perf_counter()

    async def call(self, kind: str, method: str, path: str, **kw: Any) -> Any:
        self.next += self.interval
        delay = self.next - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        else:
            self.next = time.perf_counter()  # behind: do not send a burst to catch up
        started = time.perf_counter()
        r = await self.client.request(method, bench_api.API + path, **kw)
        self.stats.record(kind, started, r.status_code)
        if r.status_code >= 500:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        if r.status_code >= 400:
            raise bench_api.Refused(f"{r.status_code}")
        return r.json()


async def phase(
    base_url: str, clients: int, seconds: float, flood_rate: float | None
) -> tuple[Stats, Stats | None]:
    normal, flood, stop = Stats(), Stats(), asyncio.Event()
    now = time.perf_counter()
    for stats in (normal, flood):
        stats.start, stats.end = now + 1.0, now + 1.0 + seconds  # a second to warm up
    opened = [client(base_url, f"127.0.0.{n + 2}") for n in range(clients)]
    bots = [Bot(c, normal, stop, n) for n, c in enumerate(opened)]
    if flood_rate is not None:  # one client, several connections: one alone waits on answers
        for _ in range(FLOOD_CONNECTIONS):
            opened.append(client(base_url, FLOODER))
            bots.append(PacedBot(opened[-1], flood, stop, flood_rate / FLOOD_CONNECTIONS))
    tasks = [asyncio.create_task(bot.run()) for bot in bots]
    await asyncio.sleep(1.0 + seconds)
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    for task in tasks:
        if task.done() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    for c in opened:
        await c.aclose()
    return normal, (flood if flood_rate is not None else None)


def requests(stats: Stats) -> int:
    return sum(sum(counts.values()) for counts in stats.statuses.values())


def refused(stats: Stats) -> int:
    return sum(counts.get(429, 0) for counts in stats.statuses.values())


def report(name: str, stats: Stats, seconds: float, clients: int) -> None:
    values = stats.latencies.get("command", [])
    n429 = refused(stats)
    print(
        f"  {name:<18} commands {len(values):5d}  p50 {pct(values, 0.5) * 1000:6.2f} ms"
        f"  p99 {pct(values, 0.99) * 1000:6.2f} ms  requests/s per client"
        f" {requests(stats) / seconds / clients:5.1f}  429s {n429}"
    )


def start_server(db: str, data: Path) -> tuple[Server, str | None]:
    server_db = None
    if db == "postgresql":
        server_db = os.environ.get("PINGDUEL_TEST_DATABASE_URL") or bench_api.PG_DEFAULT
        url = bench_api.create_database(server_db)
    else:
        url = f"sqlite+aiosqlite:///{data / 'flood.db'}"
    # the server inherits this shell's environment: PINGDUEL_LIMIT_* there change the limits
    env = {"PINGDUEL_DATABASE_URL": url, "PINGDUEL_DATA_DIR": str(data)}
    argv = [sys.executable, "-m", "app.cli", "serve", "--port", "{port}"]
    return Server(argv, env, "/readyz").start(), (url if server_db else None)


async def run(args: argparse.Namespace) -> None:
    bench_api.THINK = args.think
    with tempfile.TemporaryDirectory() as tmp:
        server, pg_url = start_server(args.db, Path(tmp))
        try:
            quiet_all, flood_normal_all, flood_all = Stats(), Stats(), Stats()
            ratios: list[float] = []
            for round_ in range(1, args.rounds + 1):
                quiet, _ = await phase(server.url, args.clients, args.seconds, None)
                rate = requests(quiet) / args.seconds / args.clients
                noisy, flood = await phase(
                    server.url, args.clients, args.seconds, rate * args.factor
                )
                assert flood is not None
                print(f"round {round_}: a normal client's rate {rate:.1f} requests/s")
                report("without the flood", quiet, args.seconds, args.clients)
                report("with the flood", noisy, args.seconds, args.clients)
                report("the flooder", flood, args.seconds, 1)
                ratios.append(p99(noisy) / p99(quiet))
                print(f"  this round's p99 ratio flood / no flood: {ratios[-1]:.2f}")
                quiet_all.merge(quiet)
                flood_normal_all.merge(noisy)
                flood_all.merge(flood)
            summarize(args, quiet_all, flood_normal_all, flood_all, ratios)
        finally:
            server.stop()
            if pg_url is not None:
                bench_api.drop_database(bench_api.PG_DEFAULT, pg_url)


def p99(stats: Stats) -> float:
    return pct(stats.latencies.get("command", []), 0.99)


def summarize(
    args: argparse.Namespace, quiet: Stats, noisy: Stats, flood: Stats, ratios: list[float]
) -> None:
    seconds = args.seconds * args.rounds
    before, after = p99(quiet), p99(noisy)
    print(f"all rounds ({args.db}, {args.clients} clients, think {args.think} s):")
    report("without the flood", quiet, seconds, args.clients)
    report("with the flood", noisy, seconds, args.clients)
    report("the flooder", flood, seconds, 1)
    share = refused(flood) / max(1, requests(flood))
    print(f"  the flood's 429 share: {share:.1%} of {requests(flood)} requests")
    print(
        f"  the others' 429s: {refused(noisy)}; command p99 ratio flood / no flood: "
        f"{after / before:.2f} (target <= 1.5)"
    )
    # a p99 of one phase is its few slowest commands: a spell of the host's other work moves
    # it, so the rounds' ratios are given too, and their median, which one such spell cannot
    print(
        f"  the rounds' p99 ratios: {', '.join(f'{r:.2f}' for r in ratios)}; "
        f"median {statistics.median(ratios):.2f}"
    )
    with open("/proc/loadavg") as f:
        print(f"  load average: {' '.join(f.read().split()[:3])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--clients", type=int, default=5)
    parser.add_argument("--think", type=float, default=0.1, help="a normal client's pause")
    parser.add_argument("--factor", type=float, default=10.0, help="the flood's rate multiple")
    parser.add_argument("--seconds", type=float, default=10.0, help="per phase")
    parser.add_argument("--rounds", type=int, default=6)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
