"""Browser fixtures: Debian's Chromium driven by sync Playwright against a real ``pingduel serve``.

``browser`` is one Chromium for the whole run; ``open_page`` opens a page in a fresh context (a
separate cookie jar: one player, a spectator, a browser without JavaScript) and closes it after
the test. The helpers below read the game's truth as the referee over the REST API (the admin
token) and check pages against it: that a page moved on by itself (no reload), and that no
hidden position of the opponent is anywhere in a page's HTML.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.conftest import (
    _CALL_FAILED,
    ADMIN,
    ROOT,
    LiveServer,
)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
SHOTS = ROOT / "artifacts" / "screenshots"
# how long a page may take to show what it must (a wait, never a pause: a page that shows it
# sooner goes on at once); on this shared 2-core machine Chromium, the server and the database
# compete with other work, and a stall of several seconds is not a fault of the page
TIMEOUT_MS = 30_000
TABLE_H = 48.0

expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def live_server_ids() -> str | None:
    """Every browser test's server draws the same fixed sequence of game ids (``LiveServer``):
    a game's dice are keyed by its seed and its id, so a test that creates its game with a seed
    (``create_and_claim``, ``FacingShips``) sees the same rolls each run."""
    return "browser"


OpenPage = Callable[..., Page]
# a browser that has seen the guided tour: it is offered only once, and only learning tests ask
TOUR_SEEN = "try { localStorage.setItem('pingduel.tour', 'seen'); } catch (e) {}"
T = TypeVar("T")


class Journal:
    """What one page's network and console did, with times: printed when a test fails, so that
    a request that never came back says whether it was sent, failed, or waited on the server."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.start = time.monotonic()
        self.lines: list[str] = []

    def note(self, text: str) -> None:
        self.lines.append(f"{time.monotonic() - self.start:8.3f} {self.name} {text}")

    def watch(self, page: Page) -> None:
        page.on("request", lambda r: self.note(f"-> {r.method} {r.url}"))
        page.on("response", lambda r: self.note(f"<- {r.status} {r.request.method} {r.url}"))
        page.on("requestfailed", lambda r: self.note(f"xx {r.method} {r.url} {r.failure}"))
        page.on("console", lambda m: self.note(f"console {m.type}: {m.text}"))
        page.on("pageerror", lambda e: self.note(f"page error: {e}"))


@pytest.fixture
def open_page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[OpenPage]:
    """``open_page(js=True, tour=False)``: a page in a new browser context (its own cookies);
    with ``tour`` the context has not seen the game page's guided tour yet, so its first game
    offers it (tests/browser/test_learn.py)."""
    contexts = []
    journals: list[Journal] = []

    def factory(js: bool = True, tour: bool = False) -> Page:
        context = browser.new_context(
            java_script_enabled=js, viewport={"width": 1280, "height": 900}
        )
        if not tour:  # the first game page would offer its guided tour (static/js/tour.js)
            context.add_init_script(TOUR_SEEN)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        journal = Journal(f"page{len(journals) + 1}")
        journal.watch(page)
        journals.append(journal)
        return page

    yield factory
    for context in contexts:
        context.close()
    if request.node.stash.get(_CALL_FAILED, False):
        lines = sorted(line for j in journals for line in j.lines)
        print("\n== the pages' network and console, last 200 lines ==")
        print("\n".join(lines[-200:]))


# -- games set up over the REST API ------------------------------------------------------------
API = "/api/v1"


def api_post(server: LiveServer, path: str, body: dict[str, Any], token: str | None) -> Any:
    """``POST /api/v1{path}`` as a seat (or tokenless); the answer's JSON, asserting success."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.post(f"{server.url}{API}{path}", json=body, headers=headers, timeout=10)
    assert r.status_code in (200, 201), r.text
    return r.json()


def create_and_claim(
    server: LiveServer, body: dict[str, Any], seed: str | None = None
) -> tuple[str, dict[str, str]]:
    """A game created as its ``creator`` with ``body`` and B's invite claimed: (id, tokens).
    With a ``seed`` the admin creates it (only the admin may choose the dice)."""
    if seed is None:
        created = api_post(server, "/games", body, None)
    else:
        created = api_post(server, "/games", {**body, "seed": seed}, ADMIN)
    claimed = api_post(server, f"/invites/{created['invites']['B']}/claim", {}, None)
    return created["game_id"], {"A": created["token"], "B": claimed["token"]}


# -- the referee's truth over the REST API ---------------------------------------------------------
def api_get(server: LiveServer, path: str, token: str) -> Any:
    """A GET of the API with a seat's (or the admin's) token; anything but 200 fails the test."""
    r = httpx.get(
        f"{server.url}{API}{path}", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert r.status_code == 200, r.text
    return r.json()


def seat_view(server: LiveServer, game_id: str, token: str) -> Any:
    """The game as the seat of ``token`` sees it (``GET /api/v1/games/{id}``)."""
    return api_get(server, f"/games/{game_id}", token)


class Referee:
    """Reads games as the admin (the referee of every game)."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server

    def _get(self, path: str) -> Any:
        return api_get(self.server, path, ADMIN)

    def view(self, game_id: str) -> dict[str, Any]:
        result: dict[str, Any] = self._get(f"/games/{game_id}")
        return result

    def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = self._get(f"/games/{game_id}/events?after={after}")["events"]
        return result


