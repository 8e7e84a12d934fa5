"""``scripts/check_limits.py``: the size limits ``make lint`` keeps (and that it can fail)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_limits", ROOT / "scripts/check_limits.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _function(name: str, body_lines: int) -> str:
    return f"def {name}():\n" + "    x = 1\n" * body_lines


def test_a_function_over_the_limit_is_named(tmp_path: Path) -> None:
    check = _checker()
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "ok.py").write_text(_function("fits", 59))  # 60 lines with its def
    (package / "long.py").write_text(_function("short", 3) + _function("too_long", 60))
    check.ROOT = tmp_path
    found = check.long_functions(package)
    assert found == ["pkg/long.py:5 too_long: 61 lines > 60"]


def test_a_module_over_the_limit_is_named(tmp_path: Path) -> None:
    check = _checker()
    package = tmp_path / "rules"
    package.mkdir()
    (package / "small.py").write_text("x = 1\n" * 500)
    (package / "big.py").write_text("x = 1\n" * 501)
    check.ROOT = tmp_path
    assert check.long_modules(package) == ["rules/big.py: 501 lines > 500"]


def test_the_project_keeps_its_limits() -> None:
    check = _checker()
    over = check.long_functions(ROOT / "app") + check.long_modules(ROOT / "app" / "rules")
    assert over == [], "\n".join(over)
