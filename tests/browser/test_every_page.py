"""Every page at desktop (1280 × 800) and phone (390 × 844) size: axe-core finds nothing serious
or critical, nothing scrolls sideways, the console stays clean; with ``PINGDUEL_SCREENSHOTS=1``
each page is saved to ``docs/screenshots/<page>-desktop.png`` and ``<page>-phone.png``.

One server and one game (a referee, both players, a spectator) serve every page, each browser
seat keeping its own context; a second game, ended by the referee, shows the finished page. To
add a page, add a ``Shown`` to ``PAGES``: its name, whose browser opens it, the path (built from
the set-up) and, for a page that is the answer to a form, what to do there.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect

from tests.browser.conftest import TIMEOUT_MS, api_post, enter_by_seat_link
from tests.conftest import ADMIN, ROOT, LiveServer

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
SHOTS = ROOT / "docs" / "screenshots"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
BAD_IMPACT = ("serious", "critical")


@dataclass
class SetUp:
    """What the pages are built from: the live game (its referee's, players' and invites'
    codes) and the finished one."""

    url: str
    game: str
    tokens: dict[str, str]
    finished: str
    invite: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Shown:
    name: str
    who: str  # whose browser context: anon, A, B, referee (the game's), admin (the /referee cookie)
    path: Callable[[SetUp], str]
    then: Callable[[Page], None] | None = None  # the form to send when the page is an answer
    ready: str = "main"  # what must be visible before the checks
    axe: bool = True  # False only for a page that is a vendored tool's (Swagger UI's own markup)


def _submit(button: str) -> Callable[[Page], None]:
    def send(page: Page) -> None:
        with page.expect_navigation():
            page.locator(button).first.click()

    return send


def _lobby_create(page: Page) -> None:
    page.fill("#name", "Ann")
    with page.expect_navigation():
        page.get_by_role("button", name="Create the duel").click()


PAGES: list[Shown] = [
    Shown("lobby", "anon", lambda s: "/"),
    Shown("invite", "anon", lambda s: "/", _lobby_create),
    Shown("designer", "anon", lambda s: "/designer"),
    Shown("designer-saved", "anon", lambda s: "/designer", _submit("#save")),
    Shown("join", "anon", lambda s: f"/join/{s.invite}"),
    Shown("seat-confirm", "anon", lambda s: f"/seat/{s.tokens['A']}"),
    Shown("message", "anon", lambda s: "/join/no-such-invite"),
    Shown("notify-confirm", "anon", lambda s: "/notify/confirm/no-such-code"),
    Shown("referee-login", "anon", lambda s: "/referee"),
    Shown("referee-home", "admin", lambda s: "/referee"),
    # Swagger UI's markup and colours are its own (static/vendor): checked for fit and console only
    Shown("api-docs", "anon", lambda s: "/api/docs", ready="#swagger-ui .info", axe=False),
    Shown("my-games", "A", lambda s: "/games"),
    Shown("game-a", "A", lambda s: f"/games/{s.game}", ready="#map"),
    Shown("game-b", "B", lambda s: f"/games/{s.game}", ready="#map"),
    Shown("game-spectator", "anon", lambda s: f"/games/{s.game}", ready="#map"),
    Shown("game-referee", "referee", lambda s: f"/games/{s.game}", ready="#map"),
    Shown("game-finished", "A", lambda s: f"/games/{s.finished}", ready="#replay"),
    Shown("replay", "A", lambda s: f"/games/{s.finished}/replay", ready="#after-summary"),
    Shown("help", "anon", lambda s: "/help", ready="#term-overwatch"),
    Shown(
        "seat-link",
        "A",
        lambda s: f"/games/{s.game}",
        _submit("form.seat-link button"),
        "#seat-link",
    ),
]

SIDES = {
    "A": {"name": "Raiders", "ships": [{"name": "Lance", "design": "frigate"}]},
    "B": {"name": "Wardens", "ships": [{"name": "Vigilant", "design": "destroyer"}]},
}


def _set_up(server: LiveServer) -> SetUp:
    """The live game, refereed by Rhea, both seats claimed, both sides deployed; a second game
    the referee has ended; one invite left unclaimed for the join page."""
    body = {
        "sides": SIDES,
        "table": {"width": 72, "height": 48},
        "creator": "referee",
        "clock": {"kind": "live", "initial_s": 3600, "increment_s": 10},
    }
    created = api_post(server, "/games", {**body, "creator_name": "Rhea"}, None)
    game = created["game_id"]
    tokens = {"referee": created["token"]}
    for side, name in (("A", "Ann"), ("B", "Bea")):
        claim = api_post(server, f"/invites/{created['invites'][side]}/claim", {"name": name}, None)
        tokens[side] = claim["token"]
    for side, ship, y, heading in (("A", "a1", 8, 0), ("B", "b1", 40, 6)):
        at = {"ship": ship, "position": {"x": 30, "y": y}, "heading": heading, "speed": 4}
        api_post(server, f"/games/{game}/commands", {"type": "deploy", "ships": [at]}, tokens[side])
    # a game that is over: both seats claimed, then ended by the admin (referee of every game)
    over = api_post(server, "/games", {"sides": SIDES, "creator": "A"}, None)
    api_post(server, f"/invites/{over['invites']['B']}/claim", {}, None)
    end = {"winner": "A", "reason": "a screenshot of the end"}
    api_post(server, f"/games/{over['game_id']}/referee/end", end, ADMIN)
    tokens["finished-A"] = over["token"]
    spare = api_post(server, "/games", {"scenario": "duel", "creator": "A"}, None)
    return SetUp(server.url, game, tokens, over["game_id"], spare["invites"]["B"])


def _contexts(browser: Browser, setup: SetUp) -> dict[str, BrowserContext]:
    contexts = {}
    for who in ("anon", "A", "B", "referee", "admin"):
        context = browser.new_context(viewport=SIZES["desktop"])
        context.set_default_timeout(TIMEOUT_MS)
        contexts[who] = context
    for who, token in (("A", "A"), ("A", "finished-A"), ("B", "B"), ("referee", "referee")):
        page = contexts[who].new_page()
        enter_by_seat_link(page, f"{setup.url}/seat/{setup.tokens[token]}")
        page.close()
    page = contexts["admin"].new_page()
    page.goto(f"{setup.url}/referee")
    page.fill("input[name=token]", ADMIN)
    with page.expect_navigation():
        page.locator("form[action='/referee/login'] button").click()
    page.close()
    return contexts


def _axe(page: Page) -> list[str]:
    """The serious and critical violations axe-core finds, one line per rule and element.
    The source is evaluated through the DevTools protocol, so the page's CSP needs no change."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate(
        """async () => {
            const r = await axe.run(document, {resultTypes: ["violations"]});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => n.target.join(" ") + " — " + n.failureSummary)}));
        }"""
    )
    found = []
    for v in result:
        if v["impact"] in BAD_IMPACT:
            for node in v["nodes"][:6]:
                found.append(f"axe {v['impact']} {v['id']} ({v['help']}): {node}")
    return found


