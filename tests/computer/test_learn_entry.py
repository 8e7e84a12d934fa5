""" "Learn to play" (issue 17) over HTTP: the lobby and /help carry the form; POST /learn takes
the player straight to the table of a duel against the cadet whose page is marked guided (and
loads the lessons); a form without its CSRF token is refused and creates nothing; an ordinary
game against the computer is not guided. Only a game against the computer may be guided, and a
rematch of one is not."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from app.play import errors as E
from app.play.lobby import NewGame, settings_of
from app.play.social import request_of
from tests.computer.test_lobby_computer import lobby_csrf
from tests.computer.test_server_seat import served
from tests.conftest import ADMIN

API = "/api/v1"


async def game_count(client: httpx.AsyncClient) -> int:
    r = await client.get(f"{API}/games", headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 200, r.text
    return len(r.json()["games"])


async def test_learn_to_play_makes_a_guided_duel_against_the_cadet(
    db_url: str, tmp_path: Path
) -> None:
    async with served(db_url, tmp_path) as (_, client):
        csrf = await lobby_csrf(client)
        help_page = await client.get("/help")
        for page in (await client.get("/"), help_page):
            assert 'action="/learn"' in page.text
            assert "Learn to play: a guided first duel" in page.text

        # no token, a wrong one: refused, and no game is made
        before = await game_count(client)
        for data in ({}, {"csrf": "0" * 64}):
            r = await client.post("/learn", data=data)
            assert r.status_code == 403, r.text
        assert await game_count(client) == before

        r = await client.post("/learn", data={"csrf": csrf, "name": "Ann"})
        assert r.status_code == 303, r.text
        table = r.headers["location"]
        assert re.fullmatch(r"/games/[a-z0-9]+", table)
        assert await game_count(client) == before + 1
        page = await client.get(table)
        assert page.status_code == 200
        assert "Computer (cadet)" in page.text
        assert 'data-guided="1"' in page.text
        assert "/static/js/guide.js" in page.text
        assert 'id="deploy-form"' in page.text  # the player's seat, at deployment

        # the same computer from the lobby's quick form: no lessons
        form = {"csrf": csrf, "mode": "scenario", "seat": "A", "scenario": "duel",
                "opponent": "cadet", "spectators": "on"}  # fmt: skip
        r = await client.post("/games", data=form)
        assert r.status_code == 303, r.text
        plain = await client.get(r.headers["location"])
        assert "Computer (cadet)" in plain.text
        assert "data-guided" not in plain.text and "guide.js" not in plain.text


async def test_only_a_game_against_the_computer_is_guided_and_no_rematch_is(
    db_url: str, tmp_path: Path
) -> None:
    async with served(db_url, tmp_path) as (service, _):
        with pytest.raises(E.Invalid, match="against the computer"):
            await service.lobby.create_game(NewGame(scenario="duel", guided=True))
        made = NewGame(scenario="duel", opponent="cadet", guided=True)
        assert settings_of(made)["guided"] is True
        assert request_of(settings_of(made)).guided is False
