"""A whole duel played in the browser: two players in two browser contexts and a spectator.

A creates the game in the lobby ("Pick the ships per side": a heavy cruiser against a scout, so
that A's pings always find the scout, which carries no ECM, and A's broadside can destroy it),
B joins by the invite link read from the invite page, both deploy by clicking the map, then
they play activations with pings, moves (the orders preview is checked before sending), ends
of activation (overwatch) and fire windows (B's overwatch fire, A's volleys) until the scout is
destroyed. The order of activations comes from real dice, so the test asks the referee (the
admin token, REST API) whose move it is and plays that seat's page.

After every command: every other page moved on by itself (the live stream, no reload), the
title says "Your move" exactly on the pages the game waits for, and no page's HTML holds a true
position its seat may not know. Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import (
    TABLE_H,
    OpenPage,
    Referee,
    assert_no_hidden_positions,
    assert_same_document,
    click_table,
    create_in_lobby,
    join_by_link,
    mark,
    screenshot,
    settled,
)
from tests.conftest import LiveServer

# where each side deploys (x, y, speed) and the speed its captain wants after each turn's move:
# the two ships close head-on to a few mu and stop there, the scout always north of the cruiser
DEPLOY = {"A": (30.0, 7.5, 8), "B": (33.0, 40.5, 14)}
SPEEDS = {"A": {1: 8, 2: 4}, "B": {1: 14, 2: 6}}
SHIP = {"A": "a1", "B": "b1"}
MAX_COMMANDS = 80
RESIGN_AFTER_TURN = 6  # only if the dice refuse to destroy the scout in five volleys


# what happens to a click on the page, kept for the message of a click that sent nothing
TRACE_JS = """() => {
  if (window.__pdTrace) { window.__pdTrace.length = 0; return; }
  window.__pdTrace = [];
  const note = (what) => (e) => window.__pdTrace.push(what + ":"
    + (e.target && (e.target.id || e.target.tagName)) + (e.defaultPrevented ? ":prevented" : ""));
  for (const type of ["click", "submit"]) document.addEventListener(type, note(type), true);
  for (const type of ["htmx:confirm", "htmx:beforeRequest", "htmx:beforeSend", "htmx:abort",
                      "htmx:sendError", "htmx:targetError", "htmx:afterRequest"])
    document.body.addEventListener(type, note(type));
}"""


def js_number(value: float) -> str:
    """A number as JavaScript prints it in the preview polyline."""
    return str(int(value)) if float(value).is_integer() else repr(value)


class Duel:
    """The game in progress: the seats' pages, the referee's truth, what has been seen."""

    def __init__(self, referee: Referee, game_id: str, pages: dict[str, Page]) -> None:
        self.referee = referee
        self.gid = game_id
        self.pages = pages
        self.marks = {seat: mark(page) for seat, page in pages.items()}
        self.truth = referee.view(game_id)
        self.hidden_checked = 0
        self.ghost = False
        self.fire_screenshot = False
        self.overwatch_fire = 0
        self.volleys_with_shots = 0
        self.pings = 0
        self.moves = 0
        self.ends = 0

    # -- one command through one page, then every page checked ---------------------------------
    def act(self, seat: str, do: Callable[[Page], None]) -> dict[str, Any]:
        page = self.pages[seat]
        before = self.truth["seq"]
        # the other pages' checks ran after this page's: a late refresh of this page (a
        # presence hint, say) may still be out; click only on a page at rest
        settled(page, before)
        page.evaluate(TRACE_JS)
        try:
            with page.expect_response(
                lambda r: r.request.method == "POST" and r.url.endswith("/act")
            ) as answer:
                do(page)
            response = answer.value
        except PlaywrightTimeout as e:  # say what the page did with the click
            trace = page.evaluate("() => window.__pdTrace")
            controls = page.evaluate("() => (document.getElementById('controls') || {}).outerHTML")
            raise AssertionError(f"no POST after the click; trace {trace}; {controls}") from e
        assert response.status == 200, response.text()
        truth = self.referee.view(self.gid)
        assert truth["seq"] > before
        self.check(truth)
        return truth

    def check(self, truth: dict[str, Any]) -> None:
        for seat, page in self.pages.items():
            if truth["status"] == "finished":
                # at the end the page loads the full reveal (replay, dice check) by itself
                expect(page.locator("#replay")).to_be_visible()
            settled(page, truth["seq"])  # the log shows the new event: the page moved on
            if truth["status"] != "finished":
                assert_same_document(page, self.marks[seat])  # ... by itself, with no reload
            self.hidden_checked += assert_no_hidden_positions(page, seat, truth)
            awaited = seat in truth["phase"]["awaiting"]
            expect(page).to_have_title("Your move — pingduel" if awaited else "pingduel")
            status = page.locator("#status")
            if awaited:
                expect(status).to_have_class(re.compile(r"\byour-move\b"))
            else:
                expect(status).not_to_have_class(re.compile(r"\byour-move\b"))
        self.truth = truth
        self.look_for_ghost()

    def look_for_ghost(self) -> None:
        """The first stale marker: where the enemy was last seen, not where it is."""
        if self.ghost:
            return
        for seat in ("A", "B"):
            page = self.pages[seat]
            stale = page.locator("#map .ship.stale")
            if stale.count() == 0:
                continue
            ship_id = stale.first.get_attribute("data-ship")
            ship = next(s for s in self.truth["ships"] if s["id"] == ship_id)
            assert ship["side"] != seat and ship["revealed"] == "stale"
            seen = ship["last_known"]
            x, y = round(seen["x"], 3), round(TABLE_H - seen["y"], 3)
            assert stale.first.get_attribute("transform") == f"translate({x},{y})"
            expect(stale.first.locator("text")).to_have_text(f"{ship['name']} (T{seen['turn']})")
            screenshot(page, "03-stale-ghost")
            self.ghost = True
            return

    # -- what each captain does ----------------------------------------------------------------
    def own(self, seat: str) -> dict[str, Any]:
        return next(s for s in self.truth["ships"] if s["id"] == SHIP[seat])

    def deploy(self, seat: str) -> None:
        page = self.pages[seat]
        x, y, speed = DEPLOY[seat]
        ship = SHIP[seat]
        form = page.locator("#deploy-form")
        expect(form).to_be_visible()
        x_in, y_in = form.locator(f"input[name=x_{ship}]"), form.locator(f"input[name=y_{ship}]")
        defaults = x_in.input_value(), y_in.input_value()
        click_table(page, x, y)
        expect(x_in).not_to_have_value(defaults[0])
        expect(y_in).not_to_have_value(defaults[1])
        assert abs(float(x_in.input_value()) - x) <= 0.3, x_in.input_value()
        assert abs(float(y_in.input_value()) - y) <= 0.3, y_in.input_value()
        expect(page.locator("#overlay #preview path.end")).to_have_count(1)
        # the exact spot, so that the ranges below hold whatever pixel the click hit
        x_in.fill(str(x))
        y_in.fill(str(y))
        form.locator(f"input[name=speed_{ship}]").fill(str(speed))
        if seat == "A":
            screenshot(page, "01-deployment")
        self.act(seat, lambda p: p.get_by_role("button", name="Deploy in secret").click())
        placed = self.referee.view(self.gid)["ships"]
        mine = next(s for s in placed if s["id"] == ship)
        assert mine["position"] == {"x": x, "y": y} and mine["velocity"] == speed

    def move(self, seat: str) -> None:
        page = self.pages[seat]
        ship = self.own(seat)
        heading = ship["heading"]
        assert heading in (0, 6), "these captains never turn"
        speed, thrust = ship["velocity"], ship["thrust"]
        change = max(-thrust, min(thrust, SPEEDS[seat].get(self.truth["turn"], 0) - speed))
        new_speed = speed + change
        x, y = ship["position"]["x"], ship["position"]["y"]
        end_y = y + (new_speed if heading == 0 else -new_speed)
        off = not 0 <= end_y <= TABLE_H
        form = page.locator("#orders-form")
        form.locator("input[name=speed_change]").fill(str(change))
        form.locator("input[name=turn]").fill("0")
        clock = 12 if heading == 0 else 6
        words = f"Ends at ({x:.1f}, {end_y:.1f}) facing {clock} o'clock, speed {new_speed}"
        words += " — off the table." if off else "."
        expect(page.locator("#preview-text")).to_have_text(words)
        line = page.locator("#overlay #preview polyline")
        expect(line).to_have_count(1)
        points = (line.get_attribute("points") or "").split()
        assert points[0] == f"{js_number(x)},{js_number(TABLE_H - y)}", points
        assert points[-1] == f"{js_number(x)},{js_number(TABLE_H - end_y)}", points
        if off:  # only if damage left the ship unable to stop
            form.locator("input[name=leave]").check()
        self.act(seat, lambda p: p.get_by_role("button", name="Move", exact=True).click())
        self.moves += 1

    def fire(self, seat: str) -> None:
        page = self.pages[seat]
        form = page.locator("#fire-form")
        expect(form).to_be_visible()
        window = self.truth["phase"]["fire"]
        assert form.locator("input[name=window]").input_value() == str(window["window"])
        # a target radio of each weapon's group (not its "hold"); one target per weapon here
        boxes = form.locator("input[type=radio][name^='shot@']:not([value=''])")
        options = boxes.count()
        # A holds its fire until a stale marker has been seen (so that the game shows one
        # before the scout can die); B, on overwatch, shoots whenever it can
        if options and (seat == "B" or self.ghost):
            for i in range(options):
                boxes.nth(i).check()
            if not self.fire_screenshot:
                screenshot(page, "02-fire-window")
                self.fire_screenshot = True
            overwatch = window["pinger"] != SHIP[seat] and self.own(seat)["overwatch"]
            truth = self.act(
                seat, lambda p: p.get_by_role("button", name="Fire the chosen shots").click()
            )
            self.overwatch_fire += int(overwatch)
            if truth["phase"]["step"] != "fire" or truth["phase"]["fire"] != window:
                self.after_volley()
        else:
            truth = self.act(seat, lambda p: p.get_by_role("button", name="Hold fire").click())
            if truth["phase"]["fire"] != window and self.fired_in_last_volley():
                self.after_volley()

    def fired_in_last_volley(self) -> bool:
        events = self.referee.events(self.gid)
        volleys = [e for e in events if e["type"] == "fire_resolved"]
        return bool(volleys and volleys[-1]["data"]["shots"])

    def after_volley(self) -> None:
        """Every page draws the volley's shots on its map."""
        if not self.fired_in_last_volley():
            return
        self.volleys_with_shots += 1
        for page in self.pages.values():
            expect(page.locator("#map line.shot").first).to_be_attached()

    def play(self, seat: str) -> None:
        phase = self.truth["phase"]
        step = phase["step"]
        ship = self.own(seat)
        adrift = any(c["type"] == "out_of_control" for c in ship["conditions"])
        if step == "fire":
            self.fire(seat)
        elif step in ("activate", "start") and adrift:
            self.act(seat, lambda p: p.get_by_role("button", name="Drift (out of control)").click())
        elif step in ("activate", "start") and seat == "A" and self.truth["turn"] >= 2:
            self.act(seat, lambda p: p.get_by_role("button", name="Ping before moving").click())
            self.pings += 1
        elif step in ("activate", "start", "after_ping"):
            self.move(seat)
        elif step == "after_move" and seat == "A":
            self.act(seat, lambda p: p.get_by_role("button", name="Ping", exact=True).click())
            self.pings += 1
        elif step == "after_move":
            self.act(
                seat,
                lambda p: p.get_by_role("button", name="End activation — overwatch").click(),
            )
            self.ends += 1
            assert self.own(seat)["overwatch"]
        else:
            raise AssertionError(f"unexpected step {step} for {seat}")


