"""Fixtures of the live tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import fresh_database


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    """A migrated SQLite database, whatever the backend (tests of SQLite's transactions)."""
    with fresh_database(tmp_path, "sqlite") as url:
        yield url
