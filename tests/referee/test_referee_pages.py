"""The referee's pages, polished (issue 16; selected backend).

- Ending and rewinding cannot be undone: the game page's End and Rewind forms carry a required
  confirm box, and a form sent without it (a browser that skips the check, a hand-made post) is
  refused with an inline message and changes nothing; ticked, both work. A player's unticked
  post is still refused as a player's (403), and the REST API's endpoints need no box.
- The seed commitment sits in a monospace box of its own (it wraps, with a copy button), and
  the side names appear beside the side letters in the forms.
- A server with no admin token: ``/referee`` says that none is configured and names the setting
  that sets it, and offers no sign-in form (no token could pass it); a post to the sign-in is
  answered the same way, never "That is not the admin token".
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from app.config import Settings
from app.main import create_app
from tests.conftest import ADMIN
from tests.referee.conftest import api_view, play, record, referee_game, referee_ok
from tests.web import Browser, element


def form_of(page: str, action: str) -> str:
    found = re.search(rf'<form[^>]*action="[^"]*/referee/{action}".*?</form>', page, re.S)
    assert found, f"no {action} form"
    return found.group(0)


async def test_end_and_rewind_need_their_confirm_box(client: httpx.AsyncClient) -> None:
    game = await referee_game(client)
    played = await play(client, game, 4)
    referee = Browser(client)
    player = Browser(client)
    try:
        await referee.enter(game.tokens["referee"])
        page = (await referee.page(game.id)).text
        for action in ("end", "rewind"):
            box = re.search(r'<input type="checkbox" name="confirm"[^>]*>', form_of(page, action))
            assert box and "required" in box.group(0), action
        for action in ("pause", "replace-seat"):
            assert 'name="confirm"' not in form_of(page, action), action

        before = (await record(client, game), await api_view(client, game, "admin"))
        to_seq = str(played[1].last_seq)
        unticked = [
            ("end", {"winner": "A", "reason": "B left"}),
            ("end", {"winner": "A", "reason": "B left", "confirm": ""}),
            ("end", {"winner": "A", "reason": "B left", "confirm": "no"}),
            ("rewind", {"to_seq": to_seq, "reason": "undo"}),
        ]
        for action, fields in unticked:
            r = await referee.form(f"/games/{game.id}/referee/{action}", fields)
            assert r.status_code == 422, (action, r.status_code)
            message = element(r.text, "action-error")
            assert "tick the confirm box" in message and "cannot be undone" in message, message
            assert 'id="referee-panel"' in r.text  # the same page, the forms still there
            assert (await record(client, game), await api_view(client, game, "admin")) == before

        # a player's unticked post is refused as a player's: nothing about the box
        await player.enter(game.tokens["A"])
        r = await player.form(f"/games/{game.id}/referee/end", {"winner": "A", "reason": "x"})
        assert r.status_code == 403 and "confirm" not in r.text
        assert (await record(client, game), await api_view(client, game, "admin")) == before

        fields = {"to_seq": to_seq, "reason": "undo", "confirm": "yes"}
        r = await referee.form(f"/games/{game.id}/referee/rewind", fields)
        assert r.status_code == 303, r.text
        assert (await api_view(client, game, "admin"))["seq"] > before[1]["seq"]
        fields = {"winner": "B", "reason": "A left", "confirm": "yes"}
        r = await referee.form(f"/games/{game.id}/referee/end", fields)
        assert r.status_code == 303, r.text
        view = await api_view(client, game, "admin")
        assert view["status"] == "finished" and view["winner"] == "B"
    finally:
        await referee.close()
        await player.close()


async def test_the_api_ends_and_rewinds_without_a_confirm_box(client: httpx.AsyncClient) -> None:
    game = await referee_game(client)
    played = await play(client, game, 4)
    await referee_ok(client, game, "rewind", {"to_seq": played[1].last_seq, "reason": "undo"})
    await referee_ok(client, game, "end", {"winner": "draw", "reason": "no show"})
    assert (await api_view(client, game, "admin"))["status"] == "finished"


async def test_the_seed_commitment_has_a_box_of_its_own(client: httpx.AsyncClient) -> None:
    game = await referee_game(client)
    referee = Browser(client)
    try:
        await referee.enter(game.tokens["referee"])
        page = (await referee.page(game.id)).text
        commitment = (await api_view(client, game, "admin"))["seed_commitment"]
        box = re.search(r'<code class="mono-box" id="seed-commitment"[^>]*>([^<]*)</code>', page)
        assert box and box.group(1) == commitment
        assert 'data-copy="seed-commitment"' in page
        # the sides by name as well as by letter
        assert "Side A (" in form_of(page, "end") and "Side B (" in form_of(page, "replace-seat")
    finally:
        await referee.close()


# -- a server without an admin token ---------------------------------------------------------------
@pytest.fixture
async def no_admin(db_url: str, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    settings = Settings(database_url=db_url, data_dir=tmp_path / "data", admin_token=None)
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            yield c


async def test_no_admin_token_says_so_and_how_to_set_one(no_admin: httpx.AsyncClient) -> None:
    browser = Browser(no_admin)
    try:
        r = await browser.get("/referee")
        assert r.status_code == 200
        said = element(r.text, "no-admin-token")
        assert "No admin token is configured" in said
        assert "PINGDUEL_ADMIN_TOKEN" in r.text
        assert 'name="token"' not in r.text and 'action="/referee/login"' not in r.text
        assert "not the admin token" not in r.text
        # a sign-in posted anyway (an old tab) gets the same answer, and no cookie
        r = await browser.form("/referee/login", {"token": ADMIN})
        assert r.status_code == 401
        assert "No admin token is configured" in r.text and "not the admin token" not in r.text
        assert "pd_admin" not in r.headers.get("set-cookie", "")
    finally:
        await browser.close()


async def test_a_wrong_token_is_still_not_the_admin_token(client: httpx.AsyncClient) -> None:
    browser = Browser(client)
    try:
        r = await browser.get("/referee")
        assert 'name="token"' in r.text and "No admin token" not in r.text
        r = await browser.form("/referee/login", {"token": "x" * 40})
        assert r.status_code == 401 and "That is not the admin token." in r.text
    finally:
        await browser.close()
