"""Issue 16's referee and designer fixes and a clean console, in a real Chromium.

One refereed game, two pages (side A's, the admin's as referee), both listening for console
errors and page errors from the first load to the end:

- live updates: the sides deploy and play over the REST API while both pages follow through
  their streams; two refreshes asked for back to back (a hint arriving while a refresh is out)
  and a form posted while refreshes are out (the page goes away under them) log nothing;
- the referee's seed commitment stays inside its panel at desktop width and at 390 px;
- End and Rewind need their confirm box: pressed without it, the browser keeps the form and
  the game goes on; ticked, the rewind and then the end go through;
- neither page logged a console error or a page error.

The designer: at desktop width and at 390 px, after filling the form and adding systems, the
Save button is in the viewport and in no nested scroll area, and it saves.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import (
    OpenPage,
    Referee,
    api_post,
    create_and_claim,
    enter_by_seat_link,
    settled,
)
from tests.conftest import ADMIN, LiveServer

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
FRAGMENTS = re.compile(r"/fragments/")


def watch_console(page: Page, name: str, errors: list[str]) -> None:
    page.on(
        "console",
        lambda m: errors.append(f"{name} console: {m.text}") if m.type == "error" else None,
    )
    page.on("pageerror", lambda e: errors.append(f"{name} page error: {e}"))


def quiet(page: Page) -> None:
    """No fragment request out (htmx marks its element with ``htmx-request``)."""
    page.wait_for_function("() => document.querySelectorAll('.htmx-request').length === 0")


def inside_panel(page: Page) -> dict[str, Any]:
    """The seed commitment's box against the referee panel: their right edges and the box's
    own overflow."""
    result: dict[str, Any] = page.evaluate(
        """() => {
            const box = document.getElementById("seed-commitment");
            const panel = document.getElementById("referee-panel");
            const b = box.getBoundingClientRect(), p = panel.getBoundingClientRect();
            return {box: b.right, panel: p.right, scroll: box.scrollWidth, width: box.clientWidth,
                    page: document.documentElement.scrollWidth, view: window.innerWidth};
        }"""
    )
    return result


def test_a_refereed_game_live_with_confirmed_actions_and_a_clean_console(
    open_page: OpenPage, live_server: LiveServer, referee: Referee
) -> None:
    body = {"scenario": "duel", "creator": "A", "creator_name": "Ann"}
    gid, tokens = create_and_claim(live_server, body, seed="5ee0" * 16)
    errors: list[str] = []
    a_page = open_page()
    watch_console(a_page, "A", errors)
    enter_by_seat_link(a_page, f"{live_server.url}/seat/{tokens['A']}")
    ref = open_page()
    watch_console(ref, "referee", errors)
    ref.goto(f"{live_server.url}/referee")
    ref.fill("#token", ADMIN)
    ref.get_by_role("button", name="Sign in").click()
    expect(ref.locator("h1")).to_have_text("All games")
    ref.goto(f"{live_server.url}/games/{gid}")
    for page in (a_page, ref):
        expect(page.locator("#conn")).to_have_class(re.compile(r"\bup\b"))

    # live updates: both deployments and a first activation, sent as fast as the API answers
    def send(side: str, command: dict[str, Any]) -> None:
        api_post(live_server, f"/games/{gid}/commands", command, tokens[side])

    for side, y, heading in (("A", 5.5, 0), ("B", 42.5, 6)):
        ship = "a1" if side == "A" else "b1"
        at = {"ship": ship, "position": {"x": 36.5, "y": y}, "heading": heading, "speed": 4}
        send(side, {"type": "deploy", "ships": [at]})
    first = referee.view(gid)["phase"]["side"]
    ship = "a1" if first == "A" else "b1"
    send(first, {"type": "move", "ship": ship, "orders": {"speed_change": 0, "turn": 0}})
    seq = int(referee.view(gid)["seq"])
    for page in (a_page, ref):
        settled(page, seq)
        # a hint arriving while a refresh is out: the second refresh must not log an error
        page.evaluate(
            "() => { for (const n of [1, 2]) htmx.trigger(document.body, 'pd-refresh'); }"
        )
        quiet(page)

    # the seed commitment inside the referee's panel, at desktop width and on a phone
    for size in (DESKTOP, PHONE):
        ref.set_viewport_size(size)
        box = inside_panel(ref)
        assert box["box"] <= box["panel"] + 0.5 and box["scroll"] <= box["width"], (size, box)
    ref.set_viewport_size(DESKTOP)

    # End without its confirm box: the browser keeps the form, nothing happens
    panel = ref.locator("#referee-panel")
    end = panel.locator("#ref-end")
    end.locator("input[name=reason]").fill("A left the table")
    end.get_by_role("button", name="End the game").click()
    assert end.locator("input[name=confirm]").evaluate("el => el.validity.valueMissing")
    assert referee.view(gid)["status"] == "active"

    # Rewind, confirmed, sent while the pages' refreshes are out (the page goes away under them)
    rewind = panel.locator("#ref-rewind")
    rewind.locator("input[name=reason]").fill("the move was typed wrong")
    rewind.get_by_role("button", name="Rewind").click()
    assert referee.view(gid)["seq"] == seq  # the box is not ticked: nothing sent
    rewind.locator("input[name=confirm]").check()
    # the blocks' refreshes are held out (never answered) as the form leaves the page
    held: list[Route] = []
    hold = {"on": True}
    ref.route(FRAGMENTS, lambda route: held.append(route) if hold["on"] else route.continue_())
    blocks = ref.locator("[hx-get*='/fragments/']").count()  # the page's live blocks
    assert blocks >= 5
    ref.evaluate("() => htmx.trigger(document.body, 'pd-refresh')")
    ref.wait_for_function(
        "n => document.querySelectorAll('.htmx-request').length === n", arg=blocks
    )
    for _ in range(200):  # the route handlers run as Playwright delivers them: wait for each
        if len(held) >= blocks:
            break
        ref.wait_for_timeout(50)
    out = len(held)  # the old page's refreshes, each held out
    with ref.expect_navigation():
        rewind.get_by_role("button", name="Rewind").click()
    hold["on"] = False
    for late in held[out:]:  # the new page's own first refreshes, if any came this soon
        late.continue_()
    ref.unroute(FRAGMENTS)
    assert out == blocks
    expect(ref.locator("#log li.ev-rewound")).to_have_count(1)
    expect(a_page.locator("#log li.ev-rewound")).to_contain_text("the move was typed wrong")

    # End, confirmed
    end = ref.locator("#ref-end")
    end.locator("input[name=reason]").fill("A left the table")
    end.locator("input[name=confirm]").check()
    end.locator("select[name=winner]").select_option("B")
    end.get_by_role("button", name="End the game").click()
    expect(ref.locator("#status")).to_contain_text("Game over")
    expect(a_page.locator("#status")).to_contain_text("Game over")
    truth = referee.view(gid)
    assert truth["status"] == "finished" and truth["winner"] == "B"
    for page in (a_page, ref):
        quiet(page)
    assert errors == [], "\n".join(errors)


def nested_scrollers(page: Page, selector: str) -> list[str]:
    """The element's ancestors that scroll on their own (content taller than the box)."""
    found: list[str] = page.evaluate(
        """(selector) => {
            const out = [];
            let el = document.querySelector(selector).parentElement;
            for (; el && el !== document.body; el = el.parentElement) {
                const style = getComputedStyle(el);
                const tall = el.scrollHeight > el.clientHeight + 1;
                if (/(auto|scroll)/.test(style.overflowY) && tall) out.push(el.className);
            }
            return out;
        }""",
        selector,
    )
    return found


def test_the_designers_save_button_is_always_in_reach(
    open_page: OpenPage, live_server: LiveServer
) -> None:
    page = open_page()
    errors: list[str] = []
    watch_console(page, "designer", errors)
    for size, name in ((DESKTOP, "Kestrel"), (PHONE, "Merlin")):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/designer?from=heavy_cruiser")
        expect(page).to_have_title("Ship designer — pingduel")
        page.fill("#f-name", name)
        page.locator("#f-name").press("Tab")  # the form redraws its totals from what was typed
        page.locator("#f-name").focus()
        quiet(page)
        save = page.get_by_role("button", name="Save design")
        expect(save).to_have_count(1)
        expect(save).to_be_in_viewport()
        assert nested_scrollers(page, "#save") == [], size
        with page.expect_response(lambda r: r.url.endswith("/designer/save")) as saved:
            save.click()
        assert saved.value.status == 201
        expect(page).to_have_title("Design saved — pingduel")
        design_id = page.locator("#saved-id").input_value()
        r = httpx.get(f"{live_server.url}/api/v1/designs/{design_id}", timeout=10)
        assert r.status_code == 200 and r.json()["name"] == name, r.text
    assert errors == [], "\n".join(errors)
