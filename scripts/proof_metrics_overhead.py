"""What the request-log middleware (request id, the /metrics counts, the JSON access line)
costs per request, in CPU time, measured in one process.

1. The middleware alone, around an ASGI app that answers at once: CPU per call wrapped and
   bare, text mode and JSON mode (the access line formatted and written to /dev/null).
2. The whole app in-process on a SQLite file (no network, no client): a game's view
   (``GET /api/v1/games/{id}``) and ``/healthz``, on the app as built and on the same app
   built without the middleware.
3. With ``--pg URL`` (a PostgreSQL server): the scrape's one statement, the active games'
   ``count(*)`` (``app.metrics.active_games``), wall time on 10,000 and 100,000 games (a fifth
   of them active, each with a 3 KB snapshot), in a scratch database dropped afterwards.

Rounds alternate the two sides, so that background work on a shared machine falls on both;
the figures are medians over the rounds (µs of CPU per request, ``time.process_time``).

Usage: .venv/bin/python scripts/proof_metrics_overhead.py [--rounds 15] [--calls 20000]
       [--pg postgresql://postgres@127.0.0.1:5432/postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import metrics  # noqa: E402
from app.config import Settings  # noqa: E402
from app.edge.requestlog import JsonFormatter, RequestLog  # noqa: E402
from app.main import create_app  # noqa: E402
from app.store.migrate import upgrade  # noqa: E402

ADMIN = "bench-admin-token-" + "x" * 32
Call = Callable[[], Awaitable[None]]


def scope_of(path: str, method: str = "GET") -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1:8000"),
            (b"user-agent", b"bench"),
            (b"accept", b"application/json"),
            (b"authorization", f"Bearer {ADMIN}".encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


async def _receive() -> dict[str, Any]:
    return {"type": "http.request", "body": b"", "more_body": False}


async def _send(message: dict[str, Any]) -> None:
    return None


class _Route:
    path = "/api/v1/games/{game_id}"


class _CommandRoute:
    path = "/api/v1/games/{game_id}/commands"


async def answer_at_once(scope: Any, receive: Any, send: Any) -> None:
    """An app that routes (leaves a route in the scope) and answers 200."""
    scope["route"] = _CommandRoute if scope["method"] == "POST" else _Route
    await send({"type": "http.response.start", "status": 200, "headers": [(b"a", b"b")]})
    await send({"type": "http.response.body", "body": b"{}"})


def caller(app: Any, path: str, method: str = "GET") -> Call:
    async def call() -> None:
        await app(scope_of(path, method), _receive, _send)

    return call


async def cpu_per_call(call: Call, calls: int) -> float:
    gc.collect()  # each side starts without the other's garbage
    start = time.process_time()
    for _ in range(calls):
        await call()
    return (time.process_time() - start) / calls * 1e6


async def rounds_of(sides: dict[str, Call], rounds: int, calls: int) -> dict[str, list[float]]:
    for call in sides.values():  # warm up
        await cpu_per_call(call, max(calls // 10, 50))
    figures: dict[str, list[float]] = {name: [] for name in sides}
    for n in range(rounds):
        order = list(sides.items())
        for name, call in order if n % 2 == 0 else reversed(order):  # no side always first
            figures[name].append(await cpu_per_call(call, calls))
    return figures


async def alternate(sides: dict[str, Call], rounds: int, calls: int) -> dict[str, float]:
    figures = await rounds_of(sides, rounds, calls)
    return {name: statistics.median(values) for name, values in figures.items()}


def json_access_to_devnull() -> None:
    handler = logging.FileHandler(os.devnull)
    handler.setFormatter(JsonFormatter())
    access = logging.getLogger("pingduel.access")
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    access.propagate = False


async def middleware_alone(rounds: int, calls: int) -> None:
    json_access_to_devnull()
    sides = {
        "bare": caller(answer_at_once, "/api/v1/games/g1"),
        "text mode": caller(RequestLog(answer_at_once, metrics.count_request), "/api/v1/games/g1"),
        "a command": caller(  # text mode, and the command latency histogram
            RequestLog(answer_at_once, metrics.count_request), "/api/v1/games/g1/commands", "POST"
        ),
        "json mode": caller(
            RequestLog(answer_at_once, metrics.count_request, access=True), "/api/v1/games/g1"
        ),
    }
    got = await alternate(sides, rounds, calls)
    print(f"1. the middleware alone, {rounds} rounds x {calls} calls, µs of CPU per call:")
    for name, figure in got.items():
        extra = f"  (+{figure - got['bare']:.1f} µs)" if name != "bare" else ""
        if name == "a command":
            extra += " (bare: a GET; the bare app answers both alike)"
        print(f"   {name:10} {figure:7.1f}{extra}")


def _without_request_log(settings: Settings) -> Any:
    app = create_app(settings)
    app.user_middleware = [m for m in app.user_middleware if m.cls is not RequestLog]
    return app


async def _a_game(app: Any) -> tuple[str, str]:
    import httpx

    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://b") as c:
        r = await c.post("/api/v1/games", json={"scenario": "duel"})
        created = r.json()
        return created["game_id"], created["token"]


async def whole_app(data: Path, url: str, rounds: int, calls: int) -> None:
    settings = Settings(database_url=url, data_dir=data, admin_token=ADMIN)
    apps = {"with": create_app(settings), "without": _without_request_log(settings)}
    async with (
        apps["with"].router.lifespan_context(apps["with"]),
        apps["without"].router.lifespan_context(apps["without"]),
    ):
        game_id, token = await _a_game(apps["with"])

        def view(app: Any) -> Call:
            async def call() -> None:
                scope = scope_of(f"/api/v1/games/{game_id}")
                scope["headers"][-1] = (b"authorization", f"Bearer {token}".encode())
                await app(scope, _receive, _send)

            return call

        for label, make in (("game view", view), ("/healthz", None)):
            sides = {
                name: (make(app) if make else caller(app, "/healthz")) for name, app in apps.items()
            }
            figures = await rounds_of(sides, rounds, calls)
            without, with_ = (statistics.median(figures[k]) for k in ("without", "with"))
            # each round's difference: the two sides ran next to each other
            paired = sorted(w - o for w, o in zip(figures["with"], figures["without"], strict=True))
            quarter = len(paired) // 4
            print(
                f"   {label:10} without {without:7.1f}  with {with_:7.1f}   difference per round:"
                f" median {statistics.median(paired):+.1f} µs"
                f" (middle half {paired[quarter]:+.1f} … {paired[-1 - quarter]:+.1f})"
            )


_FILL = """
INSERT INTO games (id, status, paused, spectators, creator, seed, seed_commitment, snapshot,
                   seq, created_at, updated_at)
