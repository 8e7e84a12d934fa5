"""The arena script: the Wilson interval, and a short run that prints its table."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bot_arena.py"


def _arena() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bot_arena", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bot_arena"] = module
    spec.loader.exec_module(module)
    return module


def test_the_wilson_interval() -> None:
    wilson = _arena().wilson
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))


def test_a_short_run_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert _arena().main(["--a", "naive", "--b", "cadet", "--games", "3"]) == 0
    out = capsys.readouterr().out
    assert "naive (a) against cadet (b): 3 games" in out
    assert out.count("%") >= 6 and "median" in out and "p99" in out


def test_four_captains_games_print_the_table_and_the_calibration(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _arena().main(["--a", "captain", "--b", "naive", "--games", "4", "--calibration"]) == 0
    out = capsys.readouterr().out
    assert "captain (a) against naive (b): 4 games" in out
    assert "belief calibration" in out and "inside 90% region" in out
    calibration = out.split("belief calibration")[1]
    checks = int(calibration.splitlines()[2].split()[1])  # the "all" row's checks
    assert checks > 0
