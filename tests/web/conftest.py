"""Fixtures of the page tests: browsers with their own cookies on the app under test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from tests.web import Browser

BrowserFactory = Callable[[], Browser]


@pytest.fixture
async def new_browser(client: httpx.AsyncClient) -> AsyncIterator[BrowserFactory]:
    """Browsers for a test, closed after it."""
    opened: list[Browser] = []

    def make() -> Browser:
        browser = Browser(client)
        opened.append(browser)
        return browser

    yield make
    for browser in opened:
        await browser.close()
