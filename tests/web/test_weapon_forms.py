"""The compendium's weapons through the pages' forms (selected backend): a needle beam's fire
option names its target system with a select and the declaration carries it; a multi-fusion
launcher's mode is switched with its own form; the record sheet and the log say what happened."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx

from tests.web import Browser, Game, api_events, api_view, create_game, hidden_fields

BrowserFactory = Callable[[], Browser]


async def send(browser: Browser, game: Game, form: str, fields: list[tuple[str, str]]) -> None:
    base = hidden_fields(form, None)
    names = {k for k, _ in fields}
    data = [(k, v) for k, v in base.items() if k not in names] + fields
    r = await browser.form(f"/games/{game.id}/act", data)
    assert r.status_code == 303, r.text


def form_with(page: str, marker: str) -> str:
    for form in re.findall(r"<form.*?</form>", page, re.S):
        if marker in form:
            return str(form)
    raise AssertionError(f"no form with {marker!r} in the page")


async def duel(
    client: httpx.AsyncClient, new_browser: BrowserFactory, a_design: str
) -> tuple[Game, dict[str, Browser]]:
    """A (``a_design``) faces a scout 8 mu ahead; both deployed at speed 0."""
    body = {
        "sides": {
            "A": {"name": "Raiders", "ships": [{"name": "Lance", "design": a_design}]},
            # a scout: no ECM, so A's ping always reveals it (RULES §5)
            "B": {"name": "Wardens", "ships": [{"name": "Warden", "design": "scout"}]},
        },
        # the default zones are 8 mu strips along the south and north edges
        "table": {"width": 72, "height": 24},
    }
    game = await create_game(client, body)
    browsers = {}
    for seat, (x, y), heading, ship in (("A", (30, 8), 0, "a1"), ("B", (30, 16), 6, "b1")):
        browsers[seat] = new_browser()
        await browsers[seat].enter(game.tokens[seat])
        page = (await browsers[seat].page(game.id)).text
        await send(
            browsers[seat],
            game,
            form_with(page, 'id="deploy-form"'),
            [
                (f"x_{ship}", str(x)),
                (f"y_{ship}", str(y)),
                (f"heading_{ship}", str(heading)),
                (f"speed_{ship}", "0"),
            ],
        )
    return game, browsers


async def a_activates(client: httpx.AsyncClient, game: Game, b: dict[str, Browser]) -> str:
    """B (if first) stays put on overwatch; then A is named. Returns A's page."""
    if (await api_view(client, game, "admin"))["phase"]["side"] == "B":
        page = (await b["B"].page(game.id)).text
        await send(
            b["B"],
            game,
            form_with(page, 'id="orders-form"'),
            [("ship", "b1"), ("type", "move"), ("speed_change", "0"), ("turn", "0")],
        )
        page = (await b["B"].page(game.id)).text
        await send(
            b["B"], game, form_with(page, 'value="end_activation"'), [("type", "end_activation")]
        )
    page = (await b["A"].page(game.id)).text
    await send(
        b["A"], game, form_with(page, 'id="orders-form"'), [("ship", "a1"), ("type", "activate")]
    )
    return (await b["A"].page(game.id)).text


