"""Ordnance on the game page (issue 12; selected backend): a launcher in the fire window is a row
aimed at a point (a suggestion or the player's own), the launch goes through the web door with
its aim point and load, the owner's map draws the marker with its aim point and seeker circle,
and the other seat's page holds neither the aim point nor the marker's position or id."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx

from app.web import mapview
from app.web.words import Teller
from tests.web import (
    FRAGMENTS,
    Browser,
    Game,
    api_events,
    api_view,
    hidden_fields,
    pair_forms,
    svg_of,
)
from tests.web.test_weapon_forms import a_activates, duel, form_with, send

BrowserFactory = Callable[[], Browser]


def missile_destroyer() -> dict[str, Any]:
    """A destroyer refitted with a salvo rack, an SML on a mixed magazine and an AMT launcher
    (all fore), inline: no preset carries ordnance in every branch yet."""
    from app.rules.designs import PRESET_DESIGNS

    d = PRESET_DESIGNS["destroyer"].to_dict()
    d.update(id="missile_destroyer", name="Missile Destroyer", mass=70)
    d["systems"] = [s for s in d["systems"] if s["id"] not in ("beam-2", "beam-3")] + [
        {"id": "rack-1", "type": "salvo_rack", "arcs": ["F"], "load": "salvo"},
        {"id": "mag-1", "type": "magazine", "loads": {"salvo": 1, "er_salvo": 1}},
        {"id": "sml-1", "type": "salvo_launcher", "arcs": ["F"], "magazine": "mag-1"},
        {"id": "amt-1", "type": "amt_launcher", "arcs": ["F"]},
    ]
    return d


async def fire_window(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> tuple[Game, dict[str, Browser], str]:
    """Lance (A, the missile destroyer) at (30, 8) facing north, a scout 8 mu ahead; Lance pings:
    A's page in the fire window."""
    game, b = await duel(client, new_browser, missile_destroyer())  # type: ignore[arg-type]
    page = await a_activates(client, game, b)
    await send(b["A"], game, form_with(page, 'id="orders-form"'), [("type", "ping")])
    return game, b, (await b["A"].page(game.id)).text


AIM = (31.5, 17.5)  # a point of A's own: no ship, no suggestion shares it
TABLE_H = 24.0


async def launch(client: httpx.AsyncClient, game: Game, b: dict[str, Browser], page: str) -> None:
    """A launches rack-1 at its own point and sml-1's extended-range salvo at the suggested
    point on the scout; B holds."""
    await send(
        b["A"],
        game,
        form_with(page, 'id="fire-form"'),
        [
            ("type", "fire"),
            ("shot@a1|rack-1", "a1|rack-1|@"),
            ("aim_x@a1|rack-1", str(AIM[0])),
            ("aim_y@a1|rack-1", str(AIM[1])),
            ("shot@a1|sml-1", "a1|sml-1|@30.0,16.0"),
            ("load@a1|sml-1", "er_salvo"),
        ],
    )
    if "B" in (await api_view(client, game, "admin"))["phase"]["awaiting"]:
        page = (await b["B"].page(game.id)).text
        await send(
            b["B"], game, form_with(page, 'id="fire-form"'), [("type", "fire"), ("hold", "1")]
        )


def _row(page: str, key: str) -> str:
    row = re.search(
        rf'<fieldset class="[^"]*launch-choice" data-launch="{re.escape(key)}".*?</fieldset>',
        page,
        re.S,
    )
    assert row, page
    return row.group(0)


