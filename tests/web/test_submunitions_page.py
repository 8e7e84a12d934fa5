"""Submunition racks on the game page (C2.1; selected backend): the fire window offers a rack as
an ordinary direct-fire weapon, and once it has fired the record sheet shows it spent for the
rest of the game (not merely "fired" this turn); the map no longer draws its arc as working."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx

from tests.web import Browser, api_view
from tests.web.test_weapon_forms import a_activates, duel, form_with, send

BrowserFactory = Callable[[], Browser]


def _rack_row(html: str, rack: str) -> str:
    row = re.search(rf'<tr class="\w+"><th scope="row">{rack} .*?</tr>', html, re.S)
    assert row, html
    return row.group(0)


async def test_a_rack_is_offered_in_the_fire_window_then_shown_spent(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game, b = await duel(client, new_browser, "strike_frigate")
    page = await a_activates(client, game, b)
    sheet = _rack_row(page, "rack-1")
    assert "submunition rack" in sheet and "fires once per game" in sheet
    assert "≤6: 3BD*, ≤12: 2BD*, ≤18: 1BD*" in sheet and "ready" in sheet
    await send(b["A"], game, form_with(page, 'id="orders-form"'), [("type", "ping")])
    page = (await b["A"].page(game.id)).text
    form = form_with(page, 'id="fire-form"')
    # the scout 8 mu dead ahead: the F rack's second band, no screen to read against
    assert "rack-1 <small>(submunition rack)</small>" in form
    offered = r'value="a1\|rack-1\|b1"> → Warden: 8\.0 mu, band 2, rolls <strong>2BD\*'
    assert re.search(offered, form)
    assert 'value="a1|rack-2|b1"' not in form  # the FP rack does not bear
    await send(b["A"], game, form, [("type", "fire"), ("shot@a1|rack-1", "a1|rack-1|b1")])
    if "B" in (await api_view(client, game, "admin"))["phase"]["awaiting"]:
        page = (await b["B"].page(game.id)).text
        await send(
            b["B"], game, form_with(page, 'id="fire-form"'), [("type", "fire"), ("hold", "1")]
        )
    sheets = await b["A"].fragment(game.id, "sheets")
    assert sheets.status_code == 200, sheets.text
    assert "<td>spent (fired this turn)</td>" in _rack_row(sheets.text, "rack-1")
    assert "<td>ready</td>" in _rack_row(sheets.text, "rack-2")
    # the map: the spent rack's wedge is drawn as spent
    page = (await b["A"].page(game.id)).text
    wedge = re.search(r'<path class="arc ([^"]*)" d="[^"]*"><title>rack-1 F', page)
    assert wedge and "spent" in wedge.group(1), page
    # the other side reads it in the public condition of the ship (the API's view)
    a1 = next(s for s in (await api_view(client, game, "B"))["ships"] if s["id"] == "a1")
    assert {s["id"] for s in a1["systems"] if s.get("spent")} == {"rack-1"}


async def test_the_designer_offers_racks_and_prices_the_preset(
    new_browser: BrowserFactory,
) -> None:
    browser = new_browser()
    r = await browser.get("/designer")
    assert r.status_code == 200
    assert 'name="sys_add" value="submunitions"' in r.text
    pick = re.search(r'<li id="pick-submunitions">(.*?)</li>', r.text, re.S)
    assert pick and "Pending" not in pick.group(1)  # it works in battle
    r = await browser.get("/designer?from=strike_frigate")
    assert r.status_code == 200
    assert "101" in r.text and 'value="submunitions"' in r.text