async def test_a_needle_shot_names_its_target_system_by_form(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game, b = await duel(client, new_browser, "needle_raider")
    page = await a_activates(client, game, b)
    await send(b["A"], game, form_with(page, 'id="orders-form"'), [("type", "ping")])
    page = (await b["A"].page(game.id)).text
    assert "names a target system" in page  # the record sheet of the needle beams
    select = re.search(r'<select name="system\|a1\|needle-1\|b1">(.*?)</select>', page, re.S)
    assert select, page
    options = re.findall(r'<option value="([^"]+)">([^<]+)</option>', select.group(1))
    assert ("fc-1", "fc-1 (fire control)") in options
    assert not {"core", "bridge", "life_support"} & {v for v, _ in options}  # never core systems
    await send(
        b["A"],
        game,
        form_with(page, 'id="fire-form"'),
        [("type", "fire"), ("shot", "a1|needle-1|b1"), ("system|a1|needle-1|b1", "fc-1")],
    )
    if "B" in (await api_view(client, game, "admin"))["phase"]["awaiting"]:
        page = (await b["B"].page(game.id)).text
        await send(
            b["B"], game, form_with(page, 'id="fire-form"'), [("type", "fire"), ("hold", "1")]
        )
    log = await api_events(client, game, "admin")
    declared = [e for e in log if e["type"] == "fire_declared" and e["data"]["side"] == "A"]
    assert declared[0]["data"]["shots"] == [
        {"ship": "a1", "weapon": "needle-1", "target": "b1", "system": "fc-1"}
    ]
    volley = next(e for e in log if e["type"] == "fire_resolved")["data"]["shots"]
    assert volley[0]["system"] == "fc-1" and volley[0]["path"] == "needle"
    # the log tells it in words, to both players
    for seat in ("A", "B"):
        text = (await b[seat].page(game.id)).text
        assert "needle-1 → " in text and "&#39;s fc-1 at" in text, seat


async def test_a_needle_system_on_a_beam_is_an_inline_error(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game, b = await duel(client, new_browser, "needle_raider")
    page = await a_activates(client, game, b)
    await send(b["A"], game, form_with(page, 'id="orders-form"'), [("type", "ping")])
    page = (await b["A"].page(game.id)).text
    before = len(await api_events(client, game, "admin"))
    form = form_with(page, 'id="fire-form"')
    data = [(k, v) for k, v in hidden_fields(form, None).items()] + [
        ("shot", "a1|beam-1|b1"),
        ("system|a1|beam-1|b1", "fc-1"),
    ]
    r = await b["A"].form(f"/games/{game.id}/act", data)
    assert r.status_code == 422 and "cannot name a target system" in r.text
    assert len(await api_events(client, game, "admin")) == before


async def test_a_multi_fusion_mode_switch_by_form_is_public(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game, b = await duel(client, new_browser, "graser_cruiser")
    page = await a_activates(client, game, b)
    form = form_with(page, 'name="type" value="set_mode"')
    assert "fires as a fusion <strong>torpedo</strong>" in form
    assert '<option value="flare">flare</option>' in form
    await send(b["A"], game, form, [("mode", "flare")])
    log = await api_events(client, game, "admin")
    switched = [e for e in log if e["type"] == "mode_set"]
    assert [e["data"]["mode"] for e in switched] == ["flare"]
    page = (await b["A"].page(game.id)).text
    assert "switches fusion-1 to flare mode" in page
    assert "offline" in page  # the record sheet's "this turn" column
    # public: the other player reads the same sentence
    assert "switches fusion-1 to flare mode" in (await b["B"].page(game.id)).text


def test_map_wedges_reach_as_far_as_each_weapon_and_weak_arcs_are_marked() -> None:
    from app.web import mapview

    ship = {
        "heading": 0,
        "weapons": [
            {
                "id": "beam-1",
                "status": "ok",
                "fired": False,
                "arcs": ["F"],
                "bands": [{"to": 12.0}, {"to": 24.0}, {"to": 36.0}, {"to": 48.0}],
                "weak_arcs": ["FP", "FS"],
                "weak_bands": [{"to": 12.0}, {"to": 24.0}, {"to": 36.0}],
            },
            {
                "id": "torpedo-3",
                "status": "ok",
                "fired": False,
                "offline": False,
                "arcs": ["F"],
                "bands": [{"to": 9.0 * k} for k in range(1, 6)],
            },
            {
                "id": "fusion-1",
                "status": "ok",
                "fired": False,
                "offline": True,
                "arcs": ["F"],
                "bands": [{"to": 6.0 * k} for k in range(1, 7)],
            },
        ],
    }
    arcs = mapview._arcs(ship, 0.0, 0.0)
    reach = {(a["weapon"], a["arc"]): (a["reach"], a["weak"], a["working"]) for a in arcs}
    assert reach == {
        ("beam-1", "F"): (48.0, False, True),
        ("beam-1", "FP"): (36.0, True, True),
        ("beam-1", "FS"): (36.0, True, True),
        ("torpedo-3", "F"): (45.0, False, True),
        ("fusion-1", "F"): (36.0, False, False),  # offline after a mode switch
    }
    assert mapview.rings(arcs) == [36.0, 45.0, 48.0]
    assert mapview.rings([]) == [12.0, 24.0, 36.0]
