"""Golden scenario files: a start, commands, fixed dice, and what must follow."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rules.golden_runner import check, golden_files, load


def test_there_are_enough_golden_scenarios() -> None:
    assert len(golden_files()) >= 15


@pytest.mark.parametrize("path", golden_files(), ids=lambda p: p.stem)
def test_golden(path: Path) -> None:
    check(load(path))
