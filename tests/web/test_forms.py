"""The pages' forms, as a browser without JavaScript (and htmx) sends them (selected backend).

- the lobby: a scenario game and a custom-ships game are created with the creator seated (invite
  page, seat cookie); missing ships, a bad movement, seat or scenario → 422 and the lobby again
  with an inline message and the choices kept, and no game;
- invites: the invite page is the creator's (links for the other seats only), nobody else ever
  gets a code in a page; only the creator or the referee issues a new one (the old one dies);
  ``GET /join/{code}`` never claims (a link preview must not burn the code), the POST claims and
  sets an HttpOnly, SameSite seat cookie, and a browser holding a seat of the game claims
  nothing (409, the invite unused); ``/seat/{token}`` names the seat and only its CSRF-checked
  confirmation sets the cookie and redirects (never over another seat of the same game), with
  ``Referrer-Policy: no-referrer``;
- ``Cache-Control: no-store`` on every page answer of every test here;
- CSRF on every POST: a missing or wrong token, a token without its cookie, or another site's
  ``Origin`` get the 403 page and change nothing;
- ``POST /games/{id}/act`` for every command a page offers (deploy, activate, move, ping before
  and after the move, end_activation, fire with shots, hold fire, core_action, resign with and
  without its confirmation box), with the inline errors (illegal orders, out of zone, bad
  numbers), the htmx variants (the controls block, 422 for errors), a double submit applied once,
  and stale forms told that the game moved on.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from tests.conftest import ADMIN
from tests.web import (
    A_DEPLOY,
    A_ORDERS,
    API,
    B_DEPLOY,
    B_ORDERS,
    GAME_BY_A,
    SEED,
    Browser,
    Game,
    api_events,
    api_view,
    create_game,
    element,
    hidden_fields,
    send,
    state_of,
)

BrowserFactory = Callable[[], Browser]
FORGED = "Form expired or forged"


@pytest.fixture
async def new_browser(client: httpx.AsyncClient) -> AsyncIterator[BrowserFactory]:
    """Browsers for a test; afterwards, every page answer any of them got was ``no-store``."""
    opened: list[Browser] = []

    def make() -> Browser:
        browser = Browser(client)
        opened.append(browser)
        return browser

    yield make
    answers = [r for b in opened for r in b.responses]
    for browser in opened:
        await browser.close()
    assert answers
    for r in answers:
        assert r.headers.get("cache-control") == "no-store", (r.request.url, r.status_code)


def cookie_header(r: httpx.Response, name: str) -> str:
    found = [h for h in r.headers.get_list("set-cookie") if h.startswith(f"{name}=")]
    assert len(found) == 1, r.headers.get_list("set-cookie")
    return found[0]


def assert_seat_cookie(r: httpx.Response, game_id: str, token: str | None = None) -> str:
    """The answer gave the browser a seat: its browser cookie (one for every game, never a
    cookie per game, never the token), HttpOnly and SameSite. Returns the cookie's value."""
    assert not any(h.startswith(f"pd_seat_{game_id}=") for h in r.headers.get_list("set-cookie"))
    header = cookie_header(r, "pd_browser")
    value = header.split(";")[0].split("=", 1)[1]
    attributes = [a.strip().lower() for a in header.split(";")[1:]]
    assert "httponly" in attributes
    assert "samesite=lax" in attributes or "samesite=strict" in attributes
    assert "path=/" in attributes
    if token is not None:
        assert token not in value
    return value


