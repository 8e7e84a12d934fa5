"""What the game page's words mean (selected backend; issue 10, "pages that mislead").

- "PINGED" on a record sheet is the seed's word for "the model was placed on the table here":
  the ship was revealed at the end of that move, by any cause. It appears under the move of a
  ship that never pinged, so the page says what it means, on the word and in a legend line.
- The log's words about a ping agree with the map: a ship the map draws revealed is never
  "hidden" in the line of the ping that did not detect it (it was revealed already, or it is
  revealed by another cause in the same window).
"""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Callable

import httpx

from tests.web import Browser, Game, api_view, create_game, send

BrowserFactory = Callable[[], Browser]

PINGED_MEANS = "revealed here"


async def seat_browser(new_browser: BrowserFactory, game: Game, seat: str) -> Browser:
    """A browser holding ``seat`` of the game (none for a spectator)."""
    browser = new_browser()
    if seat in game.tokens:
        browser.hold(game.id, game.tokens[seat])
    await browser.get("/")  # a CSRF cookie, as a first visit gets
    return browser


async def fragment(browser: Browser, game: Game, name: str) -> str:
    r = await browser.fragment(game.id, name)
    assert r.status_code == 200, r.text
    return r.text


def text_of(html: str) -> str:
    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).strip()


# -- PINGED ----------------------------------------------------------------------------------------
async def test_pinged_on_the_record_sheet_says_it_means_revealed_there(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """Whoever goes first moves and goes on overwatch; the other side's ship moves and pings,
    which reveals the first ship (a scout carries no ECM; a destroyer's ping is basic but the
    scout rolls nothing). The first ship never pinged, yet its move is tagged PINGED."""
    body = {
        "sides": {
            "A": {"name": "Patrol", "ships": [{"name": "Lance", "design": "scout"}]},
            "B": {"name": "Raiders", "ships": [{"name": "Dart", "design": "scout"}]},
        },
        "table": {"width": 72, "height": 24},
    }
    game = await create_game(client, body)
    for seat, ship, y, heading in (("A", "a1", 4, 0), ("B", "b1", 20, 6)):
        place = {"ship": ship, "position": {"x": 36, "y": y}, "heading": heading, "speed": 0}
        await send(client, game, seat, {"type": "deploy", "ships": [place]})
    first = (await api_view(client, game, "admin"))["phase"]["side"]
    second = "B" if first == "A" else "A"
    stay = {"speed_change": 0, "turn": 0}
    quiet, pinger = f"{first.lower()}1", f"{second.lower()}1"
    await send(client, game, first, {"type": "move", "ship": quiet, "orders": stay})
    await send(client, game, first, {"type": "end_activation", "ship": quiet})
    await send(client, game, second, {"type": "move", "ship": pinger, "orders": stay})
    await send(client, game, second, {"type": "ping", "ship": pinger})

    browser = await seat_browser(new_browser, game, first)
    sheets = await fragment(browser, game, "sheets")
    log = text_of(await fragment(browser, game, "log"))
    quiet_name = "Lance" if first == "A" else "Dart"
    assert f"Your {quiet_name} pinged" not in log  # the ship never pinged ...
    sheet = re.search(rf'aria-label="{quiet_name} record sheet".*?</article>', sheets, re.S)
    assert sheet, sheets
    tags = re.findall(r"<(\w+)[^>]*>PINGED</\1>", sheet.group(0))
    assert len(tags) == 1, sheet.group(0)  # ... but its move is where it was revealed
    tag = re.search(r'<abbr class="pinged" title="([^"]+)">PINGED</abbr>', sheet.group(0))
    assert tag, f"the PINGED tag does not say what it means: {sheet.group(0)}"
    meaning = htmllib.unescape(tag.group(1))
    assert PINGED_MEANS in meaning.lower() and "firing" in meaning and "ping" in meaning, meaning
    # and a legend line says it in words, next to the sheets, for a reader without a mouse
    key = re.search(r'<p class="hint pinged-key"[^>]*>(.*?)</p>', sheets, re.S)
    assert key, "no legend line for PINGED on the record sheets"
    line = text_of(key.group(1))
    assert line.startswith("PINGED — revealed here"), line
    assert "its own ping" in line and "detect" in line and "firing" in line, line
