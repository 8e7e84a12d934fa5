"""The referee's dashboard in a real browser: three contexts against a real ``pingduel serve``.

Players A and B take their seats by their private links; the referee signs in on ``/referee``
with the admin token (the sign-in form first: no game is listed before that), picks the game
from the list and watches it:

- both sides' hidden moves appear live on the referee's page as the players play them through
  their own pages: the deployments and each move put the ship's ``.ship.truth`` marker at its
  true position on the referee's map and the unredacted sentence ("moved (speed change +0,
  turn +1) to (x, y)") in the referee's log — without a reload — while the other player's
  log says only "moved." and its map has no marker for the ship;
- the belief layers: ticking "Side B's picture of A" shows ``.belief-B`` (with B's marker of
  the pinged a1) and unticking hides it again;
- the referee pauses with a reason: both players' pages (no reload) show the paused state, the
  reason in their log and no orders; the referee resumes with a reason: the players read it and
  the orders come back on the page of the seat the game waits for.

The screenshot of the referee's page with a belief layer shown goes to
``artifacts/screenshots/referee-dashboard.png``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    TABLE_H,
    OpenPage,
    Referee,
    assert_same_document,
    enter_by_seat_link,
    mark,
    screenshot,
    settled,
)
from tests.conftest import ADMIN, LiveServer

SEED = "d1ce" * 16
# distinctive deployments (x, y, speed)
DEPLOY = {"A": (30.5, 5.5, 4), "B": (41.5, 42.5, 4)}
SHIP = {"A": "a1", "B": "b1"}
OTHER = {"A": "B", "B": "A"}


def svg(x: float, y: float) -> str:
    """The marker's transform as the map writes it (y flipped, 3 decimals)."""
    return f"translate({round(x, 3)},{round(TABLE_H - y, 3)})"


class Table:
    """The three pages and the referee's truth over the REST API."""

    def __init__(self, referee: Referee, gid: str, pages: dict[str, Page]) -> None:
        self.referee = referee
        self.gid = gid
        self.pages = pages

    def truth(self) -> dict[str, Any]:
        return self.referee.view(self.gid)

    def ship(self, ship_id: str) -> dict[str, Any]:
        found: dict[str, Any] = next(s for s in self.truth()["ships"] if s["id"] == ship_id)
        return found

    def settle(self) -> dict[str, Any]:
        """Wait until every page shows the latest event (each moved on by its live stream)."""
        truth = self.truth()
        for page in self.pages.values():
            settled(page, truth["seq"])
        return truth

    def act(self, seat: str, do: Callable[[Page], None]) -> dict[str, Any]:
        page = self.pages[seat]
        with page.expect_response(
            lambda r: r.request.method == "POST" and r.url.endswith("/act")
        ) as answer:
            do(page)
        assert answer.value.status == 200, answer.value.text()
        return self.settle()

    def deploy(self, seat: str) -> None:
        x, y, speed = DEPLOY[seat]
        ship = SHIP[seat]
        form = self.pages[seat].locator("#deploy-form")
        form.locator(f"input[name=x_{ship}]").fill(str(x))
        form.locator(f"input[name=y_{ship}]").fill(str(y))
        form.locator(f"input[name=speed_{ship}]").fill(str(speed))
        self.act(seat, lambda p: p.get_by_role("button", name="Deploy in secret").click())
        self.check_hidden(seat, ship, x, y, "deployed", f"at ({x:.1f}, {y:.1f})", "in secret")

    def move(self, seat: str) -> None:
        ship = SHIP[seat]
        form = self.pages[seat].locator("#orders-form")
        form.locator("input[name=speed_change]").fill("0")
        form.locator("input[name=turn]").fill("1")
        self.act(seat, lambda p: p.get_by_role("button", name="Move", exact=True).click())
        moved = self.ship(ship)
        x, y = moved["position"]["x"], moved["position"]["y"]
        words = f"moved (speed change +0, turn +1) to ({x:.1f}, {y:.1f})"
        self.check_hidden(seat, ship, x, y, "ship_moved", words, "moved.")

    def check_hidden(
        self, seat: str, ship: str, x: float, y: float, kind: str, full: str, redacted: str
    ) -> None:
        """The referee sees the secret at once; the other player only that it happened."""
        referee, other = self.pages["R"], self.pages[OTHER[seat]]
        marker = referee.locator(f'#map .ship.truth[data-ship="{ship}"]')
        expect(marker).to_have_attribute("transform", re.compile(re.escape(svg(x, y))))
        expect(referee.locator(f"#log li.ev-{kind}").first).to_contain_text(full)
        expect(other.locator(f"#log li.ev-{kind}").first).to_contain_text(redacted)
        expect(other.locator(f"#log li.ev-{kind}").first).not_to_contain_text(f"({x:.1f}, {y:.1f})")
        # no marker of the ship where it truly is (a stale one where it was seen may remain)
        hidden = other.locator(f'#map .ship[data-ship="{ship}"][transform*="{svg(x, y)}"]')
        expect(hidden).to_have_count(0)
        expect(other.locator(f'#map .ship.truth[data-ship="{ship}"]')).to_have_count(0)

    def hold_fire(self) -> None:
        """Every fire window the pings open: the seats it awaits hold fire."""
        truth = self.truth()
        while truth["phase"]["step"] == "fire":
            seat = truth["phase"]["awaiting"][0]
            truth = self.act(seat, lambda p: p.get_by_role("button", name="Hold fire").click())


