"""docs/systems.md is the systems table rendered; the two never differ."""

from __future__ import annotations

from pathlib import Path

from app.rules.systems import SYSTEMS
from scripts.render_systems import render_markdown

DOC = Path(__file__).resolve().parents[2] / "docs" / "systems.md"


def test_docs_systems_md_is_the_rendered_table() -> None:
    assert DOC.read_text(encoding="utf-8") == render_markdown(), (
        "docs/systems.md is out of date: run .venv/bin/python scripts/render_systems.py"
    )


def test_every_row_and_decision_is_in_the_doc() -> None:
    text = render_markdown()
    for row in SYSTEMS.values():
        assert f"`{row.type}`" in text
        for decision in row.decisions:
            assert decision in text
