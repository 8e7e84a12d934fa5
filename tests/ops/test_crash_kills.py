"""The crash proof's short run (``scripts/proof_crash.py`` runs 100 kills): ten times a SIGKILL
under a command, a new server on the same database, and each time nothing acknowledged lost or
applied twice, every unanswered command resolved by its key, seqs contiguous, every snapshot
the replay of its log (``tests/ops/crashkit.py`` holds the checks). PostgreSQL whatever the
selected backend (``pg_url``): the proof is about the production database."""

from __future__ import annotations

from pathlib import Path

from tests.ops.crashkit import CrashProof

KILLS = 10


async def test_ten_kills_under_commands_lose_nothing_acknowledged(
    pg_url: str, tmp_path: Path
) -> None:
    proof = CrashProof(pg_url, tmp_path / "data", games=4, seed=14)
    kills = await proof.run(KILLS)  # every check of every kill asserts as it goes
    assert [k.number for k in kills] == list(range(1, KILLS + 1))
    assert sum(k.acked for k in kills) >= KILLS  # play went on between the kills
    # at least one crash left a command unanswered, so the hard case (committed or not?) ran
    assert sum(k.unanswered for k in kills) >= 1
