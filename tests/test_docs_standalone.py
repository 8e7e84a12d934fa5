"""The documentation stands alone: a fresh clone has no ../shared beside it, so no page may send
its reader there, and docs/rules.md must say which source documents it reads."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
RULES_PAGE = ROOT / "docs" / "rules.md"

# pointers into the workspace beside the repository, which a clone does not have
FORBIDDEN = ("../shared", "shared/RULES", "shared/API", "RULES.md", "API.md")
SOURCE_TITLES = ("FT Pinging", "Full Thrust: Systems Compendium")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_points_outside_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    found = [
        f"line {n}: {needle!r}"
        for n, line in enumerate(text.splitlines(), start=1)
        for needle in FORBIDDEN
        if needle in line
    ]
    assert not found, f"{page.name} points outside the repository: {'; '.join(found)}"


def test_the_rules_page_names_both_source_documents() -> None:
    text = RULES_PAGE.read_text(encoding="utf-8")
    missing = [title for title in SOURCE_TITLES if f'"{title}"' not in text]
    assert not missing, f"docs/rules.md does not name the source document(s) {missing}"


def _sections(text: str) -> set[int]:
    return {int(m) for m in re.findall(r"^## (\d+)\. ", text, flags=re.MULTILINE)}


def test_every_rules_section_referred_to_exists() -> None:
    """Inside docs/rules.md "RULES §n", on the other pages "rules.md §n", mean a numbered
    section of docs/rules.md; each such section must be there."""
    sections = _sections(RULES_PAGE.read_text(encoding="utf-8"))
    assert sections == set(range(1, 14)), f"docs/rules.md has sections {sorted(sections)}"
    dangling = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        pattern = r"RULES §(\d+)" if page == RULES_PAGE else r"rules\.md\)? §(\d+)"
        dangling += [
            f"{page.name}: §{n}" for n in re.findall(pattern, text) if int(n) not in sections
        ]
    assert not dangling, f"references to missing sections of docs/rules.md: {dangling}"
