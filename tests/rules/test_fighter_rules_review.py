"""Review of the fighter and drone rules (issue 13) against the seeds, RULES.md §9, the recorded
decisions F1–F13 and docs/rules.md §9.8. Each test here failed when it was written: it names the
rule it holds the engine to, in its docstring. Through ``decide`` (``play``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.rules.designs import SystemSpec
from app.rules.events import Event
from app.rules.fighters.fold import engage
from app.rules.geometry import Vec
from app.rules.state import GameState, MarkerState
from tests.rules.fighter_setup import carrier_game, group, launched_last_turn, with_marker
from tests.rules.helpers import (
    activate,
    at,
    beam,
    end,
    gunship,
    live,
    move,
    only,
    play,
    setup_game,
    types,
    with_ship,
)


def _acted_items(events: list[Event]) -> list[dict[str, Any]]:
    return [item for e in events if e.type == "ordnance_acted" for item in e.data["markers"]]


def test_an_out_of_control_mother_s_engaged_group_does_not_attack() -> None:
    """RULES §9.3 (last paragraph) and docs/rules.md §9.8 "Moving, landing and going home": if
    the mother ship is out of control its groups hold — nothing launches, lands or attacks.
    The engine's standing orders still send the engaged group's attack run into a window."""
    state = launched_last_turn(carrier_game())
    g = group(state).id
    state = engage(at(state, "b1", 30.0, 30.0), g, "b1")
    state = with_ship(state, "a1", out_of_control=2)
    state, events = play(state, "A", activate("a1"))
    attacks = [
        a
        for e in events
        if e.type in ("defence_window", "fighters_attack")
        for a in e.data.get("attacks", [e.data])
    ]
    assert attacks == [], attacks
    assert "fighters_attack" not in types(events)


def test_an_out_of_control_mother_s_exhausted_group_does_not_land() -> None:
    """RULES §9.3: an out-of-control mother's groups hold, nothing lands (docs/rules.md §9.8
    says the same). Decision F4's "exhausted groups go home" still flies a 0-CEF group home and
    lands it in the mother's bay while the mother is out of control."""
    state = launched_last_turn(carrier_game(), to=(30.0, 14.0))
    g = group(state).id
    state = with_marker(state, g, cef=0)
    state = with_ship(state, "a1", out_of_control=2)
    state, events = play(state, "A", activate("a1"))
    results = {item["marker"]: item["result"] for item in _acted_items(events)}
    assert results.get(g) != "landed", results
    assert any(m.id == g for m in state.markers), "the group is still in flight"
    assert "bay-1" not in state.ship("a1").bays


def _live_group(strength: int = 6, kind: str = "standard") -> MarkerState:
    at_ = Vec(10.0, 10.0)
    return MarkerState(
        id="g-b",
        side="B",
        mother="b1",
        kind="fighters",
        position=at_,
        aim=at_,
        launched_turn=1,
        launched_seq=5,
        strength=strength,
        group=kind,
        bay="bay-1",
        cef=6,
        live=True,
    )