def new_game(server: LiveServer) -> tuple[str, dict[str, str]]:
    r = httpx.post(
        f"{server.url}/api/v1/games",
        json={"scenario": "duel", "seed": SEED, "creator": "A", "creator_name": "Ann"},
        headers={"Authorization": f"Bearer {ADMIN}"},  # only the admin chooses a seed
        timeout=10,
    )
    assert r.status_code == 201, r.text
    created = r.json()
    claim = httpx.post(
        f"{server.url}/api/v1/invites/{created['invites']['B']}/claim",
        json={"name": "Bo"},
        timeout=10,
    )
    assert claim.status_code == 200, claim.text
    return created["game_id"], {"A": created["token"], "B": claim.json()["token"]}


def test_the_referee_watches_both_sides_pauses_and_resumes(
    open_page: OpenPage, live_server: LiveServer, referee: Referee
) -> None:
    gid, tokens = new_game(live_server)
    pages = {"A": open_page(), "B": open_page(), "R": open_page()}
    for seat in ("A", "B"):
        page = pages[seat]
        enter_by_seat_link(page, f"{live_server.url}/seat/{tokens[seat]}")
        page.wait_for_url(re.compile(rf"/games/{gid}$"))
        expect(page.locator("#status .seat")).to_contain_text(f"Side {seat}")
        expect(page.locator("#referee-panel")).to_have_count(0)

    # the referee: the sign-in form and no games, then the list, then the game
    ref = pages["R"]
    ref.goto(f"{live_server.url}/referee")
    expect(ref.locator("h1")).to_have_text("Referee sign-in")
    expect(ref.locator("table.games")).to_have_count(0)
    ref.fill("#token", ADMIN)
    ref.get_by_role("button", name="Sign in").click()
    expect(ref.locator("h1")).to_have_text("All games")
    ref.locator(f'table.games a[href="/games/{gid}"]').click()
    ref.wait_for_url(re.compile(rf"/games/{gid}$"))
    expect(ref.locator("#status .seat")).to_have_text("Referee")
    expect(ref.locator("#referee-panel")).to_be_visible()
    for page in pages.values():
        expect(page.locator("#conn")).to_have_class(re.compile(r"\bup\b"))
    marks = {seat: mark(page) for seat, page in pages.items()}

    table = Table(referee, gid, pages)
    # the players' pages are open: the referee sees both connected
    table.deploy("A")
    for side in ("A", "B"):
        expect(ref.locator(f'#presence [data-side="{side}"]')).to_contain_text("connected")
    table.deploy("B")

    # turn 1: the first side moves (secret), pings (a1 or b1 revealed), the fire window is
    # held; the other side moves (secret) and goes on overwatch
    first = table.truth()["phase"]["side"]
    second = OTHER[first]
    table.move(first)
    table.act(first, lambda p: p.get_by_role("button", name="Ping", exact=True).click())
    table.hold_fire()
    table.move(second)
    table.act(second, lambda p: p.get_by_role("button", name="End activation — overwatch").click())
    expect(ref.locator("#map polyline.trail")).to_have_count(2)  # both whole tracks
    for seat, page in pages.items():
        assert_same_document(page, marks[seat])

    # the belief layers: what the second side believes of the first side's pinged ship
    layer = ref.locator(f"#map g.belief-{second}")
    expect(layer).to_have_css("display", "none")
    ref.locator(f'input[data-belief="{second}"]').check()
    expect(ref.locator("#mapwrap")).to_have_class(re.compile(rf"\bshow-belief-{second}\b"))
    expect(layer).to_have_css("display", "inline")
    expect(layer.locator(".ship.believed")).to_have_count(1)
    expect(layer.locator(".ship.believed text")).to_contain_text(f"{second} sees")
    expect(ref.locator(f"#map g.belief-{first}")).to_have_css("display", "none")
    screenshot(ref, "referee-dashboard")
    ref.locator(f'input[data-belief="{second}"]').uncheck()
    expect(layer).to_have_css("display", "none")

    # pause with a reason: the players see it live, with the reason, and no orders
    reason = "Checking the ping of turn 1"
    panel = ref.locator("#referee-panel")
    pause = panel.locator('form[action$="/referee/pause"]')
    pause.locator("input[name=reason]").fill(reason)
    pause.get_by_role("button", name="Pause the game").click()
    expect(ref.locator("#status")).to_contain_text("Paused by the referee")
    truth = table.settle()
    assert truth["paused"] is True and truth["phase"]["awaiting"] == []
    for seat in ("A", "B"):
        page = pages[seat]
        expect(page.locator("#status")).to_contain_text("Paused by the referee")
        expect(page.locator("#log li.ev").first).to_have_class(re.compile(r"\bev-paused\b"))
        expect(page.locator("#log li.ev-paused")).to_contain_text(reason)
        expect(page.locator("#controls")).to_contain_text("The referee has paused the game")
        expect(page.locator("#orders-form")).to_have_count(0)
        assert_same_document(page, marks[seat])

    # resume with a reason: the orders come back where the game waits
    resume = panel.locator('form[action$="/referee/resume"]')
    resume.locator("input[name=reason]").fill("Ping confirmed")
    resume.get_by_role("button", name="Resume the game").click()
    expect(ref.locator("#status")).not_to_contain_text("Paused")
    truth = table.settle()
    waiting = truth["phase"]["awaiting"]
    assert truth["paused"] is False and waiting
    for seat in ("A", "B"):
        page = pages[seat]
        expect(page.locator("#status")).not_to_contain_text("Paused")
        expect(page.locator("#log li.ev-resumed")).to_contain_text("Ping confirmed")
        expect(page.locator("#log li.ev-paused")).to_contain_text(reason)
        assert_same_document(page, marks[seat])
    expect(pages[waiting[0]].locator("#orders-form")).to_be_visible()
