"""The orders and fire forms (issue 16, "Orders and fire"), through the app's HTTP doors.

- Limits from the start: each own ship's order limits (turn limit, thrust) are on its record
  sheet from the deployment on, and beside each ship of the orders form's choice before it is
  activated — the movement system's own numbers for the thrust the view gives.
- A refused move comes back as it was typed (the ship chosen, the numbers, the box ticked), the
  rules' reason above it; nothing changes.
- "Drift (out of control)" is offered only for a ship out of control, and such a ship is never
  offered a move or a ping (the rules refuse both, ``out_of_control``).
- The fire window gives each choice its odds, from the option's own dice and the target's
  public armour: Lance's class-3 beam at 10 mu rolls 3BD* at a scout (no screen, no armour):
  per die 0,0,0,1,1,2 plus 2/15 from a 6's further dice = 4/5, so 2.40 hits and 2.40 damage.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import httpx

from app.rules.movement import cinematic_limits
from tests.api.replay_check import create, get_view, out_of_control, play
from tests.web import Browser, Game, api_view, create_game, hidden_fields, send
from tests.web.test_fire_form import a_browser, fire_form, fire_window

BrowserFactory = Callable[[], Browser]


def _at(ship: str, x: float, y: float, heading: int, speed: int = 0) -> dict[str, Any]:
    return {"ship": ship, "position": {"x": x, "y": y}, "heading": heading, "speed": speed}


async def two_ship_game(client: httpx.AsyncClient) -> Game:
    """A's destroyer Lance and scout Dart against B's scout Shade, waiting for deployment."""
    body = {
        "sides": {
            "A": {
                "name": "Patrol",
                "ships": [
                    {"name": "Lance", "design": "destroyer"},
                    {"name": "Dart", "design": "scout"},
                ],
            },
            "B": {"name": "Raiders", "ships": [{"name": "Shade", "design": "scout"}]},
        },
    }
    return await create_game(client, body)


async def a_activates(client: httpx.AsyncClient, game: Game) -> None:
    """Both deploy; B's first activation (if it has one) stands still on overwatch."""
    await send(
        client,
        game,
        "A",
        {"type": "deploy", "ships": [_at("a1", 30, 8, 0, 2), _at("a2", 40, 8, 0, 2)]},
    )
    await send(client, game, "B", {"type": "deploy", "ships": [_at("b1", 36, 40, 6, 2)]})
    phase = (await api_view(client, game, "B"))["phase"]
    if phase["side"] == "B":
        await send(
            client,
            game,
            "B",
            {"type": "move", "ship": "b1", "orders": {"speed_change": 0, "turn": 0}},
        )
        await send(client, game, "B", {"type": "end_activation", "ship": "b1"})
    phase = (await api_view(client, game, "A"))["phase"]
    assert phase["side"] == "A" and phase["step"] == "activate", phase


def _words(thrust: int, speed: int | None = None) -> str:
    lim = cinematic_limits(thrust)
    head = f"speed {speed}; " if speed is not None else ""
    return f"{head}turn ≤ {lim.max_turn}; |speed change| + |turn| ≤ {thrust} (thrust {thrust})"


def _limit_lines(page: str) -> dict[str, str]:
    return {
        m.group(1): re.sub(r"<[^>]+>", "", m.group(2))
        for m in re.finditer(r'data-limits-for="([^"]+)">(.*?)</p>', page, re.S)
    }


