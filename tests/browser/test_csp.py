"""The pages under their Content-Security-Policy, in Chromium: nothing is refused, all works.

Every page of one duel's life is opened and used in Chromium with the server's real headers —
the lobby (its form), the invite, joining, the game page in deployment and in play (the deploy
forms, live refresh by htmx over the stream on the other player's page without a reload), the
seat link on demand and its copy button, the resignation and the full reveal (replay, the dice
check's fetch), the designer (htmx re-draws), the referee's sign-in, dashboard and game page,
and the API reference (Swagger UI from the vendored files, drawing the server's operations).
Any CSP violation fails the test: the ``securitypolicyviolation`` event of every document (a
listener put in before any page script runs) and Chromium's console report ("Refused to …").
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import BrowserContext, ConsoleMessage, Page, expect

from tests.browser.conftest import (
    SHOTS,
    OpenPage,
    Referee,
    assert_same_document,
    create_in_lobby,
    join_by_link,
    mark,
    screenshot,
)
from tests.browser.test_pages import deploy_both
from tests.conftest import ADMIN, LiveServer

LISTEN = """
document.addEventListener("securitypolicyviolation", (e) => {
  const text = [e.violatedDirective, e.blockedURI, e.sourceFile, e.lineNumber].join(" ");
  (window.__pdSeen = window.__pdSeen || []).push(text);
  window.__pdViolation(text);
});
"""


class Violations:
    """Every CSP violation any watched page reported, with the page's URL."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.errors: list[str] = []

    def watch(self, page: Page) -> Page:
        context: BrowserContext = page.context
        context.expose_binding(
            "__pdViolation", lambda source, text: self.seen.append(f"{source['page'].url}: {text}")
        )
        context.add_init_script(LISTEN)
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        return page

    def _console(self, message: ConsoleMessage) -> None:
        text = message.text
        if "Content Security Policy" in text or text.startswith("Refused to"):
            self.seen.append(f"console: {text}")

    def assert_none(self) -> None:
        assert not self.seen, "\n".join(self.seen)
        assert not self.errors, "\n".join(self.errors)


def test_the_pages_pass_their_csp_and_still_work(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    csp = Violations()
    ann, bea = csp.watch(open_page()), csp.watch(open_page())

    # the lobby's form, the invite page, joining by the link: both on the game page
    game_id, links = create_in_lobby(ann, live_server, name="Ann")
    response = ann.reload()
    assert response is not None
    policy = response.headers["content-security-policy"]
    assert "'unsafe-inline'" not in policy and "frame-ancestors 'none'" in policy
    ann_doc = mark(ann)
    join_by_link(bea, links["B"], "Bea")
    expect(ann.locator("#status")).to_contain_text("Deployment")  # live, by htmx
    expect(ann.locator("#deploy-form")).to_be_visible()
    assert_same_document(ann, ann_doc)

    # in play: both deploy with the forms; each page follows the other side without a reload
    deploy_both(referee, game_id, ann, bea)
    for page in (ann, bea):
        expect(page.locator("#status")).to_contain_text("activation")
        expect(page.locator("#conn")).to_have_class(re.compile(r"\bup\b"))
    assert_same_document(ann, ann_doc)

    # the seat link on demand (a POST) and its copy button
    bea.locator("#status").screenshot(path=str(screenshot_path("csp-status-seat-link-button")))
    bea.get_by_role("button", name="Play on another device").click()
    expect(bea.locator("h1")).to_have_text("Play side B on another device")
    screenshot(bea, "csp-seat-link-page")
    assert "/seat/" in bea.locator("#seat-link").input_value()
    bea.get_by_role("button", name="Copy").click()
    expect(bea.get_by_role("button", name="Copied")).to_be_visible()
    bea.get_by_role("link", name="Back to the game").click()
    expect(bea.locator("#status .seat")).to_contain_text("Side B")

    # the referee: sign-in form, dashboard, the game with every ship
    rex = csp.watch(open_page())
    rex.goto(f"{live_server.url}/referee")
    rex.fill("#token", ADMIN)
    rex.get_by_role("button", name="Sign in").click()
    expect(rex.locator("h1")).to_have_text("All games")
    rex.locator(f'table.games a[href="/games/{game_id}"]').click()
    expect(rex.locator("#referee-panel")).to_be_visible()
    expect(rex.locator("#map g.ship")).not_to_have_count(0)

    # the end: B resigns; every page reloads itself into the full reveal (replay.js, a fetch)
    bea.locator("details.resign summary").click()
    bea.locator("details.resign input[name=confirm]").check()
    bea.locator("details.resign").get_by_role("button", name="Resign").click()
    for page in (ann, bea, rex):
        expect(page.locator("#replay")).to_be_visible()
    ann.locator("#verify-dice").click()
    expect(ann.locator("#verify-result")).to_have_attribute("data-verified", "yes")

    # the designer: htmx re-draws the form and its summary
    ann.get_by_role("link", name="Ship designer").first.click()
    expect(ann).to_have_title("Ship designer — pingduel")
    ann.fill("#f-name", "Kestrel")
    ann.get_by_role("button", name="Add beam", exact=True).click()
    expect(ann.locator(".sys-card[data-type=beam]")).to_have_count(1)
    expect(ann.locator("#notice")).to_contain_text("Added beam beam-1")

    # the API reference: Swagger UI from the vendored files draws the server's operations
    docs = csp.watch(open_page())
    answer = docs.goto(f"{live_server.url}/api/docs")
    assert answer is not None and answer.status == 200
    expect(docs.locator(".swagger-ui .info .title")).to_contain_text("pingduel")
    operations = docs.locator(".opblock")
    expect(operations.first).to_be_visible()
    assert operations.count() > 10
    operations.first.locator(".opblock-summary").click()  # React answers a click
    expect(docs.locator(".opblock.is-open")).to_have_count(1)
    screenshot(docs, "csp-api-docs")
    assert not [r for r in _requests(docs) if not r.startswith(live_server.url)]

    csp.assert_none()


def screenshot_path(name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS / f"{name}.png"


def _requests(page: Page) -> list[str]:
    """The addresses the page loaded (its resource timing entries)."""
    urls: list[str] = page.evaluate(
        "() => performance.getEntriesByType('resource').map((e) => e.name)"
    )
    return urls


def test_a_violation_is_seen(live_server: LiveServer, open_page: OpenPage) -> None:
    """The watch is not blind: an inline script the policy refuses is reported."""
    csp = Violations()
    page = csp.watch(open_page())
    page.goto(f"{live_server.url}/")
    page.evaluate(
        """() => { const s = document.createElement("script");
                   s.textContent = "window.__ran = true"; document.body.appendChild(s); }"""
    )
    page.wait_for_function("() => (window.__pdSeen || []).length > 0")
    assert page.evaluate("() => window.__ran") is None  # refused
    assert "script-src" in page.evaluate("() => window.__pdSeen[0]")
