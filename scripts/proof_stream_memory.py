"""Proof: what an idle SSE stream costs one worker in memory. Prints numbers, asserts nothing.

For each ``--streams`` count it starts a server (one uvicorn worker, its own process), opens
that many idle streams from a load client (another process: one process may hold 20,000 files
here), and prints the worker's RSS before, after and per stream. Two servers are measured in
the same run, alternately:

- ``app``: pingduel (SQLite in a temporary directory), spectator streams of
  ``GET /api/v1/games/{id}/stream`` spread over ``--games`` games, resumed at the game's end
  (idle: nothing to send but keep-alive comments);
- ``bare``: a bare Starlette endpoint streaming keep-alive comments (the floor of the stack).

    .venv/bin/python scripts/proof_stream_memory.py --streams 2000 10000

``--trace`` runs the pingduel worker under tracemalloc and prints where the memory of the open
streams went (top allocation sites, by file and line), for finding what to cut.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FILES = 20_000  # the hard limit of open files per process on these machines


def _more_files() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else FILES
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, FILES), hard))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


# -- the servers (run as this script's child processes) ---------------------------------------
def serve_app(port: int, trace: bool) -> None:
    import uvicorn

    sys.path.insert(0, os.environ.get("PROOF_APP_ROOT", str(ROOT)))  # --before: the old code
    os.chdir(sys.path[0])  # its static files and templates

    from app.main import create_app

    if trace:
        import tracemalloc

        tracemalloc.start(8)
        snapshots: list[Any] = []

        def snap(_sig: int, _frame: Any) -> None:
            gc.collect()
            snapshots.append(tracemalloc.take_snapshot())
            if len(snapshots) == 2:
                _print_growth(snapshots[0], snapshots[1])

        signal.signal(signal.SIGUSR1, snap)
    uvicorn.run(create_app(), host="127.0.0.1", port=port, log_level="warning")


def _print_growth(before: Any, after: Any) -> None:
    import tracemalloc

    keep = [tracemalloc.Filter(False, tracemalloc.__file__)]
    stats = after.filter_traces(keep).compare_to(before.filter_traces(keep), "traceback")
    total = sum(s.size_diff for s in stats)
    out = [f"tracemalloc: +{total / 1024:.0f} KiB in all"]
    for stat in stats[:25]:
        frames = [f"{Path(f.filename).name}:{f.lineno}" for f in stat.traceback[-4:]]
        out.append(
            f"  +{stat.size_diff / 1024:8.0f} KiB {stat.count_diff:+7d} blocks  "
            + " <- ".join(reversed(frames))
        )
    Path(os.environ["PROOF_TRACE_OUT"]).write_text("\n".join(out) + "\n")


def serve_bare(port: int, keepalive: float) -> None:
    """The floor: a Starlette streaming endpoint that only sends comment lines."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import StreamingResponse
    from starlette.routing import Route

    async def comments() -> Any:
        yield b": hello\r\n\r\n"
        while True:
            await asyncio.sleep(keepalive)
            yield b": ping\r\n\r\n"

    async def stream(_request: Any) -> StreamingResponse:
        return StreamingResponse(comments(), media_type="text/event-stream")

    app = Starlette(routes=[Route("/stream", stream)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


# -- the load client (its own process) ---------------------------------------------------------
async def _hold(port: int, paths: list[str], ready: asyncio.Event, count: list[int]) -> None:
    holders = []

    async def one(path: str) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        ask = f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
        writer.write(ask.encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError(head.decode(errors="replace"))
        holders.append((reader, writer))
        count[0] += 1

    sem = asyncio.Semaphore(int(os.environ.get("PROOF_OPENING", "200")))  # opening at once

    async def bounded(path: str) -> None:
        async with sem:
            await one(path)

    await asyncio.gather(*(bounded(p) for p in paths))
    ready.set()
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)  # until told
    for _, writer in holders:
        writer.close()


def client_main(port: int, paths_file: str) -> None:
    _more_files()
    paths = json.loads(Path(paths_file).read_text())
    count = [0]

    async def run() -> None:
        ready = asyncio.Event()
        task = asyncio.create_task(_hold(port, paths, ready, count))
        await ready.wait()
        print(f"open {count[0]}", flush=True)
        await task

    asyncio.run(run())


# -- the driver --------------------------------------------------------------------------------
class Server:
    def __init__(self, kind: str, tmp: Path, trace: bool, root: Path = ROOT) -> None:
        self.kind = kind
        self.port = _free_port()
        self.trace_out = tmp / f"trace-{kind}-{self.port}.txt"
        data = tmp / f"data-{kind}-{self.port}"
        env = {
            **os.environ,
            "PINGDUEL_DATA_DIR": str(data),
            "PINGDUEL_ADMIN_TOKEN": "proof-admin-" + "x" * 32,
            "PINGDUEL_RATE_LIMITS": "off",
            "PROOF_TRACE_OUT": str(self.trace_out),
            "PROOF_APP_ROOT": str(root),
        }
        env.pop("PINGDUEL_DATABASE_URL", None)
        if kind == "app":
            subprocess.run(
                [sys.executable, "-m", "app.cli", "migrate"],
                cwd=root,
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )
        args = [sys.executable, __file__, f"--serve-{kind}", str(self.port)]
        if trace and kind == "app":
            args.append("--trace")
        self.proc = subprocess.Popen(args, cwd=ROOT, env=env, preexec_fn=_more_files)
        self._wait_ready()

    def _wait_ready(self) -> None:
        import httpx

        deadline = time.monotonic() + 60
        path = "/healthz" if self.kind == "app" else "/nothing"
        while time.monotonic() < deadline:
            try:
                httpx.get(f"http://127.0.0.1:{self.port}{path}", timeout=1)
                return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError(f"{self.kind} server did not start")

    def stream_paths(self, n: int, games: int) -> list[str]:
        if self.kind == "bare":
            return ["/stream"] * n
        import httpx

        base = f"http://127.0.0.1:{self.port}/api/v1"
        paths = []
        with httpx.Client(base_url=base, timeout=30) as c:
            for _ in range(games):
                r = c.post("/games", json={"scenario": "duel"})
                r.raise_for_status()
                game = r.json()["game_id"]
                last = c.get(f"/games/{game}/events").json()["last_seq"]
                paths.append(f"/api/v1/games/{game}/stream?after={last}")
        return [paths[i % games] for i in range(n)]

    def hold(self, paths: list[str]) -> subprocess.Popen[str]:
        spec = Path(tempfile.mktemp(suffix=".json"))
        spec.write_text(json.dumps(paths))
        proc = subprocess.Popen(
            [sys.executable, __file__, "--client", str(self.port), str(spec)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line.startswith("open"):
            proc.kill()
            raise RuntimeError(f"the load client failed: {line!r}")
        return proc

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def measure(server: Server, n: int, games: int, trace: bool) -> dict[str, float]:
    # warm-up: the first streams load code and fill caches that every later stream shares
    warm = server.hold(server.stream_paths(50, games))
    assert warm.stdin is not None
    warm.stdin.close()
    warm.wait(30)
    paths = server.stream_paths(n, games)
    time.sleep(2)
    before = rss_kib(server.proc.pid)
    if trace:
        os.kill(server.proc.pid, signal.SIGUSR1)
        time.sleep(3)
    start = time.monotonic()
    client = server.hold(paths)
    opened = time.monotonic() - start
    time.sleep(max(3.0, n / 2000))  # let every stream reach its idle wait
    after = rss_kib(server.proc.pid)
    if trace:
        os.kill(server.proc.pid, signal.SIGUSR1)
        deadline = time.monotonic() + 120
        while not server.trace_out.exists() and time.monotonic() < deadline:
            time.sleep(1)
        time.sleep(1)
        print(server.trace_out.read_text() if server.trace_out.exists() else "(no trace)")
    assert client.stdin is not None
    client.stdin.close()
    client.wait(60)
    return {
        "before_mb": before / 1024,
        "after_mb": after / 1024,
        "per_stream_kb": (after - before) / n,
        "open_s": opened,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, nargs="+", default=[2000, 10000])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=1, help="alternate app/bare this often")
    parser.add_argument("--only", choices=["app", "bare"], default=None)
    parser.add_argument("--trace", action="store_true")
    parser.add_argument(
        "--before", type=Path, help="also measure the app from this directory (an older tree)"
    )
    parser.add_argument("--before-max", type=int, default=2000, help="--before up to N")
    parser.add_argument("--serve-app", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--serve-bare", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--client", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_app:
        serve_app(args.serve_app, args.trace)
        return
    if args.serve_bare:
        serve_bare(args.serve_bare, float(os.environ.get("PINGDUEL_STREAM_KEEPALIVE", "15")))
        return
    if args.client:
        client_main(int(args.client[0]), args.client[1])
        return
    _more_files()
    kinds = [args.only] if args.only else ["app", "bare"]
    if args.before:
        kinds.append("before")
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.streams:
            for round_ in range(args.rounds):
                for kind in kinds:
                    if kind == "before" and n > args.before_max:
                        continue
                    server = Server(
                        "app" if kind == "before" else kind,
                        Path(tmp),
                        args.trace,
                        args.before if kind == "before" else ROOT,
                    )
                    try:
                        got = measure(server, n, args.games, args.trace)
                    finally:
                        server.stop()
                    print(
                        f"{kind:6} N={n:6d} round {round_ + 1}: RSS {got['before_mb']:6.1f} MB"
                        f" -> {got['after_mb']:6.1f} MB, {got['per_stream_kb']:5.1f} KB per"
                        f" stream (opened in {got['open_s']:.1f} s)",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
