"""Ship designs over the network: presets, validation, saving under an owner token, and the
systems table as data (what the designer page and API clients build designs from)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.play import errors as E
from app.play import inputs, tokens
from app.rules import systems as T
from app.rules.designs import (
    MAX_HULL_ROWS,
    MAX_MASS,
    MAX_THRUST,
    MIN_HULL_ROWS,
    MIN_MASS,
    MIN_THRUST,
    PRESET_DESIGNS,
    Design,
    design_summary,
    validate_design,
)
from app.rules.errors import DesignError
from app.rules.geometry import ARCS, BROADSIDE_ARCS, arc_span
from app.rules.scenarios import PRESET_SCENARIOS
from app.store import designs as D
from app.store.db import Database

# What ``describe`` adds to a design for the reader: computed from the design, so a design
# sent back with them (as a client read it) is taken without them, whatever they hold.
READ_ONLY = ("points", "summary")


def describe(design: Design) -> dict[str, Any]:
    return {**design.to_dict(), "points": design.points(), "summary": design_summary(design)}


def without_read_only(data: Any) -> Any:
    """A design object as ``Design.from_dict`` reads it: ``READ_ONLY`` left out (anything else,
    an unknown field included, stays for the reader to judge)."""
    if isinstance(data, Mapping):
        return {k: v for k, v in data.items() if k not in READ_ONLY}
    return data


def presets() -> dict[str, Any]:
    return {"designs": [describe(d) for d in PRESET_DESIGNS.values()]}


def scenarios() -> dict[str, Any]:
    return {"scenarios": [s.to_dict() for s in PRESET_SCENARIOS.values()]}


def checked(data: Mapping[str, Any]) -> Design:
    try:
        design = Design.from_dict(without_read_only(data))
        validate_design(design)
    except DesignError as error:
        raise E.InvalidDesign(error.detail, problems=error.problems) from None
    return design


def validate(data: Mapping[str, Any]) -> dict[str, Any]:
    return design_summary(checked(data))


async def save(db: Database, data: Mapping[str, Any]) -> dict[str, Any]:
    design = checked(data)
    design_id = f"d-{tokens.new_id()}"
    token = tokens.new_token()
    stored = {**design.to_dict(), "id": design_id}
    async with db.unit() as conn:
        await D.add_design(conn, design_id, tokens.digest(token), stored)
    return {"id": design_id, "owner_token": token}


async def load(db: Database, design_id: str) -> Design:
    """A preset or saved design by id; ``UnknownDesign`` (404) otherwise."""
    if design_id in PRESET_DESIGNS:
        return PRESET_DESIGNS[design_id]
    if len(design_id) > 64:  # longer than any id the store holds
        raise E.UnknownDesign(f"no design {design_id[:64]!r}…")
    if inputs.text_fault(design_id) is not None:  # no id holds it (and PostgreSQL would fail)
        raise E.UnknownDesign(f"no design {design_id!r}")
    async with db.read() as conn:
        data = await D.design_data(conn, design_id)
    if data is None:
        raise E.UnknownDesign(f"no design {design_id!r}")
    return Design.from_dict(data)


async def get(db: Database, design_id: str) -> dict[str, Any]:
    return describe(await load(db, design_id))


# -- the systems table as data --------------------------------------------------------------
def _band(band: T.FireBand) -> dict[str, Any]:
    return {
        "to": band.to,
        "dice": band.dice,
        "reroll": band.reroll,
        "hit_on": band.hit_on,
        "damage_dice": band.damage_dice,
        "damage_reroll": band.damage_reroll,
        "notation": band.describe(),
    }


def _profiles(row: T.SystemType) -> list[dict[str, Any]]:
    """Every firing profile of a weapon: one per class (or one) and per mode."""
    if not row.is_weapon:
        return []
    out = []
    for cls in row.classes or (None,):
        for mode in row.modes or (None,):
            bands = T.profile(row.type, cls, mode)
            out.append({"class": cls, "mode": mode, "bands": [_band(b) for b in bands]})
    return out


def _masses(row: T.SystemType) -> list[dict[str, Any]]:
    """Mass and points of each buildable variant whose mass does not depend on the TMF:
    per class and arc count (adjacent arcs, and non-adjacent where that is possible) for
    weapons, per grade for sensors, the fixed ones once. Weak arcs: ``weak_arc_mass``."""
    out: list[dict[str, Any]] = []
    if row.tmf_share:
        return out  # a share of the TMF: see mass_rule
    if row.stores or row.rack:
        return _load_masses(row)
    if row.grades:
        for grade in row.grades:
            mass = T.system_mass(row.type, 0, grade=grade)
            out.append(
                {"grade": grade, "mass": mass, "points": T.system_cost(row.type, mass, grade=grade)}
            )
        return out
    if not row.max_arcs:
        mass = T.system_mass(row.type, 0)
        return [{"mass": mass, "points": T.system_cost(row.type, mass)}]
    for cls in row.classes or (None,):
        counts = (6,) if row.all_arcs and cls == 1 else range(1, row.max_arcs + 1)
        for arcs in counts:
            mass = T.system_mass(row.type, 0, cls=cls, arcs=arcs)
            entries = [(True, mass)]
            if 2 <= arcs <= 4:  # arcs that can be split into two runs around the ring
                apart = T.system_mass(row.type, 0, cls=cls, arcs=arcs, adjacent=False)
                if apart != mass:
                    entries.append((False, apart))
            for adjacent, m in entries:
                out.append(
                    {
                        "class": cls,
                        "arcs": arcs,
                        "adjacent": adjacent,
                        "mass": m,
                        "points": T.system_cost(row.type, m),
                    }
                )
    return out


def _weak_arc_mass(row: T.SystemType) -> dict[str, float] | None:
    """Mass per weak arc (C1.3) by class, before the total is rounded up: half a full extra
    arc of that class (``systems.weak_arc_mass``)."""
    if not row.weak_arcs:
        return None
    return {str(cls): T.weak_arc_mass(row.type, cls, 2) / 2 for cls in row.classes if cls >= 2}


def _load_masses(row: T.SystemType) -> list[dict[str, Any]]:
    """A magazine: the mass and points each load adds to it (it weighs what it holds); a rack:
    its mass and points built with each load it may carry (one arc)."""
    out: list[dict[str, Any]] = []
    loads = T.LOAD_MASS if row.stores else row.fires
    for load in loads:
        if row.stores:
            mass = T.LOAD_MASS[load]
            out.append({"load": load, "mass": mass, "points": T.system_cost(row.type, mass)})
        else:
            mass = T.system_mass(row.type, 0, arcs=1, load=load)
            cost = T.system_cost(row.type, mass)
            out.append({"load": load, "arcs": 1, "mass": mass, "points": cost})
    return out


def system_row(row: T.SystemType) -> dict[str, Any]:
    return {
        "type": row.type,
        "label": row.label,
        "section": row.section,
        "family": row.family,
        "summary": row.summary,
        "mass_rule": row.mass_rule,
        "cost_rule": row.cost_rule,
        "arcs_rule": row.arcs_rule,
        "classes": list(row.classes),
        "max_arcs": row.max_arcs,
        "all_arcs": row.all_arcs,
        "weak_arcs": row.weak_arcs,
        "weak_arc_mass": _weak_arc_mass(row),
        "modes": list(row.modes),
        "fields": list(row.fields),
        "levels": list(row.levels),
        "grades": list(row.grades),
        "fixed_mass": row.fixed_mass,
        "fixed_cost": row.fixed_cost,
        "cost_per_mass": None if row.fixed_cost is not None else row.cost_per_mass,
        "masses": _masses(row),
        "damage": row.damage,
        "damage_path": T.DAMAGE_PATHS[row.damage] if row.damage else None,
        "screens": row.screens,
        "targets_system": row.targets_system,
        "once_per_game": row.once_per_game,
        "emp_vulnerable": row.type in T.EMP_VULNERABLE,
        "max_per_ship": row.max_per_ship,
        "pending": row.pending,
        "decisions": list(row.decisions),
        "profiles": _profiles(row),
    }


def _orientation(names: tuple[str, ...]) -> dict[str, Any]:
    return {
        "arcs": list(names),
        "spans": [{"arc": a, "from": arc_span(a)[0], "to": arc_span(a)[1]} for a in names],
    }


def systems_table() -> dict[str, Any]:
    """Every designable system type, the hull options, stealth and the arc orientations."""
    hull_rows = []
    for rows in range(MIN_HULL_ROWS, MAX_HULL_ROWS + 1):
        num, den = T.HULL_ROW_COST[rows]
        lost = T.STEALTH_LOST_AT[rows]
        hull_rows.append(
            {
                "rows": rows,
                "cost_per_box": num / den,
                "cost_fraction": [num, den],
                "threshold_numbers": list(T.threshold_numbers(rows)),
                "stealth_lost_after_rows": {
                    "level_1_lost": lost[0],
                    "level_2_becomes_1": lost[1],
                    "level_2_lost": lost[2],
                },
            }
        )
    return {
        "systems": [system_row(row) for row in T.SYSTEMS.values()],
        "families": ["weapon", "ordnance", "bay", "defence", "electronics", "hull"],
        "limits": {
            "mass": {"min": MIN_MASS, "max": MAX_MASS},
            "thrust": {"min": MIN_THRUST, "max": MAX_THRUST},
            "hull_rows": {"min": MIN_HULL_ROWS, "max": MAX_HULL_ROWS, "default": 4},
            "hull_boxes": "10% of TMF (rounded up) to 50% of TMF (rounded down), inclusive",
        },
        "frame": {
            "base_cost": "TMF",
            "drive": "thrust × 5% of TMF, to the nearest whole mass, halves up; 2 points per mass",
            "armour": "1 mass and 2 points per box",
            "hull": "1 mass per box; points per box by hull rows",
        },
        "hull": {"rows": hull_rows},
        "stealth": {
            "levels": list(range(T.MAX_STEALTH + 1)),
            "cost_rule": f"+{T.STEALTH_COST_PER_BOX} points per hull or armour box per level",
            "cost_per_box_per_level": T.STEALTH_COST_PER_BOX,
            "band_factor": [
                {"level": level, "num": num, "den": den}
                for level, (num, den) in T.STEALTH_BAND_FACTOR.items()
            ],
            "passive_fire_control_range": T.PASSIVE_FIRE_CONTROL_RANGE,
        },
        "orientations": {"standard": _orientation(ARCS), "broadside": _orientation(BROADSIDE_ARCS)},
    }
