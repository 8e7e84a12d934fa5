"""The small helpers that build the pages' and the log's sentences (issue 16, wording slips):
the possessive of a name ("Raiders' activation", never "Raiders's"), a count with its noun
("1 ship", "2 ships"), the article ("an antimatter torpedo", "an EMP heavy missile") and the
first capital; and the log's sentences that used to slip, told for real events."""

from __future__ import annotations

import html as htmllib
import re
from typing import Any

import httpx
import pytest

from app.web.grammar import a_or_an, cap, plural, possessive, tidy
from app.web.words import Teller
from tests.web import Browser, api_view, create_game, deploy_body, send


@pytest.mark.parametrize(
    ("name", "owned"),
    [
        ("Raiders", "Raiders'"),
        ("Lance", "Lance's"),
        ("your Lance", "your Lance's"),
        ("you", "your"),
        ("You", "Your"),
        ("side B", "side B's"),
        ("Atlas", "Atlas'"),
        ("WARDENS", "WARDENS'"),
        ("", ""),
    ],
)
def test_possessive(name: str, owned: str) -> None:
    assert possessive(name) == owned


@pytest.mark.parametrize(
    ("count", "word", "many", "text"),
    [
        (1, "ship", None, "1 ship"),
        (0, "ship", None, "0 ships"),
        (2, "turn", None, "2 turns"),
        (1, "six", "sixes", "1 six"),
        (3, "six", "sixes", "3 sixes"),
        (2, "party", "parties", "2 parties"),
        (-1, "hit", None, "-1 hit"),
        (2, "launch", None, "2 launches"),
        (2, "party", None, "2 parties"),
        (2, "needle die", None, "2 needle dice"),
        (2, "antimatter torpedo", None, "2 antimatter torpedoes"),
        (2, "EMP hit", None, "2 EMP hits"),
        (2, "day", None, "2 days"),
    ],
)
def test_plural(count: int, word: str, many: str | None, text: str) -> None:
    assert plural(count, word, many) == text


@pytest.mark.parametrize(
    ("words", "text"),
    [
        ("salvo", "a salvo"),
        ("antimatter torpedo", "an antimatter torpedo"),
        ("extended-range salvo", "an extended-range salvo"),
        ("heavy missile", "a heavy missile"),
        ("EMP heavy missile", "an EMP heavy missile"),
        ("emp heavy missile", "an emp heavy missile"),
        ("needle heavy missile", "a needle heavy missile"),
        ("ordnance", "ordnance"),  # not counted: no article
        ("unit", "a unit"),
        ("", ""),
    ],
)
def test_a_or_an(words: str, text: str) -> None:
    assert a_or_an(words) == text


def test_cap_and_tidy() -> None:
    assert cap("your Lance activates.") == "Your Lance activates."
    assert cap("dART") == "DART"  # only the first letter changes: never a ship's own capitals
    assert cap("") == ""
    assert tidy("Waiting  for  you .") == "Waiting for you."
    assert tidy(" Raiders ,  B ; done ") == "Raiders, B; done"


# -- the log's sentences ---------------------------------------------------------------------------
SHIPS = [
    {"id": "a1", "name": "Atlas", "side": "A", "design": {"systems": []}},
    {"id": "b1", "name": "Vigil", "side": "B", "design": {"systems": []}},
]
NAMES = {"A": "Raiders", "B": "Wardens"}
# a slip in any sentence: "Raiders's", "1 turns", a doubled or stray space, "a" before a vowel
SLIPS = re.compile(
    r"rs's\b|\b1 (turn|hit|ship|kill|missile|activation|fighter)s\b|  | [.,;:]|\ba [aeiou]"
)


def told(seat: str, kind: str, data: dict[str, Any], **extra: Any) -> str:
    event = {"seq": 9, "turn": 2, "type": kind, "data": data, **extra}
    text = Teller(SHIPS, seat, NAMES).tell(event)
    assert not SLIPS.search(text), text
    return text


