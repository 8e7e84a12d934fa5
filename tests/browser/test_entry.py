"""Entering a game in Chromium: who is told about a referee, what an invite or seat link does in
a browser that already holds a seat of the game, and the presence marks that follow by
themselves.

- A game created from the referee's seat says so on the join page and on every game page (the
  referee's name and whether the referee is connected); a game without one says there is none.
- A browser holding a seat of a game (the creator opening his own invite, the referee opening a
  player's) is not switched: the join page says whose invite it is and the invite stays unused
  for the player it was meant for.
- ``/seat/{token}`` asks first (a page naming the game, the side and the player); only the
  confirmation (a POST with the CSRF field) sets the cookie, and a browser holding another seat
  of the game is refused.
- The opponent's "connected"/"away" pill changes within seconds when the other page closes or
  opens, with no game event in between and no reload.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import (
    TIMEOUT_MS,
    OpenPage,
    Referee,
    assert_same_document,
    create_in_lobby,
    eventually,
    join_by_link,
    mark,
    screenshot,
)
from tests.conftest import LiveServer

# "within a few seconds": the live server re-checks every 0.5 s; the wait is a page's usual one
# (8 s was within reach of a stall under load)
PRESENCE_MS = TIMEOUT_MS


def pill(page: Page, side: str) -> Locator:
    return page.locator(f'.who[data-side="{side}"]')


# -- the referee, disclosed ------------------------------------------------------------------------
def test_the_join_page_and_the_game_page_name_the_referee(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    rex = open_page()
    game_id, links = create_in_lobby(rex, live_server, name="Rex", seat="referee")
    expect(rex.locator("#referee-note")).to_contain_text("You referee this game")

    # the join page is drawn once, with what the server knows then: Rex counts as connected
    # only once his page's live stream has opened on the server, some time after the page
    # loaded (later still on a loaded machine)
    eventually(
        lambda: True if referee.view(game_id)["referee"]["connected"] else None,
        lambda: referee.view(game_id)["referee"],
    )
    ann = open_page()
    ann.goto(links["A"])
    note = ann.locator("#referee-note")
    expect(note).to_contain_text("This game has a referee: Rex")
    expect(note).to_contain_text("sees every ship")
    expect(note).to_contain_text("connected now")  # Rex's game page is open
    screenshot(ann, "join-with-referee")
    join_by_link(ann, links["A"], "Ann")
    note = ann.locator("#status #referee-note")
    expect(note).to_contain_text("This game has a referee: Rex")
    expect(note).to_contain_text("sees every ship")
    expect(note.locator('.who[data-side="referee"]')).to_have_text("Referee: connected")
    screenshot(ann, "game-with-referee")
    assert referee.view(game_id)["referee"] == {"name": "Rex", "connected": True}

    # a duel between two players says there is no referee, and its game page names none
    cy = open_page()
    _, plain = create_in_lobby(cy, live_server, name="Cy")
    dee = open_page()
    dee.goto(plain["B"])
    expect(dee.locator("#referee-note")).to_contain_text("No referee")
    join_by_link(dee, plain["B"], "Dee")
    expect(dee.locator("#status")).to_contain_text("Side B")
    expect(dee.locator("#referee-note")).to_have_count(0)


# -- an invite opened by a browser that holds a seat of the game -----------------------------------
def test_opening_your_own_invite_keeps_your_seat_and_the_invite(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    ann = open_page()
    game_id, links = create_in_lobby(ann, live_server, name="Ann")
    ann.goto(links["B"])
    expect(ann.locator("h1")).to_have_text("This is your opponent's invite")
    expect(ann.get_by_role("alert")).to_contain_text("already holds side A")
    expect(ann.get_by_role("alert")).to_contain_text("send it to them")
    expect(ann.locator("#invite-link")).to_have_value(links["B"])
    expect(ann.get_by_role("button", name="Take the seat")).to_have_count(0)
    screenshot(ann, "join-own-invite")
    ann.get_by_role("link", name="Back to your game").click()
    expect(ann.locator("#status .seat")).to_contain_text("Side A")
    truth = referee.view(game_id)
    assert truth["status"] == "waiting" and truth["seats"]["B"] is None

    # the real opponent still gets the seat
    bea = open_page()
    join_by_link(bea, links["B"], "Bea")
    expect(bea.locator("#status .seat")).to_contain_text("Side B")
    assert referee.view(game_id)["seats"]["B"] == {"name": "Bea"}
    expect(ann.locator("#status .seat")).to_contain_text("Side A")


def test_the_referee_cannot_also_take_a_players_seat(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    rex = open_page()
    game_id, links = create_in_lobby(rex, live_server, name="Rex", seat="referee")
    rex.goto(links["A"])
    expect(rex.locator("h1")).to_have_text("This invite is for the player of side A")
    expect(rex.get_by_role("alert")).to_contain_text("the referee's seat")
    expect(rex.get_by_role("alert")).to_contain_text("player of side A")
    expect(rex.get_by_role("button", name="Take the seat")).to_have_count(0)
    screenshot(rex, "join-as-referee-refused")
    assert referee.view(game_id)["seats"]["A"] is None
    ann = open_page()
    join_by_link(ann, links["A"], "Ann")
    assert referee.view(game_id)["seats"]["A"] == {"name": "Ann"}


# -- seat links ------------------------------------------------------------------------------------
def test_a_seat_link_asks_first_and_never_replaces_a_seat(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    ann = open_page()
    game_id, links = create_in_lobby(ann, live_server, name="Ann")
    bea = open_page()
    join_by_link(bea, links["B"], "Bea")
    # the game page holds no link: a POST shows it on a page of its own
    expect(bea.locator("#seat-link")).to_have_count(0)
    bea.get_by_role("button", name="Play on another device").click()
    expect(bea.locator("h1")).to_have_text("Play side B on another device")
    link = bea.locator("#seat-link").input_value()
    assert link.rsplit("/", 1)[1] not in bea.content().replace(link, "")

    # another device: a page that names the seat; nothing is set before the confirmation
    phone = open_page()
    shown = phone.goto(link)
    assert shown is not None and shown.status == 200
    assert shown.headers["referrer-policy"] == "no-referrer"
    assert "pd_seat_" not in (shown.headers.get("set-cookie") or "")
    assert "pd_browser" not in (shown.headers.get("set-cookie") or "")
    expect(phone.locator("h1")).to_have_text("Play side B here?")
    expect(phone.locator("main")).to_contain_text(game_id)
    expect(phone.locator("main")).to_contain_text("Bea")
    screenshot(phone, "seat-confirm")
    assert not [c for c in phone.context.cookies() if c["name"].startswith(("pd_seat_", "pd_b"))]
    with phone.expect_response(lambda r: r.request.method == "POST") as confirmed:
        phone.get_by_role("button", name="Play side B on this device").click()
    answer = confirmed.value
    assert answer.status == 303
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["location"] == f"/games/{game_id}"
    # the form posts back to the address the person opened (the page never writes the token):
    # the token is in no further URL
    assert answer.request.url == link
    phone.wait_for_url(f"{live_server.url}/games/{game_id}")
    expect(phone.locator("#status .seat")).to_contain_text("Side B")

    # A's browser opens B's seat link: refused, A keeps its seat
    ann.goto(link)
    expect(ann.locator("h1")).to_have_text("This browser already plays side A")
    expect(ann.get_by_role("alert")).to_contain_text("side B")
    expect(ann.get_by_role("button", name=re.compile("Play side"))).to_have_count(0)
    screenshot(ann, "seat-refused")
    ann.goto(f"{live_server.url}/games/{game_id}")
    expect(ann.locator("#status .seat")).to_contain_text("Side A")

    # B's own browser: already there
    bea.goto(link)
    expect(bea.locator("h1")).to_have_text("You already play side B here")
    bea.get_by_role("link", name="Go to the game").click()
    expect(bea.locator("#status .seat")).to_contain_text("Side B")


# -- presence --------------------------------------------------------------------------------------
def test_the_opponents_presence_follows_by_itself(
    live_server: LiveServer, referee: Referee, open_page: OpenPage
) -> None:
    ann = open_page()
    game_id, links = create_in_lobby(ann, live_server, name="Ann")
    bea = open_page()
    join_by_link(bea, links["B"], "Bea")
    expect(pill(bea, "A")).to_contain_text("connected")
    expect(pill(ann, "B")).to_contain_text("connected", timeout=PRESENCE_MS)
    seq = referee.view(game_id)["seq"]
    watching = mark(bea)

    ann_context = ann.context
    ann.close()
    expect(pill(bea, "A")).to_contain_text("away", timeout=PRESENCE_MS)
    expect(pill(bea, "A")).to_contain_text(re.compile(r"away since \d\d:\d\d:\d\d UTC"))
    assert referee.view(game_id)["seq"] == seq  # no game event moved the page
    again = ann_context.new_page()
    again.goto(f"{live_server.url}/games/{game_id}")
    expect(pill(bea, "A")).to_contain_text("connected", timeout=PRESENCE_MS)
    assert referee.view(game_id)["seq"] == seq
    assert_same_document(bea, watching)