@pytest.mark.parametrize(
    ("weapon", "kind", "dice", "kills"),
    [
        # a pulse torpedo at 6 mu hits on 2+: its own number, with the group's DRM on the die
        (SystemSpec("w-1", "pulse_torpedo", arcs=("F",)), "standard", [2], 1),
        (SystemSpec("w-1", "pulse_torpedo", arcs=("F",)), "standard", [1], 0),
        (SystemSpec("w-1", "pulse_torpedo", arcs=("F",)), "heavy", [2], 0),  # DRM -1: 1
        (SystemSpec("w-1", "pulse_torpedo", arcs=("F",)), "heavy", [3], 1),
        # beam dice in the screen-0 column: 4 and 5 one hit, a 6 two and a further die
        (beam("w-1", 1), "standard", [4], 1),
        (beam("w-1", 1), "heavy", [4], 0),  # DRM -1: 3
        (beam("w-1", 1), "standard", [6, 1], 2),
        (beam("w-1", 1), "standard", [6, 5], 3),
        (beam("w-1", 1), "needle", [3], 1),  # DRM +1: 4
        # a needle die hits on 5+
        (SystemSpec("w-1", "needle", arcs=("F",)), "standard", [4], 0),
        (SystemSpec("w-1", "needle", arcs=("F",)), "standard", [5], 1),
        (SystemSpec("w-1", "needle", arcs=("F",)), "needle", [4], 1),  # DRM +1: 5
    ],
)
def test_ship_fire_at_a_group_uses_the_weapons_own_to_hit_with_the_drm(
    weapon: SystemSpec, kind: str, dice: list[int], kills: int
) -> None:
    """Decision F12 (docs/rules.md §9.8 "Fire at groups", C1.iv): a weapon fired at a group
    rolls only its own to-hit dice, each modified by the group's DRM — beam dice read in the
    screen-0 column (a 6 is two hits and a further die), a single-die weapon against its own
    to-hit number, a needle die on 5+ — and each hit kills one fighter. Not "4+ after the DRM":
    a pulse torpedo's 2 kills, a beam's 6 kills two. Every scripted die must be used."""
    firer = gunship("firer", systems=(SystemSpec("fc-1", "fire_control"), weapon))
    b_ship = gunship("b_ship", systems=(SystemSpec("fc-1", "fire_control"),))  # no guns
    state = setup_game((firer,), (b_ship,), {"a1": (10.0, 4.0, 0, 0), "b1": (36.0, 40.0, 6, 0)})
    state = replace(state, markers=(_live_group(kind=kind),))
    state, _ = play(state, "A", {"type": "ping", "ship": "a1"}, [6] * 10, all_dice=False)
    assert state.phase.step == "fire" and state.phase.awaiting == ("A",), state.phase
    shot = {"ship": "a1", "weapon": "w-1", "target": "g-b"}
    cmd = {"type": "fire", "window": state.phase.window, "shots": [shot]}
    state, events = play(state, "A", cmd, dice)
    resolved = only(events, "fire_resolved").data["shots"][0]
    assert (resolved["target"], resolved["kills"]) == ("g-b", kills), resolved
    assert resolved["armour_damage"] == resolved["hull_damage"] == 0, resolved
    strength = {m.id: m.strength for m in state.markers}.get("g-b", 0)
    assert strength == 6 - kills, state.markers
    hit = [g for e in events if e.type == "groups_hit" for g in e.data["groups"]]
    assert hit == ([{"marker": "g-b", "killed": kills, "strength": 6 - kills}] if kills else [])


def _defend_nothing(state: GameState) -> tuple[GameState, list[Event]]:
    window = state.phase.defence
    assert window is not None, state.phase
    cmd = {"type": "defend", "window": window.window, "allocations": []}
    return play(state, "B", cmd, [1] * 20, all_dice=False)


def test_a_torpedo_group_fires_its_pulse_torpedo_once_per_sortie() -> None:
    """RULES §9.5 (the lost C5.0 notes) and the C5.0 row's recorded decision (bay_rows
    ``_TORPEDO``): torpedo fighters fire a pulse torpedo once per group per sortie. The engine
    rolls a fresh pulse torpedo at every attack run: an engaged torpedo group attacking its ship
    again at its mother's next activation fires a second torpedo without having landed
    (docs/rules.md §9.8 says "per attack", against RULES)."""
    state = launched_last_turn(carrier_game(fighters="torpedo"))
    g = group(state).id
    state = engage(live(at(state, "b1", 30.0, 30.0), "b1"), g, "b1")
    state, _ = play(state, "A", move("a1"), [1] * 20, all_dice=False)  # standing: it attacks
    state, events = _defend_nothing(state)
    first = only(events, "fighters_attack").data
    assert first["run"] == "torpedo"  # the sortie's one torpedo
    state, _ = play(state, "A", end("a1"))
    state, _ = play(state, "B", move("b1"))
    state, _ = play(state, "B", end("b1"), [6, 1])
    assert state.turn == 3 and state.marker(g).engaged_with == "b1"
    state, events = play(state, "A", move("a1"), [1] * 20, all_dice=False)
    if state.phase.defence is not None:  # fixed: it has no attack left, so no window opens
        state, more = _defend_nothing(state)
        events = [*events, *more]
    runs = [e.data for e in events if e.type == "fighters_attack"]
    assert all(r["run"] != "torpedo" for r in runs), runs
