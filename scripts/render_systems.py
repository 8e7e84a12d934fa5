"""Write docs/systems.md from the systems table (app/rules/systems.py)."""

from __future__ import annotations

from pathlib import Path

from app.rules.systems import render_markdown

TARGET = Path(__file__).resolve().parent.parent / "docs" / "systems.md"

if __name__ == "__main__":
    TARGET.write_text(render_markdown(), encoding="utf-8")
    print(f"wrote {TARGET}")
