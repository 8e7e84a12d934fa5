"""The pages one by one: lobby, invite, join, seat re-entry, spectators, forms without
JavaScript, the page title, CSRF, the connection dot and reconnecting after a restart."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, Response, expect

from tests.browser.conftest import (
    OpenPage,
    Referee,
    assert_no_hidden_positions,
    assert_same_document,
    create_in_lobby,
    enter_by_seat_link,
    game_id_of,
    join_by_link,
    mark,
    settled,
)
from tests.conftest import ADMIN, LiveServer

UP = re.compile(r"\bup\b")
DOWN = re.compile(r"\bdown\b")
YOUR_MOVE = "Your move — pingduel"


def act_response(page: Page) -> Any:
    return page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/act"))


def redirect_of(response: Response) -> Response:
    """The 303 that led to this page."""
    previous = response.request.redirected_from
    assert previous is not None, f"{response.url} was not reached by a redirect"
    answer = previous.response()
    assert answer is not None
    return answer


def two_players(server: LiveServer, open_page: OpenPage, js: bool = True) -> tuple[str, Page, Page]:
    """A creates a duel in the lobby, B joins by the invite link: both land on the game."""
    page_a, page_b = open_page(js=js), open_page(js=js)
    game_id, links = create_in_lobby(page_a, server)
    join_by_link(page_b, links["B"], "Bea")
    return game_id, page_a, page_b


def deploy_with_form(page: Page, x: float, y: float, speed: int = 6) -> None:
    ship = "a1" if page.locator("#live").get_attribute("data-seat") == "A" else "b1"
    form = page.locator("#deploy-form")
    form.locator(f"input[name=x_{ship}]").fill(str(x))
    form.locator(f"input[name=y_{ship}]").fill(str(y))
    form.locator(f"input[name=speed_{ship}]").fill(str(speed))
    form.get_by_role("button", name="Deploy in secret").click()


def deploy_both(
    referee: Referee,
    game_id: str,
    page_a: Page,
    page_b: Page,
    a: tuple[float, float] = (20.0, 6.0),
    b: tuple[float, float] = (50.0, 42.0),
) -> dict[str, Any]:
    """A deploys, B's page hears of it, then B deploys (a deploy form shown before the other
    side's deployment is stale: 409)."""
    with act_response(page_a) as deployed:
        deploy_with_form(page_a, *a)
    assert deployed.value.status == 200
    settled(page_b, referee.view(game_id)["seq"])
    with act_response(page_b) as deployed:
        deploy_with_form(page_b, *b)
    assert deployed.value.status == 200
    truth = referee.view(game_id)
    assert truth["phase"]["step"] == "activate"
    return truth