SELECT 'g' || i, CASE WHEN i %% 5 = 0 THEN 'active' WHEN i %% 5 = 1 THEN 'waiting'
                      ELSE 'finished' END,
       false, true, 'A', 's', 'c', %s::jsonb, 10, now(), now()
FROM generate_series(%s::int, %s::int) i
"""


async def _count_times(url: str, times: int) -> list[float]:
    from app.store.db import Database

    db = Database(url)
    try:
        figures = []
        for _ in range(times):
            start = time.perf_counter()
            await metrics.active_games(db)
            figures.append((time.perf_counter() - start) * 1000)
        return figures
    finally:
        await db.dispose()


def active_games_scan(server: str) -> None:
    import json

    import psycopg

    name = f"pingduel_metrics_{os.getpid()}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = server.rpartition("/")[0] + f"/{name}"
    try:
        upgrade(url.replace("postgresql://", "postgresql+psycopg://", 1))
        snapshot = json.dumps({"pad": "x" * 3000})
        print("3. the active games' count(*) at a scrape (PostgreSQL), wall ms:")
        with psycopg.connect(url, autocommit=True) as conn:
            for size in (10_000, 100_000):
                have = conn.execute("SELECT count(*) FROM games").fetchone()
                conn.execute(_FILL, (snapshot, have[0] if have else 0, size - 1))
                conn.execute("VACUUM ANALYZE games")
                aurl = url.replace("postgresql://", "postgresql+psycopg://", 1)
                got = sorted(asyncio.run(_count_times(aurl, 9))[1:])  # the first connects
                print(f"   {size:7} games: median {statistics.median(got):.1f}  min {got[0]:.1f}")
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=20000, help="calls per round, part 1")
    parser.add_argument("--app-calls", type=int, default=400, help="calls per round, part 2")
    parser.add_argument("--pg", help="a PostgreSQL server's URL (postgresql://…/postgres): part 3")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    asyncio.run(middleware_alone(args.rounds, args.calls))
    print(f"2. the whole app in-process (SQLite), {args.rounds} rounds x {args.app_calls} calls:")
    data = Path(tempfile.mkdtemp(prefix="pingduel-overhead-"))
    url = f"sqlite+aiosqlite:///{data / 'bench.db'}"
    upgrade(url)  # before the loop: the migrations run their own
    asyncio.run(whole_app(data, url, args.rounds, args.app_calls))
    shutil.rmtree(data)
    if args.pg:
        active_games_scan(args.pg)
    print(f"load average after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")


if __name__ == "__main__":
    main()
