"""Ship designs: systems, mass and points (RULES §13; compendium C1.1, C3.1–3.3, C6, C8).

A design has a total mass (TMF); its hull, armour, main drive and systems must fit in it. The
points value is the base cost (= TMF) plus the cost of everything in it. Every number and every
rounding choice here is written out in ``docs/designs.md``; the ones the sources leave open are
marked there as decisions.

Nothing here raises while a design is being built or measured: ``Design.problems()`` lists every
rule a design breaks, each saying what to change, and ``validate_design`` turns a non-empty list
into a ``DesignError``. ``Design.from_dict`` is strict about JSON types (a bool is not a number).

The package's front: ``spec`` (one system), ``design`` (the design, its JSON and summary),
``problems`` (the rules it must keep) and ``presets`` (the product's own designs).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.designs.design import Design, design_summary, hull_points, validate_design
from app.rules.designs.presets import PRESET_DESIGNS, preset
from app.rules.designs.problems import (
    MAX_HULL_ROWS,
    MAX_MASS,
    MAX_THRUST,
    MIN_HULL_ROWS,
    MIN_MASS,
    MIN_THRUST,
    SYSTEM_TYPES,
    hull_bounds,
)
from app.rules.designs.spec import IMPLICIT_SYSTEMS, IMPLICIT_TYPES, SystemSpec
from app.rules.geometry import arcs_adjacent
from app.rules.systems import SENSOR_GRADES as _TABLE_SENSOR_GRADES
from app.rules.systems import WEAPON_TYPES, screen_mass
from app.rules.systems import beam_mass as _table_beam_mass

__all__ = [
    "IMPLICIT_SYSTEMS",
    "IMPLICIT_TYPES",
    "MAX_HULL_ROWS",
    "MAX_MASS",
    "MAX_THRUST",
    "MIN_HULL_ROWS",
    "MIN_MASS",
    "MIN_THRUST",
    "PRESET_DESIGNS",
    "SENSOR_GRADES",
    "SYSTEM_TYPES",
    "WEAPON_TYPES",
    "Design",
    "SystemSpec",
    "beam_mass",
    "design_summary",
    "hull_bounds",
    "hull_points",
    "preset",
    "screen_mass",
    "validate_design",
]

SENSOR_GRADES: tuple[str, ...] = tuple(_TABLE_SENSOR_GRADES)


def beam_mass(cls: int | None, arcs: Sequence[str]) -> int:
    """Mass of a standard beam battery (C1.1, RULES §13); 0 for a class that does not exist."""
    return _table_beam_mass(cls, len(arcs), arcs_adjacent(arcs))
