"""Redis storage: two apps (two hosts, in effect) share one count."""

from __future__ import annotations

import os
import secrets
import socket
from pathlib import Path

import httpx
import pytest

from app.main import create_app
from tests.conftest import make_settings
from tests.edge.conftest import clear_of_the_hours_end
from tests.edge.test_limits import DUEL, refused

REDIS = ("127.0.0.1", 6379)


def _redis_up() -> bool:
    try:
        with socket.create_connection(REDIS, timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture
def redis_url() -> str:
    if not _redis_up():
        if os.environ.get("CI"):
            pytest.fail("Redis is not reachable at 127.0.0.1:6379 (CI has it)")
        pytest.skip("no Redis server here")
    return f"redis://{REDIS[0]}:{REDIS[1]}/0"


async def test_two_apps_on_one_redis_share_the_count(
    db_url: str, tmp_path: Path, redis_url: str
) -> None:
    await clear_of_the_hours_end()  # the 3 an hour are counted in one window
    # a fresh address per run: earlier runs' counts in the shared server do not matter
    address = f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250)}"
    apps = [
        create_app(
            make_settings(
                db_url, tmp_path / str(n), rate_limit_storage=redis_url, limit_games="3/hour"
            )
        )
        for n in range(2)
    ]
    async with apps[0].router.lifespan_context(apps[0]), apps[1].router.lifespan_context(apps[1]):
        clients = [
            httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app, client=(address, 1)), base_url="http://t"
            )
            for app in apps
        ]
        try:
            for c in (clients[0], clients[1], clients[0]):
                assert (await c.post("/api/v1/games", json=DUEL)).status_code == 201
            refused(await clients[1].post("/api/v1/games", json=DUEL), "games")
        finally:
            for c in clients:
                await c.aclose()