async def game_count(client: httpx.AsyncClient) -> int:
    r = await client.get(f"{API}/games", headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 200, r.text
    return len(r.json()["games"])


def game_id_of(invite_page: str) -> str:
    m = re.search(r'href="/games/([a-z0-9]+)"', invite_page)
    assert m, invite_page
    return m.group(1)


def join_links(invite_page: str) -> dict[str, str]:
    return dict(
        re.findall(r'id="invite-(\w+)" class="invite-link" readonly value="([^"]+)"', invite_page)
    )


def code_of(link: str) -> str:
    return link.rsplit("/join/", 1)[1]


# -- the lobby -------------------------------------------------------------------------------------
LOBBY = {"mode": "scenario", "scenario": "duel", "movement": "cinematic", "seat": "A"}


async def test_the_lobby_page_carries_a_csrf_field_and_its_cookie(
    new_browser: BrowserFactory,
) -> None:
    browser = new_browser()
    r = await browser.get("/")
    assert r.status_code == 200
    header = cookie_header(r, "pd_csrf")
    assert "httponly" in header.lower() and "samesite=strict" in header.lower()
    assert browser.csrf is not None
    for scenario in ("duel", "skirmish", "hunt"):
        assert f'<option value="{scenario}"' in r.text
    # the token is tied to this browser's cookie: the same on the next page, another elsewhere
    again = await browser.get("/")
    assert "set-cookie" not in again.headers
    assert browser.csrf == re.search(r'name="csrf" value="(\w+)"', again.text).group(1)  # type: ignore[union-attr]
    other = new_browser()
    await other.get("/")
    assert other.csrf != browser.csrf


async def test_scenario_mode_creates_the_game_and_seats_the_creator(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    browser = new_browser()
    fields = {**LOBBY, "scenario": "skirmish", "movement": "vector", "seat": "B", "name": "Bo"}
    r = await browser.form("/games", {**fields, "spectators": "on"})
    assert r.status_code == 201, r.text
    game_id = game_id_of(r.text)
    token = assert_seat_cookie(r, game_id)
    links = join_links(r.text)
    assert list(links) == ["A"], "the creator on B invites A only"
    assert "You hold side B" in r.text
    # the admin's picture of the game: as asked, waiting for A
    game = Game(game_id, {"B": token})
    seen = await api_view(client, game, "admin")
    assert seen["status"] == "waiting" and seen["movement"] == "vector"
    assert seen["spectators"] is True and seen["creator"] == "B"
    assert [s["design"]["class"] for s in seen["ships"]] == ["destroyer", "frigate"] * 2
    assert seen["seats"] == {"A": None, "B": {"name": "Bo"}}
    page = await browser.page(game_id)
    assert "Side B" in element(page.text, "status")
    # spectators unticked: a stranger sees nothing
    r = await browser.form("/games", {**LOBBY})
    assert r.status_code == 201
    closed = game_id_of(r.text)
    assert (await new_browser().get(f"/games/{closed}")).status_code == 401


async def test_a_referee_creator_gets_a_link_for_each_side(new_browser: BrowserFactory) -> None:
    browser = new_browser()
    r = await browser.form("/games", {**LOBBY, "seat": "referee", "spectators": "on"})
    assert r.status_code == 201, r.text
    assert set(join_links(r.text)) == {"A", "B"}
    assert "the referee" in r.text
    game_id = game_id_of(r.text)
    page = await browser.page(game_id)
    assert "Referee" in element(page.text, "status")


async def test_custom_ships_mode(client: httpx.AsyncClient, new_browser: BrowserFactory) -> None:
    browser = new_browser()
    fields = {
        **LOBBY,
        "mode": "custom",
        "A_side_name": "Hawks",
        "A_design_1": "destroyer",
        "A_name_1": "Kite",
        "A_design_2": "",
        "A_design_3": "scout",
        "B_design_1": "frigate",
        "B_name_1": "Moth",
        "spectators": "on",
    }
    r = await browser.form("/games", fields)
    assert r.status_code == 201, r.text
    game = Game(game_id_of(r.text), {})
    seen = await api_view(client, game, "admin")
    ships = [(s["id"], s["name"], s["side"], s["design"]["id"]) for s in seen["ships"]]
    assert ships == [
        ("a1", "Kite", "A", "destroyer"),
        ("a2", "A3", "A", "scout"),
        ("b1", "Moth", "B", "frigate"),
    ]
    assert seen["side_names"] == {"A": "Hawks", "B": "Side B"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"mode": "custom", "A_design_1": "frigate"}, "pick at least one ship for side B"),
        ({"mode": "custom", "B_design_2": "scout"}, "pick at least one ship for side A"),
        ({"movement": "warp"}, "choose cinematic or vector movement"),
        ({"seat": "C"}, "choose your seat: side A, side B or referee"),
        ({"scenario": "armada"}, "no scenario 'armada'"),
        ({"mode": "custom", "A_design_1": "frigate", "B_design_1": "dreadnought"}, "dreadnought"),
    ],
)
async def test_a_bad_lobby_form_is_422_with_an_inline_message_and_no_game(
    client: httpx.AsyncClient, new_browser: BrowserFactory, change: dict[str, str], message: str
) -> None:
    before = await game_count(client)
    browser = new_browser()
    fields = {**LOBBY, "name": "Ann", **change}
    r = await browser.form("/games", fields)
    assert r.status_code == 422, r.text
    assert "<h1>Start a duel</h1>" in r.text  # the lobby again, not a JSON problem
    assert message in element(r.text, "lobby-error")
    assert 'value="Ann"' in r.text, "what was typed stays"
    if fields.get("mode") == "custom":
        assert re.search(r'value="custom"\s+checked', r.text)
        for key, value in change.items():
            if key.endswith("_design_1") and value == "frigate":
                select = re.search(rf'<select id="{key}".*?</select>', r.text, re.S)
                assert select and re.search(r'value="frigate"\s+selected', select.group(0))
    assert "set-cookie" not in r.headers or "pd_seat_" not in r.headers["set-cookie"]
    assert await game_count(client) == before


