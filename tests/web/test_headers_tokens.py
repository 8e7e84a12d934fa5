"""No token in any page: the sweep, and the seat link shown only on demand.

- Through the whole scripted duel (waiting → finished), created by a player and by a referee,
  every seat that can look — each player, the game's referee, the admin (referee of every
  game), a spectator — gets the game page and each of its blocks, and none of them holds any
  seat token of the game or the admin token, nor a ``/seat/…`` link. The same for the pages
  around a game: the lobby, the designer, an invite, a seat link's own confirmation page (the
  person opened that URL; the page does not repeat it), the referee's dashboard and sign-in,
  the API reference, and a form's refusal.
- "Play on another device" is a CSRF-checked POST whose answer, a page of its own, shows the
  player's own link once (no-store); without the CSRF field, with a forged one or from another
  site it is refused and shows nothing; the referee, the admin and a spectator have no seat link;
  the link then opens the seat on another browser.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import httpx

from tests.conftest import ADMIN
from tests.web import API, FRAGMENTS, Browser, Script, create_game
from tests.web.conftest import BrowserFactory

FORGED = "Form expired or forged"


def assert_no_token(html: str, tokens: Iterable[str], where: str) -> None:
    for token in tokens:
        assert token not in html, f"{where}: a token in the HTML"
    assert not re.search(r"/seat/[A-Za-z0-9_-]{16,}", html), f"{where}: a seat link"


async def _admin(new_browser: BrowserFactory) -> Browser:
    admin = new_browser()
    await admin.get("/referee")
    r = await admin.form("/referee/login", {"token": ADMIN})
    assert r.status_code == 303, r.text
    return admin


async def _sweep(client: httpx.AsyncClient, new_browser: BrowserFactory, creator: str) -> int:
    """Every step of the duel, every seat's page and blocks; returns how many were read."""
    script = Script(client, creator)
    browsers: dict[str, Browser] = {"admin": await _admin(new_browser), "spectator": new_browser()}
    read = 0
    for step in Script.STEPS:
        await script.advance()
        game = script.game
        assert game is not None
        for seat, token in game.tokens.items():
            if seat not in browsers:
                browsers[seat] = new_browser()
                await browsers[seat].enter(token)
        secrets = [*game.tokens.values(), ADMIN]
        for seat, browser in browsers.items():
            page = await browser.page(game.id)
            assert_no_token(page.text, secrets, f"{creator}'s game, {step}, {seat}'s page")
            for name in FRAGMENTS:
                r = await browser.fragment(game.id, name)
                assert r.status_code == 200, (step, seat, name)
                assert_no_token(r.text, secrets, f"{step}, {seat}'s {name} block")
            read += 1 + len(FRAGMENTS)
        if step == "finished":
            for seat, browser in browsers.items():
                r = await browser.get(f"/games/{game.id}/record.json")
                assert r.status_code == 200, (seat, r.text)
                assert_no_token(r.text, secrets, f"{seat}'s record")
    assert set(browsers) >= {"A", "B", "admin", "spectator"}
    return read