def test_the_clock_the_referee_added_to_is_the_sides_own() -> None:
    text = told("B", "time_added", {"side": "A", "seconds": 30, "reason": "lag"})
    assert text == "The referee added 30 s to Raiders' clock: lag"
    assert "your clock" in told("A", "time_added", {"side": "A", "seconds": 30, "reason": "x"})


def test_a_ships_name_is_singular_a_sides_plural() -> None:
    ended = told("B", "activation_ended", {"ship": "a1", "overwatch": True})
    assert ended == "Atlas's activation ends — on overwatch."
    mine = told("A", "activation_ended", {"ship": "a1", "overwatch": False})
    assert mine == "Your Atlas's activation ends."
    damaged = told(
        "B",
        "system_damaged",
        {
            "ship": "a1",
            "system": "ls",
            "type": "life_support",
            "status": "damaged",
            "life_support_turns": 1,
        },
    )
    assert damaged.startswith("Atlas's ") and "fails in 1 turn." in damaged
    roll = told("B", "core_roll", {"ship": "a1", "die": 3, "needed": 5, "exploded": False})
    assert roll.startswith("Atlas's critical core rolls 3")
    lost = told("B", "loads_lost", {"ship": "a1", "magazine": "m1"}, redacted=True)
    assert lost == "Atlas's magazine lost whatever it held."


def test_a_shot_at_a_system_names_the_targets_system_with_its_possessive() -> None:
    shot = {
        "ship": "b1",
        "weapon": "n1",
        "target": "a1",
        "system": "core",
        "range": 4.0,
        "dice": "1D6",
        "rolled": [6],
        "hits": 1,
        "reroll_hits": 0,
        "path": "needle",
        "sixes": 1,
    }
    text = told("A", "fire_resolved", {"shots": [shot]})
    assert "→ your Atlas's core at 4.0 mu" in text and "(1 six)" in text


def test_launched_ordnance_takes_the_right_article() -> None:
    amt = told("B", "ordnance_launched", {"ship": "a1", "kind": "amt"}, redacted=True)
    assert amt == "Atlas launched an antimatter torpedo."
    emp = {
        "ship": "a1",
        "kind": "heavy_missile",
        "missile": "emp",
        "launcher": "h1",
        "aim": {"x": 1.0, "y": 2.0},
    }
    assert "launched an emp heavy missile from h1" in told("A", "ordnance_launched", emp)
    unknown = told("B", "ordnance_launched", {"ship": "a1"}, redacted=True)
    assert unknown == "Atlas launched ordnance."


# -- the page's status line ------------------------------------------------------------------------
async def test_the_status_line_names_the_other_sides_activation_in_good_english(
    client: httpx.AsyncClient,
) -> None:
    """Both sides' names end in "s": whichever activates, the other seat (and a spectator) read
    "Raiders' activation" or "Wardens' activation", never "Raiders's"."""
    body = {
        "sides": {
            "A": {"name": "Raiders", "ships": [{"name": "Lance", "design": "scout"}]},
            "B": {"name": "Wardens", "ships": [{"name": "Dart", "design": "scout"}]},
        },
        "creator": "A",
    }
    game = await create_game(client, body)
    await send(client, game, "A", deploy_body("a1", (30.5, 4.5), 0, 4))
    await send(client, game, "B", deploy_body("b1", (40.5, 44.5), 6, 4))
    side = (await api_view(client, game, "A"))["phase"]["side"]
    other = {"A": "B", "B": "A"}[side]
    browser = Browser(client)
    try:
        browser.hold(game.id, game.tokens[other])
        status = (await browser.fragment(game.id, "status")).text
    finally:
        await browser.close()
    phase = re.search(r'<span class="phase">(.*?)</span>', status, re.S)
    assert phase, status
    words = htmllib.unescape(" ".join(phase.group(1).split()))
    assert words == f"{NAMES[side]}' activation", words
