"""Operations: ``pingduel migrate``, the health endpoints, the default database, compose file."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from app.main import create_app
from app.store.migrate import head_revision, upgrade
from tests.conftest import ROOT, make_settings

TABLES = {"games", "seats", "invites", "events", "idempotency", "designs", "alembic_version"}


def run_cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("PINGDUEL_")}
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def schema_of(path: Path) -> tuple[set[str], str | None]:
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    return tables, row[0] if row else None


def test_migrate_creates_the_schema_and_twice_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    url = f"sqlite+aiosqlite:///{path}"
    first = run_cli("migrate", PINGDUEL_DATABASE_URL=url, PINGDUEL_DATA_DIR=str(tmp_path / "d"))
    assert first.returncode == 0, first.stderr
    tables, revision = schema_of(path)
    assert tables >= TABLES
    assert revision == head_revision(url)
    second = run_cli("migrate", PINGDUEL_DATABASE_URL=url, PINGDUEL_DATA_DIR=str(tmp_path / "d"))
    assert second.returncode == 0, second.stderr
    assert schema_of(path) == (tables, revision)


def test_the_default_database_is_a_sqlite_file_under_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in list(os.environ):
        if name.startswith("PINGDUEL_"):
            monkeypatch.delenv(name)
    assert Settings().data_dir == Path("pingduel-data")
    assert Settings().database_url is None
    data = tmp_path / "data"
    settings = Settings(data_dir=data)
    assert settings.db_url == f"sqlite+aiosqlite:///{(data / 'pingduel.db').resolve()}"
    # and the command uses it when no PINGDUEL_DATABASE_URL is set
    result = run_cli("migrate", PINGDUEL_DATA_DIR=str(tmp_path / "other"))
    assert result.returncode == 0, result.stderr
    tables, _ = schema_of(tmp_path / "other" / "pingduel.db")
    assert tables >= TABLES


async def test_healthz_and_readyz(client: httpx.AsyncClient, db_url: str) -> None:
    r = await client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}
    r = await client.get("/readyz")
    assert r.status_code == 200, r.text
    assert r.json() == {"status": "ready", "revision": head_revision(db_url)}


async def _readyz(
    url: str, tmp_path: Path, after: Callable[[], None] | None = None
) -> list[httpx.Response]:
    app = create_app(make_settings(url, tmp_path))
    out = []
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            out.append(await c.get("/readyz"))
            if after is not None:
                await asyncio.to_thread(after)
                out.append(await c.get("/readyz"))
    return out


def _problem(r: httpx.Response, code: str) -> None:
    assert r.status_code == 503, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body = r.json()
    assert body["status"] == 503 and body["code"] == code
    assert {"type", "title", "detail"} <= set(body)


async def test_readyz_is_503_until_the_database_is_migrated(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'unmigrated.db'}"
    before, after = await _readyz(url, tmp_path, after=lambda: upgrade(url))
    _problem(before, "not_migrated")
    assert after.status_code == 200 and after.json()["revision"] == head_revision(url)


async def test_readyz_is_503_when_the_database_is_unreachable(tmp_path: Path) -> None:
    (r,) = await _readyz(f"sqlite+aiosqlite:///{tmp_path / 'no' / 'such' / 'dir.db'}", tmp_path)
    _problem(r, "not_ready")


def test_docker_compose_names_postgres_and_the_app() -> None:
    """Light: there is no docker engine here, so only the file's shape is checked."""
    path = ROOT / "docker-compose.yml"
    assert path.is_file(), "docker-compose.yml is missing at the repository root"
    text = path.read_text()
    for word in ("postgres", "healthcheck", "replicas"):
        assert word in text, word
    assert "pingduel migrate" in text or "serve" in text
    try:
        import yaml  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - pyyaml comes with the dev tools
        return
    compose = yaml.safe_load(text)
    services = compose["services"]
    assert {"db", "app"} <= set(services)
    assert "postgres" in str(services["db"].get("image", ""))
    assert "healthcheck" in services["db"]
