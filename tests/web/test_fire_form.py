"""The fire window's form (selected backend; issue 10, "pages that mislead").

- One choice per weapon: each weapon that can fire is a radio group — hold (the default) or one
  of the targets it reaches — so a browser cannot send one weapon at two targets.
- A crafted post that gives one weapon two targets anyway is refused (422) with the words that
  say so ("was given two targets in one declaration"), not "already fired", and changes nothing;
  the REST API answers the same with the code ``duplicate_weapon``.
- A weapon left on hold sends no shot; the chosen ones are declared as chosen.

The game: A's destroyer Lance 10 mu south of B's scouts Dart and Flit (no ECM: a ping always
finds them); Lance's beam-1 (class 3, fore arcs) reaches both.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx

from tests.web import (
    Browser,
    Game,
    api_events,
    api_view,
    create_game,
    hidden_fields,
    send,
    state_of,
)

BrowserFactory = Callable[[], Browser]


async def fire_window(client: httpx.AsyncClient) -> Game:
    """Lance at (36, 8) facing north; Dart at (30, 16) and Flit at (42, 16) facing south; all at
    speed 0 on a 72 × 24 table. B's ships stand still on overwatch if B goes first; then Lance
    pings before moving and both sides are awaited."""
    body = {
        "sides": {
            "A": {"name": "Patrol", "ships": [{"name": "Lance", "design": "destroyer"}]},
            "B": {
                "name": "Raiders",
                "ships": [{"name": "Dart", "design": "scout"}, {"name": "Flit", "design": "scout"}],
            },
        },
        "table": {"width": 72, "height": 24},
    }
    game = await create_game(client, body)

    def at(ship: str, x: float, y: float, heading: int) -> dict[str, Any]:
        return {"ship": ship, "position": {"x": x, "y": y}, "heading": heading, "speed": 0}

    await send(client, game, "A", {"type": "deploy", "ships": [at("a1", 36, 8, 0)]})
    b_ships = [at("b1", 30, 16, 6), at("b2", 42, 16, 6)]
    await send(client, game, "B", {"type": "deploy", "ships": b_ships})
    for _ in range(2):
        phase = (await api_view(client, game, "B"))["phase"]
        if phase["side"] != "B":
            break
        ship = phase["legal"]["activatable"][0]
        stay = {"speed_change": 0, "turn": 0}
        await send(client, game, "B", {"type": "move", "ship": ship, "orders": stay})
        await send(client, game, "B", {"type": "end_activation", "ship": ship})
    await send(client, game, "A", {"type": "ping", "ship": "a1"})
    phase = (await api_view(client, game, "admin"))["phase"]
    assert phase["step"] == "fire" and set(phase["awaiting"]) == {"A", "B"}, phase
    return game


async def a_browser(new_browser: BrowserFactory, game: Game) -> tuple[Browser, str]:
    browser = new_browser()
    browser.hold(game.id, game.tokens["A"])
    page = (await browser.page(game.id)).text
    return browser, page


def fire_form(page: str) -> str:
    m = re.search(r'<form[^>]*id="fire-form".*?</form>', page, re.S)
    assert m, "no fire form on the page"
    return m.group(0)


def choices(form: str) -> dict[str, list[tuple[str, str, bool]]]:
    """Each input of the fire form that names shots: name → [(type, value, checked)]."""
    out: dict[str, list[tuple[str, str, bool]]] = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if not name or not kind or kind.group(1) == "hidden":
            continue
        value = re.search(r'value="([^"]*)"', tag)
        out.setdefault(name.group(1), []).append(
            (kind.group(1), value.group(1) if value else "", " checked" in tag)
        )
    return out


async def test_one_choice_per_weapon_hold_by_default(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await fire_window(client)
    _, page = await a_browser(new_browser, game)
    groups = choices(fire_form(page))
    options = (await api_view(client, game, "A"))["phase"]["legal"]["fire_options"]
    weapons = sorted({(o["ship"], o["weapon"]) for o in options})
    assert len(weapons) >= 2 and any(
        len({o["target"] for o in options if (o["ship"], o["weapon"]) == w}) == 2 for w in weapons
    ), options  # beam-1 reaches both scouts: the case that let one weapon take two targets
    assert not any(kind == "checkbox" for inputs in groups.values() for kind, _, _ in inputs)
    for ship, weapon in weapons:
        group = groups.get(f"shot@{ship}|{weapon}")
        assert group, (ship, weapon, sorted(groups))
        targets = sorted(o["target"] for o in options if (o["ship"], o["weapon"]) == (ship, weapon))
        assert all(kind == "radio" for kind, _, _ in group), group
        # hold first and chosen; then one radio per target the weapon reaches
        assert group[0] == ("radio", "", True), group
        assert sorted(v for _, v, _ in group[1:]) == [f"{ship}|{weapon}|{t}" for t in targets]
        assert not any(checked for _, _, checked in group[1:]), group


async def test_the_chosen_shots_are_declared_and_held_weapons_send_none(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await fire_window(client)
    browser, page = await a_browser(new_browser, game)
    fields = [
        *hidden_fields(page, "fire-form").items(),
        ("shot@a1|beam-1", "a1|beam-1|b2"),
        ("shot@a1|beam-2", ""),  # hold
        ("shot@a1|beam-4", "a1|beam-4|b2"),
    ]
    r = await browser.form(f"/games/{game.id}/act", fields)
    assert r.status_code == 303, r.text
    declared = [e for e in await api_events(client, game, "A") if e["type"] == "fire_declared"]
    assert [(s["ship"], s["weapon"], s["target"]) for s in declared[-1]["data"]["shots"]] == [
        ("a1", "beam-1", "b2"),
        ("a1", "beam-4", "b2"),
    ]


async def test_one_weapon_given_two_targets_is_told_so_and_changes_nothing(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await fire_window(client)
    browser, page = await a_browser(new_browser, game)
    before = await state_of(client, game)
    # a crafted form: the radio group's name twice (a page cannot send that)
    fields = [
        *hidden_fields(page, "fire-form").items(),
        ("shot@a1|beam-1", "a1|beam-1|b1"),
        ("shot@a1|beam-1", "a1|beam-1|b2"),
    ]
    for htmx in (False, True):
        r = await browser.form(f"/games/{game.id}/act", fields, htmx=htmx)
        assert r.status_code == 422, r.text
        error = re.search(r'<p class="error"[^>]*>(.*?)</p>', r.text, re.S)
        assert error, r.text
        words = error.group(1).replace("&#39;", "'")
        assert "Lance's beam-1 was given two targets in one declaration" in words, words
        assert "already fired" not in words, words
        assert 'id="fire-form"' in r.text  # the window is still open for a new choice
    assert await state_of(client, game) == before
    # the REST API: the same refusal, its own code, still a 422
    shots = [{"ship": "a1", "weapon": "beam-1", "target": t} for t in ("b1", "b1")]
    window = (await api_view(client, game, "A"))["phase"]["legal"]["window"]
    r = await client.post(
        f"{game.path}/commands",
        json={"type": "fire", "window": window, "shots": shots},
        headers=game.auth("A"),
    )
    assert r.status_code == 422, r.text
    problem = r.json()
    assert problem["code"] == "duplicate_weapon", problem
    assert "beam-1 was given two targets in one declaration" in problem["detail"], problem
    assert await state_of(client, game) == before
