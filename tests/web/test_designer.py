"""The designer page over HTTP, as a browser sends its forms (with and without htmx).

- every preset opens in the designer, and both the page and the fragment the page posts on each
  edit show exactly ``design_summary``'s numbers, item by item (the page's own form, read back
  the way a browser submits it);
- add, remove and reorder systems; the htmx answers are the form block alone;
- bad input: a non-number, an unknown type, a bad arc, JSON that is not JSON or not a design,
  a missing or forged CSRF token → an inline message or a 4xx, and nothing saved;
- save → the id and owner token on the result page only (never in a URL or a later page) →
  ``GET /api/v1/designs/{id}`` reads the same design; export → import gives the form back;
- the lobby offers a saved design for a ship, and a duel starts with it.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from html.parser import HTMLParser
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.designs import PRESET_DESIGNS, Design, design_summary, preset
from app.rules.geometry import ARCS, BROADSIDE_ARCS
from app.rules.systems import SYSTEMS
from app.store.models import SavedDesign
from tests.web import Browser

SUMMARY = "/designer/summary"
FORGED = "Form expired or forged"


# -- reading the page the way a browser does ----------------------------------------------------
class _FormReader(HTMLParser):
    """The fields ``<form id=...>`` submits: inputs (checked boxes only), each select's chosen
    option (or its first), textareas with a name; files and buttons are left out."""

    def __init__(self, form_id: str) -> None:
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self._option: dict[str, Any] | None = None
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "form" and a.get("id") == self.form_id:
            self.inside = True
        if not self.inside:
            return
        if tag == "input":
            kind = a.get("type", "text")
            if "name" not in a or kind in ("file", "submit", "button"):
                return
            if kind == "checkbox" and "checked" not in a:
                return
            self.fields.append((a["name"], a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select":
            self._select, self._options = a.get("name"), []
        elif tag == "option" and self._select is not None:
            self._option = {"value": a.get("value"), "selected": "selected" in a, "text": ""}
        elif tag == "textarea" and "name" in a:
            self._textarea, self._text = a["name"], ""

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option["text"] += data
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if not self.inside:
            return
        if tag == "option" and self._option is not None:
            value = self._option["value"]
            value = self._option["text"].strip() if value is None else value
            self._options.append((value, self._option["selected"]))
            self._option = None
        elif tag == "select" and self._select is not None:
            chosen = [v for v, sel in self._options if sel] or [v for v, _ in self._options[:1]]
            if chosen:
                self.fields.append((self._select, chosen[-1]))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.fields.append((self._textarea, self._text))
            self._textarea = None
        elif tag == "form":
            self.inside = False


def form_fields(page: str, form_id: str = "designer") -> list[tuple[str, str]]:
    reader = _FormReader(form_id)
    reader.feed(page)
    assert reader.fields, f"no form {form_id} in the page"
    return reader.fields


def with_fields(fields: list[tuple[str, str]], **changes: str) -> list[tuple[str, str]]:
    out = [(k, changes.get(k, v)) for k, v in fields]
    return out + [(k, v) for k, v in changes.items() if k not in dict(fields)]


def totals(html: str) -> dict[str, int]:
    return {k: int(v) for k, v in re.findall(r'data-total="(\w+)">(-?\d+)<', html)}


def items(html: str) -> dict[str, tuple[int, int]]:
    return {
        k: (int(m), int(p))
        for k, m, p in re.findall(
            r'data-item="([^"]+)" data-mass="(-?\d+)" data-points="(-?\d+)"', html
        )
    }


def problems(html: str) -> list[str]:
    block = re.search(r'<ul class="problems" id="problems"[^>]*>(.*?)</ul>', html, re.S)
    if not block:
        return []
    return [
        re.sub(r"&#39;", "'", re.sub(r"&#34;|&quot;", '"', p.strip()))
        for p in re.findall(r"<li>(.*?)</li>", block.group(1), re.S)
    ]


def expected_items(summary: dict[str, Any]) -> dict[str, tuple[int, int]]:
    out = {
        "base": (0, summary["base_cost"]),
        "hull": (summary["hull_mass"], summary["hull_cost"]),
        "armour": (summary["armour"], summary["armour_cost"]),
        "stealth": (0, summary["stealth_cost"]),
    }
    out.update({f"sys:{r['id']}": (r["mass"], r["points"]) for r in summary["systems"]})
    return out


def assert_summary(html: str, summary: dict[str, Any]) -> None:
    assert totals(html) == {
        "mass": summary["mass"],
        "mass_used": summary["mass_used"],
        "mass_free": summary["mass_free"],
        "points": summary["points"],
    }
    assert items(html) == expected_items(summary)
    assert problems(html) == summary["problems"]
    # item by item adds up to the totals
    assert sum(m for m, _ in items(html).values()) == summary["mass_used"]
    assert sum(p for _, p in items(html).values()) == summary["points"]


def read_back(fields: list[tuple[str, str]]) -> dict[str, Any]:
    """What the form holds, as the JSON the page would export."""
    from starlette.datastructures import FormData

    from app.web.designer import Draft

    design, problems_ = Draft.from_form(FormData(fields)).read()
    assert design is not None, problems_
    return design.to_dict()


def canonical(design: dict[str, Any]) -> dict[str, Any]:
    """A design with each arc list in ring order: the order the page's boxes are in (a set of
    arcs is what a weapon has; the presets list fore arcs as FP, F, FS)."""
    ring = [*ARCS, *BROADSIDE_ARCS]

    def order(arcs: list[str]) -> list[str]:
        return sorted(arcs, key=lambda a: ring.index(a) if a in ring else len(ring))

    systems = []
    for s in design["systems"]:
        s = dict(s)
        for key in ("arcs", "weak_arcs"):
            if key in s:
                s[key] = order(s[key])
        systems.append(s)
    return {**design, "systems": systems}


@pytest.fixture
async def browser(client: httpx.AsyncClient) -> AsyncIterator[Browser]:
    b = Browser(client)
    yield b
    for r in b.responses:
        if r.headers.get("content-type", "").startswith("text/html"):
            assert r.headers.get("cache-control") == "no-store", r.request.url
            assert r.headers.get("referrer-policy") == "no-referrer", r.request.url
    await b.close()


async def saved_count(client: httpx.AsyncClient) -> int:
    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.db.session() as session:
        return int(await session.scalar(sa.select(sa.func.count()).select_from(SavedDesign)) or 0)


# -- pages and totals ---------------------------------------------------------------------------
async def test_blank_designer_page(browser: Browser) -> None:
    r = await browser.get("/designer")
    assert r.status_code == 200
    assert "<title>Ship designer — pingduel</title>" in r.text
    assert 'action="/designer/save"' not in r.text or 'formaction="/designer/save"' in r.text
    fields = dict(form_fields(r.text))
    assert fields["csrf"] == browser.csrf
    assert_summary(r.text, design_summary(Design.from_dict(read_back(form_fields(r.text)))))
    assert 'id="no-systems"' in r.text
    # every type of the table can be added, each family under its heading, pending ones say so
    for family in ("Weapons", "Missiles and torpedoes", "Defences", "Electronics", "Hull"):
        assert f"<summary>{family} <small>" in r.text
    for system_type in SYSTEMS:
        assert f'name="sys_add" value="{system_type}"' in r.text
    for system_type, row in SYSTEMS.items():
        pick = re.search(rf'<li id="pick-{system_type}">(.*?)</li>', r.text, re.S)
        assert pick, system_type
        assert ("Pending:" in pick.group(1)) == bool(row.pending), system_type
    # point defence works since missiles and torpedoes exist (issue 12)
    assert not SYSTEMS["pds"].pending and not SYSTEMS["adfc"].pending


@pytest.mark.parametrize("design_id", sorted(PRESET_DESIGNS))
async def test_every_preset_shows_design_summary_on_the_page_and_in_the_fragment(
    browser: Browser, design_id: str
) -> None:
    expected = design_summary(preset(design_id))
    r = await browser.get(f"/designer?from={design_id}")
    assert r.status_code == 200
    assert_summary(r.text, expected)
    fields = form_fields(r.text)
    assert read_back(fields) == canonical(preset(design_id).to_dict())
    # the fragment each edit posts: the same numbers, and only the summary block
    frag = await browser.form(SUMMARY, fields, htmx=True)
    assert frag.status_code == 200
    assert frag.text.lstrip().startswith('<section id="designer-summary"')
    assert "<html" not in frag.text
    assert_summary(frag.text, expected)
    # each system card's mass and points come along out of band
    for n, row in enumerate(expected["systems"][: len(preset(design_id).systems)]):
        assert (
            f'id="sys-{n}-cost" hx-swap-oob="true">{row["mass"]} mass · {row["points"]} pts'
            in frag.text
        )


async def test_weak_arcs_mode_and_stealth_through_the_form(browser: Browser) -> None:
    rich = {
        "id": "shadow",
        "name": "Shadow",
        "class": "raider",
        "mass": 40,
        "thrust": 4,
        "hull": 10,
        "hull_rows": 5,
        "armour": 2,
        "broadside": True,
        "stealth": 2,
        "systems": [
            {"id": "fc-1", "type": "fire_control"},
            {"id": "b-1", "type": "beam", "class": 3, "arcs": ["SF", "S"], "weak_arcs": ["PF"]},
            {"id": "mf-1", "type": "multi_fusion", "arcs": ["SF"], "mode": "torpedo"},
            {"id": "screen-1", "type": "screen", "level": 1},
            {"id": "sensors-1", "type": "sensors", "grade": "superior"},
        ],
    }
    await browser.get("/designer")
    r = await browser.form("/designer", {"do_import": "1", "import_json": json.dumps(rich)})
    assert r.status_code == 200, r.text
    fields = form_fields(r.text)
    assert read_back(fields) == rich
    expected = design_summary(Design.from_dict(rich))
    assert_summary(r.text, expected)
    assert expected["stealth_cost"] == 2 * 2 * (10 + 2)
    # the rosette is drawn in the broadside orientation, full and weak arcs marked
    card = re.search(r'<li class="sys-card[^"]*" id="sys-1".*?</li>', r.text, re.S)
    assert card
    wedges = re.findall(r'<g class="wedge (\w+)" data-arc="(\w+)"', card.group(0))
    assert {arc: state for state, arc in wedges} == {
        "SF": "full",
        "S": "full",
        "SA": "off",
        "PA": "off",
        "P": "off",
        "PF": "weak",
    }
    # untick the weak arc in the fragment: one mass and three points fewer
    fields = [(k, v) for k, v in fields if (k, v) != ("sys-1-weak", "PF")]
    frag = await browser.form(SUMMARY, fields, htmx=True)
    assert totals(frag.text)["mass_used"] == expected["mass_used"] - 1
    assert totals(frag.text)["points"] == expected["points"] - 3


async def test_add_remove_and_reorder_systems(browser: Browser) -> None:
    r = await browser.get("/designer")
    fields = form_fields(r.text)
    r = await browser.form("/designer", [*fields, ("sys_add", "beam")])
    assert r.status_code == 200 and 'id="notice">Added beam beam-1.' in r.text
    fields = form_fields(r.text)
    assert ("sys-0-type", "beam") in fields and ("sys-0-class", "2") in fields
    assert any("has no arcs: give it at least one arc" in p for p in problems(r.text))
    r = await browser.form("/designer", [*fields, ("sys_add", "screen")], htmx=True)
    assert r.text.lstrip().startswith('<form id="designer"') and "<html" not in r.text
    fields = form_fields(r.text)
    assert [v for k, v in fields if k.endswith("-type")] == ["beam", "screen"]
    r = await browser.form("/designer", [*fields, ("sys_up", "1")])
    fields = form_fields(r.text)
    assert [v for k, v in fields if k.endswith("-id")] == ["screen-1", "beam-1"]
    r = await browser.form("/designer", [*fields, ("sys_down", "0")])
    fields = form_fields(r.text)
    assert [v for k, v in fields if k.endswith("-id")] == ["beam-1", "screen-1"]
    r = await browser.form("/designer", [*fields, ("sys_remove", "0")])
    fields = form_fields(r.text)
    assert [v for k, v in fields if k.endswith("-id")] == ["screen-1"]
    assert "Removed beam-1." in r.text
    # a class-1 beam fires all round: nothing to pick, all six arcs in the JSON
    r = await browser.form("/designer", [*fields, ("sys_add", "beam")])
    fields = with_fields(form_fields(r.text), **{"sys-1-class": "1"})
    r = await browser.form("/designer", fields)
    assert "Class 1 fires in all six arcs." in r.text
    assert read_back(form_fields(r.text))["systems"][1]["arcs"] == [
        "F",
        "FS",
        "AS",
        "A",
        "AP",
        "FP",
    ]


# -- bad input ----------------------------------------------------------------------------------
async def test_bad_input_gets_inline_messages_and_saves_nothing(
    browser: Browser, client: httpx.AsyncClient
) -> None:
    r = await browser.get("/designer?from=frigate")
    good = form_fields(r.text)
    cases = [
        (with_fields(good, f_mass="forty"), "mass must be a whole number, got 'forty'"),
        (with_fields(good, f_hull=""), "hull must be a whole number, got ''"),
        (with_fields(good, **{"sys-0-type": "laser"}), "system fc-1 has unknown type 'laser'"),
        (
            [*good, ("sys-1-arc", "Q")],
            "arc 'Q' is not one of this design's standard arcs: use F, FS, AS, A, AP or FP",
        ),
        (with_fields(good, f_armour="9"), "mass used 37 is more than mass 30"),
    ]
    for fields, message in cases:
        frag = await browser.form(SUMMARY, fields, htmx=True)
        assert frag.status_code == 200
        assert any(message in p for p in problems(frag.text)), (message, problems(frag.text))
        page = await browser.form("/designer", fields)
        assert any(message in p for p in problems(page.text)), message
        saved = await browser.form("/designer/save", fields)
        assert saved.status_code == 422, message
        assert "Not saved: fix the problems listed" in saved.text
        assert any(message in p for p in problems(saved.text))
    # the unreadable ones have no totals, and download nothing
    r = await browser.form("/designer/export", with_fields(good, f_mass="forty"))
    assert r.status_code == 422 and 'id="no-totals"' in r.text
    # a rosette arc that is not of the orientation stays visible (to be unticked), not dropped
    page = await browser.form("/designer", [*good, ("sys-1-arc", "Q")])
    assert ("sys-1-arc", "Q") in form_fields(page.text)
    assert await saved_count(client) == 0


@pytest.mark.parametrize(
    ("pasted", "message"),
    [
        ("{not json", "this is not JSON (Expecting property name enclosed in double quotes"),
        ("", "paste a design's JSON or choose a file first"),
        ("[1, 2]", "this JSON is not a design: a design must be an object"),
        ('{"id": "x", "name": "X"}', "class is missing: a design needs class"),
        (
            '{"id": "x", "name": "X", "class": "c", "mass": 30, "thrust": 2, "hull": 5, '
            '"armor": 1}',
            "unknown field 'armor'",
        ),
    ],
)
async def test_a_bad_import_changes_nothing(browser: Browser, pasted: str, message: str) -> None:
    r = await browser.get("/designer?from=destroyer")
    before = form_fields(r.text)
    r = await browser.form("/designer", [*before, ("do_import", "1"), ("import_json", pasted)])
    assert r.status_code == 422
    error = re.search(r'<p class="error" role="alert" id="import-error">(.*?)</p>', r.text, re.S)
    assert error and message in error.group(1).replace("&#39;", "'").replace("&#34;", '"')
    after = [(k, v) for k, v in form_fields(r.text) if k != "import_json"]
    assert after == [(k, v) for k, v in before if k != "import_json"]
    assert ("import_json", pasted) in form_fields(r.text)  # kept to be corrected
    # the htmx variant: the form block with the message, 4xx (the page swaps it in)
    r = await browser.form(
        "/designer", [*before, ("do_import", "1"), ("import_json", pasted)], htmx=True
    )
    assert r.status_code == 422 and r.text.lstrip().startswith('<form id="designer"')


async def test_every_designer_post_needs_the_csrf_token(
    browser: Browser, client: httpx.AsyncClient
) -> None:
    r = await browser.get("/designer?from=scout")
    fields = [(k, v) for k, v in form_fields(r.text) if k != "csrf"]
    for path in ("/designer", SUMMARY, "/designer/export", "/designer/save"):
        for extra, headers in (
            ([], {}),  # no token
            ([("csrf", "0" * 64)], {}),  # a forged one
            ([("csrf", str(browser.csrf))], {"Origin": "http://evil.example"}),  # another site
        ):
            r = await browser.post(path, data=[*fields, *extra], headers=headers)
            assert r.status_code == 403, (path, extra, headers)
            assert FORGED in r.text
        r = await browser.post(path, data=fields, headers={"HX-Request": "true"})
        assert r.status_code == 403 and r.headers.get("HX-Refresh") == "true"
    assert await saved_count(client) == 0


async def test_an_unknown_design_to_start_from(browser: Browser) -> None:
    r = await browser.get("/designer?from=d-nothere")
    assert r.status_code == 404
    assert "no design &#39;d-nothere&#39; — showing a blank design instead." in r.text
    assert read_back(form_fields(r.text))["name"] == "New design"


# -- save, export, import, use ------------------------------------------------------------------
async def test_save_shows_the_id_and_token_once_and_the_api_reads_it_back(
    browser: Browser, client: httpx.AsyncClient
) -> None:
    r = await browser.get("/designer?from=hunter")
    fields = with_fields(form_fields(r.text), f_name="Longsight II", f_stealth="1")
    expected = read_back(fields)
    r = await browser.form("/designer/save", fields)
    assert r.status_code == 201, r.text
    assert "<title>Design saved — pingduel</title>" in r.text
    design_id = re.search(r'id="saved-id" class="saved-id" readonly value="([^"]+)"', r.text)
    token = re.search(r'id="owner-token" readonly value="([^"]+)"', r.text)
    assert design_id and token
    design_id_, token_ = design_id.group(1), token.group(1)
    assert r.text.count(token_) == 1
    assert "location" not in r.headers and token_ not in str(r.url)
    assert f'href="/?design={design_id_}"' in r.text
    assert f'"design": &#34;{design_id_}&#34;' in r.text or f'"design": "{design_id_}"' in r.text
    got = (await client.get(f"/api/v1/designs/{design_id_}")).json()
    assert {k: v for k, v in got.items() if k not in ("points", "summary")} == {
        **expected,
        "id": design_id_,
    }
    assert got["summary"]["stealth_cost"] > 0
    assert await saved_count(client) == 1
    # opening it again never shows the token
    again = await browser.get(f"/designer?from={design_id_}")
    assert again.status_code == 200 and token_ not in again.text
    assert read_back(form_fields(again.text)) == {**expected, "id": design_id_}


async def test_export_then_import_gives_the_same_design(browser: Browser) -> None:
    r = await browser.get("/designer?from=heavy_cruiser")
    fields = with_fields(form_fields(r.text), f_name="Dreadful", f_stealth="1")
    exported = await browser.form("/designer/export", fields)
    assert exported.status_code == 200
    assert exported.headers["content-type"].startswith("application/json")
    assert exported.headers["content-disposition"] == 'attachment; filename="heavy_cruiser.json"'
    assert exported.headers["cache-control"] == "no-store"
    data = exported.json()
    assert data == read_back(fields) and data["name"] == "Dreadful" and data["stealth"] == 1
    # the read-only JSON box on the page holds the same
    page = await browser.form("/designer", fields)
    box = re.search(r'<textarea id="export-json"[^>]*>(.*?)</textarea>', page.text, re.S)
    assert box and json.loads(box.group(1).replace("&#34;", '"')) == data
    # pasted into a blank form
    blank = form_fields((await browser.get("/designer")).text)
    r = await browser.form(
        "/designer", [*blank, ("do_import", "1"), ("import_json", exported.text)]
    )
    assert r.status_code == 200 and "Imported Dreadful." in r.text
    assert read_back(form_fields(r.text)) == data
    # or as a file (multipart, as the page's form sends it)
    blank_fields = dict(blank)
    r = await browser.http.post(
        "/designer",
        data={**blank_fields, "do_import": "1", "import_json": ""},
        files={"import_file": ("dreadful.json", exported.content, "application/json")},
    )
    assert r.status_code == 200, r.text
    assert read_back(form_fields(r.text)) == data
    # not UTF-8 → an inline message, nothing changes
    r = await browser.http.post(
        "/designer",
        data={**blank_fields, "do_import": "1"},
        files={"import_file": ("x.json", b"\xff\xfe{", "application/json")},
    )
    assert r.status_code == 422 and "the file is not UTF-8 text" in r.text


async def test_the_lobby_offers_a_saved_design_and_a_duel_starts_with_it(
    browser: Browser, client: httpx.AsyncClient
) -> None:
    r = await browser.get("/designer?from=frigate")
    r = await browser.form("/designer/save", with_fields(form_fields(r.text), f_name="Picket II"))
    design_id = re.search(r'id="saved-id" class="saved-id" readonly value="([^"]+)"', r.text)
    assert design_id
    saved = design_id.group(1)
    lobby = await browser.get(f"/?design={saved}")
    assert lobby.status_code == 200
    label = f"Picket II (frigate, mass 30, thrust 6, 114 pts) — saved {saved}"
    assert f'<option value="{saved}" selected>{label}</option>' in lobby.text
    assert lobby.text.count(f'<option value="{saved}"') == 8  # every ship list
    assert 'href="/designer"' in lobby.text
    created = await browser.form(
        "/games",
        {
            "mode": "custom",
            "A_design_1": saved,
            "A_name_1": "Vigilant",
            "B_design_1": "frigate",
            "B_name_1": "Shade",
            "movement": "cinematic",
            "seat": "A",
        },
    )
    assert created.status_code == 201, created.text
    # an unknown id: the lobby again, with the message and the choice kept
    refused = await browser.form(
        "/games",
        {"mode": "custom", "A_design_1": "d-nothere", "B_design_1": "frigate", "seat": "A"},
    )
    assert refused.status_code == 422 and "no preset or saved design" in refused.text
    assert '<option value="d-nothere" selected>unknown design d-nothere</option>' in refused.text


async def test_making_a_beam_class_1_fires_it_all_round(browser: Browser) -> None:
    r = await browser.get("/designer?from=frigate")
    fields = with_fields(form_fields(r.text), **{"sys-1-class": "1"})  # was class 2, fore arcs
    r = await browser.form("/designer", fields, htmx=True)
    assert problems(r.text) == []
    assert read_back(form_fields(r.text))["systems"][1]["arcs"] == list(ARCS)
    # but imported JSON with a class-1 beam on three arcs shows them, and the problem
    odd = preset("frigate").to_dict()
    odd["systems"][1]["class"] = 1
    r = await browser.form(
        "/designer", [*fields, ("do_import", "1"), ("import_json", json.dumps(odd))]
    )
    assert r.status_code == 200
    assert any("always fires in all six arcs" in p for p in problems(r.text))
    assert [v for k, v in form_fields(r.text) if k == "sys-1-arc"] == ["F", "FS", "FP"]
    frag = await browser.form(SUMMARY, form_fields(r.text), htmx=True)
    assert any("always fires in all six arcs" in p for p in problems(frag.text))


NASTY = st.sampled_from(
    [
        "",
        " ",
        "0",
        "-1",
        "1",
        "2",
        "3",
        "7",
        "40",
        "301",
        "1e3",
        "999999999999",
        "x",
        "F",
        "SF",
        "beam",
        "laser",
        "flare",
        "superior",
        "basic",
        "\u00e9",
        "<b>",
        '"',
        "'; --",
        "1.5",
    ]
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_any_form_junk_gets_a_page_never_a_server_error(
    browser: Browser, data: st.DataObject
) -> None:
    if browser.csrf is None:
        await browser.get("/designer")
    fields: list[tuple[str, str]] = []
    for key in (
        "f_id",
        "f_name",
        "f_class",
        "f_mass",
        "f_thrust",
        "f_hull",
        "f_hull_rows",
        "f_armour",
        "f_stealth",
        "f_broadside",
    ):
        if data.draw(st.booleans()):
            fields.append((key, data.draw(NASTY)))
    for n in range(data.draw(st.integers(0, 3))):
        p = f"sys-{data.draw(st.sampled_from([n, 7, 9999]))}-"
        fields.append(
            (
                p + "type",
                data.draw(
                    st.sampled_from(
                        ["beam", "screen", "sensors", "multi_fusion", "fire_control", "x"]
                    )
                ),
            )
        )
        for key in ("id", "class", "arc", "weak", "mode", "level", "grade", "was"):
            if data.draw(st.booleans()):
                fields.append((p + key, data.draw(NASTY)))
    action = data.draw(
        st.sampled_from(
            [
                [],
                [("sys_add", "beam")],
                [("sys_add", "nope")],
                [("sys_remove", "0")],
                [("sys_up", "1")],
                [("sys_down", "x")],
                [("do_import", "1"), ("import_json", "{}")],
            ]
        )
    )
    for path in ("/designer", SUMMARY, "/designer/export", "/designer/save"):
        r = await browser.form(path, [*fields, *action], htmx=path == SUMMARY)
        assert r.status_code in (200, 201, 422), (path, fields, r.status_code)


async def test_a_design_as_the_api_gives_it_out_imports(
    browser: Browser, client: httpx.AsyncClient
) -> None:
    """``GET /api/v1/designs/{id}`` adds read-only ``points`` and ``summary``: pasted into the
    designer as it is, the design imports (docs/designs.md)."""
    blank = form_fields((await browser.get("/designer")).text)
    for design_id in PRESET_DESIGNS:
        read = (await client.get(f"/api/v1/designs/{design_id}")).json()
        assert "points" in read and "summary" in read
        r = await browser.form(
            "/designer", [*blank, ("do_import", "1"), ("import_json", json.dumps(read))]
        )
        assert r.status_code == 200, (design_id, r.text[:300])
        assert f"Imported {read['name']}." in r.text
        assert canonical(read_back(form_fields(r.text))) == canonical(
            PRESET_DESIGNS[design_id].to_dict()
        )
