"""The game page's htmx fragments, seat by seat, through a whole duel (selected backend).

For each fragment (status, map, controls, sheets, log) and each seat (player A, player B, a
spectator, and the referee — the admin in a game created by a player, the referee's own seat in a
game created by a referee) the test fetches the block at every checkpoint of ``tests.web.Script``
(waiting, deployment, A deployed, both deployed, A moved, the fire window, A declared, after the
volley, B moved away, finished) and proves:

- a seat's HTML carries no true position of an enemy ship that was never revealed there — in any
  form a page writes one (SVG pairs with y flipped, path coordinates, "(x, y)" text, data
  attributes, bare SVG numbers) — nor the enemy's orders or undisclosed fire declaration;
  the referee's HTML, on the contrary, shows every ship's truth;
- no seat token but the seat's own and no invite code is in any seat's HTML;
- the spectator's HTML has nothing but public facts: no own/truth markers, arcs, forms, orders,
  ECM dice or "your ..."; and it is literally the same for two games that differ only in hidden
  facts (same public dice) — so are each player's pages when only the other side's secrets differ;
- ``?key=K`` answers 204 (empty) while the block is unchanged and 200 with a new
  ``X-Fragment-Key`` (also written into the block's ``hx-vals``) once it changed;
- an unknown fragment is a 404 page;
- golden HTML for four blocks (fixed game id and seed, volatile values normalised).
"""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Callable
from typing import Any
from unittest import mock

import httpx
import pytest

from app.rules import SeededDice
from tests.conftest import ADMIN
from tests.web import (
    A_ORDERS,
    B_ORDERS,
    FRAGMENTS,
    SEED,
    Browser,
    Game,
    Script,
    api_events,
    api_view,
    create_game,
    deploy_body,
    golden,
    leaks,
    normalise,
    number_forms,
    public_numbers,
    secrets_of,
    send,
    svg_of,
)

SEATS = ("A", "B", "referee", "spectator")
SIDE_NAMES = {"A": "Picket", "B": "Raider"}  # the duel scenario's sides
ROOT_TAG = {
    "status": '<section id="status"',
    "map": '<svg id="map"',
    "controls": '<section id="controls"',
    "sheets": '<section id="sheets"',
    "log": '<section id="log"',
    "shiplist": '<section id="shiplist"',
}
# the golden blocks: (checkpoint, seat, fragment) of the game created by side A
GOLDENS = {
    ("fire_window", "A", "controls"): "controls_fire_window_A",
    ("volley", "A", "sheets"): "sheets_after_damage_A",
    ("volley", "spectator", "map"): "map_after_reveal_spectator",
    ("b_moved", "B", "log"): "log_B",
}

BrowserFactory = Callable[[], Browser]


def orders_texts(orders: dict[str, int]) -> list[str]:
    """The orders as a page words them, in either order of the keys."""
    words = [f"{k.replace('_', ' ')} {v:+d}" for k, v in orders.items()]
    return [", ".join(words), ", ".join(reversed(words))]


def side_of(ship_id: str) -> str:
    return ship_id[0].upper()


async def fetch_all(
    browser: Browser, game_id: str, previous: dict[str, str]
) -> tuple[dict[str, str], dict[str, str]]:
    """Every fragment (checked for the key protocol); returns (html, keys) by fragment name."""
    html: dict[str, str] = {}
    keys: dict[str, str] = {}
    # the full page carries each block's key too, so that its first refresh can be a 204
    page = (await browser.page(game_id)).text
    block = rf'hx-get="/games/{game_id}/fragments/(\w+)"[^>]*'
    page_keys = dict(re.findall(block + r"""hx-vals='\{"key": "([0-9a-f]{16})"\}'""", page))
    for name in FRAGMENTS:
        r = await browser.fragment(game_id, name)
        assert r.status_code == 200, (name, r.text)
        assert r.headers["cache-control"] == "no-store"
        assert r.headers["content-type"].startswith("text/html")
        key = r.headers["x-fragment-key"]
        assert re.fullmatch(r"[0-9a-f]{16}", key)
        body = r.text
        assert body.lstrip().startswith(ROOT_TAG[name]), (name, body[:200])
        assert "<html" not in body and "<body" not in body, "a fragment is one block"
        assert f'hx-vals=\'{{"key": "{key}"}}\'' in body, "the block carries its own key"
        assert f"/games/{game_id}/fragments/{name}" in body
        # unchanged since K: 204, nothing else
        same = await browser.fragment(game_id, name, key=key)
        assert same.status_code == 204, (name, same.text[:200])
        assert same.content == b""
        assert same.headers["cache-control"] == "no-store"
        # the key of the previous checkpoint: 204 only if the block is still the same
        if name in previous:
            old = await browser.fragment(game_id, name, key=previous[name])
            if previous[name] == key:
                assert old.status_code == 204, name
            else:
                assert old.status_code == 200, name
                assert old.headers["x-fragment-key"] == key
                assert old.text == body
        assert page_keys.get(name) == key, f"the page's {name} block has its fragment's key"
        html[name] = body
        keys[name] = key
    return html, keys


