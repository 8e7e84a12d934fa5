"""The designer page with ordnance (issue 12), over HTTP as a browser sends its forms: every
launcher, rack and magazine can be added; a launcher picks its magazine from the design's
magazines (a new magazine feeds the launchers that have none, a new launcher takes the first
magazine); a magazine takes a count per load; a rack its load; totals and problems follow."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest

from app.rules.designs import Design, design_summary, preset
from app.rules.systems import LAUNCHER_TYPES, LOAD_MASS, SYSTEMS
from tests.web import Browser
from tests.web.test_designer import (
    SUMMARY,
    assert_summary,
    form_fields,
    items,
    problems,
    read_back,
    with_fields,
)


@pytest.fixture
async def browser(client: httpx.AsyncClient) -> AsyncIterator[Browser]:
    b = Browser(client)
    yield b
    await b.close()


async def add(browser: Browser, fields: list[tuple[str, str]], system_type: str) -> str:
    r = await browser.form("/designer", [*fields, ("sys_add", system_type)])
    assert r.status_code == 200, r.text
    return r.text


async def test_every_ordnance_type_is_offered_under_its_heading(browser: Browser) -> None:
    r = await browser.get("/designer")
    assert "<summary>Missiles and torpedoes <small>(6)</small>" in r.text
    for t in (*LAUNCHER_TYPES, "magazine"):
        assert f'name="sys_add" value="{t}"' in r.text
        assert f"Add {SYSTEMS[t].label}" in r.text


async def test_a_launcher_and_its_magazine_by_the_form(browser: Browser) -> None:
    page = (await browser.get("/designer")).text
    page = await add(browser, form_fields(page), "salvo_launcher")
    assert "none yet: add a magazine" in page
    assert any("is fed from no magazine: add a missile magazine" in p for p in problems(page))
    # the new magazine feeds the launcher that had none; it holds nothing yet
    page = await add(browser, form_fields(page), "magazine")
    fields = form_fields(page)
    assert ("sys-0-magazine", "magazine-1") in fields
    assert '<option value="magazine-1" selected>magazine-1</option>' in page
    assert any('holds nothing: give it loads, e.g. {"salvo": 2}' in p for p in problems(page))
    for name in LOAD_MASS:
        assert f'name="sys-1-loads-{name}"' in page
    # counts per load, live in the summary fragment: 2 salvos and 1 ER salvo weigh 2×2 + 3
    fields = with_fields(fields, **{"sys-1-loads-salvo": "2", "sys-1-loads-er_salvo": "1"})
    frag = await browser.form(SUMMARY, fields, htmx=True)
    assert items(frag.text)["sys:magazine-1"] == (7, 21)
    assert items(frag.text)["sys:salvo-launcher-1"] == (3, 9)
    assert 'id="sys-1-cost" hx-swap-oob="true">7 mass · 21 pts' in frag.text
    built = read_back(fields)
    assert built["systems"][1]["loads"] == {"salvo": 2, "er_salvo": 1}
    assert_summary(frag.text, design_summary(Design.from_dict(built)))
    # a second launcher takes the design's first magazine
    page = await add(browser, fields, "heavy_missile_launcher")
    assert ("sys-2-magazine", "magazine-1") in form_fields(page)
    assert read_back(form_fields(page))["systems"][1]["loads"] == {"salvo": 2, "er_salvo": 1}


async def test_a_heavy_missile_launcher_cannot_fire_salvos(browser: Browser) -> None:
    page = (await browser.get("/designer")).text
    page = await add(browser, form_fields(page), "heavy_missile_launcher")
    page = await add(browser, form_fields(page), "magazine")
    fields = with_fields(form_fields(page), **{"sys-1-loads-salvo": "1", "sys-1-loads-needle": "2"})
    frag = await browser.form(SUMMARY, fields, htmx=True)
    assert any(
        "holds 'salvo', which none of its launchers (heavy-missile-launcher-1) can fire" in p
        for p in problems(frag.text)
    )
    # a count that is not a number is named; 0 or empty is no load of that name
    fields = with_fields(fields, **{"sys-1-loads-salvo": "0", "sys-1-loads-needle": "two"})
    frag = await browser.form(SUMMARY, fields, htmx=True)
    assert any("loads['needle'] must be a whole number" in p for p in problems(frag.text))
    fields = with_fields(fields, **{"sys-1-loads-needle": "2", "sys-0-arc": "F"})
    frag = await browser.form(SUMMARY, fields, htmx=True)
    assert problems(frag.text) == []
    assert read_back(fields)["systems"][1]["loads"] == {"needle": 2}


async def test_racks_get_their_load_select(browser: Browser) -> None:
    page = (await browser.get("/designer")).text
    page = await add(browser, form_fields(page), "salvo_rack")
    fields = form_fields(page)
    assert ("sys-0-load", "salvo") in fields
    assert '<option value="er_salvo" >extended-range salvo</option>' in page
    fields = with_fields(fields, **{"sys-0-arc": "F"})
    frag = await browser.form(SUMMARY, fields, htmx=True)
    assert items(frag.text)["sys:salvo-rack-1"] == (4, 12)
    frag = await browser.form(SUMMARY, with_fields(fields, **{"sys-0-load": "er_salvo"}), htmx=True)
    assert items(frag.text)["sys:salvo-rack-1"] == (5, 15)
    page = await add(browser, fields, "heavy_missile_rack")
    assert ("sys-1-load", "long_lance") in form_fields(page)
    assert "Missile <small>(secret)</small>" in page
    assert '<option value="misericorde" >misericorde</option>' in page
    page = await add(browser, form_fields(page), "amt_launcher")
    assert 'name="sys-2-load"' not in page and 'name="sys-2-magazine"' not in page


async def test_the_missile_presets_open_and_read_back(browser: Browser) -> None:
    for design_id in ("missile_cruiser", "missile_destroyer", "missile_frigate"):
        r = await browser.get(f"/designer?from={design_id}")
        assert_summary(r.text, design_summary(preset(design_id)))
        back = read_back(form_fields(r.text))
        assert Design.from_dict(back).points() == preset(design_id).points()
        assert {s["id"]: s.get("loads") for s in back["systems"]} == {
            s["id"]: s.get("loads") for s in preset(design_id).to_dict()["systems"]
        }


async def test_a_public_copy_imports_with_its_capacity_shown_to_clear(browser: Browser) -> None:
    public = preset("missile_cruiser").public().to_dict()
    page = (await browser.get("/designer")).text
    fields = [(k, v) for k, v in form_fields(page) if k != "import_json"]
    r = await browser.form(
        "/designer", [*fields, ("import_json", json.dumps(public)), ("do_import", "1")]
    )
    assert r.status_code == 200, r.text
    assert any(
        "has a capacity: capacity is only the other side's view" in p for p in problems(r.text)
    )
    fields = form_fields(r.text)
    n = next(k for k, v in fields if v == "magazine").split("-")[1]
    assert (f"sys-{n}-capacity", "16") in fields
    fields = with_fields(fields, **{f"sys-{n}-capacity": "", f"sys-{n}-loads-salvo": "8"})
    frag = await browser.form(SUMMARY, fields, htmx=True)
    assert not any("capacity" in p for p in problems(frag.text))
    assert items(frag.text)["sys:mag-1"] == (16, 48)
