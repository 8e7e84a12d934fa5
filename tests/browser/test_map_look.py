"""The tactical map's look in Chromium (issue 16, the map): scale bar and grid labels,
silhouettes by class, labels apart, a reach region for a stale enemy, an enemy's arcs on demand,
a slim selection ring, the ship list and the keyboard — on one game, leak-checked.

The game: A's Lance (destroyer), Dart (scout) and Bastion (heavy cruiser) deployed close
together; B's scouts Shade and Wisp. Lance pings (scouts have no ECM: both are revealed), both
sides hold fire, Lance stays put; then B's Wisp moves on (stale, its new place secret) and
Shade stays live. Screenshots: ``artifacts/screenshots/16-map-A.png`` and ``16-map-A-phone.png``.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from app.deps import seat_cookie
from tests.browser.conftest import (
    SHOTS,
    OpenPage,
    Referee,
    api_post,
    assert_no_hidden_positions,
    create_and_claim,
    screenshot,
)
from tests.conftest import LiveServer

SHIPS_A = [
    ("Lance", "destroyer", 30, 5),
    ("Dart", "scout", 31, 6),
    ("Bastion", "heavy_cruiser", 32, 4),
]


def _game(server: LiveServer, referee: Referee) -> tuple[str, dict[str, str]]:
    game_id, tokens = create_and_claim(
        server,
        {
            "sides": {
                "A": {
                    "name": "Raiders",
                    "ships": [{"name": n, "design": d} for n, d, _, _ in SHIPS_A],
                },
                "B": {
                    "name": "Wardens",
                    "ships": [
                        {"name": "Shade", "design": "scout"},
                        {"name": "Wisp", "design": "scout"},
                    ],
                },
            },
            "creator": "A",
        },
    )
    here = f"/games/{game_id}/commands"

    def send(side: str, body: dict[str, Any]) -> None:
        api_post(server, here, body, tokens[side])

    a = [
        {"ship": f"a{i}", "position": {"x": x, "y": y}, "heading": 0, "speed": 0}
        for i, (_, _, x, y) in enumerate(SHIPS_A, start=1)
    ]
    send("A", {"type": "deploy", "ships": a})
    b = [
        {"ship": "b1", "position": {"x": 36, "y": 42}, "heading": 6, "speed": 0},
        {"ship": "b2", "position": {"x": 50, "y": 46}, "heading": 6, "speed": 0},
    ]
    send("B", {"type": "deploy", "ships": b})
    assert referee.view(game_id)["phase"]["side"] == "A"  # three ships against two: A first
    send("A", {"type": "ping", "ship": "a1"})
    window = referee.view(game_id)["phase"]["fire"]["window"]
    for side in ("A", "B"):
        send(side, {"type": "fire", "window": window, "shots": []})
    send("A", {"type": "move", "ship": "a1", "orders": {"speed_change": 0, "turn": 0}})
    send("B", {"type": "move", "ship": "b2", "orders": {"speed_change": 3, "turn": 1}})
    send("B", {"type": "end_activation", "ship": "b2"})
    return game_id, tokens


def _boxes_apart(page: Page) -> list[str]:
    """The ship labels whose boxes on the screen meet another's."""
    result: list[str] = page.evaluate(
        """() => {
            const boxes = [...document.querySelectorAll('#map .ship[data-ship] .label')]
                .map(t => [t.textContent, t.getBoundingClientRect()]);
            const out = [];
            for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
                const a = boxes[i][1], b = boxes[j][1];
                if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
                    out.push(boxes[i][0] + ' / ' + boxes[j][0]);
            }
            return out;
        }"""
    )
    return result


def _focused_ship(page: Page) -> str | None:
    result: str | None = page.evaluate(
        "() => { const s = document.activeElement && document.activeElement.closest('#map .ship');"
        " return s ? s.dataset.ship : null; }"
    )
    return result