def check_public_only(html: str) -> None:
    """Markers of private knowledge that a spectator's page must never hold."""
    for marker in (
        'class="ship own',
        'class="ship truth',
        'class="arcs"',
        "<form",
        "orders-log",
        "vs ECM",
        "(no ECM)",
        "seat-link",
        "/seat/",
        "deployed:",
        "weapons",
        "speed change",
    ):
        assert marker not in html, marker
    # no sentence told as to a player ("your Shade", "You declared ...")
    assert not re.search(r"\byour (vigilant|shade)\b", html, re.I)
    assert not re.search(r"\bYou (declared|deployed|held)\b", html)


async def test_fragments_of_every_seat_through_a_duel_created_by_a_player(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    await walk(client, new_browser, "A")


async def test_fragments_of_every_seat_through_a_duel_created_by_a_referee(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    await walk(client, new_browser, "referee")


async def walk(client: httpx.AsyncClient, new_browser: BrowserFactory, creator: str) -> None:
    script = Script(client, creator)
    browsers: dict[str, Browser] = {}
    keys: dict[str, dict[str, str]] = {}
    seen_goldens = set()
    for step in Script.STEPS:
        await script.advance()
        game = script.game
        assert game is not None
        for seat in SEATS:
            if seat in browsers:
                continue
            if seat == "spectator":
                browsers[seat] = new_browser()
            elif seat in game.tokens:
                browsers[seat] = new_browser()
                await browsers[seat].enter(game.tokens[seat])
            elif seat == "referee":  # the admin is referee of a game created by a player
                browsers[seat] = new_browser()
                browsers[seat].hold(game.id, ADMIN)
        full_log = await api_events(client, game, "admin")
        truth = {s["id"]: s for s in (await api_view(client, game, "admin"))["ships"]}
        for seat, browser in browsers.items():
            page = (await browser.page(game.id)).text  # a page first: it sets the CSRF cookie
            parts, keys[seat] = await fetch_all(browser, game.id, keys.get(seat, {}))
            everything = page + "".join(parts.values())
            where = f"{creator}-created game, {step}, seat {seat}"
            check_secrets(everything, seat, game, full_log, truth, where)
            check_markers(parts, seat, truth, where)
            if seat == "spectator":
                check_public_only("".join(parts.values()))
            if creator == "A":
                for (at, who, name), file in GOLDENS.items():
                    if (at, who) == (step, seat):
                        golden(file, parts[name], game.id)
                        seen_goldens.add(file)
            check_step(step, seat, parts)
    if creator == "A":
        assert seen_goldens == set(GOLDENS.values())


def check_secrets(
    html: str,
    seat: str,
    game: Game,
    full_log: list[dict[str, Any]],
    truth: dict[str, dict[str, Any]],
    where: str,
) -> None:
    # tokens and invite codes: only the seat's own token, never a code
    own = game.tokens.get(seat) if seat in ("A", "B") else None
    for other_seat, token in game.tokens.items():
        if token != own:
            assert token not in html, f"{where}: the token of {other_seat} is in the page"
    for side, code in game.invites.items():
        assert code not in html, f"{where}: the invite code of side {side} is in the page"
    assert ADMIN not in html, f"{where}: the admin token is in the page"
    secrets = secrets_of(full_log)
    if seat == "referee":
        # the referee sees the truth: the same check flags every ship's current hidden position
        hidden_now = [
            s
            for s in secrets
            if (p := truth[s.ship].get("position")) and (p["x"], p["y"]) == (s.x, s.y)
        ]
        for s in hidden_now:
            assert leaks(html, [s]), f"{where}: the referee does not see {s}"
        return
    mine = [s for s in secrets if seat in ("A", "B") and side_of(s.ship) == seat]
    theirs = [s for s in secrets if s not in mine]
    allowed = public_numbers(full_log)
    for s in mine:
        allowed |= number_forms(s.x, s.y)
    found = leaks(html, theirs, allowed)
    assert not found, f"{where}: {found}"
    # the enemy's orders and undisclosed declarations
    if seat != "A":
        assert not any(t in html for t in orders_texts(A_ORDERS)), where
    if seat != "B":
        assert not any(t in html for t in orders_texts(B_ORDERS)), where
    volley_done = any(e["type"] == "fire_resolved" for e in full_log)
    for e in full_log:
        if e["type"] == "fire_declared" and e["data"]["side"] != seat:
            n = len(e["data"]["shots"])
            name = SIDE_NAMES[e["data"]["side"]]
            assert f"{name} declared {n} shot" not in html, where
            assert f"{name} held fire" not in html, where
            if not volley_done:
                for shot in e["data"]["shots"]:
                    assert f"{shot['ship']}|{shot['weapon']}" not in html, where


def check_markers(
    parts: dict[str, str], seat: str, truth: dict[str, dict[str, Any]], where: str
) -> None:
    """Positive checks on the map: own ships true, enemies live or stale or listed unseen."""
    svg = parts["map"]
    for ship_id, ship in truth.items():
        # every ship's public condition is on the record sheets, the enemy's included
        hull, armour = ship["hull"], ship["armour"]
        assert f'aria-label="Hull: {hull["lost"]} of {hull["total"]} boxes lost"' in parts["sheets"]
        assert f'aria-label="Armour: {armour["lost"]} of {armour["total"]} lost"' in parts["sheets"]
        marker = re.search(rf'<g class="ship (\w+) [^"]*" data-ship="{ship_id}" ([^>]*)>', svg)
        mine = seat == "referee" or side_of(ship_id) == seat
        position = ship.get("position")
        if mine:
            if position is None:
                assert marker is None, where
                continue
            sx, sy = svg_of(position["x"], position["y"])
            assert marker, f"{where}: no marker for {ship_id}"
            assert f"translate({sx},{sy})" in marker.group(2), where
            expected = (
                "own" if seat != "referee" else "live" if ship["revealed"] == "live" else "truth"
            )
            assert marker.group(1) == expected, where
            continue
        if ship["revealed"] == "live":
            sx, sy = svg_of(position["x"], position["y"])  # the public position of a live ship
            assert marker and marker.group(1) == "live", where
            assert f"translate({sx},{sy})" in marker.group(2), where
        elif ship["revealed"] == "stale":
            last = ship["last_known"]
            sx, sy = svg_of(last["x"], last["y"])
            assert marker and marker.group(1) == "stale", where
            assert f"translate({sx},{sy})" in marker.group(2), where
            assert f"{ship['name']} (T{last['turn']})" in svg, where
        else:
            assert marker is None, f"{where}: {ship_id} is unseen but has a marker"
            if ship["status"] == "active":
                assert f"{ship['name']} (side {ship['side']})" in parts["sheets"], where


def check_step(step: str, seat: str, parts: dict[str, str]) -> None:
    """What each seat is offered at a few checkpoints."""
    controls, status = parts["controls"], parts["status"]
    player = seat in ("A", "B")
    if step == "deploying":
        assert ('id="deploy-form"' in controls) == player, (step, seat)
    if step == "a_deployed":
        assert ('id="deploy-form"' in controls) == (seat == "B"), (step, seat)
    if step == "a_moved":
        phase = re.sub(
            r"\s+", " ", re.search(r'<span class="phase">(.*?)</span>', status, re.S).group(1)
        )  # type: ignore[union-attr]
        expected = "Your activation: Vigilant" if seat == "A" else "Picket's activation: Vigilant"
        assert htmllib.unescape(phase.strip()) == expected, (seat, phase)
    if step == "fire_window":
        assert ('id="fire-form"' in controls) == player, (step, seat)
        if player:
            assert "your-move" in status
    if step == "a_declared":
        assert ('id="fire-form"' in controls) == (seat == "B"), (step, seat)
    if step == "b_moved":
        assert ('value="end_activation"' in controls) == (seat == "B"), (step, seat)
    if step == "finished":
        assert "Game over" in status
        if seat != "referee":  # the referee keeps the seat replacement form
            assert "<form" not in controls, (step, seat)
    if not player:
        assert "/act" not in controls, (step, seat)


# -- 404 -------------------------------------------------------------------------------------------
async def test_unknown_fragment_and_unknown_game_are_404_pages(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    script = Script(client, "A")
    game = await script.to("deploying")
    browser = new_browser()
    await browser.enter(game.tokens["A"])
    for name in ("nope", "page", "game", "STATUS", "live"):
        r = await browser.fragment(game.id, name)
        assert r.status_code == 404, name
        assert r.headers["content-type"].startswith("text/html")
        assert r.headers["cache-control"] == "no-store"
        assert "<h1>Not found</h1>" in r.text and "no such part" in r.text
    r = await browser.fragment("nosuchgame999", "status")
    assert r.status_code == 404 and "<html" in r.text
    r = await browser.get("/games/nosuchgame999")
    assert r.status_code == 404 and "<html" in r.text


async def test_a_game_without_spectators_shows_no_fragment_to_strangers(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel", "spectators": False})
    stranger = new_browser()
    for name in FRAGMENTS:
        r = await stranger.fragment(game.id, name)
        assert r.status_code == 401, name
        assert "Vigilant" not in r.text and "Shade" not in r.text
        assert "x-fragment-key" not in r.headers


async def test_a_fragment_fetched_first_sets_the_csrf_cookie_its_forms_need(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """The controls block holds forms whose CSRF field must match this browser's cookie, even
    when the block is the first thing the browser fetched (a page opened from a cached copy)."""
    script = Script(client, "A")
    game = await script.to("deploying")
    browser = new_browser()
    await browser.enter(game.tokens["A"])
    r = await browser.fragment(game.id, "controls")
    assert r.status_code == 200
    assert "pd_csrf" in browser.http.cookies
    # and the key of the block is stable from then on
    again = await browser.fragment(game.id, "controls", key=r.headers["x-fragment-key"])
    assert again.status_code == 204
    body = {"type": "resign", "confirm": "on", "at_seq": "", "idem": "f-first"}
    answer = await browser.form(f"/games/{game.id}/act", body)
    assert answer.status_code == 303, answer.text
    assert (await api_view(client, game, "A"))["status"] == "finished"


# -- the spectator (and each player) sees only public facts ----------------------------------------
class _SameDice:
    """The game's dice without the game id: two games with one seed roll the same dice."""

    @staticmethod
    def from_hex(seed_hex: str, game_id: str) -> SeededDice:
        return SeededDice.from_hex(seed_hex, "same-dice-for-both-games")


VARIANTS = {
    # (deployment of the side with secrets, its orders) per game; the other side plays the same
    "A": (
        [((20.45, 3.15), 1, 5), ((50.65, 6.85), 11, 9)],
        [{"speed_change": 1, "turn": 1}, {"speed_change": -3, "turn": -1}],
    ),
    "B": (
        [((25.15, 44.35), 5, 4), ((55.95, 41.05), 7, 10)],
        [{"speed_change": 2, "turn": 0}, {"speed_change": -4, "turn": 1}],
    ),
}


@pytest.mark.parametrize("secret_side", ["A", "B"])
async def test_what_others_see_does_not_depend_on_a_sides_secrets(
    client: httpx.AsyncClient, new_browser: BrowserFactory, secret_side: str
) -> None:
    """Two games with the same public story (same dice) whose only difference is where the
    ships of ``secret_side`` were deployed and how they moved: every page and fragment of the
    other player and of a spectator is the same in both, byte for byte (after normalising ids,
    tokens and CSRF values)."""
    observer = "B" if secret_side == "A" else "A"
    pages: list[dict[str, str]] = []
    with mock.patch("app.play.service.SeededDice", _SameDice):
        for variant in (0, 1):
            game = await create_game(client, {"scenario": "duel", "seed": SEED})
            placements, orders = VARIANTS[secret_side]
            pos, heading, speed = placements[variant]
            plan = {
                secret_side: (pos, heading, speed, orders[variant]),
                observer: (
                    (33.15, 4.35) if observer == "A" else (37.75, 43.65),
                    0 if observer == "A" else 6,
                    3,
                    {"speed_change": 0, "turn": 0},
                ),
            }
            for side in ("A", "B"):
                p, h, s, _ = plan[side]
                await send(client, game, side, deploy_body(f"{side.lower()}1", p, h, s))
            # turn 1: each side moves its ship and goes on overwatch; then turn 2 begins
            for _ in range(2):
                v = await api_view(client, game, "admin")
                side = v["phase"]["side"]
                ship = f"{side.lower()}1"
                await send(
                    client, game, side, {"type": "move", "ship": ship, "orders": plan[side][3]}
                )
                await send(client, game, side, {"type": "end_activation", "ship": ship})
            assert (await api_view(client, game, "admin"))["turn"] == 2
            snapshot: dict[str, str] = {}
            for seat in (observer, "spectator"):
                browser = new_browser()
                if seat != "spectator":
                    await browser.enter(game.tokens[seat])
                snapshot[f"{seat} page"] = normalise((await browser.page(game.id)).text, game.id)
                for name in FRAGMENTS:
                    r = await browser.fragment(game.id, name)
                    assert r.status_code == 200
                    snapshot[f"{seat} {name}"] = normalise(r.text, game.id)
            pages.append(snapshot)
    first, second = pages
    assert first.keys() == second.keys()
    for part in first:
        assert first[part] == second[part], f"{part} depends on side {secret_side}'s secrets"
