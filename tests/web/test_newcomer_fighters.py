"""A newcomer's review of fighters and drones on the game page (issue 13; selected backend).
Each test shows one defect found by playing the "Carrier hunt" in a browser; each fails until
the page (or its words) is fixed, and its docstring names what the fix must do."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import httpx

from app.web import groups as map_groups
from app.web.words import Teller, odds_words
from tests.web import Browser, api_view
from tests.web.test_fighter_pages import a_in_step_2, carrier_duel
from tests.web.test_weapon_forms import form_with, send

BrowserFactory = Callable[[], Browser]

SHIPS: list[Mapping[str, Any]] = [
    {"id": "a1", "name": "Albatross", "side": "A"},
    {"id": "b1", "name": "Harrier", "side": "B"},
    {"id": "b2", "name": "Hive", "side": "B"},
]
NAMES = {"A": "Carrier group", "B": "Hunter group"}

# a shot at a fighter group exactly as the engine writes it (app/rules/fighters/fire_at.py):
# path "group", kills, and no "reroll_hits" (copied from a real game's fire_resolved)
SHOT_AT_GROUP = {
    "ship": "b1",
    "weapon": "beam-1",
    "target": "m-7977be46bede",
    "range": 9.154780172128659,
    "band": 1,
    "dice": "3BD*",
    "weapon_type": "beam",
    "path": "group",
    "drm": 0,
    "rolled": [4, 4, 6, 5],
    "rerolled": [False, False, False, True],
    "hits": 5,
    "kills": 5,
    "armour_damage": 0,
    "hull_damage": 0,
}


def _tell_all(seat: str, events: list[dict[str, Any]]) -> list[str]:
    return Teller(SHIPS, seat, NAMES).tell_all(events)


def test_a_volley_at_a_fighter_group_does_not_break_the_log() -> None:
    """Found: Harrier pinged, detected A's fighter group and fired four beams at it. From then
    on the log fragment — and the whole game page, for both seats and the referee — answers
    500: the log's words read ``s["reroll_hits"]`` of every shot, and a shot at a group (path
    ``group``, ``kills``) has no such key. The game cannot be played on in the browser. A fix
    must tell a shot at a group from the keys the engine writes (its hits and kills)."""
    volley = {
        "seq": 43,
        "turn": 2,
        "type": "fire_resolved",
        "data": {"window": 38, "shots": [SHOT_AT_GROUP], "rolls": [33, 34, 35, 36]},
    }
    for seat in ("A", "B", "referee"):
        [text] = _tell_all(seat, [volley])
        assert "5 kills" in text, (seat, text)


def test_an_interception_of_fighters_is_not_told_as_missiles_shot_down() -> None:
    """Found: B's drone group intercepted A's standard fighters (which had come to dogfight
    it). A's log says "5 fighters shot down", but B's says "Point defence: Your drone group …
    → m-9631c9ec4fae rolled 6,2,3,6,1,4,2,3: 5 missiles shot down" — B's log never saw the
    attacking group sighted, so it takes it for a salvo. A fix must tell the craft shot down by
    the kind the defence window's attack names (a ``dogfight`` or ``fighters`` attack is made
    by a group: fighters or drones, never missiles)."""
    window = {
        "seq": 28,
        "turn": 2,
        "type": "defence_window",
        "data": {
            "window": 28,
            "attacks": [
                {
                    "marker": "m-9631c9ec4fae",
                    "side": "A",
                    "kind": "dogfight",
                    "target": "m-ed6b32d99541",
                }
            ],
            "awaiting": ["B"],
        },
    }
    resolved = {
        "seq": 30,
        "turn": 2,
        "type": "defence_resolved",
        "data": {
            "window": 28,
            "defences": [
                {
                    "group": "m-ed6b32d99541",
                    "against": "m-9631c9ec4fae",
                    "side": "B",
                    "role": "intercept",
                    "dice": [
                        {"natural": n, "modified": n, "further": False}
                        for n in (6, 2, 3, 6, 1, 4, 2, 3)
                    ],
                    "kills": 5,
                    "destroyed": False,
                    "back": [
                        {"natural": n, "modified": n, "further": False} for n in (2, 2, 1, 3, 3, 4)
                    ],
                    "back_kills": 3,
                }
            ],
        },
    }
    told = _tell_all("B", [window, resolved])
    assert "missile" not in told[1], told[1]


def test_the_defence_form_gives_a_dogfights_interception_odds_in_fighters() -> None:
    """Found: in the defence window of A's dogfight on B's fast drones, B's form offers "Your
    drone group (fast drones) … intercepts: the dogfight m-9631c9ec4fae: 100% chance to destroy
    it", while the API's pairing says ``odds: 4.8`` — the expected fighters shot down. The form
    looks the attacker's kind up in the window's attacks (``dogfight``) instead of the marker's
    (``fighters``), and words unknown kinds as a one-missile chance capped at 100%. A fix must
    word a group's odds as craft shot down ("about 4.8 fighters shot down") whether the attack is
    an attack run or a dogfight."""
    assert "shot down" in odds_words("dogfight", 4.8), odds_words("dogfight", 4.8)


def test_close_groups_stack_their_labels() -> None:
    """Found: A's two groups launched side by side (and B's drones sighted next to them) are
    drawn with their labels ("attack fighters m-… ×6 · CEF 6 · Albatross") at the same height,
    over each other and over the ship labels: unreadable on both seats' maps. Ordnance markers
    already stack their labels (``label_y``); a fix must do the same for groups: groups within
    a few mu of each other get different label heights."""
    view = {
        "you": "A",
        "ships": [{"id": "a1", "name": "Albatross", "side": "A", "position": {"x": 6, "y": 20}}],
        "phase": {"legal": {"commands": []}},
        "markers": [
            {
                "id": f"m-{i}",
                "side": "A",
                "kind": "fighters",
                "type": "standard",
                "mother": "a1",
                "strength": 6,
                "cef": 6,
                "position": {"x": 41.0 + 0.5 * i, "y": 21.0 + i},
            }
            for i in range(2)
        ],
    }
    first, second = map_groups.groups(view, 48.0)
    assert first.get("label_y") is not None and second.get("label_y") is not None, first
    assert first["label_y"] != second["label_y"]


async def test_the_map_legend_explains_groups(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    """Found: with groups in flight, A's map shows "M" and box icons, small dashed blue circles
    and huge dashed green circles, but the legend under the map names ships and pings only —
    nothing says what a group icon, its 6 mu line of sight or its move reach is (only hover
    titles do, which a touch screen never shows). A fix must add the group entries (own group,
    enemy group, line of sight, reach) to the legend when groups can be on the map."""
    game, b = await carrier_duel(client, new_browser)
    page = await a_in_step_2(client, game, b)
    form = form_with(page, 'id="markers-form"')
    fields = [("launch@fb-1", "1"), ("launch_to_x@fb-1", "36"), ("launch_to_y@fb-1", "12")]
    await send(b["A"], game, form, fields)
    truth = await api_view(client, game, "admin")
    assert [m for m in truth["markers"] if m["kind"] == "fighters"], truth["markers"]
    page = (await b["A"].page(game.id)).text
    legend = page.split('aria-label="Map legend"', 1)[1].split("</ul>", 1)[0]
    assert "group" in legend.lower(), legend
