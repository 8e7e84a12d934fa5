"""My games in Chromium: the list of this browser's games under one browser cookie, the game
awaiting it marked, the header's count, a tampered cookie ignored, a game opened on a second
browser by "play on another device" listed there, the opponent's presence in the list."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    OpenPage,
    api_post,
    create_and_claim,
    create_in_lobby,
    enter_by_seat_link,
    join_by_link,
)
from tests.conftest import LiveServer

DUEL = {"scenario": "duel", "creator": "A"}


def row(page: Page, game_id: str):  # type: ignore[no-untyped-def]
    return page.locator(f'tr.game-row[data-game="{game_id}"]')


def test_my_games_lists_and_marks_the_games_awaiting_this_browser(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    ann = open_page()
    first, tokens_1 = create_and_claim(live_server, DUEL)
    second, tokens_2 = create_and_claim(live_server, DUEL)
    enter_by_seat_link(ann, f"{live_server.url}/seat/{tokens_1['A']}")
    enter_by_seat_link(ann, f"{live_server.url}/seat/{tokens_2['A']}")
    # A deploys in the second game: it waits for B only; the first waits for both
    a_at = {"ship": "a1", "position": {"x": 30.35, "y": 7.65}, "heading": 0, "speed": 8}
    api_post(
        live_server, f"/games/{second}/commands", {"type": "deploy", "ships": [a_at]}, tokens_2["A"]
    )
    ann.goto(f"{live_server.url}/")
    expect(ann.locator("#awaiting-count")).to_have_text("1")
    ann.locator("#my-games-link").click()
    expect(ann).to_have_title("My games — pingduel")
    expect(ann.locator("tr.game-row")).to_have_count(2)
    expect(row(ann, first).locator(".your-move-mark")).to_have_text("your move")
    expect(row(ann, second).locator(".your-move-mark")).to_have_count(0)
    expect(row(ann, second)).to_contain_text("side A")
    expect(ann.locator("tr.game-row").first).to_have_attribute("data-game", second)
    cookies = [c["name"] for c in ann.context.cookies()]
    assert "pd_browser" in cookies and not [c for c in cookies if c.startswith("pd_seat_")]
    # each row opens its game, for this seat
    row(ann, first).get_by_role("link", name=first).click()
    expect(ann.locator("#status .seat")).to_contain_text("Side A")
    assert ann.evaluate("document.cookie").find("pd_browser") == -1  # HttpOnly


def test_a_tampered_browser_cookie_is_ignored(live_server: LiveServer, open_page: OpenPage) -> None:
    ann = open_page()
    game_id, tokens = create_and_claim(live_server, DUEL)
    enter_by_seat_link(ann, f"{live_server.url}/seat/{tokens['A']}")
    value = next(c["value"] for c in ann.context.cookies() if c["name"] == "pd_browser")
    browser_id, _, mac = value.rpartition(".")
    eve = open_page()
    eve.context.add_cookies(
        [{"name": "pd_browser", "value": f"{browser_id}.{mac[::-1]}", "url": live_server.url}]
    )
    answer = eve.goto(f"{live_server.url}/games")
    assert answer is not None and answer.status == 200
    expect(eve.locator("tr.game-row")).to_have_count(0)
    expect(eve.locator("#my-games")).to_contain_text("Start a duel")
    answer = eve.goto(f"{live_server.url}/games/{game_id}")
    assert answer is not None and answer.status == 200
    expect(eve.locator("#status .seat")).not_to_contain_text("Side A")
    # the real cookie still works, and its id is in no page
    ann.goto(f"{live_server.url}/games")
    expect(ann.locator("tr.game-row")).to_have_count(1)
    assert browser_id not in ann.content()


def test_a_game_opened_on_another_device_is_in_that_browsers_list(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    ann = open_page()
    game_id, links = create_in_lobby(ann, live_server, name="Ann")
    bea = open_page()
    join_by_link(bea, links["B"], "Bea")
    bea.get_by_role("button", name="Play on another device").click()
    link = bea.locator("#seat-link").input_value()
    assert re.fullmatch(rf"{re.escape(live_server.url)}/seat/[A-Za-z0-9_-]+", link), link
    phone = open_page()
    phone.goto(f"{live_server.url}/games")
    expect(phone.locator("tr.game-row")).to_have_count(0)
    enter_by_seat_link(phone, link)
    expect(phone.locator("#status .seat")).to_contain_text("Side B")
    phone.goto(f"{live_server.url}/games")
    expect(row(phone, game_id)).to_contain_text("side B")
    expect(row(phone, game_id)).to_contain_text("Ann")
    # the opponent's presence, in the list too: Ann's page is open, then closed
    expect(row(phone, game_id).locator(".presence")).to_have_text("connected")
    ann.close()
    presence = row(phone, game_id).locator(".presence")
    for _ in range(60):  # the list is drawn once per load: load it until the close is seen
        phone.reload()
        if "away since" in presence.inner_text():
            break
        phone.wait_for_timeout(250)
    expect(presence).to_contain_text("away since")
    # and the first browser keeps the seat
    bea.goto(f"{live_server.url}/games")
    expect(row(bea, game_id)).to_contain_text("side B")
