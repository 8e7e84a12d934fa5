"""The map's measuring tool and its animations, in Chromium (issue 16, "The map").

One game (``FacingShips``: A's destroyer Lance at (30, 8) facing north, B's destroyer Vigilant
at (30, 16) facing south), two pages: A's with motion, B's with ``prefers-reduced-motion``.

- A drag that starts on an own ship measures instead of panning: range, bearing from the bow
  and on the table, and each weapon's band, the same as the rules compute them for that point.
- B turns Measure on with the key M (the button shows it) and measures from its ship with a
  drag that starts beside it.
- After A's ping, A's page animates a ring; B's page, asking for reduced motion, draws the ring
  still and runs no animation at all.
- Neither page logs an error. Screenshot: ``artifacts/screenshots/16-map-measure.png``.
"""

from __future__ import annotations

import math
import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from app.rules.geometry import Vec, bearing, in_arc
from tests.browser.conftest import (
    TIMEOUT_MS,
    TOUR_SEEN,
    FacingShips,
    OpenPage,
    Referee,
    enter_by_seat_link,
    screen_point,
    screenshot,
    seat_view,
)
from tests.conftest import LiveServer

POINT = re.compile(r"to \((-?\d+\.\d), (-?\d+\.\d)\)")
WATCH = """() => {
    // every animation item the page adds, with whether it was really animated
    window.__fx = [];
    new MutationObserver(records => records.forEach(r => r.addedNodes.forEach(n => {
        if (!n.classList || !n.classList.contains("fx-item")) return;
        const running = n.getAnimations({subtree: true}).length;
        window.__fx.push({cls: n.getAttribute("class"), running: running});
    }))).observe(document.getElementById("overlay"), {subtree: true, childList: true});
}"""


def _clock(deg: float) -> int:
    h = round(deg / 30 + 1e-9) % 12  # JavaScript's Math.round: halves up
    return 12 if h == 0 else h


def expected(ship: dict[str, Any], x: float, y: float) -> tuple[str, dict[str, str]]:
    """The readout's sentence and each weapon's band as the rules see the point (x, y)."""
    at, to = Vec(ship["position"]["x"], ship["position"]["y"]), Vec(x, y)
    rng = math.hypot(x - at.x, y - at.y)
    rel = bearing(at, ship["heading"], to)
    absolute = bearing(at, 0, to)
    words = (
        f"{rng:.1f} mu, bearing {_clock(rel)} o'clock ({round(rel + 1e-9) % 360}°) from the bow, "
        f"{_clock(absolute)} o'clock ({round(absolute + 1e-9) % 360}°) on the table."
    )
    bands = {}
    for w in ship["weapons"]:
        if not any(in_arc(a, rel) for a in w["arcs"]):
            bands[w["id"]] = "out of arc"
            continue
        n = next((i for i, b in enumerate(w["bands"], 1) if rng <= b["to"] + 1e-9), None)
        bands[w["id"]] = f"band {n} ({w['bands'][n - 1]['dice']})" if n else "out of range"
    return words, bands


def drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*screen_point(page, *start))
    page.mouse.down()
    page.mouse.move(*screen_point(page, *end), steps=6)
    page.mouse.up()


def check_readout(page: Page, ship: dict[str, Any]) -> None:
    readout = page.locator("#measure-readout")
    expect(readout).to_be_visible()
    text = readout.locator(".measure-words").inner_text()
    found = POINT.search(text)
    assert found, text
    words, bands = expected(ship, float(found[1]), float(found[2]))
    assert text.endswith(words), (text, words)
    assert text.startswith(f"From {ship['name']} to"), text
    shown = {
        li.get_attribute("data-weapon"): li.inner_text()
        for li in readout.locator(".measure-bands li").all()
    }
    assert {k: v.split(": ", 1)[1].split(",")[0] for k, v in shown.items()} == bands, shown
    assert any(b.startswith("band") for b in bands.values()), bands  # one weapon reaches it


def errors_of(page: Page) -> list[str]:
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: found.append(str(e)))
    return found


def test_measure_and_animations(
    live_server: LiveServer, referee: Referee, open_page: OpenPage, browser: Browser
) -> None:
    game = FacingShips(live_server, referee, "Lance", "destroyer")
    a = game.page(open_page, "A")
    a_errors = errors_of(a)
    still = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    still.set_default_timeout(TIMEOUT_MS)
    still.add_init_script(TOUR_SEEN)  # the tour's box would lie over the map and take the drag
    try:
        b = still.new_page()
        b_errors = errors_of(b)
        enter_by_seat_link(b, f"{live_server.url}/seat/{game.tokens['B']}")
        for page in (a, b):
            expect(page.locator("#fx-data")).to_be_attached()
            page.evaluate(WATCH)
        a_ship = next(
            s for s in seat_view(live_server, game.id, game.tokens["A"])["ships"] if s["id"] == "a1"
        )
        b_ship = next(
            s for s in seat_view(live_server, game.id, game.tokens["B"])["ships"] if s["id"] == "b1"
        )

        # A: a drag from its ship measures, and the map does not pan
        toggle = a.get_by_role("button", name="Measure")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        box = a.locator("#map").get_attribute("viewBox")
        drag(a, (30, 8), (41, 13))
        check_readout(a, a_ship)
        assert a.locator("#map").get_attribute("viewBox") == box
        expect(a.locator("#measure-layer .measure-line")).to_have_count(1)
        screenshot(a, "16-map-measure")

        # B: the key M turns Measure on; a drag beside its ship measures from it
        b.locator("#mapwrap").focus()
        b.keyboard.press("m")
        expect(b.locator("#measure-toggle")).to_have_attribute("aria-pressed", "true")
        drag(b, (33, 18), (38, 10))
        check_readout(b, b_ship)
        # with its ship focused, the arrow keys move the point (Shift: 6 mu)
        before = POINT.search(b.locator(".measure-words").inner_text())
        assert before
        b.locator('.ship[data-ship="b1"]').focus()
        b.keyboard.press("Shift+ArrowDown")
        moved = f"to ({float(before[1]):.1f}, {float(before[2]) - 6:.1f})"
        expect(b.locator(".measure-words")).to_contain_text(moved)
        check_readout(b, b_ship)

        # A pings: A's page animates the ring, B's draws it still and animates nothing
        game.b_stays()
        game.send("A", {"type": "ping", "ship": "a1"})
        expect(a.locator("#fx-layer")).to_have_attribute("data-played", re.compile(r"\bping:\d+"))
        expect(a.locator("#fx-layer")).to_have_attribute("data-mode", "motion")
        rings = [f for f in a.evaluate("() => window.__fx") if "fx-ping-item" in f["cls"]]
        assert rings and all(f["running"] > 0 for f in rings), rings
        expect(b.locator("#fx-layer")).to_have_attribute("data-played", re.compile(r"\bping:\d+"))
        expect(b.locator("#fx-layer")).to_have_attribute("data-mode", "still")
        expect(b.locator("#fx-layer .fx-still .fx-ping")).to_have_count(1)
        assert [f["running"] for f in b.evaluate("() => window.__fx")] == [0]
        assert (
            b.evaluate(
                "() => document.getElementById('mapwrap').getAnimations({subtree: true}).length"
            )
            == 0
        )
        screenshot(b, "16-map-ping-still")
        assert not a_errors and not b_errors, (a_errors, b_errors)
    finally:
        still.close()
