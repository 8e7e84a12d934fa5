"""Check that app/rules imports only the standard library and itself, and nothing that does
I/O, reads the clock or draws global randomness (DESIGN.md: the rules take dice and time as
arguments). import-linter's contract covers the project's own rooms; this covers third parties.

Usage: python scripts/check_rules_purity.py  (exit 1 and a list of offending imports on failure)
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

FORBIDDEN_STDLIB = {"random", "time", "datetime", "os", "socket", "sqlite3", "asyncio", "secrets"}
ROOT = Path(__file__).resolve().parents[1]


def offending_imports(package: Path) -> list[str]:
    allowed = set(sys.stdlib_module_names) | {"app", "__future__"}
    bad = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                root = name.split(".")[0]
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                if root not in allowed or (root == "app" and not name.startswith("app.rules")):
                    bad.append(f"{where} imports {name} (standard library and app.rules only)")
                elif root in FORBIDDEN_STDLIB:
                    bad.append(f"{where} imports {name} (no I/O, clock or global randomness)")
    return bad


def main() -> int:
    bad = offending_imports(ROOT / "app" / "rules")
    for line in bad:
        print(line)
    print("app/rules is pure" if not bad else f"{len(bad)} impure import(s) in app/rules")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
