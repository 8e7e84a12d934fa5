"""``/games/{id}/computer``: the computer's heat map opens to the referee during the game and
to the players after it, never to a seat before the end — and no page, fragment or API answer
of a seat carries it."""

from __future__ import annotations

from pathlib import Path

from app.store import computer as CS
from tests.api.helpers import command
from tests.computer.test_server_seat import against_computer, served
from tests.conftest import ADMIN
from tests.web import Browser

# a belief as the captain stores it: B's computer thinks a1 is most likely near (30, 6)
BELIEF = {
    "seq": 3,
    "ships": {
        "a1": {"cell": 6.0, "cols": 12, "rows": 8,
               "mass": [[0.0] * 5 + [0.8731] + [0.0] * 6, [0.0] * 5 + [0.1269] + [0.0] * 6,
                        *([[0.0] * 12] * 6)]},
    },
}  # fmt: skip
TELL = "around (33, 3): 87%"


async def test_the_heat_map_opens_to_the_referee_now_and_the_players_after(
    db_url: str, tmp_path: Path
) -> None:
    async with served(db_url, tmp_path, computer=False) as (service, client):
        duel = await against_computer(
            client, {"scenario": "duel", "opponent": {"computer": "cadet"}}
        )
        async with service.db.unit() as conn:
            await CS.believed(conn, duel.game_id, "B", BELIEF)
        player = Browser(client)
        player.hold(duel.game_id, duel.tokens["A"])
        r = await player.get(f"/games/{duel.game_id}/computer")
        assert r.status_code == 403 and "opens when the game ends" in r.text
        assert TELL not in r.text
        # nothing of it on the seat's own page, blocks or API answers
        page = await player.page(duel.game_id)
        assert TELL not in page.text and "87%" not in page.text
        assert "computer-belief-link" not in page.text
        api = await client.get(duel.path, headers=duel.auth("A"))
        assert "0.8731" not in api.text and "belief" not in api.text

        referee = Browser(client)
        await referee.get("/referee")
        assert (await referee.form("/referee/login", {"token": ADMIN})).status_code == 303
        r = await referee.get(f"/games/{duel.game_id}/computer")
        assert r.status_code == 200, r.text
        assert TELL in r.text and 'class="belief-cell"' in r.text
        assert "only the referee sees this" in r.text
        assert "computer-belief-link" in (await referee.page(duel.game_id)).text

        r = await command(client, duel, "A", {"type": "resign"})
        assert r.status_code == 200, r.text
        r = await player.get(f"/games/{duel.game_id}/computer")
        assert r.status_code == 200, r.text
        assert TELL in r.text
        assert "computer-belief-link" in (await player.page(duel.game_id)).text
        await player.close()
        await referee.close()


async def test_an_unknown_game_is_a_404_page(db_url: str, tmp_path: Path) -> None:
    async with served(db_url, tmp_path, computer=False) as (_, client):
        r = await client.get("/games/nosuchgame/computer")
        assert r.status_code == 404
        assert "text/html" in r.headers["content-type"]
