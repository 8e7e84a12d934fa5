"""Fighter and drone bays (C4.3, C5.0–C5.2): the table's numbers by hand, the design rules, the
public copy and a game with a bay design (bays are inert until the engine launches groups)."""

from __future__ import annotations

import pytest

from app.rules.designs import Design, SystemSpec
from app.rules.ordnance.view import has_secret_loads
from app.rules.systems import (
    DRONE_GROUPS,
    DRONE_TYPES,
    FIGHTER_GROUPS,
    FIGHTER_TYPES,
    STEALTH_GRADES,
    SYSTEMS,
)
from tests.rules.helpers import beam, gunship, quiet_turn, setup_game

# name: (points per fighter, CEF, primary, secondary, anti-ship, PD, DRM), typed from C5.0
FIGHTERS = {
    "standard": (3, 6, 24, 12, "1BD*", "1BD*", 0),
    "heavy": (5, 6, 24, 12, "1BD*", "1BD*", -1),
    "fast": (4, 6, 36, 12, "1BD*", "1BD*", 0),
    "interceptor": (3, 6, 24, 12, None, "1BD+1*", 0),
    "attack": (4, 6, 24, 12, "1BD+1*", "1BD-2*", 0),
    "long_range": (4, 9, 24, 12, "1BD*", "1BD*", 0),
    "torpedo": (6, 6, 24, 12, None, "1BD-2*", 0),
    "multi": (7, 6, 24, 12, "1BD+1*", "1BD+1*", 0),
    "needle": (7, 6, 24, 12, None, "1BD-2*", 1),
    "pods": (6, 6, 24, 12, None, None, 0),
}
DRONES = {
    "standard": (3, 3, 24, 12, "1BD*", "1BD*", 1),
    "heavy": (5, 3, 24, 12, "1BD*", "1BD*", 0),
    "fast": (4, 3, 36, 12, "1BD*", "1BD*", 1),
    "interceptor": (3, 3, 24, 12, None, "1BD+1*", 1),
    "attack": (4, 3, 24, 12, "1BD+1*", "1BD-2*", 1),
    "long_range": (4, 6, 24, 12, "1BD*", "1BD*", 1),
    "torpedo": (6, 3, 24, 12, None, "1BD-2*", 1),
    "multi": (7, 3, 24, 12, "1BD+1*", "1BD+1*", 1),
    "needle": (7, 3, 24, 12, None, "1BD-2*", 2),
}


def _numbers(g: object) -> tuple[object, ...]:
    return tuple(
        getattr(g, f)
        for f in ("points", "cef", "primary_move", "secondary_move", "anti_ship", "pd", "drm")
    )


@pytest.mark.parametrize("name", list(FIGHTERS))
def test_every_fighter_row_by_hand(name: str) -> None:
    g = FIGHTER_TYPES[name]
    assert _numbers(g) == FIGHTERS[name]
    assert not g.drone and g.stealth == 0
    assert g.fast == (name == "fast")
    assert g.group_points == 6 * FIGHTERS[name][0]  # C5.0's group figure: 18, 30, 24, …


@pytest.mark.parametrize("name", list(DRONES))
def test_every_drone_row_by_hand(name: str) -> None:
    g = DRONE_TYPES[name]
    assert _numbers(g) == DRONES[name]
    assert g.drone and g.fast == (name == "fast")


def test_the_tables_hold_every_row_and_no_drone_pods() -> None:
    assert set(FIGHTER_TYPES) == set(FIGHTERS)
    assert set(DRONE_TYPES) == set(DRONES)
    assert FIGHTER_TYPES["torpedo"].group_points == 36 and FIGHTER_TYPES["multi"].group_points == 42


def test_stealth_rows_and_their_variants() -> None:
    assert (STEALTH_GRADES["stealth"].points, STEALTH_GRADES["stealth"].drm) == (2, -1)
    assert (STEALTH_GRADES["super_stealth"].points, STEALTH_GRADES["super_stealth"].drm) == (6, -2)
    s = FIGHTER_GROUPS["stealth_standard"]
    assert (s.points, s.drm, s.stealth, s.group_points) == (5, -1, 1, 30)  # 18 + 12 per group
    ss = FIGHTER_GROUPS["super_stealth_heavy"]
    assert (ss.points, ss.drm, ss.stealth, ss.cef) == (11, -3, 2, 6)
    # C5.0's drone rows: stealth drones no net DRM, super stealth −1
    assert DRONE_GROUPS["stealth_standard"].drm == 0
    assert DRONE_GROUPS["super_stealth_standard"].drm == -1
    assert DRONE_GROUPS["super_stealth_standard"].group_points == 18 + 36


