"""``/games/{id}/computer``: the computer's heat map opens to the referee during the game and
to the players after it, never to a seat before the end — and no page, fragment or API answer
of a seat carries it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from app.bot import strategy
from app.store import computer as CS
from tests.api.helpers import command
from tests.computer.test_server_seat import against_computer, seat_view, served
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


def _at(turn: int, col: int) -> dict[str, object]:
    """A belief of turn ``turn``: a1 certainly in the south row's cell ``col`` (6 mu cells)."""
    row = [0.0] * 12
    row[col] = 1.0
    grid = {"cell": 6.0, "cols": 12, "rows": 8, "mass": [row, *([[0.0] * 12] * 7)]}
    return {"seq": 10 + turn, "turn": turn, "ships": {"a1": grid}}


async def test_the_picture_turn_by_turn(db_url: str, tmp_path: Path) -> None:
    async with served(db_url, tmp_path) as (service, client):
        duel = await against_computer(
            client, {"scenario": "duel", "opponent": {"computer": "cadet"}}
        )
        seen = await seat_view(client, duel, "A")
        deploy = strategy("cadet").decide(seen, random.Random(3))
        assert deploy is not None and deploy["type"] == "deploy"
        assert (await command(client, duel, "A", deploy)).status_code == 200
        for _ in range(400):  # the computer deploys side B: turn 1 begins
            if (await seat_view(client, duel, "A"))["turn"] >= 1:
                break
            await asyncio.sleep(0.02)
        async with service.db.unit() as conn:
            # turn 0 twice: the later decision of a turn takes its place; turn 5 is beyond the
            # game's present (as after a rewind that took it back): not shown
            for belief in (_at(0, 1), _at(0, 2), _at(1, 9), _at(5, 4)):
                await CS.believed(conn, duel.game_id, "B", belief)
        player = Browser(client)
        player.hold(duel.game_id, duel.tokens["A"])
        r = await player.get(f"/games/{duel.game_id}/computer?turn=0")
        assert r.status_code == 403 and "around" not in r.text
        r = await command(client, duel, "A", {"type": "resign"})
        assert r.status_code == 200, r.text

        page = f"/games/{duel.game_id}/computer"
        last = await player.get(page)
        assert last.status_code == 200 and "around (27, 3): 100%" in last.text  # the last stored
        assert f'href="{page}?turn=0"' in last.text and f'href="{page}?turn=1"' in last.text
        assert "?turn=5" not in last.text
        first = await player.get(f"{page}?turn=0")
        assert first.status_code == 200
        assert "around (15, 3): 100%" in first.text and "turn 0, at seq 10" in first.text
        assert "at its last decision of turn 0" in first.text
        assert "around (9, 3)" not in first.text  # the earlier decision of turn 0 was replaced
        assert "around (57, 3): 100%" in (await player.get(f"{page}?turn=1")).text
        for bad, status, says in (
            ("5", 404, "no picture of turn 5"),
            ("7", 404, "no picture of turn 7"),
            ("x", 422, "turn must be a whole number"),
            ("-1", 422, "turn must be a whole number"),
        ):
            r = await player.get(f"{page}?turn={bad}")
            assert r.status_code == status and says in r.text, (bad, r.status_code)
        await player.close()