async def test_no_token_in_any_seats_pages_through_a_duel_created_by_a_player(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    # A, the admin and a spectator while B's seat waits; B from the second step on
    assert await _sweep(client, new_browser, "A") == (3 + 9 * 4) * (1 + len(FRAGMENTS))


async def test_no_token_in_any_seats_pages_through_a_duel_created_by_a_referee(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    # the referee's own seat (a token of the game) looks too
    assert await _sweep(client, new_browser, "referee") == (4 + 9 * 5) * (1 + len(FRAGMENTS))


async def test_no_token_in_the_pages_around_a_game(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel", "creator": "referee"}, claim=["A"])
    secrets = [*game.tokens.values(), ADMIN]
    ann = new_browser()
    answers = {
        "lobby": await ann.get("/"),
        "designer": await ann.get("/designer"),
        "invite": await ann.get(f"/join/{game.invites['B']}"),
        "api docs": await ann.get("/api/docs"),
        "referee sign-in": await ann.get("/referee"),
        "a refused act": await ann.form(f"/games/{game.id}/act", {"type": "resign"}),
    }
    for seat, token in game.tokens.items():  # the page a seat link opens, for each seat
        answers[f"/seat/ of {seat}"] = await new_browser().get(f"/seat/{token}")
    await ann.enter(game.tokens["A"])
    answers["/seat/ of a seat held"] = await ann.get(f"/seat/{game.tokens['A']}")
    answers["refused seat link"] = await ann.get(f"/seat/{game.tokens['referee']}")
    admin = await _admin(new_browser)
    answers["referee dashboard"] = await admin.get("/referee")
    r = await ann.form("/games", {"mode": "scenario", "scenario": "duel", "seat": "A"})
    assert r.status_code == 201  # the invite page: invite codes, never the creator's token
    answers["invite page"] = r
    secrets += [c.value for c in ann.http.cookies.jar if c.name.startswith("pd_seat_")]
    for where, r in answers.items():
        assert r.status_code < 500 and r.headers["content-type"].startswith("text/html"), where
        assert_no_token(r.text, secrets, where)
    assert "Play side A here?" in answers["/seat/ of A"].text
    assert answers["refused seat link"].status_code == 409


# -- the seat link on demand -----------------------------------------------------------------------
async def test_the_seat_link_is_shown_only_as_the_answer_to_a_csrf_checked_post(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel", "creator_name": "Ann"})
    path = f"/games/{game.id}/seat-link"
    ann, bea = new_browser(), new_browser()
    await ann.enter(game.tokens["A"])
    await bea.enter(game.tokens["B"])
    page = await ann.page(game.id)
    assert f'<form method="post" action="{path}" class="seat-link">' in page.text
    assert game.tokens["A"] not in page.text

    # refused: no CSRF field, a forged one, another site's post, a GET
    refusals = [
        await ann.post(path, {}),
        await ann.post(path, {"csrf": "0" * 64}),
        await ann.form(path, {}, headers={"Origin": "http://evil.example"}),
        await ann.form(path, {"csrf": str(bea.csrf)}),  # another browser's CSRF value
    ]
    for r in refusals:
        assert r.status_code == 403 and FORGED in r.text, r.text
        assert_no_token(r.text, game.tokens.values(), "a refused seat-link post")
    r = await ann.get(path)
    assert r.status_code == 405
    assert_no_token(r.text, game.tokens.values(), "GET of the seat-link address")

    # the answer: the player's own link (a code for the seat: the browser id holds no token),
    # once, never cached, nothing of either seat's token
    r = await ann.form(path, {})
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    found = re.findall(r'value="(http://test/seat/[^"]+)"', r.text)
    assert len(found) == 1, r.text
    link = found[0]
    code = link.rsplit("/", 1)[1]
    assert r.text.count(code) == 1
    assert not [t for t in game.tokens.values() if t in r.text], "a token on the seat link page"
    assert "Play side A on another device" in r.text
    r = await bea.form(path, {})
    assert r.status_code == 200 and code not in r.text
    assert not [t for t in game.tokens.values() if t in r.text], "a token on B's link page"

    # the link opens the seat on another browser: its page asks, its form posts back there
    phone = new_browser()
    shown = await phone.get(link.replace("http://test", ""))
    assert shown.status_code == 200 and code not in shown.text
    r = await phone.form(f"/seat/{code}", {})
    assert r.status_code == 303 and r.headers["location"] == f"/games/{game.id}"
    assert "Side A" in (await phone.page(game.id)).text


async def test_no_seat_link_for_a_referee_the_admin_or_a_spectator(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel", "creator": "referee"})
    path = f"/games/{game.id}/seat-link"
    rex, spectator, admin = new_browser(), new_browser(), await _admin(new_browser)
    await rex.enter(game.tokens["referee"])
    await spectator.get(f"/games/{game.id}")
    secrets = [*game.tokens.values(), ADMIN]
    for who, browser in (("referee", rex), ("spectator", spectator), ("admin", admin)):
        page = await browser.page(game.id)
        assert 'class="seat-link"' not in page.text, who
        r = await browser.form(path, {})
        assert r.status_code in (401, 403), (who, r.status_code)
        assert_no_token(r.text, secrets, f"the {who}'s seat-link post")


async def test_a_replaced_seat_has_no_link_to_show(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    ann = new_browser()
    await ann.enter(game.tokens["A"])
    await ann.page(game.id)
    r = await client.post(
        f"{API}/games/{game.id}/referee/replace-seat",
        json={"side": "A", "reason": "lost phone"},
        headers={"Authorization": f"Bearer {ADMIN}"},
    )
    assert r.status_code == 200, r.text
    fresh = r.json()["token"]
    r = await ann.form(f"/games/{game.id}/seat-link", {})
    # the browser id no longer holds the seat at all: it asks as a spectator
    assert r.status_code == 403
    assert_no_token(r.text, [game.tokens["A"], fresh], "a replaced seat's seat-link post")