# -- lobby, invites, joining -----------------------------------------------------------------------
def test_lobby_invite_and_join_claims_only_on_post(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    page_a = open_page()
    page_a.goto(f"{live_server.url}/")
    expect(page_a.locator("h1")).to_have_text("Start a duel")
    expect(page_a.locator("#scenario option")).not_to_have_count(0)
    expect(page_a.locator("table.designs tbody tr")).not_to_have_count(0)
    game_id, links = create_in_lobby(page_a, live_server)
    expect(page_a.locator("#status .seat")).to_contain_text("Side A")
    expect(page_a.locator("#status")).to_contain_text("Waiting for your opponent")
    mark_a = mark(page_a)

    # two browsers open the link: a GET shows what the invite offers and claims nothing
    first, second = open_page(), open_page()
    for page in (first, second):
        response = page.goto(links["B"])
        assert response is not None and response.status == 200
        expect(page.locator("h1")).to_contain_text("Join as side B")
        expect(page.get_by_role("button", name="Take the seat")).to_be_visible()
    truth = referee.view(game_id)
    assert truth["status"] == "waiting" and truth["seats"]["B"] is None

    # the first POST claims: 303 to the game as side B; A's page starts by itself
    first.fill("#name", "Bea")
    with first.expect_response(lambda r: r.request.method == "POST") as claimed:
        first.get_by_role("button", name="Take the seat").click()
    assert claimed.value.status == 303
    first.wait_for_url(f"{live_server.url}/games/{game_id}")
    expect(first.locator("#status .seat")).to_contain_text("Side B")
    expect(first.locator("#deploy-form")).to_be_visible()
    assert referee.view(game_id)["seats"]["B"] == {"name": "Bea"}
    expect(page_a.locator("#status")).to_contain_text("Deployment")
    expect(page_a.locator("#deploy-form")).to_be_visible()
    assert_same_document(page_a, mark_a)

    # the second browser's confirm form is now too late: the 410 page
    with second.expect_response(lambda r: r.request.method == "POST") as refused:
        second.get_by_role("button", name="Take the seat").click()
    assert refused.value.status == 410
    expect(second.locator("h1")).to_have_text("Invite already used")
    expect(second.get_by_role("alert")).to_contain_text("already")
    expect(second).to_have_title("Invite already used — pingduel")
    expect(second.locator("#status")).to_have_count(0)
    response = second.goto(links["B"])  # and the link itself says so too
    assert response is not None and response.status == 410


def test_seat_link_reenters_from_a_fresh_browser(
    live_server: LiveServer, open_page: OpenPage
) -> None:
    game_id, _, page_b = two_players(live_server, open_page)
    page_b.get_by_role("button", name="Play on another device").click()  # a POST shows it
    link = page_b.locator("#seat-link").input_value()
    assert re.fullmatch(rf"{re.escape(live_server.url)}/seat/[A-Za-z0-9_-]+", link), link

    other_device = open_page()
    seat = enter_by_seat_link(other_device, link)  # the page that names the seat, confirmed
    assert other_device.url == f"{live_server.url}/games/{game_id}"  # the token left the URL
    assert seat.status == 303
    headers = seat.all_headers()
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["cache-control"] == "no-store"
    # one browser cookie holds every seat of this browser (never a token, nor a cookie per game)
    assert "pd_browser=" in headers["set-cookie"] and "pd_seat_" not in headers["set-cookie"]
    assert "httponly" in headers["set-cookie"].lower()
    expect(other_device.locator("#status .seat")).to_contain_text("Side B")
    expect(other_device.locator("#deploy-form")).to_be_visible()
    cookies = {c["name"]: c for c in other_device.context.cookies()}
    assert cookies["pd_browser"]["httpOnly"] and cookies["pd_browser"]["sameSite"] == "Lax"
    assert other_device.evaluate("document.cookie").find("pd_browser") == -1

    # an unknown token is a message page, not a seat
    response = open_page().goto(f"{live_server.url}/seat/not-a-real-token")
    assert response is not None and response.status in (401, 404)


def test_a_spectator_sees_only_public_facts(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    game_id, page_a, page_b = two_players(live_server, open_page)
    watcher = open_page()
    watcher.goto(f"{live_server.url}/games/{game_id}")
    expect(watcher.locator("#status .seat")).to_have_text("Spectator")
    expect(watcher.locator("#conn")).to_have_class(UP)
    watching = mark(watcher)

    truth = deploy_both(referee, game_id, page_a, page_b)
    settled(watcher, truth["seq"])
    assert assert_no_hidden_positions(watcher, "spectator", truth) == 2

    # the first side moves and pings: the pinger is live for everyone, its enemy's true
    # position stays out of the spectator's page unless the ping found it
    side = truth["phase"]["side"]
    mover = page_a if side == "A" else page_b
    with act_response(mover) as moved:
        mover.get_by_role("button", name="Move", exact=True).click()
    assert moved.value.status == 200
    truth = referee.view(game_id)
    settled(watcher, truth["seq"])
    expect(watcher.locator("#log li.ev").first).to_contain_text("moved")
    assert assert_no_hidden_positions(watcher, "spectator", truth) == 2
    with act_response(mover) as pinged:
        mover.get_by_role("button", name="Ping", exact=True).click()
    assert pinged.value.status == 200
    truth = referee.view(game_id)
    settled(watcher, truth["seq"])
    assert_same_document(watcher, watching)
    assert_no_hidden_positions(watcher, "spectator", truth)
    live = [s["id"] for s in truth["ships"] if s["revealed"] == "live"]
    assert f"{side.lower()}1" in live
    for ship in live:
        expect(watcher.locator(f"#map .ship.live[data-ship={ship}]")).to_have_count(1)
    expect(watcher.locator("#map .ship.own, #map .ship.truth")).to_have_count(0)

    # nothing to command, nothing private
    for form in ("#deploy-form", "#orders-form", "#fire-form", "#seat-link"):
        expect(watcher.locator(form)).to_have_count(0)
    html = watcher.content()
    for private in ("orders-log", "speed change", "Your orders", "velocity"):
        assert private not in html, private
    # a player's page never names the other player's orders either
    other = page_b if mover is page_a else page_a
    assert "speed change" not in other.locator("#log").inner_text()


# -- without JavaScript ----------------------------------------------------------------------------
def test_forms_work_without_javascript(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    game_id, page_a, page_b = two_players(live_server, open_page, js=False)
    for page in (page_a, page_b):
        page.reload()  # no live updates without JavaScript: A reloads to see B seated
        expect(page.locator("#deploy-form")).to_be_visible()
        expect(page.locator("#conn")).not_to_have_class(UP)  # no script ran

    for page, (x, y) in ((page_a, (20.0, 6.0)), (page_b, (52.0, 42.0))):
        page.reload()  # a form shown before the other side deployed would be stale (409)
        with page.expect_navigation() as nav:
            deploy_with_form(page, x, y)
        response = nav.value
        assert response is not None and response.status == 200
        assert redirect_of(response).status == 303
    truth = referee.view(game_id)
    assert truth["phase"]["step"] == "activate"
    side = truth["phase"]["side"]
    mover = page_a if side == "A" else page_b
    mover.reload()  # no live updates without JavaScript: the player reloads
    form = mover.locator("#orders-form")
    expect(form).to_be_visible()

    # orders the browser accepts but the rules do not: the page again, with the reason
    form.locator("input[name=speed_change]").fill("4")
    form.locator("input[name=turn]").fill("3")
    with mover.expect_navigation() as nav:
        form.get_by_role("button", name="Move", exact=True).click()
    response = nav.value
    assert response is not None and response.status == 422
    expect(mover.locator("#action-error")).to_have_text(
        "|speed change| + |turn| = 7 exceeds thrust 6"
    )
    assert referee.view(game_id)["seq"] == truth["seq"]

    # legal orders: 303 back to the page, now offering the ping or overwatch
    form = mover.locator("#orders-form")
    form.locator("input[name=speed_change]").fill("-2")
    form.locator("input[name=turn]").fill("1")
    with mover.expect_navigation() as nav:
        form.get_by_role("button", name="Move", exact=True).click()
    response = nav.value
    assert response is not None and response.status == 200
    assert redirect_of(response).status == 303
    expect(mover.locator("#action-error")).to_have_count(0)
    expect(mover.locator("#controls")).to_contain_text("has moved")
    with mover.expect_navigation() as nav:
        mover.get_by_role("button", name="End activation — overwatch").click()
    assert redirect_of(nav.value).status == 303
    truth = referee.view(game_id)
    assert truth["phase"]["side"] != side
    ship = next(s for s in truth["ships"] if s["side"] == side)
    assert ship["overwatch"] and ship["velocity"] == 4 and ship["heading"] in (1, 7)
    other = page_b if mover is page_a else page_a
    other.reload()
    expect(other.locator("#orders-form")).to_be_visible()
    expect(other).to_have_title(YOUR_MOVE)
    expect(mover).to_have_title("pingduel")


# -- title, connection dot, CSRF -------------------------------------------------------------------
def test_title_says_your_move_and_the_dot_goes_up(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    game_id, page_a, page_b = two_players(live_server, open_page)
    marks = {"A": mark(page_a), "B": mark(page_b)}
    for page in (page_a, page_b):
        expect(page.locator("#conn")).to_have_class(UP)
        expect(page).to_have_title(YOUR_MOVE)  # both deploy at once
        expect(page.locator("#status")).to_have_class(re.compile(r"\byour-move\b"))

    with act_response(page_a) as deployed:
        deploy_with_form(page_a, 30.0, 4.0)
    assert deployed.value.status == 200
    expect(page_a).to_have_title("pingduel")
    expect(page_a.locator("#controls")).to_contain_text("Waiting for")
    settled(page_b, referee.view(game_id)["seq"])
    expect(page_b).to_have_title(YOUR_MOVE)

    with act_response(page_b) as deployed:
        deploy_with_form(page_b, 30.0, 44.0)
    assert deployed.value.status == 200
    truth = referee.view(game_id)
    first = truth["phase"]["side"]
    pages = {"A": page_a, "B": page_b}
    for side, page in pages.items():
        settled(page, truth["seq"])
        expect(page).to_have_title(YOUR_MOVE if side == first else "pingduel")
        expect(page.locator("#conn")).to_have_class(UP)  # still up after every refresh
        assert_same_document(page, marks[side])
    mover = pages[first]
    form = mover.locator("#orders-form")
    expect(form).to_be_visible()

    # with htmx an illegal order comes back inline too, in place, and the page stays
    form.locator("input[name=speed_change]").fill("4")
    form.locator("input[name=turn]").fill("3")
    expect(mover.locator("#preview-text")).to_contain_text("exceeds thrust 6")
    # the page turns Move off and says why ...
    expect(form.get_by_role("button", name="Move", exact=True)).to_be_disabled()
    expect(mover.locator("#move-why")).to_contain_text("Move is off: ")
    # ... and were the orders sent all the same (a page behind, a hand-made post), the server's
    # refusal comes back inline: the form's own checks are lifted to send them
    form.evaluate(
        "f => { document.activeElement.blur(); f.noValidate = true;"
        " f.querySelector('#move-button').disabled = false; }"
    )  # blurred first: the field's change event would redraw the preview and turn Move off again
    with act_response(mover) as refused:
        form.get_by_role("button", name="Move", exact=True).click()
    assert refused.value.status == 422
    expect(mover.locator("#action-error")).to_have_text(
        "|speed change| + |turn| = 7 exceeds thrust 6"
    )
    expect(mover).to_have_title(YOUR_MOVE)
    assert referee.view(game_id)["seq"] == truth["seq"]
    assert_same_document(mover, marks[first])


def test_a_post_without_the_csrf_token_gets_the_403_page(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    js_page = open_page()
    js_page.goto(f"{live_server.url}/")
    js_page.evaluate(
        "document.querySelector('form.lobby:not(.quick-computer) input[name=csrf]').remove()"
    )
    with js_page.expect_response(lambda r: r.request.method == "POST") as refused:
        js_page.get_by_role("button", name="Create the duel").click()
    assert refused.value.status == 403
    expect(js_page.locator("h1")).to_have_text("Form expired or forged")
    expect(js_page.get_by_role("alert")).to_contain_text("security token is missing")

    # a forged token and a foreign origin are refused the same way, and nothing is created
    before = len(_games(live_server))
    api = js_page.context.request
    forged = api.post(f"{live_server.url}/games", form={"csrf": "0" * 64, "mode": "scenario"})
    assert forged.status == 403 and "does not match" in forged.text()
    foreign = api.post(
        f"{live_server.url}/games",
        form={"csrf": "0" * 64, "mode": "scenario"},
        headers={"Origin": "https://evil.example"},
    )
    assert foreign.status == 403 and "another site" in foreign.text()
    assert len(_games(live_server)) == before


def _games(server: LiveServer) -> list[Any]:
    r = httpx.get(f"{server.url}/api/v1/games", headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 200, r.text
    games: list[Any] = r.json()["games"]
    return games


# -- the live stream survives a server restart -----------------------------------------------------
def test_pages_reconnect_after_a_server_restart(
    db_url: str, tmp_path: Path, open_page: OpenPage
) -> None:
    server = LiveServer(db_url, tmp_path / "data").start()
    try:
        referee = Referee(server)
        game_id, page_a, page_b = two_players(server, open_page)
        marks = {"A": mark(page_a), "B": mark(page_b)}
        for page in (page_a, page_b):
            expect(page.locator("#conn")).to_have_class(UP)

        server.stop()
        for page in (page_a, page_b):
            expect(page.locator("#conn")).to_have_class(DOWN)
        port = server.port
        server = LiveServer(db_url, tmp_path / "data")
        server.port = port  # the same address and database: as after a deploy
        server.start()
        referee = Referee(server)
        for page in (page_a, page_b):
            expect(page.locator("#conn")).to_have_class(UP)

        seq = referee.view(game_id)["seq"]
        with act_response(page_b) as deployed:
            deploy_with_form(page_b, 40.0, 44.0)
        assert deployed.value.status == 200
        truth = referee.view(game_id)
        assert truth["seq"] > seq
        settled(page_a, truth["seq"])  # A's page heard of it through the new server
        expect(page_a.locator("#log li.ev").first).to_contain_text("deployed")
        assert_same_document(page_a, marks["A"])
        assert_same_document(page_b, marks["B"])
        assert game_id_of(page_a) == game_id
    finally:
        server.stop()
