"""Chat and rematch in Chromium (issue 15): two browsers chat with live updates and escaped
text; one offers a rematch, the other accepts, and both pages land on the new game."""

from __future__ import annotations

import re
import time

import httpx
from playwright.sync_api import Page, Route, expect

from app.deps import seat_cookie
from tests.browser.conftest import ADMIN, OpenPage, create_and_claim
from tests.conftest import LiveServer

EVIL = '<img src=x onerror="window.__pwned=1">'


def seat_page(open_page: OpenPage, server: LiveServer, game_id: str, token: str | None) -> Page:
    """A browser holding ``token`` as the game's seat cookie (None: a spectator)."""
    page: Page = open_page()
    if token is not None:
        page.context.add_cookies(
            [{"name": seat_cookie(game_id), "value": token, "url": server.url}]
        )
    page.goto(f"{server.url}/games/{game_id}")
    return page


def test_chat_between_two_browsers(open_page: OpenPage, live_server: LiveServer) -> None:
    game_id, tokens = create_and_claim(live_server, {"scenario": "duel"})
    a = seat_page(open_page, live_server, game_id, tokens["A"])
    b = seat_page(open_page, live_server, game_id, tokens["B"])
    watcher = seat_page(open_page, live_server, game_id, None)
    for page in (a, b, watcher):
        expect(page.locator("#chat .chat-form")).to_be_visible()
    a.locator("#chat-text").fill(EVIL)
    a.locator("#chat .chat-form button").click()
    # B's page shows it by itself (no reload), as text
    expect(b.locator("#chat .chat-text")).to_have_text([EVIL])
    expect(a.locator("#chat .chat-text")).to_have_text([EVIL])
    assert b.evaluate("window.__pwned") is None and b.locator("#chat img").count() == 0
    b.locator("#chat-text").fill("well played")
    b.locator("#chat .chat-form button").click()
    expect(a.locator("#chat .chat-text")).to_have_text([EVIL, "well played"])
    # the spectators' channel is apart
    watcher.locator("#chat-text").fill("from the stands")
    watcher.locator("#chat .chat-form button").click()
    expect(watcher.locator("#chat .chat-text")).to_have_text(["from the stands"])
    expect(a.locator("#chat .chat-text")).to_have_text([EVIL, "well played"])
    # an inline refusal: too long
    b.locator("#chat-text").fill("y" * 501)
    b.locator("#chat .chat-form button").click()
    expect(b.locator("#chat .error")).to_contain_text("at most 500")
    expect(b.locator("#chat .chat-text")).to_have_count(2)


def finished_duel(server: LiveServer) -> tuple[str, dict[str, str]]:
    """A duel with both seats claimed that the referee has ended (A wins)."""
    game_id, tokens = create_and_claim(server, {"scenario": "duel"})
    r = httpx.post(
        f"{server.url}/api/v1/games/{game_id}/referee/end",
        json={"winner": "A", "reason": "test"},
        headers={"Authorization": f"Bearer {ADMIN}"},
        timeout=10,
    )
    assert r.status_code == 200, r.text
    return game_id, tokens


def test_rematch_offered_and_accepted(open_page: OpenPage, live_server: LiveServer) -> None:
    game_id, tokens = finished_duel(live_server)
    a = seat_page(open_page, live_server, game_id, tokens["A"])
    b = seat_page(open_page, live_server, game_id, tokens["B"])
    a.locator("#rematch .rematch-offer").click()
    expect(a.locator("#rematch .rematch-waiting")).to_be_visible()
    # B's page learns of the offer by itself
    expect(b.locator("#rematch .rematch-accept")).to_be_visible()
    b.locator("#rematch .rematch-accept").click()
    new = re.compile(r"/games/(?!" + game_id + r")[^/]+$")
    b.wait_for_url(new)
    a.wait_for_url(new)  # moved by the hint, no click
    assert a.url == b.url
    new_id = a.url.rsplit("/", 1)[1]
    # each browser now holds the other side of the new game
    expect(a.locator("#live")).to_have_attribute("data-seat", "B")
    expect(b.locator("#live")).to_have_attribute("data-seat", "A")
    # held through the browser id's mapping, not a cookie per game
    cookies = {c["name"] for c in a.context.cookies()}
    assert "pd_browser" in cookies and seat_cookie(new_id) not in cookies


def test_an_offer_made_while_the_panel_reloads_still_reaches_the_other_page(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """The panels swap themselves whole: a hint that comes while the panel's own request is in
    flight must not be lost with the element it was queued on (static/js/social.js)."""
    game_id, tokens = finished_duel(live_server)
    b = open_page()
    b.add_init_script(
        "document.addEventListener('htmx:sseOpen', function () { window.streamOpen = true; });"
    )
    b.context.add_cookies(
        [{"name": seat_cookie(game_id), "value": tokens["B"], "url": live_server.url}]
    )
    b.goto(f"{live_server.url}/games/{game_id}")
    expect(b.locator("#rematch .rematch-offer")).to_be_visible()
    b.wait_for_function("window.streamOpen === true")  # the hint will reach this page

    def stale(route: Route) -> None:
        before = route.fetch()  # the panel as the server reads it now, before the offer
        offer = httpx.post(
            f"{live_server.url}/api/v1/games/{game_id}/rematch",
            headers={"Authorization": f"Bearer {tokens['A']}"},
            timeout=10,
        )
        assert offer.status_code == 202, offer.text  # offered, waiting for B
        time.sleep(1.5)  # the hint reaches B's page while this request is still in flight
        route.fulfill(response=before)

    b.route("**/rematch/panel", stale, times=1)
    b.evaluate("htmx.trigger(document.getElementById('rematch'), 'refresh')")
    expect(b.locator("#rematch .rematch-accept")).to_be_visible()
