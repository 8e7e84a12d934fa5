"""The ship designer in a real Chromium: build a small design by clicking, save it, use it.

One person starts from the blank design, adds a class-2 beam from the picker, picks its arcs on
the rosette (the totals move as the page's fragment comes back), meets a problem the page
reports (too few hull boxes), fixes it as the message says, and saves; the result page shows
the new id (and the owner token, once), and the REST API reads back what the page built. The
same page without JavaScript still adds a system and re-renders the totals.
"""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, Route, expect

from app.rules.designs import Design, design_summary
from tests.browser.conftest import OpenPage, screenshot
from tests.conftest import LiveServer


def total(page: Page, name: str) -> int:
    return int(page.locator(f'#designer-summary [data-total="{name}"]').first.inner_text())


def expect_total(page: Page, name: str, value: int) -> None:
    """The summary's total ``name`` comes to ``value``. Waited for, not read once no request is
    out: an edit asks for the totals 250 ms later (``hx-trigger="input delay:250ms"``), so the
    answer of the last edit may not even have been asked for yet."""
    locator = page.locator(f'#designer-summary [data-total="{name}"]').first
    expect(locator).to_have_text(str(value))


def settled(page: Page) -> None:
    page.wait_for_function("() => document.querySelectorAll('.htmx-request').length === 0")


