"""Submunition racks (compendium C2.1; docs/rules.md §7, §13): the row's numbers against the
compendium and the project's decisions, and the rack's one use per game.

The game states come from the golden scenario 044 cut at its steps: after the turn-1 volley
(every rack spent) and at the turn-2 fire window.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from app.rules import ScriptedDice, decide, view
from app.rules.designs import SystemSpec
from app.rules.errors import WeaponSpent
from app.rules.fire import awaited_sides
from app.rules.fire_options import fire_options
from app.rules.snapshot import state_from_dict, state_to_dict
from app.rules.state import GameState
from app.rules.systems import DAMAGE_PATHS, STANDARD, SYSTEMS, FireBand, profile
from tests.rules.golden_runner import GOLDEN_DIR, play

GOLDEN = GOLDEN_DIR / "044_submunition_racks.json"
DOCS = Path(__file__).resolve().parents[2] / "docs"


def _cut(steps: int) -> GameState:
    scenario: dict[str, Any] = json.loads(GOLDEN.read_text())
    scenario["steps"] = scenario["steps"][:steps]
    state, _ = play(scenario)
    return state


def _index(text: str) -> int:
    scenario = json.loads(GOLDEN.read_text())
    steps = [json.dumps(s["command"]) for s in scenario["steps"]]
    return next(i for i, s in enumerate(steps) if text in s)


@pytest.fixture(scope="module")
def after_volley() -> GameState:
    return _cut(_index('"window": 15') + 1)


@pytest.fixture(scope="module")
def second_window() -> GameState:
    return _cut(_index('"window": 41'))


# -- the row --------------------------------------------------------------------------------
def test_the_row_fires_as_c2_1_says() -> None:
    r = SYSTEMS["submunitions"]
    assert (r.section, r.family, r.is_weapon) == ("C2.1", "weapon", True)
    # maximum range 18 mu; 3BD* at 0-6, 2BD* at 6-12, 1BD* at 12-18
    assert profile("submunitions") == (
        FireBand(6.0, 3, True),
        FireBand(12.0, 2, True),
        FireBand(18.0, 1, True),
    )
    assert not r.screens  # screens do not affect its damage
    # armour first, reroll damage to the hull: the standard path says exactly that
    assert r.damage == STANDARD
    assert "armour first" in DAMAGE_PATHS[STANDARD] and "reroll" in DAMAGE_PATHS[STANDARD]
    assert r.once_per_game and not r.classes and not r.modes and not r.targets_system


def test_the_decided_mass_cost_and_arcs() -> None:
    r = SYSTEMS["submunitions"]
    # decisions (the compendium gives none): 1 mass, 3 points per mass, one arc
    assert (r.fixed_mass, r.cost_per_mass, r.max_arcs, r.weak_arcs) == (1, 3, 1, False)
    rack = SystemSpec("rack-1", "submunitions", arcs=("F",))
    assert (rack.mass(30), rack.points(30)) == (1, 3)
    assert len(r.decisions) == 3
    assert any("mass 1" in d for d in r.decisions)
    assert any("one arc" in d for d in r.decisions)
    assert any("once it has fired" in d for d in r.decisions)


def test_the_decisions_are_in_the_rules_and_systems_docs() -> None:
    rules = (DOCS / "rules.md").read_text()
    assert "**Decision (C2.1" in rules
    systems = (DOCS / "systems.md").read_text()
    line = next(s for s in systems.splitlines() if "(`submunitions`)" in s)
    assert "C2.1" in line and "*decision:* mass 1" in line.lower()


def test_a_rack_takes_one_arc_and_adds_its_mass_and_points() -> None:
    from tests.rules.test_designs import base  # the designer's plain test ship

    d = base()
    racked = replace(d, systems=(*d.systems, SystemSpec("r", "submunitions", arcs=("F", "FS"))))
    assert any("r" in p and "arc" in p for p in racked.problems())
    fine = replace(d, systems=(*d.systems, SystemSpec("r", "submunitions", arcs=("AP",))))
    assert fine.problems() == []
    assert fine.mass_used() == d.mass_used() + 1 and fine.points() == d.points() + 3


# -- once per game --------------------------------------------------------------------------
def test_a_fired_rack_is_spent_for_the_game(after_volley: GameState) -> None:
    a1 = after_volley.ship("a1")
    assert a1.spent == {"rack-1", "rack-2", "rack-3"}
    assert a1.fired == {"rack-1", "rack-2", "rack-3"}
    # the class-1 beam did not fire and is no rack: never spent
    assert "beam-1" not in a1.spent


def test_spent_outlives_the_turn_and_the_window_offers_no_rack(second_window: GameState) -> None:
    a1 = second_window.ship("a1")
    assert second_window.turn == 2 and a1.fired == frozenset()
    assert a1.spent == {"rack-1", "rack-2", "rack-3"}
    offered = {o["weapon"] for o in fire_options(second_window, "A")}
    assert offered == {"beam-1"}
    # the beam keeps A awaited; with it gone, nothing of A could fire: A is not awaited
    assert awaited_sides(second_window, "a1") == ("A",)
    beamless = replace(
        second_window,
        ships=tuple(
            replace(s, fired=s.fired | {"beam-1"}) if s.id == "a1" else s
            for s in second_window.ships
        ),
    )
    assert awaited_sides(beamless, "a1") == ()


def test_naming_a_spent_rack_is_refused_clearly(second_window: GameState) -> None:
    command = {
        "type": "fire",
        "window": second_window.phase.window,
        "shots": [{"ship": "a1", "weapon": "rack-2", "target": "b2"}],
    }
    with pytest.raises(WeaponSpent) as refused:
        decide(second_window, "A", command, ScriptedDice([]))
    assert refused.value.code == "weapon_spent"
    assert "rack-2 is spent" in str(refused.value) and "once per game" in str(refused.value)


def test_spent_is_public_in_every_view(after_volley: GameState) -> None:
    for seat in ("A", "B", "spectator", "referee"):
        a1 = next(s for s in view(after_volley, seat)["ships"] if s["id"] == "a1")
        spent = {s["id"] for s in a1["systems"] if s.get("spent")}
        assert spent == {"rack-1", "rack-2", "rack-3"}, seat
    own = next(s for s in view(after_volley, "A")["ships"] if s["id"] == "a1")
    racks = {w["id"]: w for w in own["weapons"]}
    assert racks["rack-1"]["spent"] and racks["rack-1"]["once_per_game"]
    assert "spent" not in racks["beam-1"] and "once_per_game" not in racks["beam-1"]


def test_snapshots_keep_spent_and_read_old_ones(after_volley: GameState) -> None:
    stored = json.loads(json.dumps(state_to_dict(after_volley)))
    assert state_from_dict(stored) == after_volley
    for ship in stored["ships"]:  # a snapshot written before racks existed
        del ship["spent"]
    old = state_from_dict(stored)
    assert all(s.spent == frozenset() for s in old.ships)