async def test_limits_are_on_the_sheets_from_deployment_and_beside_each_ship_to_name(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await two_ship_game(client)
    browser = new_browser()
    browser.hold(game.id, game.tokens["A"])
    view = await api_view(client, game, "A")
    thrust = {s["id"]: s["thrust"] for s in view["ships"] if s["side"] == "A"}
    assert len(set(thrust.values())) == 2, thrust  # a destroyer and a scout: two limits
    page = (await browser.page(game.id)).text
    lines = _limit_lines(page)
    assert set(lines) == {"a1", "a2"}, lines  # only own ships: B's thrust is not shown
    for sid, t in thrust.items():
        assert _words(t) in lines[sid] or _words(t, 0) in lines[sid], (sid, lines[sid])
        assert f"deploys at speed ≤ {2 * t}" in lines[sid], lines[sid]

    await a_activates(client, game)
    page = (await browser.page(game.id)).text
    form = re.search(r'<form[^>]*id="orders-form".*?</form>', page, re.S)
    assert form, "no orders form in A's activation"
    for sid, t in thrust.items():
        label = re.search(rf'value="{sid}"[^>]*>.*?</label>', form.group(0), re.S)
        assert label and _words(t, 2) in label.group(0), (sid, label and label.group(0))
    lines = _limit_lines(page)
    assert _words(thrust["a1"], 2) in lines["a1"] and "deploys" not in lines["a1"], lines


async def test_a_refused_move_comes_back_as_typed_with_the_reason(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await two_ship_game(client)
    await a_activates(client, game)
    browser = new_browser()
    browser.hold(game.id, game.tokens["A"])
    page = (await browser.page(game.id)).text
    before = await api_view(client, game, "referee")
    dart = next(s for s in before["ships"] if s["id"] == "a2")
    turn = cinematic_limits(dart["thrust"]).max_turn + 1
    fields = {
        **hidden_fields(page, "orders-form"),
        "ship": "a2",
        "speed_change": "1",
        "turn": str(turn),
        "leave": "on",
        "type": "move",
    }
    for htmx in (True, False):
        r = await browser.form(f"/games/{game.id}/act", fields, htmx=htmx)
        assert r.status_code == 422, (r.status_code, r.text[:400])
        error = re.search(r'id="action-error">([^<]*)<', r.text)
        assert error, "no reason on the refused form"
        assert f"turn {turn} exceeds this ship's limit of {turn - 1}" in html.unescape(error[1])
        form = re.search(r'<form[^>]*id="orders-form".*?</form>', r.text, re.S)
        assert form, "the refused form is not drawn again"
        form_html = form.group(0)
        assert re.search(r'name="ship" value="a2"[^>]*checked', form_html), form_html
        assert not re.search(r'name="ship" value="a1"[^>]*checked', form_html)
        assert re.search(rf'name="turn" value="{turn}"', form_html), form_html
        assert re.search(r'name="speed_change" value="1"', form_html), form_html
        assert re.search(r'name="leave" checked', form_html), form_html
    after = await api_view(client, game, "referee")
    assert after["seq"] == before["seq"], "a refused move changed the game"
    # the next page drawn for the seat is the plain form again
    page = (await browser.page(game.id)).text
    assert re.search(r'name="turn" value="0"', page)


async def test_drift_is_offered_only_to_a_ship_out_of_control(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """The duel of seed 5 (game flowduel0001): b1 loses its bridge in turn 2 (tests/api)."""
    game = await create(client, {"scenario": "duel", "seed": f"{5:064x}"}, game_id="flowduel0001")
    for side, sid, y, h in (("A", "a1", 8, 0), ("B", "b1", 40, 6)):
        r = await client.post(
            f"{game.path}/commands",
            json={"type": "deploy", "ships": [_at(sid, 36, y, h, 12)]},
            headers=game.auth(side),
        )
        assert r.status_code == 200, r.text
    pages = {}
    for side in ("A", "B"):
        pages[side] = new_browser()
        pages[side].hold(game.id, game.tokens[side])

    seen_in_control = []

    async def check(seat: str, v: dict[str, Any], body: dict[str, Any]) -> None:
        if v["phase"]["step"] != "activate":
            return
        page = (await pages[seat].page(game.id)).text
        ship = next(s for s in v["ships"] if s["id"] == v["phase"]["legal"]["activatable"][0])
        if not out_of_control(ship):
            seen_in_control.append(seat)
            assert "Drift (out of control)" not in page, "drift offered to a ship in control"
            assert 'class="drift-form"' not in page

    def due(ref: dict[str, Any]) -> bool:
        side = ref["phase"]["side"]
        return ref["phase"]["step"] == "activate" and any(
            s["side"] == side and not s["activated"] and out_of_control(s) for s in ref["ships"]
        )

    await play(client, game, until=due, before=check)
    assert seen_in_control, "no activation in control was looked at"
    ref = await get_view(client, game, "referee")
    side = ref["phase"]["side"]
    page = (await pages[side].page(game.id)).text
    drift = re.search(r'<form[^>]*class="drift-form" data-ship="([^"]+)".*?</form>', page, re.S)
    assert drift, "no drift for the ship out of control"
    assert "Drift (out of control)" in drift.group(0) and "out of control" in drift.group(0)
    # its only ship can only drift: no move, no ping is offered
    assert 'id="orders-form"' not in page and 'value="move"' not in page, page
    r = await pages[side].form(
        f"/games/{game.id}/act",
        hidden_fields(page, None)
        | {"type": "activate", "ship": drift.group(1), "idem": "drift-test"},
    )
    assert r.status_code == 303, r.text


async def test_the_fire_window_gives_each_choice_its_odds(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await fire_window(client)
    _, page = await a_browser(new_browser, game)
    form = fire_form(page)
    options = (await api_view(client, game, "A"))["phase"]["legal"]["fire_options"]
    near = [o for o in options if o["weapon"] == "beam-1" and o["target"] == "b1"]
    assert near and near[0]["dice"] == "3BD*" and near[0]["screen"] == 0, near
    b1 = next(s for s in (await api_view(client, game, "A"))["ships"] if s["id"] == "b1")
    assert b1["armour"]["total"] - b1["armour"]["lost"] == 0, b1["armour"]
    odds = re.search(r'data-odds="a1\|beam-1\|b1">([^<]*)<', form)
    assert odds and odds.group(1) == "expect 2.40 hits, 2.40 damage", odds and odds.group(1)
    shown = re.findall(r'data-odds="([^"]+)"', form)
    ship_options = {
        f"{o['ship']}|{o['weapon']}|{o['target']}" for o in options if "launch" not in o
    }
    assert set(shown) == ship_options, (shown, ship_options)
