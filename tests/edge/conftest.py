"""An app with chosen limits, and HTTP clients that come from chosen addresses."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.main import create_app
from tests.conftest import make_settings

Clients = Callable[..., httpx.AsyncClient]


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
        app = create_app(make_settings(db_url, tmp_path, allow_client_seed=True, **settings))
        async with app.router.lifespan_context(app):
            e = Edge(app)
            try:
                yield e
            finally:
                for c in e.opened:
                    await c.aclose()

    yield make
