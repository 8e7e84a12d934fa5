"""What the security-headers middleware costs per answer (prints numbers; not a test).

Calls a bare ASGI app that answers a small response, and the same app inside
``SecurityHeaders``, in-process (no sockets, no server: only the middleware's own work shows),
in alternating rounds so that both meet the same machine load. Prints the median CPU time per
answer of each and the difference.

Usage: .venv/bin/python scripts/bench_headers.py [--rounds 21] [--calls 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.edge.headers import SecurityHeaders

HEADERS = [
    (b"content-type", b"application/json"),
    (b"content-length", b"2"),
    (b"cache-control", b"no-store"),
]


async def bare(scope: Scope, receive: Receive, send: Send) -> None:
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send({"type": "http.response.body", "body": b"{}"})


def _scope(scheme: str) -> Scope:
    return {
        "type": "http",
        "scheme": scheme,
        "method": "GET",
        "path": "/api/v1/games/x",
        "headers": [(b"host", b"example"), (b"accept", b"*/*")],
    }


async def _receive() -> Message:
    return {"type": "http.request", "body": b""}


async def _send(message: Message) -> None:
    return None


async def _round(app: ASGIApp, calls: int, scheme: str) -> float:
    """CPU seconds per call over ``calls`` calls."""
    start = time.process_time()
    for _ in range(calls):
        await app(_scope(scheme), _receive, _send)
    return (time.process_time() - start) / calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args(argv)
    wrapped = SecurityHeaders(bare)
    results: dict[str, list[float]] = {
        "bare app": [],
        "with SecurityHeaders (http)": [],
        "with SecurityHeaders (https, HSTS)": [],
    }

    async def run() -> None:
        for _ in range(args.rounds):  # alternate: every round measures each once
            results["bare app"].append(await _round(bare, args.calls, "http"))
            results["with SecurityHeaders (http)"].append(await _round(wrapped, args.calls, "http"))
            results["with SecurityHeaders (https, HSTS)"].append(
                await _round(wrapped, args.calls, "https")
            )

    asyncio.run(run())
    base = statistics.median(results["bare app"])
    print(f"{args.rounds} alternating rounds of {args.calls} calls, CPU time per call (median)")
    for name, values in results.items():
        median = statistics.median(values)
        extra = "" if name == "bare app" else f"  (+{(median - base) * 1e6:.2f} µs)"
        print(f"  {name:38s} {median * 1e6:7.2f} µs{extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
