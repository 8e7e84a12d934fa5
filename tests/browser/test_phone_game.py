"""A game on a phone (390 × 844): while the player types orders, the map with the move's
preview stays on screen above them, and the section bar jumps to the orders without hiding
them under the map."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.conftest import FacingShips, OpenPage, Referee, screenshot
from tests.conftest import LiveServer

PHONE = {"width": 390, "height": 844}

# where an element lies against the window, and whether it is the one drawn at its centre
PLACE = """el => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {top: r.top, bottom: r.bottom, height: r.height, left: r.left, right: r.right,
            seen: !!top && (top === el || el.contains(top)), window: window.innerHeight};
}"""


def _place(page: Page, selector: str) -> dict[str, Any]:
    place: dict[str, Any] = page.locator(selector).first.evaluate(PLACE)
    return place


def _on_screen(place: dict[str, Any]) -> bool:
    return place["top"] >= 0 and place["bottom"] <= place["window"] and place["height"] > 0


def test_orders_and_their_preview_on_one_phone_screen(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    game = FacingShips(live_server, referee, "Lance", "destroyer")
    game.b_stays()
    page = game.page(open_page, "A")
    page.set_viewport_size(PHONE)
    form = page.locator("#orders-form")
    expect(form).to_be_visible()

    # the bar's "Orders" link brings the orders out below the map, not under it
    page.locator(".game-tabs").get_by_role("link", name="Orders").click()
    speed = form.locator("input[name=speed_change]")
    speed.focus()
    speed.fill("2")
    expect(page.locator("#preview polyline")).to_have_count(1)
    expect(page.locator("#preview-text")).to_contain_text("speed")

    field, ship = _place(page, "#orders-form input[name=speed_change]"), _place(page, "#map")
    assert _on_screen(field) and field["seen"], field  # the field is not under the map
    # the map (with the preview drawn over it) is on screen above the field, at most about
    # half of the screen high
    assert ship["bottom"] > 0 and ship["top"] < field["top"], (ship, field)
    mapcol = _place(page, ".mapcol")
    assert _on_screen(mapcol) and mapcol["height"] <= 0.5 * PHONE["height"] + 1, mapcol
    assert mapcol["bottom"] <= field["top"], (mapcol, field)
    # the preview's path lies inside the map's box on screen
    path = _place(page, "#preview polyline")
    assert path["top"] >= mapcol["top"] - 1 and path["bottom"] <= mapcol["bottom"] + 1, path
    # nothing on the page is wider than the phone
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    shot = screenshot(page, "16-phone-orders")  # the whole page, and what the screen shows:
    page.screenshot(path=str(shot.with_name("16-phone-orders-screen.png")))

    # the page is scrolled back up and the Move button given focus (as Tab would): it comes
    # out below the map, not under it
    page.evaluate("() => window.scrollTo(0, 0)")
    page.locator("#move-button").focus()
    button = _place(page, "#move-button")
    assert _on_screen(button) and button["seen"], button
    assert _on_screen(_place(page, ".mapcol"))  # the map is still there