@pytest.fixture
def referee(live_server: LiveServer) -> Referee:
    return Referee(live_server)


class FacingShips:
    """A game of two ships facing each other at speed 0 on a 72 × 24 table: A's ship ``a1`` (a
    design given as a body) at (30, 8) heading north, B's Vigilant (a destroyer, two PDS) at
    (30, 16) heading south; set up over the API, B's invite claimed. A test whose steps depend
    on what the dice roll names its ``seed``: with the server's fixed ids (``live_server_ids``)
    and the same commands each run, the dice are the same too."""

    def __init__(
        self,
        server: LiveServer,
        referee: Referee,
        name: str,
        design: Any,
        seed: str | None = None,
    ) -> None:
        self.server, self.referee = server, referee
        self.id, self.tokens = create_and_claim(
            server,
            {
                "sides": {
                    "A": {"name": "Raiders", "ships": [{"name": name, "design": design}]},
                    "B": {
                        "name": "Wardens",
                        "ships": [{"name": "Vigilant", "design": "destroyer"}],
                    },
                },
                "table": {"width": 72, "height": 24},
                "creator": "A",
            },
            seed,
        )
        for side, ship, y, heading in (("A", "a1", 8, 0), ("B", "b1", 16, 6)):
            at = {"ship": ship, "position": {"x": 30, "y": y}, "heading": heading, "speed": 0}
            self.send(side, {"type": "deploy", "ships": [at]})

    def send(self, side: str, body: dict[str, Any]) -> Any:
        return api_post(self.server, f"/games/{self.id}/commands", body, self.tokens[side])

    def phase(self) -> dict[str, Any]:
        phase: dict[str, Any] = self.referee.view(self.id)["phase"]
        return phase

    def b_stays(self) -> None:
        """B's activation, if it is B's turn: b1 stands still on overwatch."""
        phase = self.phase()
        if phase["side"] == "B" and phase["step"] in ("activate", "start"):
            self.send("B", {"type": "move", "ship": "b1", "orders": {"speed_change": 0, "turn": 0}})
            self.send("B", {"type": "end_activation", "ship": "b1"})

    def page(self, open_page: OpenPage, side: str) -> Page:
        page = open_page()
        enter_by_seat_link(page, f"{self.server.url}/seat/{self.tokens[side]}")
        return page


def game_id_of(page: Page) -> str:
    match = re.search(r"/games/([^/?#]+)$", page.url)
    assert match, page.url
    return match.group(1)


# -- pages that move on by themselves --------------------------------------------------------------
def mark(page: Page) -> str:
    """Tag the loaded document; ``assert_same_document`` proves no reload happened since."""
    token = f"m{id(page)}-{page.evaluate('Date.now()')}"
    page.evaluate("token => { window.__pdMark = token; }", token)
    return token


def assert_same_document(page: Page, token: str) -> None:
    assert page.evaluate("() => window.__pdMark") == token, "the page was reloaded"


def settled(page: Page, seq: int) -> None:
    """Wait until the page's log shows event ``seq`` and no fragment request is still out."""
    expect(page.locator("#log li.ev").first).to_have_attribute("value", str(seq))
    # htmx marks an element with ``htmx-request`` while its request is out
    page.wait_for_function("() => document.querySelectorAll('.htmx-request').length === 0")


def eventually(probe: Callable[[], T | None], state: Callable[[], object]) -> T:
    """What ``probe`` finds, waiting for it as long as a page's wait (``TIMEOUT_MS``): a command
    sent by a click is answered in its own time on a loaded machine (a page may show its next
    form before the answer has come). Nothing found in time fails, saying ``state()``."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while True:
        found = probe()
        if found is not None:
            return found
        assert time.monotonic() < deadline, state()
        time.sleep(0.1)


def first_event(referee: Referee, game_id: str, kind: str) -> dict[str, Any]:
    """The game's first event of type ``kind``, once there is one (``eventually``); an event
    that never comes fails, naming the events there are."""
    return eventually(
        lambda: next((e for e in referee.events(game_id) if e["type"] == kind), None),
        lambda: (kind, [e["type"] for e in referee.events(game_id)]),
    )


def latest_seq(referee: Referee, game_id: str) -> int:
    return int(referee.view(game_id)["seq"])


# -- nothing hidden in the HTML --------------------------------------------------------------------
def position_forms(x: float, y: float) -> list[str]:
    """Every way a page would print a table position: the sheets' "(36.0, 8.0)", the map's SVG
    coordinates (y flipped, rounded to 3 decimals: "translate(36.0,40.0)", polyline points, ping
    rings, shot lines, arc paths) and the orders form's raw ``data-x``/``data-y``."""
    sx, sy = round(x, 3), round(TABLE_H - y, 3)
    return [
        f"{x:.1f}, {y:.1f}",
        f"{sx},{sy}",
        f'cx="{sx}" cy="{sy}"',
        f'x1="{sx}" y1="{sy}"',
        f'x2="{sx}" y2="{sy}"',
        f"M{sx:.2f},{sy:.2f}",
        f'data-x="{x}" data-y="{y}"',
    ]


