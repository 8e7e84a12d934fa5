"""Properties of ordnance (RULES §9; issue 12): secret loads stay secret in the roster.

The random-game properties with launches, markers and defences are in
``tests/rules/test_properties_ordnance.py``; this module holds the hand-made cases.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from app.rules import GameSetup, ShipEntry, game_started, redact, start_state, view
from app.rules.designs import Design, preset
from app.rules.events import Event
from app.rules.snapshot import state_from_dict, state_to_dict


def _reloaded(design: Design, magazine: tuple[tuple[str, int], ...], rack: str) -> Design:
    """The same hardware with other loads: the magazine's contents (same mass) and the heavy
    missile rack's type."""
    systems = []
    for s in design.systems:
        if s.type == "magazine":
            s = replace(s, loads=magazine)
        elif s.type == "heavy_missile_rack":
            s = replace(s, load=rack)
        systems.append(s)
    out = replace(design, systems=tuple(systems))
    assert not out.problems(), out.problems()
    return out


def _setup(second: Design) -> GameSetup:
    first = preset("missile_destroyer")
    return GameSetup(
        ships={
            "A": [ShipEntry("Lance", first), ShipEntry("Pike", second)],
            "B": [ShipEntry("Aegis", preset("pd_escort"))],
        }
    )


def _what_others_get(setup: GameSetup) -> dict[str, Any]:
    event = game_started("g", setup)
    state = start_state(event)
    out: dict[str, Any] = {}
    for seat in ("B", "spectator"):
        out[seat] = {"event": redact(event, seat, state), "view": view(state, seat)}
    return out


def test_two_enemy_ships_with_other_loads_look_like_two_with_the_same_loads() -> None:
    """The design keys of game_started (and of the view) must not tell B whether A's two ships
    of one hardware carry the same loads: a shared key would say so."""
    same = preset("missile_destroyer")
    other = _reloaded(
        same,
        (("standard", 2), ("long_lance", 3), ("needle", 1), ("ecm", 1), ("emp", 1)),
        "emp",
    )
    assert other != same and other.public() == same.public()
    a = _what_others_get(_setup(same))
    b = _what_others_get(_setup(other))
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_each_ship_keeps_its_own_loads_and_old_shared_keys_still_load() -> None:
    """The owner still gets each ship's own loads; a log whose game_started shares one design
    between two ships with secret loads (as games did before) starts as it did."""
    same = preset("missile_destroyer")
    other = _reloaded(
        same,
        (("standard", 2), ("long_lance", 3), ("needle", 1), ("ecm", 1), ("emp", 1)),
        "emp",
    )
    state = start_state(game_started("g", _setup(other)))
    a1, a2 = state.ship("a1"), state.ship("a2")
    assert state.design_of(a1) == same and state.design_of(a2).systems == other.systems
    assert a1.loads["mag-1"]["standard"] == 3 and a2.loads["mag-1"]["standard"] == 2
    assert a2.loads["hmr-1"] == {"emp": 1}
    own = {s["id"]: s for s in view(state, "A")["ships"]}
    mags = {
        sid: next(x for x in own[sid]["design"]["systems"] if x["id"] == "mag-1")
        for sid in ("a1", "a2")
    }
    assert mags["a1"]["loads"]["standard"] == 3 and mags["a2"]["loads"]["standard"] == 2
    # an old log: both ships name one stored design
    old = game_started("g", _setup(same))
    data = json.loads(json.dumps(old.data))
    data["designs"] = {k: d for k, d in data["designs"].items() if "~" not in k}
    for s in data["ships"]:
        if s["side"] == "A":
            s["design"] = "missile_destroyer"
    old_state = start_state(Event(old.seq, old.turn, old.type, data))
    assert {s.design_id for s in old_state.ships if s.side == "A"} == {"missile_destroyer"}
    assert state_from_dict(json.loads(json.dumps(state_to_dict(old_state)))) == old_state


# -- step 2 and the first ping (RULES §4): found by the random player ---------------------------
def test_after_step_2_the_first_ping_is_not_offered_but_the_ping_after_the_move_is() -> None:
    """Once a launcher ship's step 2 has run, its first ping is forfeit: legal must not list
    ``ping`` before the move (decide refuses it); after the move it may ping, as any ship."""
    from app.rules import fog
    from app.rules.errors import WrongStep
    from tests.rules.helpers import move, ping, play, setup_game

    for by_orders in (True, False):
        state = setup_game(("missile_frigate",), ("scout",), {"a1": (30, 10, 0, 0)})
        state, _ = play(state, "A", {"type": "activate", "ship": "a1"})
        if by_orders:
            state, _ = play(state, "A", {"type": "markers", "ship": "a1", "orders": []})
            assert "ping" not in fog.legal(state, "A")["commands"]
            with pytest.raises(WrongStep, match="forfeit"):
                play(state, "A", ping("a1"))
        state, events = play(state, "A", move("a1"))
        assert "ship_moved" in [e.type for e in events]
        assert "ping" in fog.legal(state, "A")["commands"]
        state, events = play(state, "A", ping("a1"), [1] * 30, all_dice=False)
        assert "ping" in [e.type for e in events]


def _carrier(group: str) -> Design:
    base = preset("pd_escort")
    bay = replace(base.systems[0], id="bay-1", type="fighter_bay", cls=None, arcs=(), load=group)
    design = replace(base, id="carrier", name="Carrier", mass=base.mass + 20)
    design = replace(design, systems=(*base.systems, bay))
    assert not design.problems(), design.problems()
    return design


def test_an_enemy_carrier_looks_the_same_whatever_its_bay_holds() -> None:
    """A bay's group type is a load (secret), and its fighters' points count in the design's:
    the other side's view must not show points that tell the group type apart."""
    setups = [
        GameSetup(
            ships={
                "A": [ShipEntry("Ark", _carrier(group))],
                "B": [ShipEntry("Aegis", preset("pd_escort"))],
            }
        )
        for group in ("standard", "heavy")
    ]
    light, heavy = (_what_others_get(s) for s in setups)
    assert json.dumps(light, sort_keys=True) == json.dumps(heavy, sort_keys=True)
