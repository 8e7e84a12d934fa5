"""The lobby's "Play against the computer": the form takes the player straight to the table
of an active game whose other side the computer holds; a bad opponent is refused inline."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tests.computer.test_server_seat import served


async def lobby_csrf(client: httpx.AsyncClient) -> str:
    page = await client.get("/")
    assert page.status_code == 200
    assert "Play against the computer" in page.text
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None
    return found.group(1)


async def test_play_against_the_computer_from_the_lobby(db_url: str, tmp_path: Path) -> None:
    async with served(db_url, tmp_path) as (_, client):
        csrf = await lobby_csrf(client)
        form = {"csrf": csrf, "mode": "scenario", "seat": "A", "scenario": "duel",
                "opponent": "cadet", "name": "Ann", "spectators": "on"}  # fmt: skip
        r = await client.post("/games", data=form)
        assert r.status_code == 303, r.text
        table = r.headers["location"]
        assert re.fullmatch(r"/games/[a-z0-9]+", table)
        page = await client.get(table)
        assert page.status_code == 200
        assert "Computer (cadet)" in page.text

        form["opponent"] = "admiral"
        r = await client.post("/games", data=form)
        assert r.status_code == 422
        assert "choose your opponent" in r.text
