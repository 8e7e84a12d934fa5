"""The crash proof under due work, short (``scripts/proof_crash.py --due`` runs more kills):
clocked games that move only by their timeouts, every seat away with a webhook to a receiver
in the test; four SIGKILLs while deadlines or notifications are due, a new server each time.
At the end every deadline made due was applied exactly once (one ``timed_out`` per decision),
the logs are gapless and replay to their snapshots, every outbox row was sent and reached the
receiver, and a notification arrived twice at most once per kill (the sender's at-least-once
window: a kill between its POST and its mark). PostgreSQL whatever the selected backend."""

from __future__ import annotations

from pathlib import Path

from tests.ops.crashkit import DueCrashProof

KILLS = 4


async def test_kills_while_deadlines_and_notifications_are_due(pg_url: str, tmp_path: Path) -> None:
    proof = DueCrashProof(pg_url, tmp_path / "data", games=3, seed=15)
    report = await proof.run(KILLS)  # the checks assert at the end of the run
    assert [k.number for k in report.kills] == list(range(1, KILLS + 1))
    assert all(k.due_deadlines or k.queued for k in report.kills)  # each kill hit due work
    assert report.timeouts >= KILLS  # deadlines were applied between the kills
    assert report.rows.get("sent", 0) >= KILLS
    assert report.twice <= KILLS
