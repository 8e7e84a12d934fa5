"""An app with chosen limits, and HTTP clients that come from chosen addresses.

The limiter's windows are aligned to multiples of their length (an hour's start at every full
hour of the Unix clock, a day's at midnight UTC), and across a boundary its sliding count
weighs the earlier window's requests less: a limit filled just before a full hour lets one
more through just after it. A test that fills a window and expects the next request refused
therefore starts at least ``HOUR_MARGIN`` seconds before the next full hour
(``clear_of_the_hours_end``); in one window the count is exact.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from tests.conftest import make_settings

Clients = Callable[..., httpx.AsyncClient]
HOUR_MARGIN = 90.0  # seconds: far more than any test here takes from its first request to its last


async def clear_of_the_hours_end(margin: float = HOUR_MARGIN) -> None:
    """Return at once, unless the next full hour (every day's boundary is one too) is less than
    ``margin`` seconds away: then wait until it has passed (at most ``margin`` seconds, in
    about one run in forty)."""
    left = 3600.0 - time.time() % 3600.0
    if left < margin:
        await asyncio.sleep(left + 0.5)


class Edge:
    """One app (lifespan running) and clients from any address through its ASGI transport."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.opened: list[httpx.AsyncClient] = []

    def client(self, address: str = "127.0.0.1", **headers: str) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=self.app, client=(address, 40000))
        c = httpx.AsyncClient(transport=transport, base_url="http://test", headers=headers)
        self.opened.append(c)
        return c


@pytest.fixture
async def edge(db_url: str, tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """``async with edge(limit_games="2/hour", ...) as e``: an app with those settings."""
    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def make(**settings: Any) -> AsyncIterator[Edge]:
        await clear_of_the_hours_end()
        app = create_app(make_settings(db_url, tmp_path, allow_client_seed=True, **settings))
        async with app.router.lifespan_context(app):
            e = Edge(app)
            try:
                yield e
            finally:
                for c in e.opened:
                    await c.aclose()

    yield make
