"""CPU cost of the edge middleware per request (prints numbers; not a test).

Drives ``RateLimits`` (and ``ProxyHeadersMiddleware``) in-process around an app that answers
at once, against that app alone, for the requests the limits look at: a command with a seat
token (two counts: per token and per address), a read with a token (the refused-token window
is tested), a read without one (a header scan only). Rounds alternate, so background load on
a shared machine falls on both sides alike; the figure is CPU time (``time.process_time``) per
request, median of the rounds.

    .venv/bin/python scripts/bench_limits.py [--requests 20000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from starlette.types import Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.config import Settings
from app.edge.limits import RateLimits


async def bare(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"{}"})


async def _receive() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


async def _send(message: Message) -> None:
    pass


def scope(method: str, path: str, token: str | None, client: str) -> dict[str, Any]:
    headers = [(b"host", b"test"), (b"content-type", b"application/json")]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    return {
        "type": "http",
        "method": method,
        "path": path,
        "headers": headers,
        "client": (client, 5000),
        "scheme": "http",
    }


async def cpu_per_request(app: Any, scopes: list[dict[str, Any]]) -> float:
    started = time.process_time()
    for s in scopes:
        await app(dict(s), _receive, _send)
    return (time.process_time() - started) / len(scopes)


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    settings = Settings(
        admin_token=secrets.token_hex(32),
        # high enough that nothing is refused: the cost of counting, not of refusing
        limit_commands="1000000/10seconds",
        limit_commands_per_address="1000000/10seconds",
    )
    limited = RateLimits(bare, settings)
    proxied = ProxyHeadersMiddleware(limited, trusted_hosts=["127.0.0.1"])
    tokens = [secrets.token_urlsafe(32) for _ in range(100)]  # 50 games' seats
    cases = {
        "command with a token": [
            scope("POST", f"/api/v1/games/g{i % 50}/commands", tokens[i % 100], f"127.0.0.{i % 50}")
            for i in range(args.requests)
        ],
        "view with a token": [
            scope("GET", f"/api/v1/games/g{i % 50}", tokens[i % 100], f"127.0.0.{i % 50}")
            for i in range(args.requests)
        ],
        "read without a token": [
            scope("GET", "/api/v1/scenarios", None, "127.0.0.1") for _ in range(args.requests)
        ],
    }
    print(f"{args.requests} requests per case and side, {args.rounds} rounds alternating")
    for name, scopes in cases.items():
        figures: dict[str, list[float]] = {"bare": [], "limits": [], "proxy+limits": []}
        for _ in range(args.rounds):
            figures["bare"].append(await cpu_per_request(bare, scopes))
            figures["limits"].append(await cpu_per_request(limited, scopes))
            figures["proxy+limits"].append(await cpu_per_request(proxied, scopes))
        med = {k: statistics.median(v) * 1e6 for k, v in figures.items()}
        print(
            f"  {name:<22} bare {med['bare']:6.1f} µs   +limits {med['limits'] - med['bare']:6.1f}"
            f" µs   +proxy headers and limits {med['proxy+limits'] - med['bare']:6.1f} µs"
        )
    with open("/proc/loadavg") as f:
        print(f"load average: {f.read().split()[:3]}")


if __name__ == "__main__":
    asyncio.run(main())