def test_a_duel_in_two_browsers(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    page_a, page_b, watcher = open_page(), open_page(), open_page()

    # A creates the duel in the lobby and reads B's invite link from the invite page
    game_id, links = create_in_lobby(
        page_a,
        live_server,
        ships={"A": [("heavy_cruiser", "Vigilant")], "B": [("scout", "Shade")]},
        name="Ann",
    )
    expect(page_a.locator("#status")).to_contain_text("Waiting for your opponent")
    expect(page_a.locator("#conn")).to_have_class(re.compile(r"\bup\b"))
    mark_a = mark(page_a)

    # B joins with the link; A's page sees the game start by itself
    join_by_link(page_b, links["B"], "Bea")
    expect(page_b.locator("#status .seat")).to_contain_text("Side B")
    expect(page_a.locator("#status")).to_contain_text("Deployment")
    expect(page_a.locator("#deploy-form")).to_be_visible()
    assert_same_document(page_a, mark_a)

    watcher.goto(f"{live_server.url}/games/{game_id}")
    expect(watcher.locator("#status .seat")).to_have_text("Spectator")
    for page in (page_a, page_b, watcher):
        expect(page.locator("#conn")).to_have_class(re.compile(r"\bup\b"))

    duel = Duel(referee, game_id, {"A": page_a, "B": page_b, "spectator": watcher})
    duel.check(duel.truth)
    duel.deploy("A")
    duel.deploy("B")
    assert duel.truth["phase"]["step"] == "activate"

    for _ in range(MAX_COMMANDS):
        truth = duel.truth
        if truth["status"] == "finished":
            break
        if truth["turn"] > RESIGN_AFTER_TURN:
            page_b.locator("details.resign summary").click()
            page_b.locator("details.resign input[name=confirm]").check()
            duel.act("B", lambda p: p.locator("details.resign button").click())
            break
        awaiting = truth["phase"]["awaiting"]
        duel.play("B" if "B" in awaiting else "A")
    truth = duel.truth
    assert truth["status"] == "finished" and truth["winner"] == "A", truth["phase"]

    events = referee.events(game_id)
    destroyed = [e["data"]["ship"] for e in events if e["type"] == "ship_destroyed"]
    print(
        f"\nduel finished on turn {truth['turn']}: {len(events)} events, destroyed {destroyed}, "
        f"{duel.pings} pings, {duel.moves} moves, {duel.ends} overwatch ends, "
        f"{duel.volleys_with_shots} volleys with shots, {duel.overwatch_fire} overwatch fire, "
        f"{duel.hidden_checked} hidden positions checked absent"
    )
    assert duel.ghost, "no stale marker was ever shown"
    assert duel.overwatch_fire >= 1, "the scout never fired from overwatch"
    assert duel.pings >= 2 and duel.moves >= 2 and duel.ends >= 1
    assert duel.hidden_checked > 10
    for page, words in ((page_a, "You won"), (page_b, "You lost"), (watcher, "Side A won")):
        expect(page.locator("#status")).to_contain_text("Game over")
        expect(page.locator("#controls .result")).to_contain_text(words)

    # after the end: the replay with every true track, and the dice checked in the page
    replay = page_a.locator("#replay")  # it came by itself when the game ended
    expect(replay).to_be_visible()
    last = events[-1]["seq"]
    expect(page_a.locator("#replay-label")).to_contain_text(f"Event {last} of {last}")
    expect(page_a.locator("#replay-layer polyline.trail")).to_have_count(2)
    page_a.locator("#replay-prev").click()
    expect(page_a.locator("#replay-label")).not_to_contain_text(f"Event {last} of")
    page_a.locator("#replay-next").click()
    page_a.locator("#verify-dice").click()
    result = page_a.locator("#verify-result")
    expect(result).to_have_attribute("data-verified", "yes")
    expect(result).to_contain_text("✓ The seed matches its commitment")
    replay.scroll_into_view_if_needed()
    screenshot(page_a, "04-replay-verified")
