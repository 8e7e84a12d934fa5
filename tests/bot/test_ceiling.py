"""The ceiling diagnostic (scripts/captain_ceiling.py): its seer reckons with the true enemy
positions, and the patching it does is undone after every game."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from app.bot import runner, tactics
from app.rules.state import GameState

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _ceiling() -> ModuleType:
    sys.path.insert(0, str(SCRIPTS))
    try:
        spec = importlib.util.spec_from_file_location(
            "captain_ceiling", SCRIPTS / "captain_ceiling.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(SCRIPTS))


def test_the_seer_reckons_with_the_true_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    ceiling = _ceiling()
    seen: list[tuple[GameState, list[tactics.Enemy]]] = []
    decide = ceiling.Captain.decide

    def spy(self: Any, view: Any, rng: random.Random) -> Any:
        out = decide(self, view, rng)
        if self.truth is not None:
            seen.append((self.truth, list(self._enemies)))
        return out

    monkeypatch.setattr(ceiling.Captain, "decide", spy)
    view, sample = runner.view, tactics.sample
    ceiling.one("duel", 1000, 0, "cadet", seer=True)
    assert runner.view is view and tactics.sample is sample  # nothing stays patched
    checked = 0
    for truth, enemies in seen:
        for e in enemies:
            true = truth.ship(e.id)
            if true.position is None:
                continue
            assert {(p.x, p.y, p.heading) for p in e.particles} == {
                (true.position.x, true.position.y, true.heading)
            }
            checked += 1
    assert checked > 10


def test_a_short_run_prints_both_rows(capsys: pytest.CaptureFixture[str]) -> None:
    assert _ceiling().main(["--games", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "duel against cadet: 2 games each, seeds from 5" in out
    assert "captain " in out and "seer (true positions)" in out and out.count("score") == 2
