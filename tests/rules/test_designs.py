"""Ship designs: mass and points rules, validation messages, JSON, presets (RULES §13)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from app.rules.designs import (
    PRESET_DESIGNS,
    SYSTEM_TYPES,
    Design,
    SystemSpec,
    beam_mass,
    design_summary,
    hull_bounds,
    hull_points,
    preset,
    screen_mass,
    validate_design,
)
from app.rules.errors import DesignError
from app.rules.geometry import ARCS, BROADSIDE_ARCS
from app.rules.systems import SYSTEMS, WEAPON_TYPES

FC = SystemSpec("fc-1", "fire_control")


def beam(sid: str, cls: int, *arcs: str) -> SystemSpec:
    return SystemSpec(sid, "beam", cls=cls, arcs=tuple(arcs))


def base(**changes: Any) -> Design:
    """A small legal design: mass 40, thrust 4 (drive 8), hull 8, one fire control."""
    d = Design(
        id="test",
        name="Test",
        hull_class="frigate",
        mass=40,
        thrust=4,
        hull=8,
        systems=(FC, beam("beam-1", 2, "FP", "F", "FS")),
    )
    return replace(d, **changes)


def only_problem(d: Design) -> str:
    problems = d.problems()
    assert len(problems) == 1, problems
    return problems[0]


# -- the presets, computed by hand -----------------------------------------------------------
# mass_used = drive + hull + armour + systems;  points = TMF + hull×row factor + 2×armour
#             + 2×drive + system points.  drive = round-half-up(thrust × 5% × TMF).
PRESET_EXPECTED = {
    # scout, TMF 16, thrust 8: drive 16×8×5% = 6.4 → 6.
    #   mass   6 drive + 6 hull + fc 1 + 2 class-1 beams 1+1 + enhanced sensors 1 = 16
    #   points 16 + hull 6×2=12 + drive 6×2=12 + fc 4 + beams 2×3=6 + sensors 15 = 65
    "scout": (16, 16, 65),
    # frigate, TMF 30, thrust 6: drive 30×6×5% = 9.
    #   mass   9 + hull 10 + armour 2 + fc 1 + class-2 (FP,F,FS) 2 + 2 + class-1 1 + pds 1
    #          + ecm 2 = 30
    #   points 30 + hull 20 + armour 4 + drive 18 + fc 4 + beams (2+2+1)×3=15 + pds 3 + ecm 20
    #          = 114
    "frigate": (30, 30, 114),
    # destroyer, TMF 50, thrust 6: drive 50×6×5% = 15; screen-1 5% of 50 = 2.5 → 3 (min 3).
    #   mass   15 + hull 14 + armour 3 + fc 2×1 + class-3 (3 arcs) 4+2=6 + class-2 2 + class-2 2
    #          + class-1 1 + screen 3 + pds 2×1 = 50
    #   points 50 + hull 28 + armour 6 + drive 30 + fc 8 + beams (6+2+2+1)×3=33 + screen 9
    #          + pds 6 = 170
    "destroyer": (50, 50, 170),
    # light cruiser, TMF 70, thrust 5: drive 70×5×5% = 17.5 → 18; screen-1 3.5 → 4.
    #   mass   18 + hull 20 + armour 5 + fc 3 + class-3 6 + EMP class-2 (3 adjacent) 2
    #          + heavy beam class-2 1.5×2=3 + class-2 2 + class-1 1 + 1 + screen 4 + pds 2
    #          + area ECM 3 = 70
    #   points 70 + hull 40 + armour 10 + drive 36 + fc 12 + weapons (6+2+3+2+1+1)×3=45
    #          + screen 12 + pds 6 + area ECM 30 = 261
    "light_cruiser": (70, 70, 261),
    # heavy cruiser, TMF 100, thrust 4, 5 hull rows: drive 100×4×5% = 20; screen-2 10% = 10.
    #   mass   20 + hull 27 + armour 6 + fc 3 + class-4 (F) 8 + 2 weak arcs 2 + meson 6
    #          + class-3 6 + class-2 2 + class-1 1 + 1 + screen 10 + pds 3 + sensors 1 + ecm 2
    #          + command bridge 2 = 100
    #   points 100 + hull 27×1.5=40.5 → 41 + armour 12 + drive 40 + fc 12
    #          + weapons (10+6+6+2+1+1)×3=78 + screen 30 + pds 9 + sensors 15 + ecm 20
    #          + command bridge 10 = 367
    "heavy_cruiser": (100, 100, 367),
    # hunter, TMF 60, thrust 6, 3 hull rows, broadside: drive 60×6×5% = 18; screen-1 3.
    #   mass   18 + hull 15 + armour 2 + fc 2 + class-3 (2 arcs) 5 + 5 + class-2 (3 adjacent) 2
    #          + 2 + class-1 1 + superior sensors 2 + screen 3 + pds 1 + ecm 2 = 60
    #   points 60 + hull 15×3=45 + armour 4 + drive 36 + fc 8 + beams (5+5+2+2+1)×3=45
    #          + sensors 30 + screen 9 + pds 3 + ecm 20 = 260
    "hunter": (60, 60, 260),
    # torpedo boat, TMF 50, thrust 6: drive 15.
    #   mass   15 + hull 12 + fc 2 + pulse torpedo 4 + class-2 pulse torpedo 8 + long-range 6
    #          + short-range 3 = 50
    #   points 50 + hull 24 + drive 30 + fc 8 + torpedoes (4+8+6+3)×3=63 = 175
    "torpedo_boat": (50, 50, 175),
    # needle raider, TMF 40, thrust 8: drive 40×8×5% = 16.
    #   mass   16 + hull 10 + fc 2 + needle 2 + multi-arc needle (3 arcs) 2+2=4
    #          + heavy needle 3 + class-1 1 + ecm 2 = 40
    #   points 40 + hull 20 + drive 32 + fc 8 + weapons (2+4+3+1)×3=30 + ecm 20 = 150
    "needle_raider": (40, 40, 150),
    # stealth hunter, TMF 60, thrust 6, stealth 2: drive 18; screen-1 3.
    #   mass   18 + hull 15 + fc 2 + superior sensors 2 + fusion flare 4 + fusion torpedo 4
    #          + class-3 6 + class-2 2 + class-1 1 + screen 3 + pds 1 + ecm 2 = 60
    #   points 60 + hull 30 + drive 36 + fc 8 + sensors 30 + weapons (4+4+6+2+1)×3=51
    #          + screen 9 + pds 3 + ecm 20 + stealth 2×2×(15 hull + 0 armour)=60 = 307
    "stealth_hunter": (60, 60, 307),
    # ECM picket, TMF 40, thrust 6: drive 12.
    #   mass   12 + hull 10 + armour 2 + fc 1 + area ECM 3 + enhanced sensors 1 + ADFC 2
    #          + pds 3 + gatlings (3 adjacent arcs) 3 + 3 = 40
    #   points 40 + hull 20 + armour 4 + drive 24 + fc 4 + area ECM 30 + sensors 15 + ADFC 8
    #          + pds 9 + gatlings (3+3)×2=12 = 166
    "ecm_picket": (40, 40, 166),
    # graser cruiser, TMF 90, thrust 4, 5 hull rows: drive 18; screen-1 4.5 → 5; FTL 9.
    #   mass   18 + hull 24 + armour 6 + fc 3 + class-2 graser (1 arc) 9 + class-1 graser
    #          (3 arcs) 3 + multi-fusion 5 + class-2 2 + class-1 1 + screen 5 + pds 3 + ecm 2
    #          + FTL 9 = 90
    #   points 90 + hull 24×1.5=36 + armour 12 + drive 36 + fc 12 + weapons (9+3+5+2+1)×3=60
    #          + screen 15 + pds 9 + ecm 20 + FTL 18 = 308
    "graser_cruiser": (90, 90, 308),
    # strike frigate, TMF 30, thrust 6: drive 9.
    #   mass   9 + hull 10 + armour 2 + fc 2 + submunition racks 3 × 1 + class-2 (3 adjacent
    #          arcs) 2 + class-1 1 + pds 1 = 30
    #   points 30 + hull 20 + armour 4 + drive 18 + fc 8 + weapons (3+2+1)×3=18 + pds 3 = 101
    "strike_frigate": (30, 30, 101),
    # ordnance (issue 12; docs/designs.md). missile frigate, TMF 30, thrust 6: drive 9.
    #   mass   9 + hull 9 + fc 2 + salvo racks 4 + 5 (ER) + class-1 1 = 30
    #   points 30 + hull 18 + drive 18 + fc 8 + racks 12 + 15 + beam 3 = 104
    "missile_frigate": (30, 30, 104),
    # missile cruiser, TMF 80, thrust 4: drive 16.
    #   mass   16 + 20 + armour 4 + fc 3 + 3 SMLs 9 + magazine (4×2 + 2×3 + 2×1) 16
    #          + beams 2 + 1 + 1 + pds 2 + screen-1 4 + ecm 2 = 80
    #   points 80 + 40 + 8 + 32 + 12 + 27 + 48 + beams 12 + 6 + 12 + 20 = 297
    "missile_cruiser": (80, 80, 297),
    # heavy-missile destroyer, TMF 50, thrust 6: drive 15.
    #   mass   15 + 14 + 2 + fc 2 + 2 MTMLs 4 + magazine 8 heavy missiles 8 + MTMR 2 + beam 1
    #          + pds 2 = 50
    #   points 50 + 28 + 4 + 30 + 8 + 12 + 24 + 6 + 3 + 6 = 171
    "missile_destroyer": (50, 50, 171),
    # AMT boat, TMF 40, thrust 6: drive 12.
    #   mass   12 + 10 + 2 + fc 2 + 2 AMT launchers 8 + beams 2 + 1 + pds 1 + ecm 2 = 40
    #   points 40 + 20 + 4 + 24 + 8 + 24 + 9 + 3 + 20 = 152
    "amt_boat": (40, 40, 152),
    # point-defence escort, TMF 40, thrust 6: drive 12.
    #   mass   12 + 10 + 3 + fc 2 + 4 pds + adfc 2 + beams 2 + 1 + 1 + screen-1 3 = 40
    #   points 40 + 20 + 6 + 24 + 8 + 12 + 8 + 12 + 9 = 139
    "pd_escort": (40, 40, 139),
    # fighters and drones (issue 13; docs/designs.md). light carrier, TMF 60, thrust 4: drive 12.
    #   mass   12 + hull 15 + armour 2 + fc 2 + 2 fighter bays 18 + beams 2 + 1 + 1 + pds 2
    #          + screen-1 3 + ecm 2 = 60
    #   points 60 + hull 30 + armour 4 + drive 24 + fc 8 + bays (27 + 6×3) + (27 + 6×4) = 96
    #          + beams 12 + pds 6 + screen 9 + ecm 20 = 269
    "light_carrier": (60, 60, 269),
    # drone tender, TMF 50, thrust 6: drive 15.
    #   mass   15 + hull 12 + fc 1 + 3 drone bays 18 + beams 2 + 1 + pds 1 = 50
    #   points 50 + hull 24 + drive 30 + fc 4 + bays (18 + 18) + (18 + 24) + (18 + 24) = 120
    #          + beams 9 + pds 3 = 240
    "drone_tender": (50, 50, 240),
    # escort carrier, TMF 60, thrust 5: drive 15.
    #   mass   15 + hull 14 + armour 2 + fc 2 + 2 fighter bays 18 + pds 2 + adfc 2 + beams 1 + 1
    #          + screen-1 3 = 60
    #   points 60 + hull 28 + armour 4 + drive 30 + fc 8 + bays 2 × (27 + 6×3) = 90 + pds 6
    #          + adfc 8 + beams 6 + screen 9 = 249
    "escort_carrier": (60, 60, 249),
}


def test_preset_ids_match_keys_and_expectations() -> None:
    assert set(PRESET_DESIGNS) == set(PRESET_EXPECTED)
    for key, d in PRESET_DESIGNS.items():
        assert d.id == key


@pytest.mark.parametrize("design_id", sorted(PRESET_EXPECTED))
def test_preset_mass_and_points_by_hand(design_id: str) -> None:
    d = preset(design_id)
    mass, used, points = PRESET_EXPECTED[design_id]
    assert d.mass == mass
    assert d.mass_used() == used
    assert d.points() == points


@pytest.mark.parametrize("design_id", sorted(PRESET_EXPECTED))
def test_preset_is_legal_and_sensible(design_id: str) -> None:
    d = preset(design_id)
    assert d.problems() == []
    validate_design(d)
    assert d.mass_used() <= d.mass
    assert d.mass - d.mass_used() <= 2
    assert any(s.type == "fire_control" for s in d.systems)
    assert d.weapons()


@pytest.mark.parametrize("design_id", sorted(PRESET_EXPECTED))
def test_preset_json_round_trip(design_id: str) -> None:
    d = preset(design_id)
    assert Design.from_dict(d.to_dict()) == d
    assert Design.from_dict(json.loads(json.dumps(d.to_dict()))) == d


def test_presets_carry_what_the_brief_asks() -> None:
    def types(d: Design) -> list[str]:
        return [s.type for s in d.systems]

    scout = preset("scout")
    assert 6 <= scout.thrust <= 8
    assert any(s.grade == "enhanced" for s in scout.systems)
    assert {s.cls for s in scout.weapons()} == {1}
    frigate = preset("frigate")
    assert 2 in {s.cls for s in frigate.weapons()} and "ecm" in types(frigate)
    destroyer = preset("destroyer")
    assert {s.level for s in destroyer.systems if s.type == "screen"} == {1}
    assert "pds" in types(destroyer)
    light = preset("light_cruiser")
    assert types(light).count("fire_control") == 3 and "area_ecm" in types(light)
    assert {"emp", "heavy_beam"} <= set(types(light))
    assert light.armour > 0 and 3 in {s.cls for s in light.weapons()}
    heavy = preset("heavy_cruiser")
    assert types(heavy).count("fire_control") == 3
    assert {s.level for s in heavy.systems if s.type == "screen"} == {2}
    assert 4 in {s.cls for s in heavy.weapons()} and "pds" in types(heavy)
    assert any(s.grade == "enhanced" for s in heavy.systems) and heavy.armour > 0
    assert "meson" in types(heavy) and "command_bridge" in types(heavy)
    assert any(s.weak_arcs for s in heavy.weapons())
    hunter = preset("hunter")
    assert hunter.broadside and any(s.grade == "superior" for s in hunter.systems)
    stealthy = preset("stealth_hunter")
    assert stealthy.stealth == 2 and any(s.grade == "superior" for s in stealthy.systems)
    assert "area_ecm" in types(preset("ecm_picket"))
    assert "graser" in types(preset("graser_cruiser"))
    assert {"needle", "multi_needle", "heavy_needle"} <= set(types(preset("needle_raider")))


def test_presets_cover_every_weapon_of_the_systems_table() -> None:
    # issue 6: GET /api/v1/designs lists presets whose systems cover every weapon family
    fitted = {s.type for d in PRESET_DESIGNS.values() for s in d.systems}
    assert fitted >= WEAPON_TYPES
    assert any(s.weak_arcs for d in PRESET_DESIGNS.values() for s in d.systems)
    assert {"flare", "torpedo"} >= {
        s.fire_mode()
        for d in PRESET_DESIGNS.values()
        for s in d.systems
        if s.type == "multi_fusion"
    }


def test_preset_unknown_id_is_a_helpful_key_error() -> None:
    with pytest.raises(KeyError, match="unknown preset design 'battleship': choose one of"):
        preset("battleship")


# -- the rules' arithmetic -------------------------------------------------------------------
def test_system_types_are_the_rows_of_the_systems_table() -> None:
    assert set(SYSTEMS) == SYSTEM_TYPES
    assert {"beam", "fire_control", "pds", "adfc", "screen", "sensors", "ecm"} <= SYSTEM_TYPES


def test_any_number_of_screen_generators_may_be_fitted() -> None:
    # C6.1: more than two generators may be added; only two levels are ever active
    d = replace(
        preset("heavy_cruiser"),
        systems=(
            *preset("heavy_cruiser").systems,
            SystemSpec("screen-2", "screen", level=1),
            SystemSpec("screen-3", "screen", level=1),
        ),
        mass=150,
        hull=40,
    )
    assert not [p for p in d.problems() if "screen" in p]


@pytest.mark.parametrize(
    ("rows", "hull", "points"),
    [(3, 10, 30), (4, 10, 20), (5, 10, 15), (5, 27, 41), (5, 1, 2), (6, 10, 10)],
)
def test_hull_row_point_factors(rows: int, hull: int, points: int) -> None:
    # 3 rows 3×, 4 rows 2×, 5 rows 1.5× (a half rounds up), 6 rows 1×.
    assert hull_points(hull, rows) == points
    d = base(hull=hull if hull >= 4 else 4, hull_rows=rows)
    assert d.hull_points() == hull_points(d.hull, rows)
    assert design_summary(d)["hull_cost"] == d.hull_points()


def test_hull_rows_change_points_not_mass() -> None:
    four = base(hull=10)
    for rows, extra in ((3, 10), (5, -5), (6, -10)):
        d = base(hull=10, hull_rows=rows)
        assert d.mass_used() == four.mass_used()
        assert d.points() == four.points() + extra


@pytest.mark.parametrize(
    ("mass", "thrust", "drive"),
    [(16, 8, 6), (30, 6, 9), (70, 5, 18), (10, 3, 2), (50, 1, 3), (90, 1, 5), (40, 0, 0)],
)
def test_drive_mass_rounds_half_up(mass: int, thrust: int, drive: int) -> None:
    # 16×8×5% = 6.4 → 6; 70×5×5% = 17.5 → 18; 10×3×5% = 1.5 → 2; 50×5% = 2.5 → 3; 90 → 4.5 → 5
    d = base(mass=mass, thrust=thrust, hull=max(1, mass // 5))
    assert d.drive_mass() == drive
    assert design_summary(d)["drive_cost"] == 2 * drive


@pytest.mark.parametrize(
    ("level", "mass", "expected"),
    [
        (1, 30, 3),  # 1.5 → 2, minimum 3
        (1, 50, 3),  # 2.5 → 3
        (1, 70, 4),  # 3.5 → 4
        (1, 90, 5),  # 4.5 → 5
        (1, 100, 5),
        (2, 50, 6),  # 5 → minimum 6
        (2, 75, 8),  # 7.5 → 8
        (2, 100, 10),
        (3, 100, 0),  # no such level
    ],
)
def test_screen_mass(level: int, mass: int, expected: int) -> None:
    assert screen_mass(level, mass) == expected
    spec = SystemSpec("screen-1", "screen", level=level)
    assert spec.mass(mass) == expected
    assert spec.points(mass) == 3 * expected


@pytest.mark.parametrize(
    ("cls", "arcs", "mass"),
    [
        (1, ARCS, 1),
        (2, ("F",), 2),
        (2, ("FP", "F", "FS"), 2),  # adjacent across dead ahead
        (2, ("AS", "A", "AP"), 2),
        (2, ("F", "A"), 3),  # not adjacent
        (2, ("F", "FS", "A"), 3),
        (2, ("F", "FS", "AS", "A"), 3),
        (2, ARCS, 3),
        (2, ("PF", "SF"), 2),  # broadside ring wraps too
        (2, ("PF", "SF", "S"), 2),
        (3, ("F",), 4),
        (3, ("FP", "F", "FS", "AS"), 7),
        (4, ("F",), 8),
        (4, ("FP", "F", "FS"), 12),  # C1.3: a 3-arc class 4 is 12 mass / 36 points
        (5, ("F",), 0),
    ],
)
def test_beam_mass(cls: int, arcs: tuple[str, ...], mass: int) -> None:
    assert beam_mass(cls, arcs) == mass
    spec = beam("b", cls, *arcs)
    assert spec.mass(50) == mass
    assert spec.points(50) == 3 * mass


@pytest.mark.parametrize(
    ("spec", "mass", "points"),
    [
        (SystemSpec("x", "fire_control"), 1, 4),
        (SystemSpec("x", "pds"), 1, 3),
        (SystemSpec("x", "adfc"), 2, 8),
        (SystemSpec("x", "sensors", grade="enhanced"), 1, 15),
        (SystemSpec("x", "sensors", grade="superior"), 2, 30),
        (SystemSpec("x", "ecm"), 2, 20),
        (SystemSpec("x", "area_ecm"), 3, 30),
        (SystemSpec("drive", "main_drive"), 0, 0),
        (SystemSpec("core", "power_core"), 0, 0),
    ],
)
def test_fixed_system_mass_and_points(spec: SystemSpec, mass: int, points: int) -> None:
    assert spec.mass(100) == mass
    assert spec.points(100) == points


def test_armour_costs_one_mass_two_points() -> None:
    d = base(armour=3)
    assert d.mass_used() == base().mass_used() + 3
    assert d.points() == base().points() + 6


def test_base_design_totals() -> None:
    # mass 40, thrust 4: drive 8; hull 8; fc 1; class-2 three adjacent arcs 2 → used 19.
    # points 40 + hull 16 + drive 16 + fc 4 + beam 6 = 82
    d = base()
    assert d.mass_used() == 19
    assert d.points() == 82


def test_hull_bounds() -> None:
    assert hull_bounds(40) == (4, 20)
    assert hull_bounds(41) == (5, 20)
    assert hull_bounds(5) == (1, 2)
    assert base(hull=4).problems() == []
    assert base(hull=20).problems() == []


# -- structure -------------------------------------------------------------------------------
def test_all_systems_and_weapons() -> None:
    d = preset("frigate")
    ids = [s.id for s in d.all_systems()]
    assert ids == [s.id for s in d.systems] + ["drive", "core", "bridge", "life_support"]
    assert [s.type for s in d.all_systems()[-4:]] == [
        "main_drive",
        "power_core",
        "bridge",
        "life_support",
    ]
    assert [s.id for s in d.weapons()] == ["beam-1", "beam-2", "beam-3"]
    assert all(s.type != "sensors" for s in preset("destroyer").all_systems())
    assert d.system("drive").type == "main_drive"
    with pytest.raises(KeyError):
        d.system("nope")


def test_class_1_beam_without_arcs_reads_as_all_six() -> None:
    d = base(systems=(FC, beam("beam-1", 1)))
    assert d.weapons()[0].arcs == ARCS
    broad = base(broadside=True, systems=(FC, beam("beam-1", 1)))
    assert broad.weapons()[0].arcs == BROADSIDE_ARCS
    raw = base().to_dict()
    raw["systems"] = [{"id": "beam-1", "type": "beam", "class": 1, "arcs": []}]
    assert Design.from_dict(raw).weapons()[0].arcs == ARCS
    del raw["systems"][0]["arcs"]
    assert Design.from_dict(raw).weapons()[0].arcs == ARCS


def test_design_summary() -> None:
    d = preset("light_cruiser")
    s = design_summary(d)
    assert s["mass"] == 70 and s["mass_used"] == 70 and s["points"] == 261
    assert s["drive_mass"] == 18 and s["hull_cost"] == 40 and s["mass_free"] == 0
    assert s["problems"] == []
    rows = s["systems"]
    assert [r["id"] for r in rows] == [x.id for x in d.all_systems()]
    assert all(set(r) == {"id", "type", "mass", "points"} for r in rows)
    assert sum(r["mass"] for r in rows) + d.hull + d.armour == d.mass_used()
    assert sum(r["points"] for r in rows) + d.mass + s["hull_cost"] + s["armour_cost"] == d.points()
    json.dumps(s)


@pytest.mark.parametrize("design_id", sorted(PRESET_EXPECTED))
def test_design_summary_adds_up_for_every_preset(design_id: str) -> None:
    d = preset(design_id)
    s = design_summary(d)
    parts = s["base_cost"] + s["hull_cost"] + s["armour_cost"] + s["stealth_cost"]
    assert sum(r["points"] for r in s["systems"]) + parts == s["points"] == d.points()
    assert sum(r["mass"] for r in s["systems"]) + d.hull + d.armour == s["mass_used"]
    assert s["stealth_cost"] == 2 * d.stealth * (d.hull + d.armour)


# -- validation messages ---------------------------------------------------------------------
def test_hull_below_ten_percent() -> None:
    assert only_problem(base(hull=3)) == "hull 3 is below 10% of mass 40: use at least 4 boxes"


def test_hull_above_fifty_percent() -> None:
    assert only_problem(base(hull=21)) == "hull 21 is above 50% of mass 40: use at most 20 boxes"


SPREAD = "hull {} is spread over {} rows, but every row needs a box: "


@pytest.mark.parametrize(
    ("mass", "hull", "rows", "message"),
    [
        (20, 3, 4, f"{SPREAD.format(3, 4)}use at least 4 boxes or at most 3 rows"),
        (20, 2, 6, f"{SPREAD.format(2, 6)}use at least 6 boxes or 3 rows and 3 boxes"),
        (10, 1, 3, f"{SPREAD.format(1, 3)}use at least 3 boxes"),
        (
            5,
            2,
            3,
            f"{SPREAD.format(2, 3)}raise the mass to at least 6 (3 rows need 3 boxes, at most "
            "50% of the mass)",
        ),
    ],
)
def test_every_hull_row_needs_a_box(mass: int, hull: int, rows: int, message: str) -> None:
    """RULES §13: more rows than boxes would pay the cheaper price of the longer hull (6 rows:
    1 point a box) for a hull that behaves like fewer rows."""
    d = base(mass=mass, hull=hull, hull_rows=rows, thrust=2, systems=())
    assert only_problem(d) == message
    with pytest.raises(DesignError):
        validate_design(d)
    # as many boxes as rows is fine
    assert base(mass=20, hull=4, hull_rows=4, thrust=2, systems=()).problems() == []


def test_beam_that_does_not_fit() -> None:
    # fixed: drive 8 + hull 8 + armour 16 = 32; fc 1 and a class-3 F beam 4 leave 3.
    d = base(
        armour=16,
        systems=(FC, beam("beam-1", 3, "F"), beam("beam-2", 3, "F", "FS", "AS", "A")),
    )
    assert d.problems() == [
        "mass used 44 is more than mass 40: free 4 mass (fewer systems, armour or hull boxes, "
        "less thrust) or raise the mass",
        "class-3 beam beam-2 with 4 arcs needs 7 mass; only 3 left",
    ]


def test_every_system_after_the_mass_runs_out_is_named() -> None:
    d = base(armour=22, systems=(FC, beam("beam-1", 3, "F"), SystemSpec("ecm-1", "ecm")))
    problems = d.problems()
    assert "class-3 beam beam-1 with 1 arc needs 4 mass; only 1 left" in problems
    assert "ECM ecm-1 needs 2 mass; only 0 left" in problems


def test_frame_too_heavy() -> None:
    d = base(mass=20, thrust=12, hull=10, systems=())
    # drive 20 × 12 × 5% = 12, hull 10 → 22 > 20
    assert d.problems() == [
        "mass used 22 is more than mass 20: free 2 mass (fewer systems, armour or hull boxes, "
        "less thrust) or raise the mass",
        "main drive (12 mass for thrust 12), hull (10) and armour (0) need 22 mass; the "
        "design's mass is 20: lower thrust, hull or armour",
    ]


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"mass": 4, "hull": 1, "thrust": 0},
            "mass 4 is outside 5..300: choose a mass from 5 to 300",
        ),
        ({"mass": 400, "hull": 40}, "mass 400 is outside 5..300: choose a mass from 5 to 300"),
        ({"thrust": 13}, "thrust 13 is outside 0..12: choose a thrust from 0 to 12"),
        ({"thrust": -1}, "thrust -1 is outside 0..12: choose a thrust from 0 to 12"),
        ({"hull_rows": 2}, "hull_rows 2 is outside 3..6: choose 3, 4, 5 or 6 rows"),
        ({"hull_rows": 7}, "hull_rows 7 is outside 3..6: choose 3, 4, 5 or 6 rows"),
        ({"armour": -1}, "armour -1 is negative: use 0 or more boxes"),
        ({"id": " "}, 'id is empty: give the design an id, e.g. "my-frigate"'),
        ({"name": ""}, "name is empty: give the design a name"),
        ({"hull_class": ""}, 'class is empty: name the hull class, e.g. "frigate"'),
    ],
)
def test_frame_problems(changes: dict[str, Any], message: str) -> None:
    assert only_problem(base(**changes)) == message


@pytest.mark.parametrize(
    ("systems", "message"),
    [
        (
            (FC, beam("beam-1", 2, "F", "S")),
            "class-2 beam beam-1 with 2 arcs: arc 'S' is not one of this design's standard "
            "arcs: use F, FS, AS, A, AP or FP",
        ),
        (
            (FC, beam("beam-1", 2, "F", "F")),
            "class-2 beam beam-1 with 2 arcs lists arc 'F' more than once: list each arc once",
        ),
        (
            (FC, beam("beam-1", 3)),
            "class-3 beam beam-1 with 0 arcs has no arcs: give it at least one arc",
        ),
        (
            (FC, beam("beam-1", 1, "F", "FS")),
            "class-1 beam beam-1 always fires in all six arcs: list all six "
            "(F, FS, AS, A, AP, FP) or none",
        ),
        ((FC, beam("beam-1", 5, "F")), "beam beam-1 has class 5: choose class 1, 2, 3 or 4"),
        (
            (FC, SystemSpec("beam-1", "beam", arcs=("F",))),
            "beam beam-1 has no class: choose class 1, 2, 3 or 4",
        ),
        (
            (FC, SystemSpec("screen-1", "screen", level=3)),
            "screen screen-1 has level 3: choose level 1 or 2",
        ),
        (
            (FC, SystemSpec("screen-1", "screen")),
            "screen screen-1 has no level: choose level 1 or 2",
        ),
        (
            (FC, SystemSpec("sensors-1", "sensors", grade="great")),
            'sensors sensors-1 has grade \'great\': choose "enhanced" or "superior"',
        ),
        (
            (FC, SystemSpec("sensors-1", "sensors")),
            'sensors sensors-1 has no grade: choose "enhanced" or "superior"',
        ),
        (
            (FC, SystemSpec("sensors-1", "sensors", grade="basic")),
            "sensors sensors-1: basic sensors are built into every ship; make it "
            '"enhanced" or "superior", or remove it',
        ),
        (
            (
                FC,
                SystemSpec("sensors-1", "sensors", grade="enhanced"),
                SystemSpec("sensors-2", "sensors", grade="superior"),
            ),
            "2 sensors systems (sensors-1, sensors-2): keep at most one",
        ),
        (
            (FC, SystemSpec("ecm-1", "ecm"), SystemSpec("aecm-1", "area_ecm")),
            "ECM ecm-1 beside area ECM aecm-1: a ship with area ECM has ECM itself; remove the ECM",
        ),
        (
            (FC, SystemSpec("ecm-1", "ecm"), SystemSpec("ecm-2", "ecm")),
            "2 ECM systems (ecm-1, ecm-2): keep at most one",
        ),
        (
            (FC, SystemSpec("a-1", "area_ecm"), SystemSpec("a-2", "area_ecm")),
            "2 area ECM systems (a-1, a-2): keep at most one",
        ),
        (
            (FC, SystemSpec("fc-1", "pds")),
            "system id 'fc-1' is used 2 times: give each system its own id",
        ),
        (
            (FC, SystemSpec("", "pds")),
            'system #2 (pds) has an empty id: give it an id such as "pds-2"',
        ),
        (
            (FC, SystemSpec("bridge", "pds")),
            "system id 'bridge' is reserved for the built-in bridge: choose another id",
        ),
        (
            (FC, SystemSpec("x-1", "laser")),
            "system x-1 has unknown type 'laser': use one of " + ", ".join(sorted(SYSTEMS)),
        ),
        (
            (FC, SystemSpec("d-1", "main_drive")),
            "main drive d-1: every ship has a main drive built in; remove this system",
        ),
        (
            (SystemSpec("fc-1", "fire_control", cls=2),),
            "fire control fc-1 takes no class: remove it",
        ),
        (
            (FC, SystemSpec("pds-1", "pds", arcs=("F",))),
            "PDS pds-1 takes no arcs: remove it",
        ),
        (
            (FC, SystemSpec("s-1", "screen", level=1, grade="enhanced")),
            "level-1 screen s-1 takes no grade: remove it",
        ),
    ],
)
def test_system_problems(systems: tuple[SystemSpec, ...], message: str) -> None:
    assert only_problem(base(systems=systems)) == message


def test_broadside_arcs_are_required_on_a_broadside_design() -> None:
    d = base(broadside=True, systems=(FC, beam("beam-1", 2, "F")))
    assert only_problem(d) == (
        "class-2 beam beam-1 with 1 arc: arc 'F' is not one of this design's broadside arcs: "
        "use SF, S, SA, PA, P or PF"
    )
    assert base(broadside=True, systems=(FC, beam("beam-1", 2, "PF", "SF"))).problems() == []


def test_all_problems_are_collected() -> None:
    d = Design(
        id="",
        name="",
        hull_class="x",
        mass=40,
        thrust=20,
        hull=1,
        hull_rows=9,
        armour=-2,
        systems=(
            beam("b", 2, "F", "Q"),
            SystemSpec("b", "screen", level=4),
            SystemSpec("e", "ecm"),
            SystemSpec("ae", "area_ecm"),
        ),
    )
    problems = d.problems()
    assert len(problems) >= 9
    for fragment in (
        "id is empty",
        "name is empty",
        "thrust 20",
        "hull_rows 9",
        "hull 1",
        "armour -2",
        "'Q'",
        "used 2 times",
        "level 4",
        "area ECM",
    ):
        assert any(fragment in p for p in problems), fragment
    with pytest.raises(DesignError) as caught:
        validate_design(d)
    assert caught.value.problems == problems
    assert caught.value.code == "invalid_design"


def test_validate_design_passes_a_legal_design() -> None:
    validate_design(base())


# -- JSON ------------------------------------------------------------------------------------
def test_system_to_dict_has_only_fields_that_apply() -> None:
    assert SystemSpec("fc-1", "fire_control").to_dict() == {"id": "fc-1", "type": "fire_control"}
    assert beam("beam-1", 2, "FP", "F").to_dict() == {
        "id": "beam-1",
        "type": "beam",
        "class": 2,
        "arcs": ["FP", "F"],
    }
    assert SystemSpec("s", "screen", level=2).to_dict() == {"id": "s", "type": "screen", "level": 2}
    assert SystemSpec("n", "sensors", grade="superior").to_dict() == {
        "id": "n",
        "type": "sensors",
        "grade": "superior",
    }


@pytest.mark.parametrize(
    "spec",
    [
        SystemSpec("fc-1", "fire_control"),
        beam("beam-1", 3, "F", "FS"),
        SystemSpec("s", "screen", level=1),
        SystemSpec("n", "sensors", grade="enhanced"),
        SystemSpec("odd", "pds", cls=2),  # illegal, but survives a round trip to be refused
    ],
)
def test_system_round_trip(spec: SystemSpec) -> None:
    assert SystemSpec.from_dict(spec.to_dict()) == spec


def test_design_to_dict_keys() -> None:
    assert list(preset("scout").to_dict()) == [
        "id",
        "name",
        "class",
        "mass",
        "thrust",
        "hull",
        "hull_rows",
        "armour",
        "broadside",
        "systems",
    ]


def test_from_dict_defaults() -> None:
    d = Design.from_dict(
        {"id": "x", "name": "X", "class": "frigate", "mass": 40, "thrust": 4, "hull": 8}
    )
    assert (d.hull_rows, d.armour, d.broadside, d.systems) == (4, 0, False, ())


def _error(raw: Any) -> list[str]:
    with pytest.raises(DesignError) as caught:
        Design.from_dict(raw)
    return caught.value.problems


@pytest.mark.parametrize(
    ("key", "value", "fragment"),
    [
        ("mass", True, "mass must be a whole number, got True"),
        ("mass", 40.0, "mass must be a whole number, got 40.0"),
        ("thrust", "4", "thrust must be a whole number, got '4'"),
        ("hull", None, "hull must be a whole number, got None"),
        ("hull_rows", False, "hull_rows must be a whole number"),
        ("armour", "2", "armour must be a whole number"),
        ("id", 7, "id must be a string, got 7"),
        ("name", None, "name must be a string"),
        ("class", ["frigate"], "class must be a string"),
        ("broadside", 1, "broadside must be true or false, got 1"),
        ("systems", {"id": "fc"}, "systems must be a list of systems"),
        ("armor", 2, "armor: unknown field 'armor'"),
    ],
)
def test_from_dict_is_strict(key: str, value: Any, fragment: str) -> None:
    raw = base().to_dict()
    raw[key] = value
    problems = _error(raw)
    assert len(problems) == 1
    assert fragment in problems[0]


def test_from_dict_reports_missing_fields() -> None:
    raw = base().to_dict()
    del raw["mass"]
    del raw["name"]
    assert _error(raw) == [
        "name is missing: a design needs name",
        "mass is missing: a design needs mass",
    ]


def test_from_dict_rejects_a_non_object() -> None:
    assert _error([1, 2]) == ["a design must be an object, got [1, 2]"]


@pytest.mark.parametrize(
    ("system", "fragment"),
    [
        ({"id": "b", "type": "beam", "class": True, "arcs": ["F"]}, "systems[2].class must be"),
        ({"id": "b", "type": "beam", "class": 2, "arcs": "F"}, "systems[2].arcs must be a list"),
        ({"id": "b", "type": "beam", "class": 2, "arcs": [1]}, "systems[2].arcs must be a list"),
        ({"id": "s", "type": "screen", "level": "1"}, "systems[2].level must be a whole number"),
        ({"id": "s", "type": "sensors", "grade": 2}, "systems[2].grade must be a string"),
        ({"id": 3, "type": "pds"}, "systems[2].id must be a string"),
        ({"type": "pds"}, "systems[2].id is missing"),
        ({"id": "p", "type": "pds", "mass": 1}, "systems[2].mass: unknown field 'mass'"),
        ("pds", "systems[2] must be an object"),
    ],
)
def test_from_dict_is_strict_about_systems(system: Any, fragment: str) -> None:
    raw = base().to_dict()
    raw["systems"].append(system)
    problems = _error(raw)
    assert len(problems) == 1
    assert problems[0].startswith(fragment), problems


def test_from_dict_collects_every_type_error() -> None:
    raw = base().to_dict()
    raw["mass"] = True
    raw["thrust"] = "fast"
    raw["systems"][0]["type"] = None
    problems = _error(raw)
    assert len(problems) == 3
    assert [p.split(" ")[0] for p in problems] == ["mass", "thrust", "systems[0].type"]


def test_system_from_dict_is_strict() -> None:
    with pytest.raises(DesignError, match="class must be a whole number"):
        SystemSpec.from_dict({"id": "b", "type": "beam", "class": False})
    with pytest.raises(DesignError, match="system must be an object"):
        SystemSpec.from_dict("beam")  # type: ignore[arg-type]


def test_from_dict_does_not_check_rules() -> None:
    raw = base(hull=1).to_dict()
    d = Design.from_dict(raw)
    assert d.problems() == ["hull 1 is below 10% of mass 40: use at least 4 boxes"]


# -- the systems table's designer rules, by hand ----------------------------------------------
# (mass, points) of one system in a TMF-100 design, worked out from the compendium / decisions.
TABLE_CASES = [
    (SystemSpec("w", "beam", cls=1), (1, 3)),
    (SystemSpec("w", "beam", cls=2, arcs=("F", "FS", "AS")), (2, 6)),
    (SystemSpec("w", "beam", cls=2, arcs=("F", "AS")), (3, 9)),  # not adjacent
    (SystemSpec("w", "beam", cls=3, arcs=("F", "FS")), (5, 15)),
    (SystemSpec("w", "beam", cls=4, arcs=("F", "FS", "FP")), (12, 36)),  # C1.3's example
    (SystemSpec("w", "beam", cls=4, arcs=("F",), weak_arcs=("FP", "FS")), (10, 30)),  # C1.3
    (SystemSpec("w", "beam", cls=3, arcs=("F",), weak_arcs=("FP", "FS")), (5, 15)),  # C1.3
    (SystemSpec("w", "beam", cls=3, arcs=("F",), weak_arcs=("FP",)), (5, 15)),  # ½ rounds up
    (SystemSpec("w", "graser", cls=3, arcs=("F",), weak_arcs=("FP", "FS")), (30, 90)),
    (SystemSpec("w", "heavy_beam", cls=2, arcs=("F",)), (3, 9)),
    (SystemSpec("w", "heavy_beam", cls=3, arcs=("F",)), (6, 18)),
    (SystemSpec("w", "heavy_beam", cls=4, arcs=("F", "FS")), (15, 45)),
    (SystemSpec("w", "gatling", arcs=("F",)), (2, 4)),
    (SystemSpec("w", "gatling", arcs=("FP", "F", "FS")), (3, 6)),
    (SystemSpec("w", "gatling", arcs=ARCS), (4, 8)),
    (SystemSpec("w", "emp", cls=2, arcs=("F",)), (2, 6)),
    (SystemSpec("w", "needle", arcs=("F",)), (2, 6)),
    (SystemSpec("w", "multi_needle", arcs=("FP", "F", "FS")), (4, 12)),
    (SystemSpec("w", "heavy_needle", arcs=("F",)), (3, 9)),
    (SystemSpec("w", "graser", cls=1, arcs=("F",)), (2, 6)),  # C1.9's table
    (SystemSpec("w", "graser", cls=1, arcs=("FP", "F", "FS")), (3, 9)),
    (SystemSpec("w", "graser", cls=1, arcs=ARCS), (4, 12)),
    (SystemSpec("w", "graser", cls=2, arcs=("F",)), (9, 27)),
    (SystemSpec("w", "graser", cls=2, arcs=("F", "FS")), (12, 36)),
    (SystemSpec("w", "graser", cls=3, arcs=("F", "FS", "FP")), (36, 108)),
    (SystemSpec("w", "pulse_torpedo", arcs=("F",)), (4, 12)),
    (SystemSpec("w", "classed_pulse_torpedo", cls=3, arcs=("F",)), (12, 36)),
    (SystemSpec("w", "long_range_pulse_torpedo", arcs=("F",)), (6, 18)),
    (SystemSpec("w", "short_range_pulse_torpedo", arcs=("F",)), (3, 9)),
    (SystemSpec("w", "fusion_flare", arcs=("F",)), (4, 12)),
    (SystemSpec("w", "fusion_torpedo", arcs=("F",)), (4, 12)),
    (SystemSpec("w", "multi_fusion", arcs=("F",), mode="flare"), (5, 15)),
    (SystemSpec("w", "meson", arcs=("FP", "F", "FS")), (6, 18)),
    (SystemSpec("w", "submunitions", arcs=("F",)), (1, 3)),  # decision: 1 mass, 3 per mass
    # ordnance (C2.2-C2.5; brief decisions 1-5): 3 points per mass throughout
    (SystemSpec("o", "salvo_rack", arcs=("F",), load="salvo"), (4, 12)),
    (SystemSpec("o", "salvo_launcher", arcs=("F",), magazine="m"), (3, 9)),
    (SystemSpec("o", "magazine", loads=(("salvo", 2), ("er_salvo", 1))), (7, 21)),
    (SystemSpec("o", "heavy_missile_rack", arcs=("F",), load="standard"), (2, 6)),
    (SystemSpec("fb", "fighter_bay", load="standard"), (9, 27 + 18)),
    (SystemSpec("db", "drone_bay", load="long_range"), (6, 18 + 24)),
    (SystemSpec("o", "heavy_missile_launcher", arcs=("F",), magazine="m"), (2, 6)),
    (SystemSpec("o", "amt_launcher", arcs=("F",)), (4, 12)),
    (SystemSpec("s", "fire_control"), (1, 4)),
    (SystemSpec("s", "pds"), (1, 3)),
    (SystemSpec("s", "adfc"), (2, 8)),
    (SystemSpec("s", "screen", level=1), (5, 15)),
    (SystemSpec("s", "screen", level=2), (10, 30)),
    (SystemSpec("s", "command_bridge"), (2, 10)),
    (SystemSpec("s", "sensors", grade="enhanced"), (1, 15)),
    (SystemSpec("s", "sensors", grade="superior"), (2, 30)),
    (SystemSpec("s", "ecm"), (2, 20)),
    (SystemSpec("s", "area_ecm"), (3, 30)),
    (SystemSpec("s", "ftl"), (10, 20)),
]


@pytest.mark.parametrize(("spec", "expected"), TABLE_CASES, ids=lambda v: getattr(v, "type", ""))
def test_system_mass_and_points_by_hand(spec: SystemSpec, expected: tuple[int, int]) -> None:
    assert (spec.mass(100), spec.points(100)) == expected


def test_every_table_row_has_a_hand_computed_case() -> None:
    assert {spec.type for spec, _ in TABLE_CASES} == set(SYSTEMS)


def test_stealth_costs_two_points_per_box_per_level() -> None:
    # C8.2's example: 2 armour, 10 hull -> +24 at level 1, +48 at level 2
    d = base(hull=10, armour=2)
    assert replace(d, stealth=1).points() - d.points() == 24
    assert replace(d, stealth=2).points() - d.points() == 48
    assert replace(d, stealth=2).mass_used() == d.mass_used()  # stealth takes no mass
    assert only_problem(replace(d, stealth=3)) == "stealth 3 is outside 0..2: choose 0, 1 or 2"
    assert Design.from_dict(replace(d, stealth=2).to_dict()).stealth == 2
    with pytest.raises(DesignError, match="stealth must be a whole number"):
        Design.from_dict({**d.to_dict(), "stealth": True})


@pytest.mark.parametrize(
    ("system", "message"),
    [
        (
            SystemSpec("w", "beam", cls=1, weak_arcs=("F",)),
            "class-1 beam w: weak arcs fire one class lower, so only class 2 or above may have "
            "them; remove the weak arcs or raise the class",
        ),
        (
            SystemSpec("w", "beam", cls=3, arcs=("F",), weak_arcs=("F",)),
            "class-3 beam w with 1 arc: F is both a full and a weak arc: list it once",
        ),
        (
            SystemSpec("w", "beam", cls=3, arcs=("F",), weak_arcs=("S",)),
            "class-3 beam w with 1 arc: weak arc 'S' is not one of this design's standard arcs: "
            "use F, FS, AS, A, AP or FP",
        ),
        (
            SystemSpec("w", "pulse_torpedo", arcs=("F",), weak_arcs=("FS",)),
            "pulse torpedo launcher w takes no weak_arcs: remove it",
        ),
        (
            SystemSpec("w", "needle", arcs=("F", "FS")),
            "needle beam w has 2 arcs but a needle beam takes at most 1: remove 1",
        ),
        (
            SystemSpec("w", "meson", arcs=("F", "A")),
            "meson flechette w: its arcs must be next to each other (up to three adjacent arcs)",
        ),
        (
            SystemSpec("w", "multi_fusion", arcs=("F",), mode="plasma"),
            "multi-fusion launcher w has mode 'plasma': choose 'flare' or 'torpedo'",
        ),
        (
            SystemSpec("w", "fusion_flare", arcs=("F",), mode="flare"),
            "fusion flare launcher w takes no mode: remove it",
        ),
        (
            SystemSpec("w", "graser", cls=4, arcs=("F",)),
            "graser w has class 4: choose class 1, 2 or 3",
        ),
        (
            SystemSpec("w", "gatling", cls=2, arcs=("F",)),
            "gatling battery w takes no class: remove it",
        ),
    ],
)
def test_weapon_rules_from_the_table(system: SystemSpec, message: str) -> None:
    d = replace(base(mass=100, hull=20), systems=(FC, system))
    assert only_problem(d) == message


def test_one_command_bridge_and_one_ftl_drive_at_most() -> None:
    d = replace(
        base(mass=100, hull=20),
        systems=(FC, SystemSpec("cb-1", "command_bridge"), SystemSpec("cb-2", "command_bridge")),
    )
    assert only_problem(d) == "2 command bridge systems (cb-1, cb-2): keep at most one"


def test_weak_arcs_and_mode_round_trip_through_json() -> None:
    d = replace(
        base(mass=100, hull=20),
        systems=(
            FC,
            SystemSpec("b", "beam", cls=4, arcs=("F",), weak_arcs=("FP", "FS")),
            SystemSpec("m", "multi_fusion", arcs=("F",), mode="torpedo"),
        ),
    )
    data = json.loads(json.dumps(d.to_dict()))
    assert data["systems"][1]["weak_arcs"] == ["FP", "FS"]
    assert data["systems"][2]["mode"] == "torpedo"
    assert Design.from_dict(data) == d
    assert d.system("m").fire_mode() == "torpedo"
    assert SystemSpec("m", "multi_fusion", arcs=("F",)).fire_mode() == "flare"
