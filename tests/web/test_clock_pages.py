"""Clocks on the pages (issue 15): the lobby's presets, the clock on the join page before a
seat is taken, both clocks in the game page's status, a timeout in the log and the "Claim the
win" button once the other side timed out three decisions in a row."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from tests.api.clock_helpers import FakeNow
from tests.web import Browser, Game, api_view, element

BrowserFactory = Callable[[], Browser]
LOBBY = {"mode": "scenario", "scenario": "duel", "movement": "cinematic", "seat": "A"}


@pytest.fixture
async def new_browser(client: httpx.AsyncClient) -> AsyncIterator[BrowserFactory]:
    opened: list[Browser] = []

    def make() -> Browser:
        browser = Browser(client)
        opened.append(browser)
        return browser

    yield make
    for browser in opened:
        await browser.close()


def _clocks(client: httpx.AsyncClient) -> Any:
    return client._transport.app.state.service.clocks  # type: ignore[attr-defined]


async def test_the_lobby_offers_clock_presets_and_the_join_page_shows_the_clock(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    now = FakeNow()
    _clocks(client).now = now
    creator = new_browser()
    lobby = (await creator.get("/")).text
    assert 'name="clock"' in lobby and "Live 10 min + 20 s" in lobby and "3 days per move" in lobby
    r = await creator.form("/games", {**LOBBY, "clock": "fortnight"})
    assert r.status_code == 422 and "choose one of the clocks offered" in r.text
    r = await creator.form("/games", {**LOBBY, "clock": "live-10"})
    assert r.status_code == 201, r.text
    game_id = re.search(r'href="/games/([a-z0-9]+)"', r.text).group(1)  # type: ignore[union-attr]
    link = re.search(r'class="invite-link" readonly value="([^"]+)"', r.text).group(1)  # type: ignore[union-attr]
    joiner = new_browser()
    path = urlsplit(link).path
    join = await joiner.get(path)
    assert join.status_code == 200, join.text
    assert "Clock: Live: 10 min + 20 s a decision" in join.text
    r = await joiner.form(path, {})
    assert r.status_code in (200, 303), r.text
    page = (await creator.page(game_id)).text
    assert "You: 10:00" in element(page, "status") and "Raider: 10:00" in element(page, "status")
    assert page.count('class="clock running"') == 2  # deployment awaits both
    assert "Claim the win" not in page


async def test_timeouts_show_in_the_log_and_allow_claiming_the_win(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    now = FakeNow()
    clocks = _clocks(client)
    clocks.now = now
    r = await client.post(
        "/api/v1/games",
        json={"scenario": "duel", "clock": {"kind": "live", "initial_s": 60, "increment_s": 5}},
    )
    created = r.json()
    code = created["invites"]["B"]
    claimed = (await client.post(f"/api/v1/invites/{code}/claim", json={})).json()
    game = Game(created["game_id"], {"A": created["token"], "B": claimed["token"]})
    a = new_browser()
    await a.enter(game.tokens["A"])
    # A never acts either: both time out in deployment, then every decision of either side
    for _ in range(8):
        seen = await api_view(client, game, "A")
        if seen["clock"]["timeouts"]["B"] >= 3 or seen["status"] != "active":
            break
        running = [s for s in ("A", "B") if seen["clock"][s]["running"]]
        now.advance(min(seen["clock"][s]["left_s"] for s in running) + 1)
        assert await clocks.run_due() == 1
    page = (await a.page(game.id)).text
    assert "Time ran out for you: the server played deployed every ship" in element(page, "log")
    assert (await api_view(client, game, "A"))["clock"]["timeouts"]["B"] == 3
    assert 'id="claim-win"' in page
    r = await a.form(f"/games/{game.id}/act", {"type": "claim_win", "idem": "web-claim-win"})
    assert r.status_code in (200, 303), r.text
    assert (await api_view(client, game, "A"))["winner"] == "A"