async def test_each_launcher_is_a_row_aimed_at_a_point(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game, b, page = await fire_window(client, new_browser)
    form = form_with(page, 'id="fire-form"')
    rack = _row(form, "a1|rack-1")
    assert "launches salvo; arcs F" in rack
    assert 'name="shot@a1|rack-1" value="" checked' in rack  # holds unless told
    # the suggestion: the scout's live position, one click
    assert 'value="a1|rack-1|@30.0,16.0"' in rack and "at Warden (30.0, 16.0), 8.0 mu away" in rack
    assert 'name="aim_x@a1|rack-1"' in rack and 'name="aim_y@a1|rack-1"' in rack
    assert 'name="load@a1|rack-1"' not in rack  # one load: nothing to choose
    assert "salvo: reaches 24 mu, 1 left" in rack
    # the SML's mixed magazine: a load select with each load's reach and count
    sml = _row(form, "a1|sml-1")
    options = re.findall(r'<option value="(\w+)" data-reach="([\d.]+)">', sml)
    assert options == [("salvo", "24.0"), ("er_salvo", "36.0")]
    amt = _row(form, "a1|amt-1")
    assert "launches antimatter torpedo" in amt
    # the direct-fire weapons keep their rows; the launchers are not offered as targets
    assert 'value="a1|beam-1|b1"' in form and "a1|rack-1|b1" not in form
    # the other side's page says nothing of A's launchers' choices
    other = (await b["B"].page(game.id)).text
    assert "launch-choice" not in other and "a1|rack-1" not in other


async def test_a_launch_goes_through_the_web_door_and_stays_secret(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game, b, page = await fire_window(client, new_browser)
    await launch(client, game, b, page)
    log = await api_events(client, game, "admin")
    declared = next(e for e in log if e["type"] == "fire_declared" and e["data"]["side"] == "A")
    assert declared["data"]["shots"] == [
        {"ship": "a1", "weapon": "rack-1", "aim": {"x": AIM[0], "y": AIM[1]}},
        {"ship": "a1", "weapon": "sml-1", "aim": {"x": 30.0, "y": 16.0}, "load": "er_salvo"},
    ]
    launched = [e["data"] for e in log if e["type"] == "ordnance_launched"]
    assert [(d["launcher"], d["kind"]) for d in launched] == [
        ("rack-1", "salvo"),
        ("sml-1", "er_salvo"),
    ]
    markers = [d["marker"] for d in launched]
    # the owner reads its launches in words, aim point included
    mine = (await b["A"].page(game.id)).text
    assert f"launched a salvo from rack-1 at ({AIM[0]:.1f}, {AIM[1]:.1f})" in mine
    assert "launched an extended-range salvo from sml-1 at (30.0, 16.0)" in mine
    # the other seat: that Lance launched, and what kind; no aim point, no marker id
    other = (await b["B"].page(game.id)).text
    assert "Lance launched a salvo." in other
    assert "Lance launched an extended-range salvo." in other
    for text in pair_forms(AIM[0], AIM[1], TABLE_H) + markers + ["31.5", "17.5"]:
        assert text not in other, text
    for name in FRAGMENTS:
        fragment = (await b["B"].fragment(game.id, name)).text
        for text in pair_forms(AIM[0], AIM[1], TABLE_H) + markers:
            assert text not in fragment, (name, text)


async def test_a_launch_the_rules_refuse_is_told_on_the_page(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game, b, page = await fire_window(client, new_browser)
    base = [("type", "fire"), ("shot@a1|rack-1", "a1|rack-1|@")]
    form = form_with(page, 'id="fire-form"')
    fields = {k: v for k, v in hidden_fields(form, None).items()}
    # behind the ship: out of its fore arc
    r = await b["A"].form(
        f"/games/{game.id}/act",
        [*fields.items(), *base, ("aim_x@a1|rack-1", "30"), ("aim_y@a1|rack-1", "2")],
    )
    assert r.status_code == 422 and "arc" in r.text, r.text
    # no point at all: the page's own words, nothing sent
    r = await b["A"].form(f"/games/{game.id}/act", [*fields.items(), *base])
    assert r.status_code == 422 and "give rack-1 an aim point" in r.text, r.text
    assert not [e for e in await api_events(client, game, "admin") if e["type"] == "fire_declared"]


async def test_own_markers_on_the_map_and_loads_on_the_sheet_for_the_owner_only(
    client: httpx.AsyncClient, new_browser: BrowserFactory
) -> None:
    game, b, page = await fire_window(client, new_browser)
    await launch(client, game, b, page)
    markers = {m["kind"]: m["id"] for m in (await api_view(client, game, "A"))["markers"]}
    assert set(markers) == {"salvo", "er_salvo"}
    own = (await b["A"].fragment(game.id, "map")).text
    sx, sy = svg_of(AIM[0], AIM[1], TABLE_H)
    salvo = re.search(
        rf'<g class="ordnance ord-salvo own side-A" data-marker="{markers["salvo"]}">'
        r".*?</g>\s*</g>",
        own,
        re.S,
    )
    assert salvo, own
    drawn = salvo.group(0)
    assert f"aimed at ({AIM[0]:.1f}, {AIM[1]:.1f})" in drawn and "from Lance" in drawn
    assert f'<circle class="seeker" cx="{sx}" cy="{sy}" r="6.0">' in drawn  # 6 mu, cinematic
    assert f'transform="translate({sx},{sy})"' in drawn
    # the record sheet: what is left in the magazine and the spent rack
    sheets = (await b["A"].fragment(game.id, "sheets")).text
    assert "mag-1 <small>(missile magazine)</small>: extended-range salvo × 0, salvo × 1" in sheets
    assert "salvo missile rack <small>rack-1</small> — spent" in sheets
    # the other seat: no marker (none is live), no aim point, no loads; the rack spent (public)
    other_map = (await b["B"].fragment(game.id, "map")).text
    other_sheets = (await b["B"].fragment(game.id, "sheets")).text
    assert "ordnance ord-" not in other_map
    for text in [*markers.values(), *pair_forms(AIM[0], AIM[1], TABLE_H), f"{sx},{sy}"]:
        assert text not in other_map and text not in other_sheets, text
    assert 'class="magazines"' not in other_sheets and "× 1" not in other_sheets
    assert "spent: rack-1" in other_sheets
    # the referee sees every marker with its aim point
    drawn_for_referee = mapview.ordnance(await api_view(client, game, "admin"), TABLE_H)
    assert {(o["id"], o["aim"]["x"], o["aim"]["y"]) for o in drawn_for_referee} == {
        (markers["salvo"], sx, sy),
        (markers["er_salvo"], *svg_of(30.0, 16.0, TABLE_H)),
    }


def test_an_enemy_marker_is_drawn_with_its_public_fields_only() -> None:
    """A live enemy marker in a player's view has no mother, aim or endurance: the map draws
    its kind and position, no seeker circle, no aim cross, no reach."""
    view = {
        "you": "B",
        "movement": "cinematic",
        "ships": [{"id": "a1", "name": "Lance", "side": "A"}],
        "phase": {"legal": {"commands": []}},
        "markers": [
            {
                "id": "m-1",
                "side": "A",
                "kind": "salvo",
                "position": {"x": 31, "y": 17},
                "strength": 6,
                "live": True,
            },
        ],
    }
    (drawn,) = mapview.ordnance(view, TABLE_H)
    assert drawn["role"] == "enemy" and (drawn["x"], drawn["y"]) == (31, 7)
    assert drawn["aim"] is None and drawn["mother"] is None and not drawn["seeker"]
    assert drawn["reach"] is None and drawn["endurance"] is None


def test_the_ordnance_events_in_words() -> None:
    ships = [
        {"id": "a1", "name": "Lance", "side": "A"},
        {"id": "b1", "name": "Vigilant", "side": "B"},
    ]
    names = {"A": "Raiders", "B": "Wardens"}
    a, b = Teller(ships, "A", names), Teller(ships, "B", names)

    def tell(teller: Teller, kind: str, data: dict[str, Any], redacted: bool = False) -> str:
        event = {"seq": 1, "turn": 2, "type": kind, "data": data}
        return teller.tell({**event, "redacted": True} if redacted else event)

    attack = {
        "marker": "m-1",
        "ship": "a1",
        "target": "b1",
        "missiles_die": 5,
        "kills": 2,
        "missiles": 3,
        "rolled": [4, 4, 3],
        "armour_damage": 6,
        "hull_damage": 5,
        "rolls": [],
    }
    assert tell(a, "salvo_attack", attack).startswith(
        "Your salvo on Vigilant: 5 missiles on target, 2 shot down, 3 hit (rolled 4,4,3)"
    )
    # more kills than missiles on target: told as all of them shot down, never more
    overkill = {**attack, "kills": 7, "missiles": 0, "rolled": [], "armour_damage": 0}
    assert tell(a, "salvo_attack", {**overkill, "hull_damage": 0}) == (
        "Your salvo on Vigilant: 5 missiles on target, 5 shot down, 0 hit (rolled –): 0 damage."
    )
    assert tell(b, "salvo_attack", attack).endswith(": 11 damage (6 armour, 5 hull).")
    assert tell(a, "salvo_wasted", {"marker": "m-1", "ship": "a1"}) == "Your salvo found nothing."
    assert tell(b, "salvo_wasted", {"marker": "m-1", "ship": "a1"}) == (
        "Lance's salvo found nothing."
    )
    assert tell(b, "ordnance_acted", {"ship": "a1"}, redacted=True) == (
        "Lance's ordnance acted in secret."
    )
    acted = {
        "ship": "a1",
        "standing": True,
        "markers": [
            {
                "marker": "m-2",
                "kind": "heavy_missile",
                "from": {"x": 1, "y": 2},
                "to": {"x": 10, "y": 2},
                "result": "moved",
                "endurance": 2,
            },
        ],
    }
    assert "heavy missile m-2 flew from (1.0, 2.0) to (10.0, 2.0), endurance 2 left" in tell(
        a, "ordnance_acted", acted
    )
    amt = {
        "marker": "m-3",
        "ship": "a1",
        "point": {"x": 30, "y": 16},
        "blasts": [{"ship": "b1", "dice": 3, "rolled": [6, 5, 1], "damage": 12}],
    }
    assert tell(b, "amt_detonated", amt) == (
        "Lance's antimatter torpedo detonated at (30.0, 16.0): your Vigilant 3D6 rolled 6,5,1 "
        "→ 12 damage."
    )
    hm = {
        "marker": "m-4",
        "ship": "a1",
        "target": "b1",
        "missile": "standard",
        "rolled": [3, 4],
        "armour_damage": 4,
        "hull_damage": 3,
    }
    assert tell(a, "heavy_missile_attack", hm) == (
        "Your standard heavy missile hit Vigilant: rolled 3,4 → 7 damage (4 armour, 3 hull)."
    )
    window = {
        "window": 9,
        "awaiting": ["B"],
        "attacks": [{"marker": "m-1", "side": "A", "kind": "salvo", "target": "b1"}],
    }
    assert tell(b, "defence_window", window) == (
        "Defence window 9: Raiders' salvo m-1 → your Vigilant. Waiting for you to allocate "
        "point defence."
    )
    declared = {"side": "B", "window": 9, "auto": True}
    assert "allocated point defence (standing orders" in tell(a, "defence_declared", declared, True)
    assert tell(a, "standing_orders", {"side": "B", "auto_defend": True}) == (
        "Wardens set automatic defence on."
    )
