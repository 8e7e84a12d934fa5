"""The designer page with fighter and drone bays (issue 13, hardware only): both bays are
offered under their heading; a bay takes its group type from a select, and the
group's points count in the bay's."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from app.rules.systems import DRONE_GROUPS, FIGHTER_GROUPS
from tests.web import Browser
from tests.web.test_designer import SUMMARY, form_fields, items, problems, read_back, with_fields


@pytest.fixture
async def browser(client: httpx.AsyncClient) -> AsyncIterator[Browser]:
    b = Browser(client)
    yield b
    await b.close()


async def test_both_bays_are_offered(browser: Browser) -> None:
    r = await browser.get("/designer")
    assert "<summary>Fighter and drone bays <small>(2)</small>" in r.text
    for t, label in (("fighter_bay", "fighter bay"), ("drone_bay", "drone bay")):
        assert f'name="sys_add" value="{t}"' in r.text
        assert f"Add {label}" in r.text
    assert "a bay launches nothing" not in r.text  # bays launch now


async def test_a_fighter_bay_takes_its_group_type(browser: Browser) -> None:
    page = (await browser.get("/designer")).text
    r = await browser.form("/designer", [*form_fields(page), ("sys_add", "fighter_bay")])
    assert r.status_code == 200, r.text
    page = r.text
    fields = form_fields(page)
    assert ("sys-0-load", "standard") in fields  # a new bay holds standard fighters
    assert "Group <small>(secret)</small>" in page
    for name in FIGHTER_GROUPS:
        if name.endswith("pods"):
            assert f'<option value="{name}"' not in page
        else:
            assert f'<option value="{name}"' in page
    fields = with_fields(fields, **{"sys-0-load": "heavy"})
    frag = await browser.form(SUMMARY, fields, htmx=True)
    assert (9, 27 + 30) in items(frag.text).values()
    assert read_back(fields)["systems"][0]["load"] == "heavy"
    assert not any("bay" in p for p in problems(frag.text))


async def test_a_drone_bay_offers_drone_types(browser: Browser) -> None:
    page = (await browser.get("/designer")).text
    r = await browser.form("/designer", [*form_fields(page), ("sys_add", "drone_bay")])
    page = r.text
    assert ("sys-0-load", "standard") in form_fields(page)
    assert "standard drones (+18 pts)" in page
    assert len(DRONE_GROUPS) == 27
