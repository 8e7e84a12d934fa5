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
from typing import Any

import httpx

from app.rules import ScriptedDice, redact
from app.web.words import Teller
from tests.conftest import ADMIN
from tests.web import Browser, Game, api_view, create_game, send
from tests.web.test_words_map import Duel

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


# -- the log agrees with the map -------------------------------------------------------------------
def ping_lines(log_html: str) -> list[str]:
    """The texts of the log's ping lines, oldest first."""
    items = re.findall(r'<li class="ev ev-ping[^"]*"[^>]*>(.*?)</li>', log_html, re.S)
    return [text_of(i) for i in reversed(items)]


def about(line: str, name: str) -> str:
    """The part of a ping line that is about the ship ``name``."""
    parts = [p for p in line.split(": ", 1)[1].split("; ") if name in p]
    assert len(parts) == 1, (line, name)
    return parts[0]


def drawn_live(map_html: str, ship: str) -> bool:
    m = re.search(rf'<g class="ship ([^"]+)" data-ship="{ship}"', map_html)
    return bool(m and "live" in m.group(1).split())


async def test_a_ping_that_misses_a_ship_already_revealed_does_not_call_it_hidden(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """The hunt (pings reach 36 mu): B's Whisper pings and is revealed; then A's Longsight,
    67.9 mu away, pings: out of ping range, Whisper is not detected — and is still revealed,
    drawn live on every map. The log line of Longsight's ping must not say it stays hidden."""
    game = await create_game(client, {"scenario": "hunt"})
    stay = {"speed_change": 0, "turn": 0}
    await send(client, game, "A", deploy_body("a1", (4.0, 24.0), 3))
    b_ships = [("b1", (70.0, 40.0)), ("b2", (70.0, 8.0))]
    await send(
        client,
        game,
        "B",
        {"type": "deploy", "ships": [placement(s, p, 9) for s, p in b_ships]},
    )
    assert (await api_view(client, game, "admin"))["phase"]["side"] == "B"  # more ships
    await send(client, game, "B", {"type": "move", "ship": "b1", "orders": stay})
    await send(client, game, "B", {"type": "ping", "ship": "b1"})
    await hold_fire(client, game)
    phase = (await api_view(client, game, "admin"))["phase"]
    if phase["side"] == "B":  # B's second ship, if B goes on: it stays put on overwatch
        await send(client, game, "B", {"type": "move", "ship": "b2", "orders": stay})
        await send(client, game, "B", {"type": "end_activation", "ship": "b2"})
    await send(client, game, "A", {"type": "ping", "ship": "a1"})
    truth = await api_view(client, game, "admin")
    whisper = next(s for s in truth["ships"] if s["id"] == "b1")
    assert whisper["revealed"] == "live", whisper

    for seat in ("A", "B", "spectator", "referee"):
        browser = await seat_browser(new_browser, game, seat)
        if seat == "referee":
            browser.hold(game.id, ADMIN)
        assert drawn_live(await fragment(browser, game, "map"), "b1"), seat
        lines = ping_lines(await fragment(browser, game, "log"))
        assert len(lines) == 2, (seat, lines)
        said = about(lines[1], "Whisper")
        assert "hidden" not in said and "already revealed" in said, (seat, lines[1])


def placement(ship: str, at: tuple[float, float], heading: int) -> dict[str, Any]:
    return {"ship": ship, "position": {"x": at[0], "y": at[1]}, "heading": heading, "speed": 0}


def deploy_body(ship: str, at: tuple[float, float], heading: int) -> dict[str, Any]:
    return {"type": "deploy", "ships": [placement(ship, at, heading)]}


async def hold_fire(client: httpx.AsyncClient, game: Game) -> None:
    """Every side the open window waits for declares no shots."""
    phase = (await api_view(client, game, "admin"))["phase"]
    for side in phase["awaiting"]:
        window = (await api_view(client, game, side))["phase"]["legal"]["window"]
        await send(client, game, side, {"type": "fire", "window": window, "shots": []})


# the duel through the engine: roll-off 6-3 (A first); Vigilant moves and pings, 2 against
# Shade's ECM 5 (1 drawn unused): not detected; Shade fires from overwatch (4, 3: 1 hit) and is
# revealed by firing; Shade then pings before moving, 1 against Vigilant's ECM 6: not detected,
# but Vigilant has not moved since its ping and is still revealed
ENGINE_DICE = [6, 3, 2, 5, 1, 4, 3, 1, 6, 2, 5, 5, 5, 5, 5, 5]


def test_the_log_of_a_ping_agrees_with_the_map_for_every_seat() -> None:
    duel = Duel()
    duel.dice = ScriptedDice(ENGINE_DICE)
    duel.deploy()
    duel.do("A", {"type": "move", "ship": "a1", "orders": {"speed_change": 4, "turn": 0}})
    duel.do("A", {"type": "ping", "ship": "a1"})
    assert duel.state.phase.awaiting == ("B",), duel.state.phase
    shots = [{"ship": "b1", "weapon": w, "target": "a1"} for w in ("beam-1", "beam-2")]
    duel.do("B", {"type": "fire", "window": duel.state.phase.window, "shots": shots})
    duel.do("B", {"type": "ping", "ship": "b1"})
    assert {s.id: s.revealed for s in duel.state.ships} == {"a1": "live", "b1": "live"}

    for seat in ("A", "B", "spectator", "referee"):
        model = duel.map(seat)
        drawn = {m.id: m for m in model.markers if not m.id.endswith("-ghost")}
        assert all("live" in drawn[s].css.split() for s in ("a1", "b1")), (seat, drawn)
        events = [redact(e, seat, duel.state) for e in duel.log]
        teller = Teller(duel.view(seat)["ships"], seat, duel.state.side_names)
        told = list(zip(events, teller.tell_all(events), strict=True))
        pings = [text for e, text in told if e["type"] == "ping"]
        assert len(pings) == 2, (seat, pings)
        first, second = about(pings[0], "Shade"), about(pings[1], "Vigilant")
        # Shade was not revealed when Vigilant's ping missed it, then it fired: the map draws
        # it live, and the log says both without contradiction
        assert "not detected" in first and "hidden" not in first, (seat, pings[0])
        assert any("Shade revealed by firing" in text for _, text in told), seat
        # Vigilant was revealed when Shade's ping missed it
        assert "already revealed" in second and "hidden" not in second, (seat, pings[1])
