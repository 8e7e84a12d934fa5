"""The systems table: every battle system in scope (RULES §8, §13; compendium C1, C3, C6, C8).

One row per designable system type: where the compendium describes it, its mass and cost rules
(per arc where they vary), the arcs it may have, its range bands, its dice per band and the path
its damage takes. The designer, the engine, the record sheet, the docs (``docs/systems.md``,
rendered from this table by ``scripts/render_systems.py``) and the tests all read this table,
so a number lives in one place. A value the sources do not give is a project decision and the
row says so in ``decisions``.

The rows carry their rules (``app.rules.systems.row``): the weapons are in ``weapon_rows``, the
other systems in ``support_rows``; ``profiles``, ``mass`` and ``hull`` hold the rules they are
built from. This package is the table's one front: everything else imports from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Protocol

from app.rules.systems.bay_rows import (
    BAY_GROUPS,
    BAY_ROWS,
    DRONE_GROUPS,
    DRONE_TYPES,
    FIGHTER_GROUPS,
    FIGHTER_TYPES,
    GROUP_SIZE,
    STEALTH_GRADES,
    GroupType,
    StealthGrade,
    group_points,
)
from app.rules.systems.hull import (
    HULL_ROW_COST,
    STEALTH_COST_PER_BOX,
    STEALTH_LOST_AT,
    core_threshold_numbers,
    hull_cost,
    stealth_cost,
    threshold_numbers,
)
from app.rules.systems.mass import (
    beam_mass,
    ftl_mass,
    gatling_mass,
    graser_mass,
    heavy_beam_mass,
    screen_mass,
)
from app.rules.systems.ordnance_rows import (
    AMT,
    HEAVY_MISSILE_TYPES,
    LAUNCHER_TYPES,
    LOAD_MASS,
    ORDNANCE_ROWS,
    RACK_SALVO_LOADS,
    REACH,
    SALVO_LOADS,
    launch_kind,
    loads_mass,
)
from app.rules.systems.profiles import (
    DAMAGE_PATHS,
    EMP,
    EMP_MAX_HITS,
    EMP_VULNERABLE,
    FUSION,
    FUSION_MODES,
    HEAVY,
    MAX_STEALTH,
    MODE_SWITCH_OFFLINE_TURNS,
    NEEDLE,
    PASSIVE_FIRE_CONTROL_RANGE,
    PENETRATING,
    STANDARD,
    STEALTH_BAND_FACTOR,
    TORPEDO,
    FireBand,
)
from app.rules.systems.row import Fit, Grade, SystemType
from app.rules.systems.support_rows import SUPPORT_ROWS
from app.rules.systems.weapon_rows import WEAPON_ROWS

__all__ = [
    "AMT",
    "BAY_GROUPS",
    "BUILT_IN",
    "DAMAGE_PATHS",
    "DESIGNABLE_TYPES",
    "DRONE_GROUPS",
    "DRONE_TYPES",
    "EMP",
    "EMP_MAX_HITS",
    "EMP_VULNERABLE",
    "FIGHTER_GROUPS",
    "FIGHTER_TYPES",
    "FUSION",
    "FUSION_MODES",
    "GROUP_SIZE",
    "HEAVY",
    "HEAVY_MISSILE_TYPES",
    "HULL_ROW_COST",
    "LAUNCHER_TYPES",
    "LOAD_MASS",
    "MAX_STEALTH",
    "MODE_SWITCH_OFFLINE_TURNS",
    "NEEDLE",
    "PASSIVE_FIRE_CONTROL_RANGE",
    "PENETRATING",
    "RACK_SALVO_LOADS",
    "REACH",
    "SALVO_LOADS",
    "SENSOR_GRADES",
    "STANDARD",
    "STEALTH_BAND_FACTOR",
    "STEALTH_COST_PER_BOX",
    "STEALTH_GRADES",
    "STEALTH_LOST_AT",
    "SYSTEMS",
    "TORPEDO",
    "WEAPON_TYPES",
    "FireBand",
    "Fit",
    "Grade",
    "GroupType",
    "StealthGrade",
    "SystemType",
    "beam_mass",
    "core_threshold_numbers",
    "ftl_mass",
    "gatling_mass",
    "graser_mass",
    "group_points",
    "heavy_beam_mass",
    "hull_cost",
    "launch_kind",
    "loads_mass",
    "loads_of",
    "profile",
    "row",
    "screen_mass",
    "stealth_cost",
    "system_cost",
    "system_label",
    "system_mass",
    "threshold_numbers",
    "types_doing",
    "weak_arc_mass",
]

# table order: the weapons (C1), the ordnance (C2), the bays (C4.3, C5), then defences,
# electronics and hull systems
SYSTEMS: Mapping[str, SystemType] = MappingProxyType(
    {r.type: r for r in (*WEAPON_ROWS, *ORDNANCE_ROWS, *BAY_ROWS, *SUPPORT_ROWS)}
)
DESIGNABLE_TYPES: frozenset[str] = frozenset(SYSTEMS)
WEAPON_TYPES: frozenset[str] = frozenset(t for t, r in SYSTEMS.items() if r.is_weapon)
# The systems every ship has without designing them, id -> type (basic sensors are not a system).
BUILT_IN: Mapping[str, str] = MappingProxyType(
    {
        "drive": "main_drive",
        "core": "power_core",
        "bridge": "bridge",
        "life_support": "life_support",
    }
)
# {grade: (mass, points)} of every graded system (sensors)
SENSOR_GRADES: Mapping[str, tuple[int, int]] = MappingProxyType(
    {name: (g.mass, g.cost) for r in SYSTEMS.values() for name, g in r.grades.items()}
)


def system_label(system_type: str) -> str:
    """The table's name for a type ("heavy_needle" -> "heavy needle beam"); built-in systems
    (main drive, power core, …) by their type."""
    found = SYSTEMS.get(system_type)
    return found.label if found else system_type.replace("_", " ")


def row(system_type: str) -> SystemType:
    """The table row of a type; KeyError naming the choices otherwise."""
    try:
        return SYSTEMS[system_type]
    except KeyError:
        raise KeyError(
            f"unknown system type {system_type!r}: use one of {', '.join(sorted(SYSTEMS))}"
        ) from None


def types_doing(system_type: str) -> tuple[str, ...]:
    """The types that do the work of ``system_type``: itself and those that supersede it (ECM:
    ECM and area ECM)."""
    return (system_type, *(t for t, r in SYSTEMS.items() if r.supersedes == system_type))


# The table is fixed, so mass, cost and profile are pure functions of their arguments: they are
# cached, as the engine asks them for every system of every ship in every view and shot (bounded:
# a design sent to the API may hold any numbers).
@lru_cache(maxsize=4096)
def system_mass(
    system_type: str,
    design_mass: int,
    *,
    cls: int | None = None,
    arcs: int = 0,
    adjacent: bool = True,
    weak_arcs: int = 0,
    level: int | None = None,
    grade: str | None = None,
    load: str | None = None,
    contents: int = 0,
) -> int:
    """Mass of one system in a design of TMF ``design_mass`` (0 for an unknown type).
    ``load``: a rack's load; ``contents``: what a magazine's loads weigh (``loads_mass``)."""
    r = SYSTEMS.get(system_type)
    if r is None:
        return 0
    return r.mass(Fit(design_mass, cls, arcs, adjacent, weak_arcs, level, grade, load, contents))


class _Loaded(Protocol):
    @property
    def type(self) -> str: ...
    @property
    def load(self) -> str | None: ...


def loads_of(spec: _Loaded) -> tuple[str, ...]:
    """What a launcher can launch, by its type: a rack its own load (none while it has no load it
    may hold), a salvo launcher every salvo load and heavy-missile type, a heavy-missile launcher
    the heavy-missile types, an AMT launcher ``"amt"``; () for anything that launches nothing."""
    r = SYSTEMS.get(spec.type)
    if r is None or not r.is_launcher:
        return ()
    if r.rack:
        return (spec.load,) if spec.load in r.fires else ()
    return r.fires


def weak_arc_mass(system_type: str, cls: int | None, count: int) -> int:
    """The mass of ``count`` weak arcs on a weapon of this type and class (C1.3)."""
    r = SYSTEMS.get(system_type)
    if r is None:  # a full extra arc of 1 mass, as for any weapon the table gives none for
        return max(0, -(-count // 2))
    return r.weak_arc_mass(cls, count)


@lru_cache(maxsize=4096)
def system_cost(system_type: str, mass: int, *, grade: str | None = None) -> int:
    """Points of one system given its mass."""
    r = SYSTEMS.get(system_type)
    return r.cost(mass, grade) if r is not None else 0


@lru_cache(maxsize=4096)
def profile(
    system_type: str, cls: int | None = None, mode: str | None = None
) -> tuple[FireBand, ...]:
    """The firing profile of a weapon (no stealth, no passive fire control)."""
    return row(system_type).bands(cls, mode)
