"""A newcomer's review of missiles and point defence in Chromium (issue 12): what a layout test
can show. Fails until the page is fixed; the docstring names what the fix must do."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import OpenPage, api_post
from tests.conftest import ADMIN, LiveServer


def test_the_referees_game_page_fits_the_window(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    """Found while watching the "Missile duel" as the referee: at 1280 px the page scrolls
    sideways (about 43 px), because the seed commitment in the referee's orders panel is one
    unbroken 64-character <code> line that does not wrap. A fix must let it wrap (or shorten it)
    so that the referee's page is no wider than the window, as the players' pages are."""
    created = api_post(live_server, "/games", {"scenario": "missile_duel", "creator": "A"}, None)
    page = open_page()
    page.goto(f"{live_server.url}/referee")
    page.fill("#token", ADMIN)
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{live_server.url}/games/{created['game_id']}")
    expect(page.locator("#map")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    window = page.evaluate("window.innerWidth")
    wide = page.evaluate(
        """() => [...document.querySelectorAll("body *")]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map(e => e.tagName.toLowerCase() + ": " + (e.textContent || "").slice(0, 40))
            .slice(0, 3)"""
    )
    assert width <= window, f"the page is {width} px wide in a {window} px window: {wide}"
