"""The orders a command's answer shows keep what the player puts in them when the live stream's
hint of that command comes after the answer.

A form sent with htmx is answered with the orders block at once; the page's live stream then
says "the game is at seq S" and every block refreshes, the orders block too. On a loaded server
that hint can come after the player has started on the new form (here: a launch point clicked
on the map): the refresh must find the block unchanged (204), not redraw it and throw the
point away. The test holds the page's stream back (a Playwright route) until after the clicks,
then lets it through: the hint of the activation arrives late, as it may under load.

The other way round, an answer that comes late: the other side acts while the page's own
command is being answered (both sides declare in a fire window). The answer, drawn before the
other side's command, replaces the orders block that had asked for the newer state; the page
must then still come to the newer state by itself, not wait for the next event with orders
that are out of date (here: "waiting for the other side" while it is the player's move).
"""

from __future__ import annotations

from playwright.sync_api import APIResponse, Route, expect

from tests.browser.conftest import (
    OpenPage,
    Referee,
    api_post,
    click_table,
    enter_by_seat_link,
)
from tests.browser.test_fighters_page import LAUNCH_AWAY, Carrier
from tests.browser.test_game_clarity import fire_window
from tests.conftest import LiveServer

AT_REST = "() => document.querySelectorAll('.htmx-request').length === 0"


def test_a_late_hint_keeps_the_launch_point_clicked_in_the_answers_form(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    game = Carrier(live_server, referee)
    game.b_stays()
    page = open_page()
    held: list[Route] = []
    page.route("**/live", lambda route: held.append(route))
    enter_by_seat_link(page, f"{live_server.url}/seat/{game.tokens['A']}")

    with page.expect_response(
        lambda r: r.request.method == "POST" and r.url.endswith("/act")
    ) as answer:
        page.locator('#orders-form button[value="activate"]').click()
    assert answer.value.status == 200
    row = page.locator('#markers-form .launch-order[data-order="fb-1"]')
    expect(row).to_be_visible()
    page.wait_for_function(AT_REST)  # the answer's own refresh of the other blocks is done
    row.locator('input[name="ordering"]').check()
    click_table(page, *LAUNCH_AWAY)
    to_x = row.locator('input[name="launch_to_x@fb-1"]')
    expect(to_x).to_have_value(f"{LAUNCH_AWAY[0]:.1f}")

    # the hint of the activation, late: the stream opens and says the game is at its seq
    assert held, "the page's live stream did not start"
    with page.expect_response(lambda r: "/fragments/controls" in r.url) as refreshed:
        for route in held:
            route.continue_()
    status = refreshed.value.status
    page.wait_for_function(AT_REST)
    expect(row).to_be_visible()
    expect(to_x).to_have_value(f"{LAUNCH_AWAY[0]:.1f}")
    expect(row.locator('input[name="launch@fb-1"]')).to_be_checked()
    assert status == 204, f"the orders block was drawn again ({status}) for a hint it had seen"


def test_an_answer_drawn_before_the_other_sides_command_is_followed_by_the_newer_state(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    game_id, tokens = fire_window(live_server, [("Dart", (30.0, 16.0))])
    page = open_page()
    page.route("**/live", lambda route: None)  # no hint at all: the page hears only answers
    enter_by_seat_link(page, f"{live_server.url}/seat/{tokens['A']}")
    expect(page.locator("#fire-form")).to_be_visible()

    # A holds fire on the page; its answer is drawn by the server at once, and handed to the
    # page only after B has held too (over the API): the window closed, Lance's move is A's
    window = referee.view(game_id)["phase"]["fire"]["window"]
    drawn: list[APIResponse] = []

    def late(route: Route) -> None:
        drawn.append(route.fetch())
        api_post(
            live_server,
            f"/games/{game_id}/commands",
            {"type": "fire", "window": window, "shots": []},
            tokens["B"],
        )
        route.fulfill(response=drawn[0])

    page.route("**/act", late)
    page.get_by_role("button", name="Hold fire").click()
    expect(page.locator("#orders-form")).to_be_visible()
    expect(page).to_have_title("Your move — pingduel")
    assert drawn and "Waiting for" in drawn[0].text(), "the answer was not drawn before B's hold"
    assert referee.view(game_id)["phase"]["awaiting"] == ["A"]