def test_build_a_design_by_clicking_and_save_it(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    page = open_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Ship designer").first.click()
    expect(page).to_have_title("Ship designer — pingduel")
    expect(page.locator("#no-systems")).to_be_visible()
    page.fill("#f-name", "Kestrel")
    used_before = total(page, "mass_used")
    points_before = total(page, "points")

    # add a beam from the picker: it arrives as class 2 without arcs, and the page says so
    page.get_by_role("button", name="Add beam", exact=True).click()
    card = page.locator(".sys-card[data-type=beam]")
    expect(card).to_have_count(1)
    expect(page.locator("#problems")).to_contain_text("has no arcs: give it at least one arc")
    expect(page.locator("#notice")).to_contain_text("Added beam beam-1")

    # pick three adjacent arcs on the rosette: FP, F, FS
    rosette = card.locator("svg.rosette")
    for arc in ("FP", "F", "FS"):
        rosette.locator(f'.wedge[data-arc="{arc}"] path').click()
        expect(rosette.locator(f'.wedge[data-arc="{arc}"]')).to_have_class(re.compile(r"\bfull\b"))
    for arc in ("FP", "F", "FS"):
        expect(card.locator(f'input[name="sys-0-arc"][value="{arc}"]')).to_be_checked()
    expect(page.locator("#no-problems")).to_be_visible()
    expect_total(page, "mass_used", used_before + 2)
    expect_total(page, "points", points_before + 6)
    expect(card.locator(".sys-cost")).to_have_text("2 mass · 6 pts")

    # a fourth arc makes it a 3-mass beam; a second click makes that arc weak (+1 on 3 arcs)
    rosette.locator('.wedge[data-arc="A"] path').click()
    expect(card.locator(".sys-cost")).to_have_text("3 mass · 9 pts")
    rosette.locator('.wedge[data-arc="A"] path').click()
    expect(rosette.locator('.wedge[data-arc="A"]')).to_have_class(re.compile(r"\bweak\b"))
    expect(card.locator('input[name="sys-0-weak"][value="A"]')).to_be_checked()
    expect(card.locator(".sys-cost")).to_have_text("3 mass · 9 pts")

    # a problem the page reports, fixed the way it says
    page.fill("#f-hull", "2")
    problem = page.locator("#problems li", has_text="hull 2 is below 10% of mass 30")
    expect(problem).to_contain_text("use at least 3 boxes")
    page.fill("#f-hull", "9")
    expect(page.locator("#no-problems")).to_be_visible()
    settled(page)
    screenshot(page, "designer")

    # the page's own totals are the rules' numbers
    built = Design.from_dict(
        {
            "id": "my-design",
            "name": "Kestrel",
            "class": "frigate",
            "mass": 30,
            "thrust": 4,
            "hull": 9,
            "systems": [
                {
                    "id": "beam-1",
                    "type": "beam",
                    "class": 2,
                    "arcs": ["F", "FS", "FP"],
                    "weak_arcs": ["A"],
                }
            ],
        }
    )
    summary = design_summary(built)
    expect_total(page, "mass_used", summary["mass_used"])
    expect_total(page, "points", summary["points"])

    # save: the result page shows the id and the token once, and the API reads it back
    with page.expect_response(lambda r: r.url.endswith("/designer/save")) as saved:
        page.get_by_role("button", name="Save design").click()
    assert saved.value.status == 201
    expect(page).to_have_title("Design saved — pingduel")
    design_id = page.locator("#saved-id").input_value()
    assert re.fullmatch(r"d-[a-z0-9]+", design_id), design_id
    assert len(page.locator("#owner-token").input_value()) >= 40
    assert "token" not in page.url and design_id not in page.url
    screenshot(page, "designer-saved")
    r = httpx.get(f"{live_server.url}/api/v1/designs/{design_id}", timeout=10)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["name"] == "Kestrel" and got["points"] == summary["points"]
    assert got["systems"] == [
        {"id": "beam-1", "type": "beam", "class": 2, "arcs": ["F", "FS", "FP"], "weak_arcs": ["A"]}
    ]

    # and the lobby link offers it for a ship
    page.get_by_role("link", name="Start a duel with it").click()
    expect(page).to_have_title("Start a duel — pingduel")
    expect(page.locator("#A_design_1")).to_have_value(design_id)
    assert errors == []


def test_the_designer_works_without_javascript(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    page = open_page(js=False)
    page.goto(f"{live_server.url}/designer?from=scout")
    expect(page.locator("#f-name")).to_have_value("Scout")
    assert total(page, "points") == design_summary(Design.from_dict(_scout()))["points"]
    page.get_by_role("button", name="Add fire control").click()
    expect(page.locator(".sys-card[data-type=fire_control]")).to_have_count(2)
    expect(page.locator("#problems")).to_contain_text("mass used 17 is more than mass 16")
    page.get_by_role("button", name="Remove fire-control-1").click()
    expect(page.locator("#no-problems")).to_be_visible()


def _scout() -> dict[str, object]:
    from app.rules.designs import preset

    return preset("scout").to_dict()


def test_class_orientation_and_import_re_render_the_form(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    page = open_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/designer?from=frigate")
    mark = page.evaluate(
        "() => { window.__designerMark = Math.random(); return window.__designerMark; }"
    )
    card = page.locator("#sys-1")
    expect(card.locator(".sys-cost")).to_have_text("2 mass · 6 pts")
    # a class-3 beam with three arcs: 4 + 2 mass; the form comes back with the class kept
    page.select_option("#sys-1-class", "3")
    expect(card.locator(".sys-cost")).to_have_text("6 mass · 18 pts")
    expect(page.locator("#problems")).to_contain_text("mass used 34 is more than mass 30")
    # class 1 fires all round: the rosette is fixed, the boxes are gone
    page.select_option("#sys-1-class", "1")
    expect(card.locator("svg.rosette.fixed")).to_be_visible()
    expect(card).to_contain_text("Class 1 fires in all six arcs.")
    page.select_option("#sys-1-class", "2")
    expect(page.locator("#problems")).to_contain_text("beam-1 with 0 arcs has no arcs")
    card.locator('svg.rosette .wedge[data-arc="F"] path').click()
    expect(page.locator("#no-problems")).to_be_visible()
    # broadside: the rosettes turn by 30°, and the standard arcs still ticked are shown to untick
    page.check("#f-broadside")
    expect(card.locator('svg.rosette .wedge[data-arc="SF"]')).to_have_count(1)
    expect(page.locator("#problems")).to_contain_text(
        "arc 'F' is not one of this design's broadside arcs"
    )
    for n in (1, 2):
        ticked = page.locator(f'input[name="sys-{n}-arc"]:checked')
        while ticked.count():
            ticked.first.uncheck()
        page.locator(f'#sys-{n} svg.rosette .wedge[data-arc="S"] path').click()
    expect(page.locator("#no-problems")).to_be_visible()
    # import by pasting: the whole form is replaced in place
    page.fill("#import-json", "{not json")
    page.get_by_role("button", name="Import into the form").click()
    expect(page.locator("#import-error")).to_contain_text("this is not JSON")
    expect(page.locator("#f-broadside")).to_be_checked()  # nothing changed
    page.fill(
        "#import-json",
        '{"id": "t", "name": "Tiny", "class": "gunboat", "mass": 10, '
        '"thrust": 2, "hull": 3, "systems": [{"id": "fc", "type": "fire_control"}]}',
    )
    page.get_by_role("button", name="Import into the form").click()
    expect(page.locator("#f-name")).to_have_value("Tiny")
    expect(page.locator("#notice")).to_have_text("Imported Tiny.")
    expect(page.locator('#designer-summary [data-total="points"]')).to_have_text("22")
    assert page.evaluate("() => window.__designerMark") == mark, "the page was reloaded"
    assert errors == []


def test_build_a_missile_cruiser_with_a_magazine(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """Issue 12: launchers, a magazine with its loads and a rack, by clicking; the totals and
    the problems follow each edit, and the API reads back what the page built."""
    page = open_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/designer")
    page.fill("#f-name", "Volley")
    page.fill("#f-class", "cruiser")
    page.fill("#f-mass", "80")
    page.fill("#f-hull", "20")
    page.get_by_role("button", name="Add fire control").click()
    expect(page.locator(".sys-card[data-type=fire_control]")).to_have_count(1)

    # a salvo launcher with no magazine yet: the page says what to do
    page.get_by_role("button", name="Add salvo missile launcher").click()
    launcher = page.locator("#sys-1")
    expect(launcher.locator("#sys-1-magazine")).to_contain_text("none yet: add a magazine")
    expect(page.locator("#problems")).to_contain_text("is fed from no magazine")
    launcher.locator('svg.rosette .wedge[data-arc="F"] path').click()
    expect(launcher.locator('input[name="sys-1-arc"][value="F"]')).to_be_checked()

    # the magazine feeds it at once; it holds nothing until loads are counted in
    page.get_by_role("button", name="Add missile magazine").click()
    expect(page.locator("#sys-1-magazine")).to_have_value("magazine-1")
    expect(page.locator("#problems")).to_contain_text("magazine-1 holds nothing")
    magazine = page.locator("#sys-2")
    used_before = total(page, "mass_used")
    for load, count in (("salvo", "4"), ("er_salvo", "2"), ("af_salvo", "2")):
        page.fill(f"#sys-2-loads-{load}", count)
    expect(magazine.locator(".sys-cost")).to_have_text("16 mass · 48 pts")
    expect_total(page, "mass_used", used_before + 16)

    # a second launcher takes the same magazine; a heavy-missile load needs nothing more
    page.get_by_role("button", name="Add salvo missile launcher").click()
    expect(page.locator("#sys-3-magazine")).to_have_value("magazine-1")
    page.locator('#sys-3 svg.rosette .wedge[data-arc="FP"] path').click()
    page.fill("#sys-2-loads-standard", "1")
    expect(page.locator("#sys-2 .sys-cost")).to_have_text("17 mass · 51 pts")

    # a salvo rack's load is its mass: extended range weighs 5
    page.get_by_role("button", name="Add salvo missile rack").click()
    rack = page.locator("#sys-4")
    expect(page.locator("#sys-4-load")).to_have_value("salvo")
    rack.locator('svg.rosette .wedge[data-arc="A"] path').click()
    expect(rack.locator(".sys-cost")).to_have_text("4 mass · 12 pts")
    page.select_option("#sys-4-load", "er_salvo")
    expect(rack.locator(".sys-cost")).to_have_text("5 mass · 15 pts")
    expect(page.locator("#no-problems")).to_be_visible()
    settled(page)
    screenshot(page, "designer_magazine")

    built = Design.from_dict(
        {
            "id": "my-design",
            "name": "Volley",
            "class": "cruiser",
            "mass": 80,
            "thrust": 4,
            "hull": 20,
            "systems": [
                {"id": "fire-control-1", "type": "fire_control"},
                {
                    "id": "salvo-launcher-1",
                    "type": "salvo_launcher",
                    "arcs": ["F"],
                    "magazine": "magazine-1",
                },
                {
                    "id": "magazine-1",
                    "type": "magazine",
                    "loads": {"salvo": 4, "er_salvo": 2, "af_salvo": 2, "standard": 1},
                },
                {
                    "id": "salvo-launcher-2",
                    "type": "salvo_launcher",
                    "arcs": ["FP"],
                    "magazine": "magazine-1",
                },
                {"id": "salvo-rack-1", "type": "salvo_rack", "arcs": ["A"], "load": "er_salvo"},
            ],
        }
    )
    summary = design_summary(built)
    assert summary["problems"] == []
    expect_total(page, "mass_used", summary["mass_used"])
    expect_total(page, "points", summary["points"])

    with page.expect_response(lambda r: r.url.endswith("/designer/save")) as saved:
        page.get_by_role("button", name="Save design").click()
    assert saved.value.status == 201
    design_id = page.locator("#saved-id").input_value()
    r = httpx.get(f"{live_server.url}/api/v1/designs/{design_id}", timeout=10)
    assert r.status_code == 200, r.text
    got = Design.from_dict(
        {k: v for k, v in r.json().items() if k not in ("points", "summary")} | {"id": "my-design"}
    )
    assert got.to_dict() == built.to_dict()
    assert errors == []


def test_totals_answered_after_the_form_was_redrawn_change_nothing(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    """An edit's totals (the summary, with each card's cost out of band) that come back after a
    button has redrawn the whole form (here: a system moved down) are those of a form that is
    gone: they wrote the old order's costs into the new order's cards. The test holds the
    summary back (a Playwright route) until the form has been redrawn."""
    page = open_page()
    page.goto(f"{live_server.url}/designer?from=frigate")
    expect(page.locator("#sys-1 .sys-cost")).to_have_text("2 mass · 6 pts")
    fire_control = page.locator("#sys-0 .sys-cost").inner_text()
    assert fire_control != "2 mass · 6 pts"
    held: list[Route] = []
    page.route("**/designer/summary", lambda route: held.append(route))
    with page.expect_request(lambda r: r.url.endswith("/designer/summary")):
        page.fill("#f-name", "Kestrel")  # its totals are asked for, and held
    # the held answer, once let through, is the old form's: note when the page has taken it
    page.evaluate(
        """() => document.getElementById("designer").addEventListener(
            "htmx:afterOnLoad", () => { window.__pdOldAnswer = true; })"""
    )
    page.get_by_role("button", name="Move fc-1 down").click()
    expect(page.locator("#sys-0-id")).to_have_value("beam-1")
    expect(page.locator("#sys-0 .sys-cost")).to_have_text("2 mass · 6 pts")
    assert held, "the summary was not asked for"
    held[0].continue_()
    page.wait_for_function("() => window.__pdOldAnswer === true")
    expect(page.locator("#sys-0 .sys-cost")).to_have_text("2 mass · 6 pts")
    expect(page.locator("#sys-1 .sys-cost")).to_have_text(fire_control)
    expect(page.locator("#f-name")).to_have_value("Kestrel")
