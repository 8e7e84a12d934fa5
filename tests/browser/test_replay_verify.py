"""The dice check of a finished game, asked for before its record has arrived.

A player who clicks "Verify the dice" as the page opens — the record's fetch still under way —
gets the check once the record is in, not a message that stays on the page for good. The
record's answer is held back by the test (a Playwright route) until after the click.
"""

from __future__ import annotations

from playwright.sync_api import Route, expect

from tests.browser.conftest import FacingShips, OpenPage, Referee, enter_by_seat_link
from tests.conftest import LiveServer


def test_a_click_before_the_record_arrives_verifies_once_it_does(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    game = FacingShips(live_server, referee, "Striker", "destroyer")
    game.send("B", {"type": "resign"})
    page = open_page()
    held: list[Route] = []
    page.route("**/record.json", lambda route: held.append(route))
    enter_by_seat_link(page, f"{live_server.url}/seat/{game.tokens['A']}")
    expect(page.locator("#replay")).to_be_visible()
    page.locator("#verify-dice").click()
    expect(page.locator("#verify-result")).not_to_have_attribute("data-verified", "yes")
    expect(page.locator("#verify-result")).to_contain_text("loading")
    assert held, "the record's fetch did not start"
    held[0].continue_()
    expect(page.locator("#verify-result")).to_have_attribute("data-verified", "yes")
    expect(page.locator("#verify-result")).to_contain_text("dice verify")


def test_the_replay_steps_asked_for_before_the_record_arrives_break_nothing(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    """◀, ▶ and the slider used as the page opens, the record's fetch still under way: the
    replay says it is loading and shows the record once it is in (they drew a frame that was
    not there yet: a script error at each step)."""
    game = FacingShips(live_server, referee, "Striker", "destroyer")
    game.send("B", {"type": "resign"})
    last = referee.view(game.id)["seq"]
    page = open_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    held: list[Route] = []
    page.route("**/record.json", lambda route: held.append(route))
    enter_by_seat_link(page, f"{live_server.url}/seat/{game.tokens['A']}")
    expect(page.locator("#replay")).to_be_visible()
    page.locator("#replay-prev").click()
    page.locator("#replay-next").click()
    page.locator("#replay-step").dispatch_event("input")
    expect(page.locator("#replay-label")).to_contain_text("Loading")
    assert held, "the record's fetch did not start"
    held[0].continue_()
    expect(page.locator("#replay-label")).to_contain_text(f"Event {last} of {last}")
    page.locator("#replay-prev").click()
    expect(page.locator("#replay-label")).not_to_contain_text(f"Event {last} of")
    assert errors == []