def _overflow(page: Page) -> list[str]:
    """Sideways scrolling, naming the widest elements that stick out."""
    wide = page.evaluate(
        """() => {
            const w = window.innerWidth;
            if (document.documentElement.scrollWidth <= w) return null;
            const out = [];
            for (const el of document.querySelectorAll("body *")) {
                const r = el.getBoundingClientRect();
                if (r.right > w + 1 && r.width > 0) {
                    out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className.baseVal ??
                        el.className} right=${Math.round(r.right)}`);
                }
            }
            return [document.documentElement.scrollWidth, out.slice(0, 8)];
        }"""
    )
    if wide is None:
        return []
    return [f"scrolls sideways: {wide[0]} px wide; {'; '.join(wide[1])}"]


def _console(page: Page, message: ConsoleMessage, errors: list[str]) -> None:
    """A console error, except Chromium's own note that the document itself came with an error
    status (a message page answers 404 on purpose)."""
    if message.type != "error":
        return
    own = message.location.get("url") == page.url
    if message.text.startswith("Failed to load resource") and own:
        return
    errors.append(f"console error: {message.text}")


def _check(page: Page, shown: Shown, setup: SetUp, size: str, errors: list[str]) -> list[str]:
    page.set_viewport_size(SIZES[size])
    page.goto(setup.url + shown.path(setup))
    if shown.then is not None:
        shown.then(page)
    expect(page.locator(shown.ready).first).to_be_visible()
    page.wait_for_function("() => document.querySelectorAll('.htmx-request').length === 0")
    problems = (_axe(page) if shown.axe else []) + _overflow(page)
    if os.environ.get("PINGDUEL_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{shown.name}-{size}.png"), full_page=True)
    problems += errors
    errors.clear()
    return [f"{shown.name} {size}: {p}" for p in problems]


def test_every_page_is_accessible_and_fits_a_phone(
    live_server: LiveServer, browser: Browser
) -> None:
    setup = _set_up(live_server)
    contexts = _contexts(browser, setup)
    pages: dict[str, Page] = {}
    errors: list[str] = []
    problems: list[str] = []
    try:
        for who, context in contexts.items():
            page = pages[who] = context.new_page()
            page.on("console", lambda m, page=page: _console(page, m, errors))
            page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
        for shown in PAGES:
            for size in SIZES:
                problems += _check(pages[shown.who], shown, setup, size, errors)
    finally:
        for context in contexts.values():
            context.close()
    assert not problems, "\n".join(problems)
    assert httpx.get(f"{setup.url}/readyz", timeout=10).status_code == 200
