"""Crash proof on PostgreSQL: kill -9 the server at random moments during play, many times.

Prints numbers and the outcome of every check; not a test (``tests/ops/test_crash_kills.py``
runs the same logic with 10 kills in CI). In one run it:

1. creates a fresh database on the PostgreSQL server (default 127.0.0.1:5432, user postgres)
   and migrates it,
2. starts ``pingduel serve`` on it; ``--games`` bots play duels over HTTP with legal commands
   read from ``phase.legal``, each command with its own ``Idempotency-Key`` (a finished game
   is replaced by a new one),
3. ``--kills`` times: after a random 0.1–1.5 s of play, waits for a command in flight and
   SIGKILLs the server's process group; starts a new server on the same database and times
   it from its start until ``/readyz`` answers 200; sends every unanswered command again with
   its key (its answer now is its answer: the stored one if it was committed before the
   crash); then checks that every key acknowledged since the last kill answers its first
   answer again, that every touched game's seqs run 1…N with no gap, that its snapshot equals
   ``app.rules.replay`` of its stored events, and that its log is exactly the game's set-up
   plus the events of its keys' answers, each seq once (none lost, none applied twice),
4. at the end re-checks every key and every game of the run, prints the figures and drops
   the database.

    .venv/bin/python scripts/proof_crash.py --kills 100

Target to report against (not asserted): ready again within 5 s of the restart.

With ``--due`` it runs the other proof instead (``tests.ops.crashkit.DueCrashProof``, CI:
``tests/ops/test_crash_due.py``): ``--games`` clocked games that move only by their timeouts,
every seat away with a webhook to a receiver in this process; the script, as the operator,
makes deadlines due in the database and lets a dead server's outbox leases lapse; each kill
waits for a deadline or notification due. At the end it checks every deadline made due was
applied exactly once, the logs gapless and replaying to their snapshots, every notification
sent and received, and prints how many arrived twice (the at-least-once window).

    .venv/bin/python scripts/proof_crash.py --due --kills 20
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

ROOT = Path(__file__).resolve().parents[1]
PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--games", type=int, default=4, help="games played at once")
    parser.add_argument("--workers", type=int, default=1, help="the server's worker processes")
    parser.add_argument("--seed", type=int, default=14, help="the bots' and the kills' dice")
    parser.add_argument("--server", default=PG_DEFAULT, help="PostgreSQL server URL")
    parser.add_argument(
        "--due", action="store_true", help="kill while deadlines and notifications are due"
    )
    args = parser.parse_args()
    if args.due:
        return due(args)

    sys.path.insert(0, str(ROOT))  # the proof shares its bots and checks with the tests
    from app.store.migrate import upgrade
    from tests.conftest import create_pg_database, drop_pg_database
    from tests.ops.crashkit import CrashProof

    db_url = create_pg_database(args.server)
    print(
        f"database {db_url.rpartition('/')[2]}; {args.kills} kills, {args.games} games at once,"
        f" {args.workers} worker(s)"
    )
    print("load average at the start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    started = time.monotonic()
    try:
        upgrade(db_url)
        with tempfile.TemporaryDirectory(prefix="proof-crash-") as tmp:
            proof = CrashProof(
                db_url, Path(tmp) / "data", games=args.games, workers=args.workers, seed=args.seed
            )
            kills = asyncio.run(proof.run(args.kills))
            finished = proof.finished_games()
            games = len(proof.bots)
            acks = len(proof.traffic.in_order)
    finally:
        drop_pg_database(args.server, db_url)
    ready = [k.ready_seconds for k in kills]
    unanswered = sum(k.unanswered for k in kills)
    committed = sum(k.committed for k in kills)
    print(
        f"\n{len(kills)} kills in {time.monotonic() - started:.0f} s: {acks} commands acknowledged"
        f" in {games} games ({finished} played to the end)"
    )
    print(
        f"unanswered at a kill: {unanswered} ({committed} committed before the crash, their"
        f" stored answer came back; {unanswered - committed} not, applied or refused when sent"
        " again)"
    )
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    print("acknowledged commands lost: 0, applied twice: 0 (every check passed)")
    print(
        f"ready again after a restart: median {statistics.median(ready):.2f} s,"
        f" max {max(ready):.2f} s (target <= 5 s)"
    )
    return 0


def due(args: argparse.Namespace) -> int:
    sys.path.insert(0, str(ROOT))
    from app.store.migrate import upgrade
    from tests.conftest import create_pg_database, drop_pg_database
    from tests.ops.crashkit import DueCrashProof

    db_url = create_pg_database(args.server)
    print(f"database {db_url.rpartition('/')[2]}; {args.kills} kills, {args.games} clocked games")
    started = time.monotonic()
    try:
        upgrade(db_url)
        with tempfile.TemporaryDirectory(prefix="proof-crash-") as tmp:
            proof = DueCrashProof(db_url, Path(tmp) / "data", games=args.games, seed=args.seed)
            report = asyncio.run(proof.run(args.kills))
    finally:
        drop_pg_database(args.server, db_url)
    kills = report.kills
    ready = [k.ready_seconds for k in kills]
    print(
        f"\n{len(kills)} kills in {time.monotonic() - started:.0f} s, {report.games} games"
        f" ({report.finished} finished)"
    )
    print(
        f"at the kills: {sum(k.due_deadlines for k in kills)} deadline(s) due,"
        f" {sum(k.queued for k in kills)} notification(s) queued"
        f" ({sum(k.leased for k in kills)} leased by the killed server)"
    )
    print(f"deadlines applied: {report.timeouts}, each exactly once (lost 0, twice 0)")
    states = ", ".join(f"{n} {s}" for s, n in sorted(report.rows.items()))
    print(f"outbox rows: {states}; none left queued or leased")
    print(
        f"deliveries: {report.delivered}, every row at least once (lost 0);"
        f" delivered twice: {report.twice} (a kill between the POST and its mark)"
    )
    print(f"ready again after a restart: median {statistics.median(ready):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
