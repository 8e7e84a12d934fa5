"""Each block of the game page reads only what it draws: the log for the map and the log,
presence for the status, the referee's rewind choices and the deploy form's key for the
orders; the whole page reads each of them once, and a command sent from the orders block
answers with that block without reading the log."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any
from unittest import mock

import httpx

from app.deps import ADMIN_COOKIE, seat_cookie
from app.play.reading import Reading
from tests.conftest import ADMIN
from tests.web import create_game

READS = ("events", "presence", "command_boundaries", "deployment_asked")


@contextlib.contextmanager
def reads() -> Iterator[list[str]]:
    """The reads of the page's own extras (besides the view) made inside the block."""
    seen: list[str] = []
    with contextlib.ExitStack() as stack:
        for name in READS:
            original = getattr(Reading, name)

            async def counted(
                self: Reading, *args: Any, _name: str = name, _original: Any = original, **kw: Any
            ) -> Any:
                seen.append(_name)
                return await _original(self, *args, **kw)

            stack.enter_context(mock.patch.object(Reading, name, counted))
        yield seen


def browser(client: httpx.AsyncClient, cookies: dict[str, str]) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=client._transport, base_url=client.base_url, cookies=cookies)


async def test_each_fragment_reads_only_what_it_draws(client: httpx.AsyncClient) -> None:
    game = await create_game(client, {"scenario": "duel"})
    wanted = {
        "A": {
            "status": ["presence"],
            "map": ["events"],
            "controls": ["deployment_asked"],  # A deploys: the form's key
            "sheets": [],
            "log": ["events"],
        },
        "referee": {
            "status": ["presence"],
            "map": ["events"],
            "controls": ["command_boundaries"],  # the rewind choices
            "sheets": [],
            "log": ["events"],
        },
    }
    cookies = {"A": {seat_cookie(game.id): game.tokens["A"]}, "referee": {ADMIN_COOKIE: ADMIN}}
    for seat, blocks in wanted.items():
        async with browser(client, cookies[seat]) as page:
            for name, expected in blocks.items():
                with reads() as seen:
                    r = await page.get(f"/games/{game.id}/fragments/{name}")
                assert r.status_code == 200, (seat, name, r.text)
                assert seen == expected, (seat, name)
            with reads() as seen:
                r = await page.get(f"/games/{game.id}")
            assert r.status_code == 200, r.text
            expected_page = sorted({read for reads_ in blocks.values() for read in reads_})
            assert sorted(seen) == expected_page, seat


async def test_an_order_from_the_orders_block_answers_without_the_log(
    client: httpx.AsyncClient,
) -> None:
    game = await create_game(client, {"scenario": "duel"})
    async with browser(client, {seat_cookie(game.id): game.tokens["A"]}) as page:
        html = (await page.get(f"/games/{game.id}")).text
        csrf = html.split('name="csrf" value="', 1)[1].split('"', 1)[0]
        form = {
            "csrf": csrf,
            "type": "deploy",
            "idem": "web-deploy-test",
            "x_a1": "36",
            "y_a1": "4",
            "heading_a1": "0",
            "speed_a1": "2",
        }
        with reads() as seen:
            r = await page.post(f"/games/{game.id}/act", data=form, headers={"HX-Request": "true"})
        assert r.status_code == 200, r.text
        assert r.headers.get("HX-Trigger-After-Settle") == "pd-refresh"
        assert "events" not in seen and "presence" not in seen