def test_the_lost_notes_are_decided() -> None:
    for name in ("torpedo", "multi", "needle", "pods"):
        assert (FIGHTER_TYPES[name].note or "").startswith("decision")
    assert "pulse torpedo" in (FIGHTER_TYPES["torpedo"].note or "")
    assert "mode" in (FIGHTER_TYPES["multi"].note or "")
    assert "system" in (FIGHTER_TYPES["needle"].note or "")
    assert "boarding" in (FIGHTER_TYPES["pods"].note or "")


def test_the_bay_rows() -> None:
    fb, db = SYSTEMS["fighter_bay"], SYSTEMS["drone_bay"]
    assert (fb.family, db.family) == ("bay", "bay")
    assert fb.pending is None and db.pending is None  # bays launch (issue 13)
    assert not fb.is_launcher and not fb.is_weapon
    assert "pods" not in fb.holds and "stealth_pods" not in fb.holds
    assert "heavy" in fb.holds and "super_stealth_needle" in db.holds
    assert fb.fields == ("load",) == db.fields
    assert fb.decisions and db.decisions and fb.section and db.section


def _carrier(*systems: SystemSpec, mass: int = 60) -> Design:
    return gunship("carrier", mass=mass, hull=18, systems=systems)


@pytest.mark.parametrize(
    ("spec", "mass", "points"),
    [
        (SystemSpec("b", "fighter_bay", load="standard"), 9, 27 + 18),
        (SystemSpec("b", "fighter_bay", load="heavy"), 9, 27 + 30),
        (SystemSpec("b", "fighter_bay", load="stealth_fast"), 9, 27 + 36),
        (SystemSpec("b", "drone_bay", load="standard"), 6, 18 + 18),
        (SystemSpec("b", "drone_bay", load="needle"), 6, 18 + 42),
        (SystemSpec("b", "fighter_bay"), 9, 27),
    ],
)
def test_bay_mass_and_points_by_hand(spec: SystemSpec, mass: int, points: int) -> None:
    assert spec.mass(60) == mass
    assert spec.points(60) == points


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        (SystemSpec("b", "fighter_bay"), "fighter bay b holds no group"),
        (SystemSpec("b", "fighter_bay", load="zap"), "'zap' is not a group type"),
        (SystemSpec("b", "fighter_bay", load="pods"), "out of scope until boarding exists"),
        (SystemSpec("b", "fighter_bay", load="stealth_pods"), "boarding"),
        (SystemSpec("b", "drone_bay", load="pods"), "a fighter type"),
        (SystemSpec("b", "drone_bay"), "drone bay b holds no group"),
        (SystemSpec("b", "fighter_bay", load="salvo"), "not a group type"),
    ],
)
def test_bay_problems(spec: SystemSpec, fragment: str) -> None:
    problems = _carrier(spec).problems()
    assert any(fragment in p for p in problems), problems


def test_a_legal_carrier_and_its_public_copy() -> None:
    d = _carrier(
        SystemSpec("fc", "fire_control"),
        SystemSpec("bay-1", "fighter_bay", load="interceptor"),
        SystemSpec("bay-2", "drone_bay", load="attack"),
    )
    assert d.problems() == []
    assert has_secret_loads(d)
    public = d.public()
    assert [s.load for s in public.systems] == [None, None, None]
    assert [s.type for s in public.systems] == [s.type for s in d.systems]
    assert "interceptor" not in str(public.to_dict())
    assert "attack" not in str(public.to_dict())


def test_a_game_with_bay_designs_plays_a_turn() -> None:
    carrier = gunship(
        "carrier",
        mass=60,
        hull=18,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            beam("beam-1", 2),
            SystemSpec("bay-1", "fighter_bay", load="standard"),
            SystemSpec("bay-2", "drone_bay", load="heavy"),
        ),
    )
    assert carrier.problems() == []
    state = setup_game([carrier], [carrier])
    turn = state.turn
    state, _ = quiet_turn(state, [3, 4])  # the next turn's roll-off
    assert state.status == "active" and state.turn == turn + 1
    assert not state.markers  # a bay launches nothing yet