# -- invites, joining, seats -----------------------------------------------------------------------
async def test_join_get_never_claims_and_post_claims_with_a_seat_cookie(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    ann = new_browser()
    r = await ann.form("/games", {**LOBBY, "name": "Ann"})
    game_id = game_id_of(r.text)
    ann_token = assert_seat_cookie(r, game_id)
    link = join_links(r.text)["B"]
    game = Game(game_id, {"A": ann_token}, {"B": code_of(link)})
    bo = new_browser()
    for _ in range(2):  # a link preview, then the person: neither claims
        r = await bo.get(link)
        assert r.status_code == 200, r.text
        assert "Join as side B" in r.text and "Take the seat" in r.text
        assert "Shade (frigate), side B — yours" in r.text
        assert not any("pd_seat_" in h for h in r.headers.get_list("set-cookie"))
    seen = await api_view(client, game, "admin")
    assert seen["status"] == "waiting" and seen["seats"]["B"] is None
    # the creator's game page: an invite button, never the code
    page = await ann.page(game_id)
    assert "New invite link for side B" in page.text
    assert game.invites["B"] not in page.text
    # the claim
    r = await bo.form(link.replace("http://test", ""), {"name": "Bo"})
    assert r.status_code == 303, r.text
    assert r.headers["location"] == f"/games/{game_id}"
    bo_token = assert_seat_cookie(r, game_id)
    assert bo_token != ann_token
    seen = await api_view(client, game, "admin")
    assert seen["status"] == "active" and seen["seats"]["B"] == {"name": "Bo"}
    page = await bo.page(game_id)
    assert "Side B" in element(page.text, "status")
    assert ann_token not in page.text and game.invites["B"] not in page.text
    # a code works once
    again = await new_browser().form(link.replace("http://test", ""), {"name": "Eve"})
    assert again.status_code == 410 and "<html" in again.text
    assert (await new_browser().get(link)).status_code == 410
    assert (await new_browser().get("/join/not-a-code-at-all")).status_code == 404


async def test_only_the_creator_or_referee_gets_a_new_invite_link(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    ref = new_browser()
    r = await ref.form("/games", {**LOBBY, "seat": "referee", "spectators": "on"})
    game_id = game_id_of(r.text)
    links = join_links(r.text)
    ann = new_browser()
    await ann.get(links["A"])
    assert (
        await ann.form(links["A"].replace("http://test", ""), {"name": "Ann"})
    ).status_code == 303
    # a player who did not create the game, and a stranger, get no link
    for browser, status in ((ann, 403), (new_browser(), 401)):
        r = await browser.form(f"/games/{game_id}/invite/B", {})
        assert r.status_code == status, r.text
        assert "/join/" not in r.text
    page = await ann.page(game_id)
    assert "New invite link" not in page.text and "/join/" not in page.text
    # the referee: a new link for B only; the old one is dead
    r = await ref.form(f"/games/{game_id}/invite/B", {})
    assert r.status_code == 200, r.text
    fresh = join_links(r.text)
    assert list(fresh) == ["B"] and fresh["B"] != links["B"]
    assert (await new_browser().get(links["B"])).status_code == 410
    bo = new_browser()
    assert (await bo.get(fresh["B"])).status_code == 200
    assert (await bo.form(fresh["B"].replace("http://test", ""), {})).status_code == 303
    # a seat taken: no new link for it
    r = await ref.form(f"/games/{game_id}/invite/B", {})
    assert r.status_code == 409 and "/join/" not in r.text


async def test_a_browser_holding_a_seat_of_the_game_cannot_claim_another(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """The creator's own invite and the referee's: refused (409), no cookie, the invite unused."""
    ann = new_browser()
    r = await ann.form("/games", {**LOBBY, "name": "Ann"})
    game_id = game_id_of(r.text)
    link = join_links(r.text)["B"]
    game = Game(game_id, {"A": assert_seat_cookie(r, game_id)}, {"B": code_of(link)})
    r = await ann.get(link)
    assert r.status_code == 200
    assert "This is your opponent's invite" in r.text and "Take the seat" not in r.text
    assert "already holds side A" in r.text
    r = await ann.form(link.replace("http://test", ""), {"name": "Ann again"})
    assert r.status_code == 409 and "<html" in r.text
    assert "already plays side A" in r.text and "send them the link" in r.text
    assert f'href="/games/{game_id}">Back to your game' in r.text
    assert not any("pd_seat_" in h for h in r.headers.get_list("set-cookie"))
    seen = await api_view(client, game, "admin")
    assert seen["status"] == "waiting" and seen["seats"]["B"] is None
    page = await ann.page(game_id)
    assert "Side A" in element(page.text, "status")
    # the opponent still gets the seat
    bo = new_browser()
    await bo.get(link)
    assert (await bo.form(link.replace("http://test", ""), {"name": "Bo"})).status_code == 303
    assert (await api_view(client, game, "admin"))["seats"]["B"] == {"name": "Bo"}

    # the referee's browser cannot take a player's seat either
    rex = new_browser()
    r = await rex.form("/games", {**LOBBY, "seat": "referee", "name": "Rex"})
    refereed = game_id_of(r.text)
    links = join_links(r.text)
    r = await rex.get(links["A"])
    assert "the referee's seat" in r.text and "Take the seat" not in r.text
    r = await rex.form(links["A"].replace("http://test", ""), {"name": "Rex"})
    assert r.status_code == 409 and "referee" in r.text
    seen = await api_view(client, Game(refereed, {}), "admin")
    assert seen["seats"] == {"A": None, "B": None}


CONFIRM_FORM = '<form method="post" class="buttons">'  # the seat page's confirmation


async def test_a_seat_link_names_the_seat_and_only_its_confirmation_sets_the_cookie(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel", "creator_name": "Ann"})
    link = f"/seat/{game.tokens['B']}"
    phone = new_browser()
    r = await phone.get(link)
    assert r.status_code == 200, r.text
    assert r.headers["referrer-policy"] == "no-referrer"
    assert not any("pd_seat_" in h for h in r.headers.get_list("set-cookie"))
    assert "Play side B here?" in r.text and game.id in r.text and "Player B" in r.text
    # the form posts back to this address (no action): the page never writes the token
    assert CONFIRM_FORM in r.text and game.tokens["B"] not in r.text
    # the confirmation without its CSRF field, or with another's: refused, nothing set
    for fields in ({"token": game.tokens["B"]}, {"token": game.tokens["B"], "csrf": "0" * 64}):
        r = await phone.post("/seat", fields)
        assert r.status_code == 403 and FORGED in r.text
        assert not any("pd_seat_" in h for h in r.headers.get_list("set-cookie"))
    assert "pd_seat_" not in str(phone.http.cookies)
    r = await phone.form("/seat", {"token": game.tokens["B"]})
    assert r.status_code == 303
    assert r.headers["location"] == f"/games/{game.id}"
    assert r.headers["referrer-policy"] == "no-referrer"
    assert_seat_cookie(r, game.id, game.tokens["B"])
    page = await phone.page(game.id)
    assert "Side B" in element(page.text, "status")
    # the page offers the link for the next device behind a POST, never the link itself
    assert f'action="/games/{game.id}/seat-link"' in page.text
    assert game.tokens["B"] not in page.text and game.tokens["A"] not in page.text
    assert page.headers["referrer-policy"] == "no-referrer"
    # the same link again in that browser: already there, nothing to confirm
    r = await phone.get(link)
    assert r.status_code == 200 and "You already play side B here" in r.text
    assert CONFIRM_FORM not in r.text

    # a browser holding A's seat is never switched to B's, by the page or by a forged post
    ann = new_browser()
    await ann.enter(game.tokens["A"])
    r = await ann.get(link)
    assert r.status_code == 409 and "This browser already plays side A" in r.text
    assert CONFIRM_FORM not in r.text
    r = await ann.form("/seat", {"token": game.tokens["B"]})
    assert r.status_code == 409
    assert not any("pd_seat_" in h for h in r.headers.get_list("set-cookie"))
    assert "Side A" in element((await ann.page(game.id)).text, "status")

    stranger = new_browser()
    for r in (await stranger.get("/seat/not-a-token"), await stranger.form("/seat", {})):
        assert r.status_code == 401 and "<html" in r.text
        assert not any("pd_seat_" in h for h in r.headers.get_list("set-cookie"))


# -- CSRF ------------------------------------------------------------------------------------------
async def test_every_post_needs_the_csrf_token_and_a_same_origin(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    ann = new_browser()
    r = await ann.form("/games", {**LOBBY, "spectators": "on"})
    game_id = game_id_of(r.text)
    link = join_links(r.text)["B"]
    join_path = link.replace("http://test", "")
    page = await ann.page(game_id)
    reissue = hidden_fields(page.text)
    assert set(reissue) == {"csrf"}
    posts: dict[str, tuple[str, dict[str, str]]] = {
        "create": ("/games", dict(LOBBY)),
        "join": (join_path, {"name": "Bo"}),
        "reissue": (f"/games/{game_id}/invite/B", {}),
        "act": (f"/games/{game_id}/act", {"type": "resign", "confirm": "on", "idem": "x"}),
    }
    game = Game(game_id, {})
    before = (await game_count(client), await state_of(client, game))
    thief = new_browser()
    await thief.get("/")  # its own CSRF cookie and token
    for what, (path, fields) in posts.items():
        attempts: list[tuple[Browser, dict[str, str], dict[str, str]]] = [
            (ann, dict(fields, csrf=""), {}),  # missing
            (ann, dict(fields, csrf="0" * 64), {}),  # wrong
            (ann, dict(fields, csrf=str(thief.csrf)), {}),  # another browser's token
            (thief, dict(fields, csrf=str(ann.csrf)), {}),  # a stolen token, without its cookie
            (ann, dict(fields), {"Origin": "http://evil.example"}),  # another site
        ]
        for browser, data, headers in attempts:
            items = [(k, v) for k, v in data.items() if not (k == "csrf" and v == "")]
            if "csrf" not in data or data["csrf"] == "":
                r = await browser.post(path, items, headers=headers)
            else:
                r = await browser.form(path, items, headers=headers)
            assert r.status_code == 403, (what, data.get("csrf"), headers, r.text)
            assert r.headers["content-type"].startswith("text/html")
            assert FORGED in r.text and "<html" in r.text
            assert "pd_seat_" not in r.headers.get("set-cookie", "")
        # nothing changed
        assert (await game_count(client), await state_of(client, game)) == before, what
    # the code still works: the refused join did not use it
    assert (await new_browser().get(link)).status_code == 200
    # a page's own form, sent from the page's origin (or with "Origin: null" under no-referrer)
    ok = await ann.form("/games", dict(LOBBY), headers={"Origin": "http://test"})
    assert ok.status_code == 201
    ok = await ann.form("/games", dict(LOBBY), headers={"Origin": "null"})
    assert ok.status_code == 201


# -- actions ---------------------------------------------------------------------------------------
async def seated(
    client: httpx.AsyncClient, new_browser: BrowserFactory, game: Game
) -> dict[str, Browser]:
    browsers = {}
    for seat in ("A", "B"):
        browsers[seat] = new_browser()
        await browsers[seat].enter(game.tokens[seat])
        await browsers[seat].page(game.id)
    return browsers


async def act(
    browser: Browser,
    game: Game,
    form_id: str | None,
    fields: dict[str, Any] | list[tuple[str, str]],
    *,
    htmx: bool = False,
    page: str | None = None,
) -> httpx.Response:
    """Submit a form of the seat's current page (its hidden fields) with ``fields`` added."""
    html = page if page is not None else (await browser.page(game.id)).text
    base = hidden_fields(html, form_id)
    items = list(fields.items()) if isinstance(fields, dict) else list(fields)
    names = {k for k, _ in items}
    data = [(k, v) for k, v in base.items() if k not in names] + [(k, str(v)) for k, v in items]
    return await browser.form(f"/games/{game.id}/act", data, htmx=htmx)


def deploy_fields(ship: str, pos: tuple[float, float], heading: int, speed: int) -> dict[str, Any]:
    return {
        f"x_{ship}": pos[0],
        f"y_{ship}": pos[1],
        f"heading_{ship}": heading,
        f"speed_{ship}": speed,
        "placing": ship,
    }


def events_of(log: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in log if e["type"] == kind]


async def test_deploy_move_ping_fire_and_core_action_by_forms(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """FIXED's duel played through the pages: the same story as through the API."""
    game = await create_game(
        client, {"scenario": "duel", "seed": SEED, "creator": "A"}, game_id=GAME_BY_A
    )
    b = await seated(client, new_browser, game)
    r = await act(b["A"], game, "deploy-form", deploy_fields("a1", A_DEPLOY, 0, 8))
    assert r.status_code == 303, r.text
    assert r.headers["location"] == f"/games/{game.id}"
    page = (await b["A"].page(game.id)).text
    assert "You deployed: Vigilant at (30.4, 7.7)" in page
    assert 'id="deploy-form"' not in page and "Waiting for Raider to deploy" in page
    r = await act(b["B"], game, "deploy-form", deploy_fields("b1", B_DEPLOY, 6, 8))
    assert r.status_code == 303, r.text
    # A's turn: the orders form (ship chosen by radio), then the after-move buttons
    page = (await b["A"].page(game.id)).text
    assert 'id="orders-form"' in page and 'name="ship" value="a1"' in page
    r = await act(b["A"], game, "orders-form", {"ship": "a1", "type": "move", **A_ORDERS})
    assert r.status_code == 303, r.text
    page = (await b["A"].page(game.id)).text
    assert "Vigilant has moved" in page
    r = await act(b["A"], game, None, {"type": "ping"}, page=after_move_form(page))
    assert r.status_code == 303, r.text
    # the fire window: both sides pick a target for each weapon (one radio group per weapon)
    for seat in ("A", "B"):
        page = (await b[seat].page(game.id)).text
        shots = re.findall(r'name="shot@[^"]+" value="([^"]+)"', page)
        assert len(shots) == 2, page
        r = await act(b[seat], game, "fire-form", [("type", "fire")] + [("shot", s) for s in shots])
        assert r.status_code == 303, r.text
    log = await api_events(client, game, "admin")
    declared = {e["data"]["side"]: e["data"]["shots"] for e in events_of(log, "fire_declared")}
    assert declared == {
        "A": [{"ship": "a1", "weapon": f"beam-{i}", "target": "b1"} for i in (1, 2)],
        "B": [{"ship": "b1", "weapon": f"beam-{i}", "target": "a1"} for i in (1, 2)],
    }
    assert events_of(log, "fire_resolved")
    # B moves away; A's crew, with a critical power core, dumps it (offered on A's page only)
    r = await act(b["B"], game, "orders-form", {"ship": "b1", "type": "move", **B_ORDERS})
    assert r.status_code == 303, r.text
    assert "core_action" not in (await b["B"].page(game.id)).text
    page = (await b["A"].page(game.id)).text
    assert (
        "Vigilant&#39;s power core is critical" in page
        or "Vigilant's power core is critical" in page
    )
    form = re.search(r'<form[^>]*class="danger-zone".*?</form>', page, re.S)
    assert form, page
    r = await act(b["A"], game, None, {"action": "dump"}, page=form.group(0))
    assert r.status_code == 303, r.text
    log = await api_events(client, game, "admin")
    assert events_of(log, "core_action")[0]["data"]["action"] == "dump"
    assert events_of(log, "core_action")[0]["data"]["ship"] == "a1"


def after_move_form(page: str) -> str:
    """The after-move form (Ping / End activation): the one with those two buttons."""
    for form in re.findall(r"<form.*?</form>", page, re.S):
        if 'value="end_activation"' in form:
            return str(form)
    raise AssertionError("no after-move form")


async def play_to_a_fire_window(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> tuple[Game, dict[str, Browser], str, str]:
    """A fresh duel by forms: the first side activates by name, moves and ends its activation
    (overwatch); the second pings before moving. Returns (game, browsers, first, second)."""
    game = await create_game(client, {"scenario": "duel"})
    b = await seated(client, new_browser, game)
    for seat, pos, heading in (("A", (12.5, 3.5), 0), ("B", (60.5, 44.5), 6)):
        r = await act(
            b[seat], game, "deploy-form", deploy_fields(f"{seat.lower()}1", pos, heading, 4)
        )
        assert r.status_code == 303, r.text
    first = (await api_view(client, game, "admin"))["phase"]["side"]
    second = "B" if first == "A" else "A"
    ship, other = f"{first.lower()}1", f"{second.lower()}1"
    r = await act(b[first], game, "orders-form", {"ship": ship, "type": "activate"})
    assert r.status_code == 303, r.text
    page = (await b[first].page(game.id)).text
    assert f'<input type="hidden" name="ship" value="{ship}">' in page, "the named ship"
    r = await act(b[first], game, "orders-form", {"type": "move", "speed_change": 1, "turn": 0})
    assert r.status_code == 303, r.text
    page = (await b[first].page(game.id)).text
    r = await act(b[first], game, None, {"type": "end_activation"}, page=after_move_form(page))
    assert r.status_code == 303, r.text
    r = await act(b[second], game, "orders-form", {"ship": other, "type": "ping"})
    assert r.status_code == 303, r.text
    v = await api_view(client, game, "admin")
    assert v["phase"]["step"] == "fire" and first in v["phase"]["awaiting"], v["phase"]
    log = await api_events(client, game, "admin")
    assert [e["data"]["overwatch"] for e in events_of(log, "activation_ended")] == [True]
    return game, b, first, second


async def test_activate_end_activation_ping_first_and_hold_fire_by_forms(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game, b, _first, second = await play_to_a_fire_window(client, new_browser)
    for seat in (await api_view(client, game, "admin"))["phase"]["awaiting"]:
        page = (await b[seat].page(game.id)).text
        assert 'id="fire-form"' in page and "Hold fire" in page
        # "hold" wins over any chosen target, also without JavaScript
        ticked = re.findall(r'name="shot@[^"]+" value="([^"]+)"', page)[:1]
        fields = [("type", "fire"), ("hold", "1")] + [("shot", s) for s in ticked]
        r = await act(b[seat], game, "fire-form", fields)
        assert r.status_code == 303, r.text
    log = await api_events(client, game, "admin")
    assert all(e["data"]["shots"] == [] for e in events_of(log, "fire_declared"))
    resolved = events_of(log, "fire_resolved")
    assert resolved and resolved[-1]["data"]["shots"] == []
    # the pinger moves now (it pinged first): its activation ends with the move
    v = await api_view(client, game, "admin")
    assert v["phase"]["step"] == "after_ping" and v["phase"]["side"] == second
    r = await act(b[second], game, "orders-form", {"type": "move", "speed_change": 0, "turn": 1})
    assert r.status_code == 303, r.text
    v = await api_view(client, game, "admin")
    assert v["turn"] == 2


async def test_resign_needs_its_confirmation_box(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    b = await seated(client, new_browser, game)
    page = (await b["B"].page(game.id)).text
    resign = re.search(r'<details class="resign">.*?</details>', page, re.S)
    assert resign, page
    before = await state_of(client, game)
    r = await act(b["B"], game, None, {}, page=resign.group(0))
    assert r.status_code == 422, r.text
    assert element(r.text, "action-error") == "tick the box to confirm that you resign"
    assert await state_of(client, game) == before
    r = await act(b["B"], game, None, {}, page=resign.group(0), htmx=True)
    assert r.status_code == 422
    assert r.text.lstrip().startswith('<section id="controls"')
    assert await state_of(client, game) == before
    r = await act(b["B"], game, None, {"confirm": "on"}, page=resign.group(0))
    assert r.status_code == 303, r.text
    seen = await api_view(client, game, "admin")
    assert seen["status"] == "finished" and seen["winner"] == "A"
    page = (await b["A"].page(game.id)).text
    assert "Game over — you win" in page


async def test_illegal_orders_and_bad_fields_are_inline_errors_and_change_nothing(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    b = await seated(client, new_browser, game)
    before = await state_of(client, game)
    cases = [
        (deploy_fields("a1", (30.5, 20.5), 0, 4), 422, "zone"),
        (deploy_fields("a1", (30.5, 4.5), 0, 40), 422, "speed"),
        ({**deploy_fields("a1", (30.5, 4.5), 0, 4), "x_a1": "east"}, 422, "must be a number"),
        ({**deploy_fields("a1", (30.5, 4.5), 0, 4), "heading_a1": "2.5"}, 422, "whole number"),
    ]
    for fields, status, text in cases:
        for htmx in (False, True):
            r = await act(b["A"], game, "deploy-form", fields, htmx=htmx)
            assert r.status_code == status, r.text
            assert text in element(r.text, "action-error"), element(r.text, "action-error")
            if htmx:
                assert (
                    r.text.lstrip().startswith('<section id="controls"') and "<html" not in r.text
                )
                assert 'id="deploy-form"' in r.text, "the form comes back to be corrected"
            else:
                assert "<html" in r.text and 'id="map"' in r.text
            assert await state_of(client, game) == before
    # deployed, then orders beyond the ship's limits
    for seat, pos, heading in (("A", (30.5, 4.5), 0), ("B", (40.5, 44.5), 6)):
        await send(
            client,
            game,
            seat,
            {
                "type": "deploy",
                "ships": [
                    {
                        "ship": f"{seat.lower()}1",
                        "position": {"x": pos[0], "y": pos[1]},
                        "heading": heading,
                        "speed": 4,
                    }
                ],
            },
        )
    side = (await api_view(client, game, "admin"))["phase"]["side"]
    ship = f"{side.lower()}1"
    before = await state_of(client, game)
    cases = [
        ({"ship": ship, "type": "move", "speed_change": 0, "turn": 5}, 422, "turn 5 exceeds"),
        ({"ship": ship, "type": "move", "speed_change": 9, "turn": 0}, 422, "exceeds"),
        ({"ship": ship, "type": "move", "speed_change": "fast", "turn": 0}, 422, "whole number"),
        ({"ship": "zz9", "type": "move"}, 422, "zz9"),
        ({"ship": ship, "type": "teleport"}, 422, "unknown action"),
    ]
    for fields, status, text in cases:
        for htmx in (False, True):
            r = await act(b[side], game, "orders-form", fields, htmx=htmx)
            assert r.status_code == status, (fields, r.text)
            assert text in element(r.text, "action-error"), element(r.text, "action-error")
            assert htmx == ("<html" not in r.text)
            assert await state_of(client, game) == before
    # the other side's form, sent out of turn
    other = "B" if side == "A" else "A"
    r = await b[other].form(
        f"/games/{game.id}/act", {"type": "ping", "ship": f"{other.lower()}1", "idem": "oot"}
    )
    assert r.status_code == 409, r.text
    assert await state_of(client, game) == before
    # a spectator's forged post (a valid CSRF token of its own) is refused too
    stranger = new_browser()
    await stranger.get("/")
    r = await stranger.form(f"/games/{game.id}/act", {"type": "resign", "confirm": "on"})
    assert r.status_code in (401, 403), r.text
    assert await state_of(client, game) == before


async def test_htmx_gets_the_controls_block_and_a_refresh_trigger(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    b = await seated(client, new_browser, game)
    r = await act(b["A"], game, "deploy-form", deploy_fields("a1", (20.5, 4.5), 0, 4), htmx=True)
    assert r.status_code == 200, r.text
    # the page refreshes its blocks once the answer is in (from the new orders block)
    assert r.headers["hx-trigger-after-settle"] == "pd-refresh"
    assert "hx-trigger" not in r.headers
    body = r.text.lstrip()
    assert body.startswith('<section id="controls"') and "<html" not in body
    assert "Waiting for Raider to deploy" in body and 'id="deploy-form"' not in body
    assert (await api_view(client, game, "A"))["phase"]["awaiting"] == ["B"]


async def test_a_double_submit_applies_once(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    b = await seated(client, new_browser, game)
    page = (await b["A"].page(game.id)).text
    fields = deploy_fields("a1", (20.5, 4.5), 0, 4)
    first = await act(b["A"], game, "deploy-form", fields, page=page)
    second = await act(b["A"], game, "deploy-form", fields, page=page)
    third = await act(b["A"], game, "deploy-form", fields, page=page, htmx=True)
    assert (first.status_code, second.status_code, third.status_code) == (303, 303, 200)
    log = await api_events(client, game, "admin")
    assert len(events_of(log, "deployed")) == 1
    # the same for a move, both sides deployed
    await act(b["B"], game, "deploy-form", deploy_fields("b1", (50.5, 44.5), 6, 4))
    side = (await api_view(client, game, "admin"))["phase"]["side"]
    page = (await b[side].page(game.id)).text
    move = {"ship": f"{side.lower()}1", "type": "move", "speed_change": 1, "turn": 0}
    for htmx in (False, True, False):
        r = await act(b[side], game, "orders-form", move, page=page, htmx=htmx)
        assert r.status_code in (200, 303), r.text
        assert "action-error" not in r.text
    log = await api_events(client, game, "admin")
    assert len(events_of(log, "ship_moved")) == 1


async def test_a_stale_form_is_told_the_game_moved_on(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game, b, first, second = await play_to_a_fire_window(client, new_browser)
    awaiting = (await api_view(client, game, "admin"))["phase"]["awaiting"]
    # (1) the fire window: one side's page is shown and the other side declares meanwhile —
    # that changes nothing this side may fire, so the page's form still works; once the
    # window has closed, the same form is refused as stale
    if len(awaiting) == 2:
        old_page = (await b[first].page(game.id)).text
        r = await act(b[second], game, "fire-form", {"type": "fire", "hold": "1"})
        assert r.status_code == 303
        fresh = (await b[first].page(game.id)).text
        assert element(old_page, "fire-form") == element(fresh, "fire-form"), (
            "the other side's declaration must not reset this side's fire form"
        )
        r = await act(b[first], game, "fire-form", {"type": "fire", "hold": "1"}, page=old_page)
        assert r.status_code == 303
        before = await state_of(client, game)
        for htmx in (False, True):
            r = await act(
                b[first], game, "fire-form", {"type": "fire", "hold": "1"}, page=old_page, htmx=htmx
            )
            assert r.status_code in (200, 303, 409), r.text  # a replay of the first answer
            assert await state_of(client, game) == before
    else:
        for seat in awaiting:
            await act(b[seat], game, "fire-form", {"type": "fire", "hold": "1"})
    # (2) the same page's form used twice for two different orders (two tabs, or Back)
    v = await api_view(client, game, "admin")
    assert v["phase"]["step"] == "after_ping" and v["phase"]["side"] == second
    page = (await b[second].page(game.id)).text
    r = await act(
        b[second], game, "orders-form", {"type": "move", "speed_change": 0, "turn": 0}, page=page
    )
    assert r.status_code == 303
    before = await state_of(client, game)
    for htmx in (False, True):
        r = await act(
            b[second],
            game,
            "orders-form",
            {"type": "move", "speed_change": 0, "turn": 1},
            page=page,
            htmx=htmx,
        )
        assert r.status_code == 409, r.text
        assert "moved on" in element(r.text, "action-error"), element(r.text, "action-error")
        assert await state_of(client, game) == before


async def test_a_seat_that_may_not_send_commands_hears_so_before_any_form_error(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """The door reads no view before a command, so a malformed form is found first; who may not
    send commands (a spectator, the referee) is still told that, not what the form lacks."""
    game = await create_game(client, {"scenario": "duel", "spectators": True})
    before = await state_of(client, game)
    spectator = new_browser()
    page = (await spectator.page(game.id)).text
    assert "Spectator" in page
    r = await spectator.form(f"/games/{game.id}/act", {"type": "deploy", "x_a1": "zz"})
    assert r.status_code == 401, r.text[:300]
    assert "must be a number" not in r.text
    referee = new_browser()
    assert (await referee.form("/referee/login", {"token": ADMIN})).status_code == 303
    await referee.page(game.id)
    r = await referee.form(f"/games/{game.id}/act", {"type": "deploy", "x_a1": "zz"})
    assert r.status_code == 403, r.text[:300]
    assert "must be a number" not in r.text
    assert await state_of(client, game) == before


async def test_a_browser_with_no_seat_is_told_so_in_the_pages_words(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """No seat cookie, a well-formed form: the page says what a page would (no spectators here,
    take a seat), never how to send an HTTP header."""
    game = await create_game(client, {"scenario": "duel", "spectators": False})
    stranger = new_browser()
    await stranger.get("/")  # a CSRF cookie, no seat
    r = await stranger.form(f"/games/{game.id}/act", {"type": "resign", "confirm": "on"})
    assert r.status_code == 401, r.text[:300]
    assert "Authorization" not in r.text and "no spectators" in r.text, r.text[:500]


async def test_a_text_no_field_may_hold_gets_a_page_not_json(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """A NUL in a page form's field (the join form's name, a seat link's token, the CSRF value)
    is refused with a page that names the field; the API alone answers problem+json."""
    game = await create_game(client, {"scenario": "duel"}, claim=())
    browser = new_browser()
    await browser.get(f"/join/{game.invites['B']}")
    posts = [
        (f"/join/{game.invites['B']}", {"name": "Bea\x00"}, "name"),
        ("/seat", {"token": "x\x00y"}, "token"),
        (f"/join/{game.invites['B']}", {"name": "Bea", "csrf": "\x00"}, "csrf"),
    ]
    for path, fields, named in posts:
        r = await browser.form(path, fields)
        assert r.status_code == 422, (path, r.status_code)
        assert r.headers["content-type"].startswith("text/html"), (path, r.text[:200])
        assert "<html" in r.text and named in r.text and "NUL" in r.text, r.text[:400]
    seen = (
        await client.get(f"{API}/games/{game.id}", headers={"Authorization": f"Bearer {ADMIN}"})
    ).json()
    assert seen["status"] == "waiting"
