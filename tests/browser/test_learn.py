"""Learning in Chromium (issue 16): /help has an anchor for every glossary term; on the game
page a rules term links to its entry with hover help; the guided tour comes on the first game
this browser opens and not on the second, never in a game with a clock; Esc closes it and
"Take the tour" brings it back; and nothing on the way writes to the console."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from app.web.glossary import GLOSSARY
from tests.browser.conftest import OpenPage, create_and_claim, enter_by_seat_link, screenshot
from tests.conftest import LiveServer

CLOCK = {"kind": "live", "initial_s": 600, "increment_s": 20}


def scripts_ran(page: Page) -> None:
    """terms.js marks the body once its links are in; tour.js, which it loads, has decided by
    then whether to offer the tour (it decides at once, when it runs)."""
    expect(page.locator("body[data-terms=ready]")).to_have_count(1)
    page.wait_for_function("() => window.pingduelTour !== undefined")


def test_help_terms_and_the_tour_on_the_first_game_only(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    clocked, clocked_tokens = create_and_claim(live_server, {"scenario": "duel", "clock": CLOCK})
    first, first_tokens = create_and_claim(live_server, {"scenario": "duel"})
    second, second_tokens = create_and_claim(live_server, {"scenario": "duel"})
    page = open_page(tour=True)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))

    # /help: every glossary entry has its anchor, and the header links the page
    page.goto(f"{live_server.url}/help")
    ids = set(page.evaluate("() => [...document.querySelectorAll('[id]')].map(e => e.id)"))
    assert {term.anchor for term in GLOSSARY} <= ids
    expect(page.locator('nav.site a[href="/help"]')).to_have_attribute("aria-current", "page")
    screenshot(page, "help-1280")

    # a game with a clock: no tour, no offer of one, even to a browser that never saw it
    enter_by_seat_link(page, f"{live_server.url}/seat/{clocked_tokens['A']}")
    expect(page.locator("#clocks")).to_be_visible()
    scripts_ran(page)
    expect(page.locator("#tour")).to_have_count(0)
    expect(page.locator("#tour-link")).to_have_count(0)

    # the first game without a clock: the tour, its focus in the dialog, the status boxed
    enter_by_seat_link(page, f"{live_server.url}/seat/{first_tokens['A']}")
    tour = page.get_by_role("dialog", name="Tour of the game page")
    expect(tour).to_be_visible()
    expect(page.locator("#tour-title")).to_be_focused()
    expect(page.locator("#tour-title")).to_have_text("Where the game stands")
    expect(page.locator(".tour-ring")).to_be_visible()
    tour.get_by_role("button", name="Next").click()
    expect(page.locator("#tour-title")).to_have_text("The map")
    tour.get_by_role("button", name="Back").click()
    expect(page.locator("#tour-title")).to_have_text("Where the game stands")
    page.keyboard.press("Escape")
    expect(page.locator("#tour")).to_have_count(0)
    expect(page.locator(".tour-ring")).to_have_count(0)

    # a rules term on the page links to its glossary entry, with its short text on hover
    deployment = next(t for t in GLOSSARY if t.slug == "deployment")
    term = page.locator(f'#status a.term[href="/help#{deployment.anchor}"]')
    expect(term).to_have_attribute("title", deployment.short)
    expect(term).to_have_text("Deployment")
    in_controls = "#controls label a.term, #controls legend a.term, #controls button a.term"
    assert page.locator(in_controls).count() == 0

    # the second game: no tour of its own; the header's button replays it
    enter_by_seat_link(page, f"{live_server.url}/seat/{second_tokens['A']}")
    scripts_ran(page)
    expect(page.locator("#tour")).to_have_count(0)
    page.get_by_role("button", name="Take the tour").click()
    expect(tour).to_be_visible()
    expect(page.locator("#tour-title")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator("#tour")).to_have_count(0)
    expect(page.get_by_role("button", name="Take the tour")).to_be_focused()

    assert not problems, problems
    assert first and second and clocked
