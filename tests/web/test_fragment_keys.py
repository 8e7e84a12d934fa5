"""A block's refresh key cannot be captured or forged by a name (selected backend).

The page and each fragment used to render the literal text ``__FRAGMENT_KEY__`` where a block's
key goes and then replace its first occurrence: a side or ship named ``__FRAGMENT_KEY__`` that
is drawn before the key (its name in the status line, on the map) took the key instead, the
block kept the placeholder, and its first refresh was never a 204 — the block was drawn again
and a half-ticked fire form thrown away. Whatever the names, each block of the page and of a
fragment carries its own key, the next refresh with it is a 204, and names are shown as they
are.
"""

from __future__ import annotations

import re

import httpx
import pytest

from tests.web import FRAGMENTS, create_game, deploy_body, send
from tests.web.conftest import BrowserFactory

NAMES = ["__FRAGMENT_KEY__", '{"key": "0123456789abcdef"}', "__FRAGMENT_KEY____FRAGMENT_KEY__"]
KEY = re.compile(r"""hx-vals='\{"key": "([0-9a-f]{16})"\}'""")


def block_keys(html: str, game_id: str) -> dict[str, str]:
    block = rf'hx-get="/games/{game_id}/fragments/(\w+)"[^>]*'
    return dict(re.findall(block + KEY.pattern, html))


@pytest.mark.parametrize("name", NAMES)
async def test_names_cannot_take_a_blocks_key(
    client: httpx.AsyncClient, new_browser: BrowserFactory, name: str
) -> None:
    sides = {
        "A": {"name": name, "ships": [{"name": name, "design": "frigate"}]},
        "B": {"name": "Victims", "ships": [{"name": "b1", "design": "frigate"}]},
    }
    game = await create_game(client, {"sides": sides, "creator_name": name})
    await send(client, game, "A", deploy_body("a1", (30.5, 4.5), 0, 4))
    for seat in ("A", "B"):
        browser = new_browser()
        await browser.enter(game.tokens[seat])
        page = (await browser.page(game.id)).text
        assert page.count("__FRAGMENT_KEY__") >= 1 or "__FRAGMENT_KEY__" not in name
        keys = block_keys(page, game.id)
        assert set(keys) == set(FRAGMENTS), (seat, keys)
        for block, key in keys.items():
            # the page's key is the block's: its first refresh is a 204
            r = await browser.fragment(game.id, block, key=key)
            assert r.status_code == 204, (seat, block, r.text[:200])
            r = await browser.fragment(game.id, block)
            assert r.status_code == 200
            fresh = r.headers["x-fragment-key"]
            assert fresh == key, (seat, block)
            assert KEY.search(r.text) and KEY.search(r.text).group(1) == fresh  # type: ignore[union-attr]
            assert "__FRAGMENT_KEY__" not in r.text or "__FRAGMENT_KEY__" in name
            # and the fragment's own key answers 204 again
            assert (await browser.fragment(game.id, block, key=fresh)).status_code == 204
        # the names are shown as given, never turned into a key
        if "__FRAGMENT_KEY__" in name:
            status = (await browser.fragment(game.id, "status")).text
            sheets = (await browser.fragment(game.id, "sheets")).text
            assert name in status + sheets + page, seat
