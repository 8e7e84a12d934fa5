"""Proof: spectators do not slow the players. Prints numbers, asserts nothing.

Starts ``pingduel serve`` (one worker) on SQLite or PostgreSQL (a fresh database, dropped
after), then alternates rounds: in each, a new game (turn limit 100) whose two players send
``--commands`` commands one after the other (the side to act activates, moves, ends its
activation), with either no spectator or ``--spectators`` spectator streams open on the game
(API streams, from a load client in its own process that reads and discards what they say).
Prints each round's command p50, then the p50 with and without spectators and their ratio
(target: at most 1.5).

    .venv/bin/python scripts/proof_spectators.py --db sqlite --spectators 500
    .venv/bin/python scripts/proof_spectators.py --db postgresql --spectators 500

``--before DIR`` measures the code of an older tree (``git archive <commit> app migrations
alembic.ini static templates | tar -x -C DIR``) in the same run, round for round.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PG = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
ADMIN = "proof-admin-" + "x" * 32


def _more_files() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 20_000), hard))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- the spectators (their own process) --------------------------------------------------------
async def _watch(port: int, path: str, n: int) -> None:
    async def one() -> tuple[asyncio.StreamWriter, asyncio.Task[None]]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if b" 200 " not in head.split(b"\r\n", 1)[0]:
            raise RuntimeError(head.decode(errors="replace"))

        async def drain() -> None:
            while await reader.read(65536):
                pass

        return writer, asyncio.create_task(drain())

    sem = asyncio.Semaphore(50)

    async def bounded() -> tuple[asyncio.StreamWriter, asyncio.Task[None]]:
        async with sem:
            return await one()

    held = await asyncio.gather(*(bounded() for _ in range(n)))
    print(f"open {len(held)}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    for writer, task in held:
        task.cancel()
        writer.close()


def spectators_main(port: int, path: str, n: int) -> None:
    _more_files()
    asyncio.run(_watch(port, path, n))


# -- the server and the players ----------------------------------------------------------------
class Server:
    def __init__(self, db: str, tmp: Path, root: Path) -> None:
        self.port = _free_port()
        self.pg_admin: str | None = None
        data = tmp / f"data-{self.port}"
        if db == "postgresql":
            import psycopg

            self.pg_admin = os.environ.get("PINGDUEL_TEST_DATABASE_URL") or PG
            self.name = f"pingduel_proof_{secrets.token_hex(4)}"
            with psycopg.connect(_dsn(self.pg_admin), autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{self.name}"')
            url = self.pg_admin.rpartition("/")[0] + "/" + self.name
        else:
            url = f"sqlite+aiosqlite:///{data / 'proof.db'}"
            data.mkdir(parents=True)
        env = {
            **os.environ,
            "PINGDUEL_DATABASE_URL": url,
            "PINGDUEL_DATA_DIR": str(data),
            "PINGDUEL_ADMIN_TOKEN": ADMIN,
            "PINGDUEL_ALLOW_CLIENT_SEED": "1",
            "PINGDUEL_RATE_LIMITS": "off",
        }
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port)],
            cwd=root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_more_files,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/readyz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("the server did not start")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        if self.pg_admin is not None:
            import psycopg

            with psycopg.connect(_dsn(self.pg_admin), autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def _dsn(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


async def play_round(server: Server, spectators: int, commands: int) -> list[float]:
    from tests.api.helpers import deploy_duel, new_game
    from tests.live import next_command

    async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
        duel = await new_game(client, {"scenario": "duel", "turn_limit": 100})
        await deploy_duel(client, duel)
        watchers = None
        if spectators:
            watchers = subprocess.Popen(
                [
                    sys.executable,
                    __file__,
                    "--spectate",
                    str(server.port),
                    f"/api/v1/games/{duel.game_id}/stream",
                    str(spectators),
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert watchers.stdout is not None
            line = watchers.stdout.readline()
            if not line.startswith("open"):
                raise RuntimeError(f"the spectators did not open: {line!r}")
            await asyncio.sleep(1.0)  # every stream has read the log and waits
        times = []
        try:
            for _ in range(commands):
                side, body = await next_command(client, duel)
                start = time.perf_counter()  # the command alone
                r = await client.post(f"{duel.path}/commands", json=body, headers=duel.auth(side))
                times.append(time.perf_counter() - start)
                if r.status_code != 200:
                    raise RuntimeError(f"command refused: {r.text}")
        finally:
            if watchers is not None:
                assert watchers.stdin is not None
                watchers.stdin.close()
                watchers.wait(30)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--commands", type=int, default=150, help="per round")
    parser.add_argument("--rounds", type=int, default=3, help="pairs of rounds (0 and N)")
    parser.add_argument("--before", type=Path, help="also measure the code of this tree")
    parser.add_argument("--spectate", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.spectate:
        spectators_main(int(args.spectate[0]), args.spectate[1], int(args.spectate[2]))
        return
    _more_files()
    trees = [("after", ROOT)] + ([("before", args.before)] if args.before else [])
    print(f"load: {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores, db {args.db}")
    with tempfile.TemporaryDirectory() as tmp:
        servers = {name: Server(args.db, Path(tmp), root) for name, root in trees}
        try:
            got: dict[tuple[str, int], list[float]] = {}
            for round_ in range(args.rounds):
                for name, _ in trees:
                    for n in (0, args.spectators):
                        times = asyncio.run(play_round(servers[name], n, args.commands))
                        got.setdefault((name, n), []).extend(times)
                        print(
                            f"round {round_ + 1} {name:6} spectators {n:4d}: command p50 "
                            f"{statistics.median(times) * 1000:7.1f} ms",
                            flush=True,
                        )
        finally:
            for server in servers.values():
                server.stop()
    for name, _ in trees:
        quiet = statistics.median(got[(name, 0)]) * 1000
        watched = statistics.median(got[(name, args.spectators)]) * 1000
        print(
            f"{name:6} {args.db}: p50 {quiet:.1f} ms without spectators, {watched:.1f} ms with "
            f"{args.spectators}: ratio {watched / quiet:.2f}"
        )


if __name__ == "__main__":
    main()