def test_the_map_reads_like_a_tactical_table(
    live_server: LiveServer, open_page: OpenPage, referee: Referee
) -> None:
    game_id, tokens = _game(live_server, referee)
    page = open_page()
    page.context.add_cookies(
        [{"name": seat_cookie(game_id), "value": tokens["A"], "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/games/{game_id}")
    game_map = page.locator("#map")
    # the scale bar and the grid's labels in mu
    expect(game_map.locator(".scalebar")).to_be_visible()
    expect(game_map.locator(".scalebar .sb-unit")).to_have_text("mu")
    assert game_map.locator(".tick-x").all_text_contents() == ["12", "24", "36", "48", "60"]
    # silhouettes by class, own darts and enemy gems in different colours
    ships = page.evaluate(
        """() => Object.fromEntries(
          [...document.querySelectorAll('#map .ship[data-ship]')].map(g => {
            const m = g.querySelector('.hullmark');
            return [g.dataset.ship, {cls: [...g.classList].find(c => c.startsWith('hull-')),
                role: g.dataset.role, kind: g.dataset.kind, d: m.getAttribute('d'),
                fill: getComputedStyle(m).fill,
                width: g.querySelector('.pick').getBoundingClientRect().width}];
          }))"""
    )
    assert [ships[s]["cls"] for s in ("a1", "a2", "a3")] == [
        "hull-cruiser",
        "hull-escort",
        "hull-capital",
    ]
    assert ships["a2"]["width"] < ships["a1"]["width"] < ships["a3"]["width"]
    assert ships["b1"]["kind"] == "live" and ships["b2"]["kind"] == "stale"
    assert ships["a1"]["d"] != ships["b1"]["d"] and ships["a1"]["fill"] != ships["b1"]["fill"]
    # three ships side by side: no label over another
    assert _boxes_apart(page) == []
    # the stale enemy's reach region, none for the live one
    region = game_map.locator('.reach[data-reach="b2"]')
    expect(region).to_have_count(1)
    assert float(region.get_attribute("data-radius") or 0) > 0
    expect(game_map.locator('.reach[data-reach="b1"]')).to_have_count(0)
    # the live enemy's arcs on demand
    threat = game_map.locator('.arcs.threat[data-threat="b1"]')
    expect(threat).to_be_hidden()
    page.locator("#threat-toggle").click()
    expect(threat).to_be_visible()
    expect(page.locator("#threat-toggle")).to_have_attribute("aria-pressed", "true")
    page.locator("#mapwrap").screenshot(path=str(SHOTS / "16-map-A-arcs.png"))
    page.locator("#threat-toggle").click()
    expect(threat).to_be_hidden()
    # selecting an own ship: a slim ring, no box over it, its arcs shown
    lance = game_map.locator('.ship[data-ship="a1"]')
    lance.click()
    expect(game_map.locator('.arcs[data-arcs="a1"]')).to_be_visible()
    look = lance.evaluate(
        """g => ({outline: getComputedStyle(g).outlineStyle,
                 halo: getComputedStyle(g.querySelector('.halo')).stroke,
                 hull: getComputedStyle(g.querySelector('.hullmark')).fill})"""
    )
    assert look["outline"] == "none" and look["halo"] != "none", look
    assert look["hull"] == ships["a1"]["fill"]  # the ship itself is not painted over
    screenshot(page, "16-map-A")
    page.locator("#mapwrap").screenshot(path=str(SHOTS / "16-map-A-selected.png"))
    # the keyboard: from Lance the arrows step through every ship; Enter on the live enemy
    # shows its arcs
    lance.focus()
    seen = set()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
        seen.add(_focused_ship(page))
    assert seen == {"a1", "a2", "a3", "b1", "b2"}
    while _focused_ship(page) != "b1":
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(threat).to_be_visible()
    # the ship list says the same in words; a name finds its ship on the map
    rows = page.locator("#shiplist tbody tr")
    expect(rows).to_have_count(5)
    expect(page.locator('#shiplist tr[data-row="b2"]')).to_contain_text("last seen")
    expect(page.locator('#shiplist tr[data-row="b2"]')).to_contain_text("turn 1")
    page.locator('#shiplist button[data-find="a3"]').click()
    assert _focused_ship(page) == "a3"
    # nothing hidden reached the page: Wisp's true place is in no attribute, region or row
    assert assert_no_hidden_positions(page, "A", referee.view(game_id)) == 1
    # at phone width the scale bar and the labels still read
    page.set_viewport_size({"width": 390, "height": 844})
    tick = game_map.locator(".tick-x").first.bounding_box()
    assert tick is not None and tick["height"] >= 7
    assert _boxes_apart(page) == []
    screenshot(page, "16-map-A-phone")
    page.locator("#mapwrap").screenshot(path=str(SHOTS / "16-map-A-phone-map.png"))
