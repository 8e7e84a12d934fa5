"""Ordnance in Chromium (issue 12): A aims a salvo by clicking the map (a point out of arc is
refused on the page with the reason, before anything is sent), sees its marker and seeker
circle on the map and its loads on the record sheet; at A's next activation the salvo attacks
B's destroyer, B defends with the pre-filled form, and both logs tell the attack in words. The
referee's map draws the marker with its aim point. Screenshots (aim, markers,
record_sheet, referee_markers, defend, log) in artifacts/screenshots/."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import (
    FacingShips,
    OpenPage,
    Referee,
    click_table,
    first_event,
    screenshot,
    settled,
)
from tests.conftest import ADMIN, LiveServer
from tests.web.test_ordnance_pages import AIM, missile_destroyer


def _shot(page: Page, name: str) -> None:
    screenshot(page, name)


class Duel(FacingShips):
    """Lance (A: salvo rack, SML, AMT launcher) facing Vigilant (B: a destroyer with two PDS)."""

    def __init__(self, server: LiveServer, referee: Referee) -> None:
        super().__init__(server, referee, "Lance", missile_destroyer())


def test_aim_a_salvo_see_it_and_defend_against_it(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    duel = Duel(live_server, referee)
    duel.b_stays()
    duel.send("A", {"type": "ping", "ship": "a1"})
    a = duel.page(open_page, "A")
    row = a.locator('fieldset[data-launch="a1|rack-1"]')
    expect(row).to_be_visible()
    # a point behind the ship: refused on the page, the reason said, nothing filled in
    row.locator("legend").click()
    click_table(a, 30, 3)
    expect(row.locator(".aim-check")).to_contain_text("Refused: out of arc")
    expect(row.locator('input[name="aim_x@a1|rack-1"]')).to_have_value("")
    # the point of A's choice, by clicking
    click_table(a, *AIM)
    expect(row.locator('input[name="aim_x@a1|rack-1"]')).to_have_value(f"{AIM[0]:.1f}")
    expect(row.locator('input[name="aim_y@a1|rack-1"]')).to_have_value(f"{AIM[1]:.1f}")
    expect(row.locator("input.aim-own")).to_be_checked()
    expect(row.locator(".aim-check")).to_contain_text("attacks the closest enemy ship within 6 mu")
    expect(a.locator("#aims .seeker-preview")).to_have_count(1)
    expect(a.locator("#aims .arc-preview")).to_have_count(1)  # the rack's one fore arc
    _shot(a, "aim")
    # a typed point beyond reach is stopped before sending
    row.locator('input[name="aim_y@a1|rack-1"]').fill("40")
    a.locator("#fire-form button.primary").click()
    expect(row.locator(".aim-check")).to_contain_text("Refused: the aim point is off the table")
    assert not [e for e in referee.events(duel.id) if e["type"] == "fire_declared"]
    row.locator('input[name="aim_y@a1|rack-1"]').fill(f"{AIM[1]:.1f}")
    a.locator("#fire-form button.primary").click()
    expect(a.locator("#log")).to_contain_text("You declared 1 shot")
    if "B" in duel.phase()["awaiting"]:
        duel.send("B", {"type": "fire", "window": duel.phase()["fire"]["window"], "shots": []})
    settled(a, referee.events(duel.id)[-1]["seq"])
    marker = referee.view(duel.id)["markers"][0]["id"]
    salvo = a.locator(f'#map g.ordnance.own[data-marker="{marker}"]')
    expect(salvo).to_have_count(1)
    expect(salvo.locator("circle.seeker")).to_have_attribute("r", "6.0")
    expect(a.locator("#log")).to_contain_text(
        f"launched a salvo from rack-1 at ({AIM[0]:.1f}, {AIM[1]:.1f})"
    )
    _shot(a, "markers")
    expect(a.locator("#sheets")).to_contain_text("salvo missile rack rack-1 — spent")
    _sheet_shows_the_loads(a)

    # the referee's map: the marker with its aim point
    ref = open_page()
    ref.goto(f"{live_server.url}/referee")
    ref.fill("#token", ADMIN)
    ref.get_by_role("button", name="Sign in").click()
    ref.goto(f"{live_server.url}/games/{duel.id}")
    expect(ref.locator(f'#map g.ordnance[data-marker="{marker}"] path.aim-cross')).to_have_count(1)
    _shot(ref, "referee_markers")

    # B's page: no marker, no aim point
    b = duel.page(open_page, "B")
    html = b.content()
    assert marker not in html and "31.5, 17.5" not in html and "31.5,6.5" not in html

    # A moves; the turn ends; at A's next activation its salvo acts (standing orders)
    duel.send("A", {"type": "move", "ship": "a1", "orders": {"speed_change": 0, "turn": 0}})
    # B's activation of turn 1 if A went first, then B's of turn 2 if B wins its roll-off (the
    # dice follow the game's seed): b1 stands still either way, so the salvo still finds it
    duel.b_stays()
    duel.b_stays()
    assert duel.phase()["side"] == "A", duel.phase()
    duel.send("A", {"type": "activate", "ship": "a1"})
    expect(a.locator("#markers-form")).to_be_visible()
    expect(a.locator("#markers-form")).to_contain_text("act on standing orders")
    duel.send("A", {"type": "move", "ship": "a1", "orders": {"speed_change": 0, "turn": 0}})
    assert duel.phase()["step"] == "defend", duel.phase()

    # B defends with the form as it comes, pre-filled with the default allocation
    settled(b, referee.events(duel.id)[-1]["seq"])
    form = b.locator("#defend-form")
    expect(form).to_be_visible()
    for pds in ("pds-1", "pds-2"):
        expect(form.locator(f'select[name="defend@b1|{pds}"]')).to_have_value(marker)
    expect(form).to_contain_text("missiles shot down")
    _shot(b, "defend")
    form.locator("button.primary").click()
    attack = first_event(referee, duel.id, "salvo_attack")
    settled(a, referee.events(duel.id)[-1]["seq"])
    d = attack["data"]
    n = d["missiles_die"]
    words = f"Your salvo on Vigilant: {n} missile{'' if n == 1 else 's'} on target"
    if d["kills"]:
        words += f", {min(d['kills'], n - d['missiles'])} shot down, {d['missiles']} hit"
    expect(a.locator("#log")).to_contain_text(words)
    expect(a.locator("#log")).to_contain_text(f"{d['armour_damage'] + d['hull_damage']} damage")
    expect(b.locator("#log")).to_contain_text("Lance's ordnance acted in secret.")
    expect(b.locator("#log")).to_contain_text("Waiting for you to allocate point defence.")
    expect(a.locator("#log")).to_contain_text("Point defence: Vigilant's pds-1 → " + marker)
    _shot(a, "log")

    # the end: the replay draws the marker and its track from the record, and every die of the
    # attack and the defences verifies against the seed
    if referee.view(duel.id)["status"] != "finished":  # a lucky salvo may have ended it
        duel.send("B", {"type": "resign"})
    # the page loads the full reveal by itself when the game ends (a reload of ours could race it)
    expect(a.locator("#replay")).to_be_visible()
    expect(a.locator("#replay-label")).to_contain_text("Event")
    launched = next(e for e in referee.events(duel.id) if e["type"] == "ordnance_launched")
    a.evaluate(
        """seq => { const s = document.getElementById("replay-step");
        for (let i = 0; i <= +s.max; i++) { s.value = String(i);
          s.dispatchEvent(new Event("input"));
          const label = document.getElementById("replay-label").textContent;
          if (label.startsWith("Event " + seq + " ")) break; } }""",
        launched["seq"],
    )
    expect(a.locator(f'#replay-layer g.ordnance[data-marker="{marker}"] polyline')).to_have_count(1)
    a.locator("#verify-dice").click()
    expect(a.locator("#verify-result")).to_have_attribute("data-verified", "yes")


def _sheet_shows_the_loads(page: Page) -> None:
    expect(page.locator("#sheets .magazines")).to_contain_text("salvo × 0")
    assert re.search(r"mag-1", page.locator("#sheets .magazines").inner_text())
