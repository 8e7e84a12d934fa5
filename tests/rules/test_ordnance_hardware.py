"""The ordnance rows of the systems table (compendium C2.2–C2.5; the brief's decisions 1–6):
numbers by hand, the exported names, the new SystemSpec fields' JSON, Design.public() and every
design rule a rack, launcher or magazine must keep."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from app.rules.designs import Design, SystemSpec
from app.rules.errors import DesignError
from app.rules.systems import (
    HEAVY_MISSILE_TYPES,
    LAUNCHER_TYPES,
    LOAD_MASS,
    REACH,
    SALVO_LOADS,
    SYSTEMS,
    WEAPON_TYPES,
    launch_kind,
    loads_of,
)

ORDNANCE = {
    "salvo_rack",
    "salvo_launcher",
    "magazine",
    "heavy_missile_rack",
    "heavy_missile_launcher",
    "amt_launcher",
}


def _design(*systems: SystemSpec, mass: int = 60) -> Design:
    """TMF 60, thrust 4 (drive 12), hull 12: 36 mass free for the systems under test."""
    return Design(
        "t", "Test", "cruiser", mass, 4, 12, systems=(SystemSpec("fc", "fire_control"), *systems)
    )


def _sml(sid: str = "sml-1", magazine: str | None = "mag-1") -> SystemSpec:
    return SystemSpec(sid, "salvo_launcher", arcs=("F",), magazine=magazine)


def _hml(sid: str = "hml-1", magazine: str | None = "mag-1") -> SystemSpec:
    return SystemSpec(sid, "heavy_missile_launcher", arcs=("F",), magazine=magazine)


def _mag(sid: str = "mag-1", **loads: int) -> SystemSpec:
    return SystemSpec(sid, "magazine", loads=tuple(loads.items()) or (("salvo", 2),))


# -- the rows ---------------------------------------------------------------------------------
def test_the_ordnance_rows_are_in_the_table_and_out_of_direct_fire() -> None:
    assert set(SYSTEMS) >= ORDNANCE
    assert not ORDNANCE & WEAPON_TYPES  # no bands, never a beam in a fire window
    assert {SYSTEMS[t].family for t in ORDNANCE} == {"ordnance"}
    assert ORDNANCE - {"magazine"} == LAUNCHER_TYPES
    assert "submunitions" in WEAPON_TYPES and "submunitions" not in LAUNCHER_TYPES
    for t in ORDNANCE:
        with pytest.raises(ValueError, match="not a weapon"):
            SYSTEMS[t].bands()


@pytest.mark.parametrize(
    ("spec", "mass", "points"),
    [
        # C2.2: an SMR is 4 mass with a standard salvo, 5 with an ER salvo; 3 points per mass
        (SystemSpec("r", "salvo_rack", arcs=("F",), load="salvo"), 4, 12),
        (SystemSpec("r", "salvo_rack", arcs=("F",), load="er_salvo"), 5, 15),
        (SystemSpec("l", "salvo_launcher", arcs=("F",), magazine="m"), 3, 9),  # C2.2: 3 mass
        # C2.3/C2.5: salvo 2, ER 3, AF 1, each heavy missile 1; 2×2 + 3 + 1 + 2×1 = 10
        (
            SystemSpec(
                "m",
                "magazine",
                loads=(("salvo", 2), ("er_salvo", 1), ("af_salvo", 1), ("standard", 2)),
            ),
            10,
            30,
        ),
        (SystemSpec("m", "magazine", capacity=7), 7, 21),  # the public copy keeps the mass
        (SystemSpec("h", "heavy_missile_rack", arcs=("F",), load="long_lance"), 2, 6),  # C2.5
        (SystemSpec("h", "heavy_missile_launcher", arcs=("F",), magazine="m"), 2, 6),  # C2.5
        (SystemSpec("a", "amt_launcher", arcs=("F",)), 4, 12),  # decision 5
    ],
)
def test_mass_and_points_by_hand(spec: SystemSpec, mass: int, points: int) -> None:
    for tmf in (20, 100, 300):  # none of them is a share of the TMF
        assert (spec.mass(tmf), spec.points(tmf)) == (mass, points)


def test_load_names_masses_and_endurance_against_the_compendium() -> None:
    assert SALVO_LOADS == ("salvo", "er_salvo", "af_salvo")
    assert dict(HEAVY_MISSILE_TYPES) == {
        "long_lance": 5,
        "standard": 3,
        "misericorde": 1,
        "emp": 1,
        "needle": 3,
        "ecm": 3,
    }
    assert dict(LOAD_MASS) == {"salvo": 2, "er_salvo": 3, "af_salvo": 1} | dict.fromkeys(
        HEAVY_MISSILE_TYPES, 1
    )
    assert dict(REACH) == {
        "salvo": 24,
        "er_salvo": 36,
        "heavy_missile": 18,
        "amt": 24,
        "af_salvo": 9,
    }
    assert launch_kind("needle") == launch_kind("ecm") == "heavy_missile"
    assert [launch_kind(n) for n in SALVO_LOADS] == list(SALVO_LOADS)
    assert launch_kind("amt") == "amt"
    assert all(launch_kind(n) in REACH for n in LOAD_MASS)


def test_loads_of_says_what_each_launcher_can_fire() -> None:
    hm = tuple(HEAVY_MISSILE_TYPES)
    assert loads_of(_sml()) == (*SALVO_LOADS, *hm)  # C2.5: SMLs may fire heavy missiles
    assert loads_of(_hml()) == hm
    assert loads_of(SystemSpec("r", "salvo_rack", load="er_salvo")) == ("er_salvo",)
    assert loads_of(SystemSpec("r", "salvo_rack", load="af_salvo")) == ()  # not a rack load
    assert loads_of(SystemSpec("r", "salvo_rack")) == ()
    assert loads_of(SystemSpec("h", "heavy_missile_rack", load="emp")) == ("emp",)
    assert loads_of(SystemSpec("a", "amt_launcher")) == ("amt",)
    assert loads_of(_mag()) == ()
    assert loads_of(SystemSpec("s", "submunitions")) == ()
    assert loads_of(SystemSpec("x", "no_such_type")) == ()


def test_once_per_game_and_the_decisions_are_written() -> None:
    assert {t for t in ORDNANCE if SYSTEMS[t].once_per_game} == {
        "salvo_rack",
        "heavy_missile_rack",
        "amt_launcher",
    }
    for t in ORDNANCE:
        assert SYSTEMS[t].decisions, t
        assert SYSTEMS[t].max_arcs == (0 if t == "magazine" else 1)


# -- JSON ---------------------------------------------------------------------------------------
def test_new_fields_round_trip_through_json() -> None:
    d = _design(
        _sml(),
        _mag(salvo=2, er_salvo=1),
        SystemSpec("r", "salvo_rack", arcs=("FP",), load="er_salvo"),
        SystemSpec("h", "heavy_missile_rack", arcs=("FS",), load="needle"),
    )
    data = d.to_dict()
    assert data["systems"][1] == {
        "id": "sml-1",
        "type": "salvo_launcher",
        "arcs": ["F"],
        "magazine": "mag-1",
    }
    assert data["systems"][2] == {
        "id": "mag-1",
        "type": "magazine",
        "loads": {"salvo": 2, "er_salvo": 1},
    }
    assert data["systems"][3]["load"] == "er_salvo"
    assert Design.from_dict(json.loads(json.dumps(data))) == d
    pub = d.public()
    assert Design.from_dict(json.loads(json.dumps(pub.to_dict()))) == pub


@pytest.mark.parametrize(
    ("system", "fragment"),
    [
        ({"id": "m", "type": "magazine", "loads": [["salvo", 2]]}, "loads must be an object"),
        (
            {"id": "m", "type": "magazine", "loads": {"salvo": True}},
            "loads['salvo'] must be a whole",
        ),
        (
            {"id": "m", "type": "magazine", "loads": {"salvo": 1.5}},
            "loads['salvo'] must be a whole",
        ),
        ({"id": "m", "type": "magazine", "capacity": "7"}, "capacity must be a whole number"),
        ({"id": "r", "type": "salvo_rack", "load": 2}, "load must be a string"),
        ({"id": "l", "type": "salvo_launcher", "magazine": ["m"]}, "magazine must be a string"),
    ],
)
def test_the_new_fields_are_read_strictly(system: dict[str, Any], fragment: str) -> None:
    with pytest.raises(DesignError) as err:
        SystemSpec.from_dict(system)
    assert fragment in str(err.value)


# -- the public copy ----------------------------------------------------------------------------
def test_public_hides_loads_and_keeps_mass_and_hardware() -> None:
    d = _design(
        _sml(),
        _mag(salvo=1, er_salvo=2, af_salvo=1),
        SystemSpec("r", "salvo_rack", arcs=("FP",), load="er_salvo"),
        SystemSpec("h", "heavy_missile_rack", arcs=("FS",), load="misericorde"),
    )
    assert d.problems() == []
    pub = d.public()
    mag = pub.system("mag-1")
    assert mag.loads == () and mag.capacity == 2 + 6 + 1
    assert pub.system("h").load is None
    assert pub.system("r").load == "er_salvo"  # a salvo rack's kind is hardware (its mass)
    assert pub.system("sml-1").magazine == "mag-1"
    assert (pub.mass_used(), pub.points()) == (d.mass_used(), d.points())
    text = json.dumps(pub.to_dict())
    assert "misericorde" not in text and "af_salvo" not in text and '"loads"' not in text
    assert d.public().public() == pub
    assert _design().public() == _design()  # nothing to hide


# -- the design rules ---------------------------------------------------------------------------
LEGAL = [
    (_sml(), _mag(salvo=2, er_salvo=1, af_salvo=1)),
    (_sml(), _sml("sml-2"), _mag(salvo=4)),  # one magazine may feed two launchers
    (_sml(), _hml(), _mag(salvo=1, standard=2, ecm=1)),
    (_hml(), _mag(long_lance=1, needle=1, emp=1)),
    (_sml(), _mag(needle=2)),  # C2.5: heavy missiles from an SML
    (SystemSpec("r", "salvo_rack", arcs=("F",), load="salvo"),),
    (SystemSpec("h", "heavy_missile_rack", arcs=("F",), load="ecm"),),
    (SystemSpec("a", "amt_launcher", arcs=("AP",)),),
]


@pytest.mark.parametrize("systems", LEGAL)
def test_legal_ordnance(systems: tuple[SystemSpec, ...]) -> None:
    assert _design(*systems).problems() == []


@pytest.mark.parametrize(
    ("systems", "message"),
    [
        (
            (_sml(magazine=None), _mag()),
            "salvo missile launcher sml-1 is fed from no magazine: set its magazine to mag-1",
        ),
        (
            (_sml(magazine=None),),
            (
                "is fed from no magazine: add a missile magazine and set this launcher's "
                "magazine to its id"
            ),
        ),
        (
            (_hml(magazine="mag-9"), _mag("mag-1", standard=1)),
            (
                "heavy missile launcher hml-1: magazine 'mag-9' is not a system of this "
                "design: set its magazine to mag-1"
            ),
        ),
        (
            (_sml(magazine="fc"), _mag("m2")),
            (
                "salvo missile launcher sml-1: 'fc' is a fire control, not a magazine: set its "
                "magazine to m2"
            ),
        ),
        (
            (_mag(),),
            (
                "missile magazine mag-1 feeds no launcher: make it the magazine of a salvo "
                "missile launcher or a heavy missile launcher, or remove it"
            ),
        ),
        (
            (_sml(), SystemSpec("mag-1", "magazine")),
            'missile magazine mag-1 holds nothing: give it loads, e.g. {"salvo": 2}',
        ),
        (
            (_hml(), _mag(standard=1, salvo=2)),
            (
                "missile magazine mag-1 holds 'salvo', which none of its launchers (hml-1) can "
                "fire: feed a salvo missile launcher from it, or take the 'salvo' out"
            ),
        ),
        (
            (_hml(), _mag(standard=1, af_salvo=1)),
            "holds 'af_salvo', which none of its launchers (hml-1) can fire",
        ),
        (
            (_sml(), _mag(salvo=1, nuke=2)),
            'missile magazine mag-1: \'nuke\' is not a load: use "salvo", "er_salvo"',
        ),
        (
            (_sml(), _mag(salvo=0)),
            (
                "missile magazine mag-1 holds 0 × 'salvo': give a count of 1 or more, or take "
                "'salvo' out"
            ),
        ),
        ((_sml(), _mag(salvo=-2)), "holds -2 × 'salvo'"),
        (
            (_sml(), SystemSpec("mag-1", "magazine", loads=(("salvo", 1), ("salvo", 2)))),
            (
                "missile magazine mag-1 lists 'salvo' more than once: give each load once, "
                "with its count"
            ),
        ),
        (
            (_sml(), replace(_mag(), capacity=4)),
            "missile magazine mag-1 has a capacity: capacity is only the other side's view",
        ),
        (
            (SystemSpec("r", "salvo_rack", arcs=("F",)),),
            'salvo missile rack r has no load: choose "salvo" or "er_salvo"',
        ),
        (
            (SystemSpec("r", "salvo_rack", arcs=("F",), load="af_salvo"),),
            'salvo missile rack r has load \'af_salvo\': choose "salvo" or "er_salvo"',
        ),
        (
            (SystemSpec("h", "heavy_missile_rack", arcs=("F",)),),
            (
                'heavy missile rack h has no missile type: choose "long_lance", "standard", '
                '"misericorde", "emp", "needle" or "ecm"'
            ),
        ),
        (
            (SystemSpec("h", "heavy_missile_rack", arcs=("F",), load="salvo"),),
            "heavy missile rack h has missile type 'salvo': choose",
        ),
        (
            (SystemSpec("a", "amt_launcher", arcs=("F",), load="amt"),),
            "antimatter torpedo launcher a takes no load: remove it",
        ),
        (
            (SystemSpec("b", "beam", cls=2, arcs=("F",), magazine="m"),),
            "takes no magazine: remove it",
        ),
        ((SystemSpec("p", "pds", loads=(("salvo", 1),)),), "PDS p takes no loads: remove it"),
        (
            (SystemSpec("r", "salvo_rack", arcs=("F",), load="salvo", capacity=3),),
            "salvo missile rack r takes no capacity: remove it",
        ),
        (
            (_sml(), SystemSpec("mag-1", "magazine", arcs=("F",), loads=(("salvo", 1),))),
            "missile magazine mag-1 takes no arcs: remove it",
        ),
        (
            (SystemSpec("a", "amt_launcher"),),
            "antimatter torpedo launcher a has no arcs: give it at least one arc",
        ),
        (
            (SystemSpec("a", "amt_launcher", arcs=("F", "FS")),),
            "has 2 arcs but a antimatter torpedo launcher takes at most 1: remove 1",
        ),
        (
            (SystemSpec("r", "salvo_rack", arcs=("PF",), load="salvo"),),
            "salvo missile rack r: arc 'PF' is not one of this design's standard arcs",
        ),
    ],
)
def test_ordnance_problems(systems: tuple[SystemSpec, ...], message: str) -> None:
    problems = _design(*systems).problems()
    assert any(message in p for p in problems), problems


def test_a_magazine_too_big_for_the_hull_is_named() -> None:
    problems = _design(_sml(), _mag(er_salvo=12)).problems()  # 36 mass of loads, 32 left
    assert "missile magazine mag-1 needs 36 mass; only 32 left" in problems


# -- presets and the scenario -----------------------------------------------------------------
def test_the_ordnance_presets_carry_what_issue_12_asks() -> None:
    from app.rules.designs import PRESET_DESIGNS

    def types(design_id: str) -> list[str]:
        return [s.type for s in PRESET_DESIGNS[design_id].systems]

    assert types("missile_frigate").count("salvo_rack") == 2
    cruiser = PRESET_DESIGNS["missile_cruiser"]
    smls = [s for s in cruiser.systems if s.type == "salvo_launcher"]
    assert len(smls) == 3 and {s.magazine for s in smls} == {"mag-1"}
    assert {n for n, _ in cruiser.system("mag-1").loads} == {"salvo", "er_salvo", "af_salvo"}
    destroyer = PRESET_DESIGNS["missile_destroyer"]
    assert types("missile_destroyer").count("heavy_missile_launcher") == 2
    assert "heavy_missile_rack" in types("missile_destroyer")
    assert {n for n, _ in destroyer.system("mag-1").loads} >= {
        "standard",
        "long_lance",
        "needle",
        "ecm",
        "emp",
    }
    assert types("amt_boat").count("amt_launcher") == 2
    assert types("pd_escort").count("pds") == 4 and "adfc" in types("pd_escort")
    fitted = {t for d in PRESET_DESIGNS.values() for t in types(d.id)}
    assert fitted >= ORDNANCE


def test_the_missile_duel_is_close_on_points_and_every_ship_is_legal() -> None:
    from app.rules.designs import PRESET_DESIGNS
    from app.rules.scenarios import PRESET_SCENARIOS

    s = PRESET_SCENARIOS["missile_duel"]
    totals = {
        side: sum(PRESET_DESIGNS[d].points() for _, d in ships) for side, ships in s.ships.items()
    }
    assert totals == {"A": 297 + 139, "B": 171 + 104 + 152}
    for ships in s.ships.values():
        for _, design_id in ships:
            assert PRESET_DESIGNS[design_id].problems() == []
    launchers = {
        side: [t for _, d in ships for t in types_of(PRESET_DESIGNS[d]) if t in LAUNCHER_TYPES]
        for side, ships in s.ships.items()
    }
    assert launchers["A"] and launchers["B"]


def types_of(d: Design) -> list[str]:
    return [s.type for s in d.systems]
