"""My games under one signed browser id: the list, its marks, the header count, what a forged
cookie gets, the older per-game cookie moved into the mapping, a replaced seat dropped."""

from __future__ import annotations

import re

import httpx

from tests.conftest import ADMIN
from tests.web import API, B_DEPLOY, Browser, create_game, deploy_body, send
from tests.web.conftest import BrowserFactory

PAGE = {"Accept": "text/html"}


def rows(html: str) -> dict[str, str]:
    """Each listed game's row, by game id."""
    found = re.findall(r'<tr class="game-row[^"]*" data-game="([a-z0-9]+)">(.*?)</tr>', html, re.S)
    return dict(found)


def your_move(html: str) -> set[str]:
    return set(re.findall(r'<tr class="game-row your-move" data-game="([a-z0-9]+)"', html))


def count(html: str) -> int:
    m = re.search(r'id="awaiting-count"[^>]*>(\d+)<', html)
    return int(m.group(1)) if m else 0


def browser_id(b: Browser) -> str:
    value = b.http.cookies.get("pd_browser")
    assert value, "no browser cookie"
    return str(value).rpartition(".")[0]


async def test_my_games_lists_the_browsers_games_and_marks_the_ones_awaiting_it(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    one = await create_game(client, {"scenario": "duel", "creator_name": "Ann"})
    two = await create_game(client, {"scenario": "duel", "creator_name": "Ann"})
    other = await create_game(client, {"scenario": "duel"})
    ann, bea = new_browser(), new_browser()
    await ann.enter(one.tokens["A"])
    await ann.enter(two.tokens["B"])
    await bea.enter(one.tokens["B"])
    # game two: B deploys, so it awaits A only; game one awaits both (deployment)
    await send(client, two, "B", deploy_body("b1", B_DEPLOY, 6, 8))
    r = await ann.get("/games", headers=PAGE)
    assert r.status_code == 200, r.text
    listed = rows(r.text)
    assert set(listed) == {one.id, two.id}, "this browser's games, and only them"
    assert your_move(r.text) == {one.id}
    assert f'href="/games/{one.id}"' in listed[one.id]
    assert "side A" in listed[one.id] and "side B" in listed[two.id]
    assert count(r.text) == 1
    # the header's count is on every page
    assert count((await ann.get("/", headers=PAGE)).text) == 1
    assert count((await ann.get(f"/games/{one.id}", headers=PAGE)).text) == 1
    # newest activity first: game two moved last
    assert list(listed) == [two.id, one.id]
    # bea holds only B of game one; a stranger holds nothing
    assert set(rows((await bea.get("/games", headers=PAGE)).text)) == {one.id}
    stranger = await new_browser().get("/games", headers=PAGE)
    assert rows(stranger.text) == {} and "Start a duel" in stranger.text
    assert other.id not in r.text
    # public facts only: B's secret deployment is nowhere in A's list
    assert f"{B_DEPLOY[0]}" not in rows(r.text)[two.id].replace(two.id, "")


async def test_a_forged_or_foreign_browser_cookie_gets_nothing(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    ann = new_browser()
    await ann.enter(game.tokens["A"])
    ann_id = browser_id(ann)
    for value in (
        f"{ann_id}.{'0' * 64}",  # ann's id, a wrong signature
        ann_id,  # no signature
        f"{ann_id}x.{str(ann.http.cookies.get('pd_browser')).rpartition('.')[2]}",
        "garbage",
        "." * 300,
    ):
        eve = new_browser()
        eve.http.cookies.set("pd_browser", value, domain="test.local", path="/")
        r = await eve.get("/games", headers=PAGE)
        assert r.status_code == 200 and rows(r.text) == {}, value
        page = await eve.get(f"/games/{game.id}", headers=PAGE)
        assert page.status_code == 200 and "Side A (" not in page.text
        r = await eve.http.post(
            f"{API}/games/{game.id}/commands", json={"type": "resign"}, headers={}
        )
        assert r.status_code == 401


async def test_the_browser_id_is_never_shown(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    ann = new_browser()
    await ann.enter(game.tokens["A"])
    secret = browser_id(ann)
    await ann.get("/games", headers=PAGE)
    await ann.get(f"/games/{game.id}", headers=PAGE)
    await ann.get(f"/games/{game.id}/fragments/status")
    await ann.get(f"/games/{game.id}/record.json")
    await ann.form(f"/games/{game.id}/seat-link", {})
    for r in ann.responses:
        assert secret not in r.text, r.request.url
        assert secret not in str(r.request.url)
        assert secret not in r.headers.get("location", "")


async def test_a_replaced_seat_stops_working_for_the_browser_at_once(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    ann = new_browser()
    await ann.enter(game.tokens["A"])
    assert set(rows((await ann.get("/games", headers=PAGE)).text)) == {game.id}
    r = await client.post(
        f"{API}/games/{game.id}/referee/replace-seat",
        json={"side": "A", "reason": "lost phone"},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    assert r.status_code == 200, r.text
    assert rows((await ann.get("/games", headers=PAGE)).text) == {}
    page = await ann.get(f"/games/{game.id}", headers=PAGE)
    assert page.status_code == 200 and "Side A (" not in page.text


async def test_an_older_seat_cookie_moves_into_the_browser_id(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    ann = new_browser()
    ann.hold(game.id, game.tokens["A"])
    page = await ann.page(game.id)
    cookies = page.headers.get_list("set-cookie")
    assert any(c.startswith("pd_browser=") for c in cookies), cookies
    cleared = [c for c in cookies if c.startswith(f"pd_seat_{game.id}=")]
    assert cleared and "max-age=0" in cleared[0].lower()
    assert f"pd_seat_{game.id}" not in ann.http.cookies
    assert set(rows((await ann.get("/games", headers=PAGE)).text)) == {game.id}
    assert "Side A" in (await ann.page(game.id)).text


async def test_a_seat_link_adds_the_game_to_the_other_browsers_list(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    ann, phone = new_browser(), new_browser()
    await ann.enter(game.tokens["A"])
    await ann.page(game.id)
    r = await ann.form(f"/games/{game.id}/seat-link", {})
    assert r.status_code == 200
    link = re.findall(r'value="http://test(/seat/[^"]+)"', r.text)[0]
    assert (await phone.get(link)).status_code == 200
    r = await phone.form(link, {})
    assert r.status_code == 303, r.text
    assert set(rows((await phone.get("/games", headers=PAGE)).text)) == {game.id}
    # both browsers play the seat; a replaced seat's link dies with it
    assert set(rows((await ann.get("/games", headers=PAGE)).text)) == {game.id}
    await client.post(
        f"{API}/games/{game.id}/referee/replace-seat",
        json={"side": "A", "reason": "lost phone"},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    assert (await new_browser().get(link)).status_code == 401


async def test_a_request_about_one_game_reads_only_its_seat(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """Fragments, form posts and streams of a game come on every live update: the middleware
    reads this browser's seat of that game only; pages read the whole list (the count)."""
    from app.web.browser import BrowserSeats

    one = await create_game(client, {"scenario": "duel"})
    two = await create_game(client, {"scenario": "duel"})
    ann = new_browser()
    await ann.enter(one.tokens["A"])
    await ann.enter(two.tokens["B"])
    app = client._transport.app  # type: ignore[attr-defined]
    seen: dict[str, object] = {}

    async def downstream(scope: dict[str, object], receive: object, send: object) -> None:
        seen.update(scope["state"])  # type: ignore[call-overload]

    cookie = f"pd_browser={ann.http.cookies.get('pd_browser')}".encode()

    async def held(path: str, accept: bytes) -> set[str]:
        seen.clear()
        scope = {
            "type": "http",
            "method": "GET",
            "path": path,
            "headers": [(b"cookie", cookie), (b"accept", accept)],
            "app": app,
            "query_string": b"",
        }
        await BrowserSeats(downstream)(scope, None, None)  # type: ignore[arg-type]
        return set(seen["browser_seats"])  # type: ignore[call-overload]

    assert await held(f"/games/{one.id}/status", b"*/*") == {one.id}
    assert await held(f"/games/{two.id}", b"*/*") == {two.id}
    assert await held(f"/games/{one.id}", b"text/html") == {one.id, two.id}
    assert await held("/games", b"*/*") == {one.id, two.id}
    assert seen["awaiting_me"] == 0  # not a page: no count drawn
    # and the pages keep working with it: the fragment knows its seat
    r = await ann.get(f"/games/{one.id}", headers=PAGE)
    assert r.status_code == 200 and 'data-seat="A"' in r.text
