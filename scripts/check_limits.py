"""Check the size limits the code keeps: no function in ``app/`` over 60 lines, no module of
``app/rules`` over 500 lines. A function counts from its ``def`` (decorators excluded) to its
last line, nested functions included; a module counts every line of its file.

Why: a function longer than a screen hides its steps, and a rules module that keeps growing is
a sign that two ideas share it. The limits are checks, not aims.

Usage: python scripts/check_limits.py  (exit 1 and a list of what is over on failure)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_FUNCTION_LINES = 60
MAX_RULES_MODULE_LINES = 500


def long_functions(package: Path, limit: int = MAX_FUNCTION_LINES) -> list[str]:
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    where = path.relative_to(ROOT)
                    found.append(f"{where}:{node.lineno} {node.name}: {lines} lines > {limit}")
    return found


def long_modules(package: Path, limit: int = MAX_RULES_MODULE_LINES) -> list[str]:
    found = []
    for path in sorted(package.rglob("*.py")):
        lines = len(path.read_text().splitlines())
        if lines > limit:
            found.append(f"{path.relative_to(ROOT)}: {lines} lines > {limit}")
    return found


def main() -> int:
    problems = long_functions(ROOT / "app") + long_modules(ROOT / "app" / "rules")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