def _same(a: dict[str, Any] | None, x: float, y: float) -> bool:
    return a is not None and math.isclose(a["x"], x) and math.isclose(a["y"], y)


def assert_no_hidden_positions(page: Page, seat: str, truth: dict[str, Any]) -> int:
    """No ship the seat may not see has its true position anywhere in the page's HTML.

    ``truth`` is the referee's view. A ship is exempt while it is live (its position is public),
    and so is a position that is public anyway (a stale marker where the ship still stands, a
    point of the seat's own tracks). Returns how many hidden positions were checked."""
    if truth["status"] == "finished":
        return 0  # the end reveals everything
    html = page.content()
    public: list[dict[str, Any]] = []
    for ship in truth["ships"]:
        if ship["side"] == seat:
            public.extend(ship.get("trail", []))
            if ship.get("position"):
                public.append(ship["position"])
    checked = 0
    for ship in truth["ships"]:
        pos = ship.get("position")
        if ship["side"] == seat or pos is None or ship["revealed"] == "live":
            continue
        x, y = pos["x"], pos["y"]
        if _same(ship.get("last_known"), x, y) or any(_same(p, x, y) for p in public):
            continue
        for form in position_forms(x, y):
            assert form not in html, (
                f"{seat}'s page shows hidden {ship['id']} at {x}, {y} as {form!r}"
            )
        checked += 1
    return checked


# -- the map ---------------------------------------------------------------------------------------
def screen_point(page: Page, x: float, y: float) -> tuple[float, float]:
    """The screen point of table coordinates (x east, y north) on the page's map."""
    point = page.evaluate(
        """([x, y]) => {
            const svg = document.getElementById("map");
            const p = svg.createSVGPoint();
            p.x = x; p.y = parseFloat(document.getElementById("live").dataset.height) - y;
            const s = p.matrixTransform(svg.getScreenCTM());
            return [s.x, s.y];
        }""",
        [x, y],
    )
    return float(point[0]), float(point[1])


def click_table(page: Page, x: float, y: float) -> None:
    """Click the map at table coordinates (x east, y north)."""
    page.mouse.click(*screen_point(page, x, y))


def screenshot(page: Page, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    assert path.stat().st_size > 0
    return path


# -- lobby and joining -----------------------------------------------------------------------------
def create_in_lobby(
    page: Page,
    server: LiveServer,
    ships: dict[str, list[tuple[str, str]]] | None = None,
    name: str = "Ann",
    seat: str = "A",
) -> tuple[str, dict[str, str]]:
    """Start a game from the lobby form (a scenario, or ``ships`` = side → [(design, name)]);
    returns the game id and the invite links read from the invite page's inputs."""
    page.goto(f"{server.url}/")
    expect(page).to_have_title("Start a duel — pingduel")
    if ships is not None:
        page.check("input[name=mode][value=custom]")
        for side, picks in ships.items():
            for i, (design, ship_name) in enumerate(picks, start=1):
                page.select_option(f"#{side}_design_{i}", design)
                page.fill(f"#{side}_name_{i}", ship_name)
    page.check(f"form.lobby:not(.quick-computer) input[name=seat][value={seat}]")
    page.fill("#name", name)
    with page.expect_response(
        lambda r: r.request.method == "POST" and r.url.endswith("/games")
    ) as created:
        page.get_by_role("button", name="Create the duel").click()
    assert created.value.status == 201
    expect(page).to_have_title("Invite your opponent — pingduel")
    sides = [s for s in ("A", "B") if s != seat]
    links = {s: page.locator(f"#invite-{s}").input_value() for s in sides}
    for link in links.values():
        assert re.fullmatch(rf"{re.escape(server.url)}/join/[A-Za-z0-9_-]+", link), link
    page.get_by_role("link", name="Go to the game").click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    return game_id_of(page), links


def join_by_link(page: Page, link: str, name: str) -> None:
    """Open an invite link, confirm, and land on the game page (POST → 303)."""
    page.goto(link)
    expect(page.locator("h1")).to_contain_text("Join as side")
    page.fill("#name", name)
    with page.expect_response(
        lambda r: r.request.method == "POST" and "/join/" in r.url
    ) as claimed:
        page.get_by_role("button", name="Take the seat").click()
    assert claimed.value.status == 303
    page.wait_for_url(re.compile(r"/games/[^/]+$"))


def enter_by_seat_link(page: Page, link: str) -> Any:
    """Open a private seat link, confirm it, and land on the game page; returns the
    confirmation's answer (the 303 that sets the cookie)."""
    page.goto(link)
    # the confirmation posts back to the link's own address (the page never writes the token)
    with page.expect_response(lambda r: r.request.method == "POST" and r.url == link) as confirmed:
        page.get_by_role("button", name=re.compile(r"^Play .+ on this device$")).click()
    page.wait_for_url(re.compile(r"/games/[^/]+$"))
    return confirmed.value
