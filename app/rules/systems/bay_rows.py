"""Fighter and drone bays (compendium C4.3, C5.0–C5.2) and the C5.0 tables of the groups they hold.

A bay holds one group of six, its type chosen at design: the bay's ``load``, secret like a
magazine's loads (RULES §9.1). Bays launch in their ship's step 2 (``app.rules.fighters``).
A group type is a base type of C5.0, optionally bought stealthy (``stealth_<type>`` or
``super_stealth_<type>``): C5.0 lists stealth and super stealth as surcharges on a type, with no
numbers of their own beyond points and a DRM.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from app.rules.systems.row import SystemType

GROUP_SIZE = 6  # fighters (or drones) in one group (C4.3)
BOARDING = "pods"  # boarding pods: out of scope until boarding exists
_MOVE = 24  # primary move, mu (fast: 36)
_FAST_MOVE = 36
_SECONDARY = 12  # secondary move, mu (interception)
_BEAM = "1BD*"


@dataclass(frozen=True)
class GroupType:
    """One row of C5.0: a fighter or drone type, numbers per fighter."""

    name: str
    label: str
    drone: bool
    points: int  # per fighter (C5.0's bracketed figure; the group pays six of them)
    cef: int  # combat endurance factor
    primary_move: int
    secondary_move: int
    anti_ship: str | None  # C5.0 fire notation against ships; None: n/a, or see ``note``
    pd: str | None  # C5.0 notation against fighters and missiles; None: n/a
    drm: int  # the DRM to fire against them (net: a drone's +1 included)
    fast: bool = False
    stealth: int = 0  # 0, 1 (stealth) or 2 (super stealth)
    note: str | None = None  # the project's decision for the table's lost note

    @property
    def group_points(self) -> int:
        """Points of a whole group of six."""
        return GROUP_SIZE * self.points

    @property
    def boarding(self) -> bool:
        return self.name.endswith(BOARDING)


@dataclass(frozen=True)
class StealthGrade:
    """C5.0's stealth rows: a surcharge per fighter and a DRM to fire against the group."""

    name: str
    label: str
    level: int
    points: int  # extra per fighter
    drm: int  # added to the base type's DRM
    note: str


_TORPEDO = (
    "decision (lost note 1): a torpedo group fires one pulse torpedo per group per sortie, "
    "not a beam die per fighter"
)
_MULTI = (
    "decision (lost note 2): a multi-role group chooses per attack whether it attacks as "
    "anti-ship or point defence (`mode`)"
)
_NEEDLE = (
    "decision (lost note 3): a needle group attacks one system of its target named with "
    "the attack (`system`), as a needle beam"
)
_PODS = (
    "decision (lost note 4): boarding pods are out of scope until boarding exists; a design "
    "may not carry them"
)
_STEALTH = (
    "decision (lost note 5 of the fighters, 4 of the drones): stealth is bought on a base type, "
    "adding to its points per fighter and to the DRM to fire against it; everything else is "
    "the base type's"
)


# name: (label, points per fighter, fighter CEF, fast, anti-ship, PD, fighter DRM, note);
# a drone of the same type has CEF 3 fewer and +1 DRM (C5.2), and there are no drone pods
_BASE: tuple[tuple[str, str, int, int, bool, str | None, str | None, int, str | None], ...] = (
    ("standard", "standard", 3, 6, False, _BEAM, _BEAM, 0, None),
    ("heavy", "heavy", 5, 6, False, _BEAM, _BEAM, -1, None),
    ("fast", "fast", 4, 6, True, _BEAM, _BEAM, 0, None),
    ("interceptor", "interceptor", 3, 6, False, None, "1BD+1*", 0, None),
    ("attack", "attack", 4, 6, False, "1BD+1*", "1BD-2*", 0, None),
    ("long_range", "long-range", 4, 9, False, _BEAM, _BEAM, 0, None),
    ("torpedo", "torpedo", 6, 6, False, None, "1BD-2*", 0, _TORPEDO),
    ("multi", "multi-role", 7, 6, False, "1BD+1*", "1BD+1*", 0, _MULTI),
    ("needle", "needle", 7, 6, False, None, "1BD-2*", 1, _NEEDLE),
    (BOARDING, "boarding pods", 6, 6, False, None, None, 0, _PODS),
)
DRONE_CEF_LESS = 3  # C5.2: drones have 3 CEF where fighters have 6 (long-range: 6 where 9)
DRONE_DRM = 1  # C5.2: +1 DRM to all fire against drones


def _row(
    entry: tuple[str, str, int, int, bool, str | None, str | None, int, str | None], drone: bool
) -> GroupType:
    name, label, pts, cef, fast, anti, pd, drm, note = entry
    return GroupType(
        name=name,
        label=f"{label} {'drones' if drone else 'fighters'}",
        drone=drone,
        points=pts,
        cef=cef - DRONE_CEF_LESS if drone else cef,
        primary_move=_FAST_MOVE if fast else _MOVE,
        secondary_move=_SECONDARY,
        anti_ship=anti,
        pd=pd,
        drm=drm + DRONE_DRM if drone else drm,
        fast=fast,
        note=note,
    )


FIGHTER_TYPES: Mapping[str, GroupType] = MappingProxyType(
    {e[0]: _row(e, drone=False) for e in _BASE}
)
DRONE_TYPES: Mapping[str, GroupType] = MappingProxyType(
    {e[0]: _row(e, drone=True) for e in _BASE if e[0] != BOARDING}
)
STEALTH_GRADES: Mapping[str, StealthGrade] = MappingProxyType(
    {
        "stealth": StealthGrade("stealth", "stealth", 1, 2, -1, _STEALTH),
        "super_stealth": StealthGrade("super_stealth", "super stealth", 2, 6, -2, _STEALTH),
    }
)


def _variants(types: Mapping[str, GroupType]) -> dict[str, GroupType]:
    out = dict(types)
    for g in STEALTH_GRADES.values():
        for base in types.values():
            out[f"{g.name}_{base.name}"] = replace(
                base,
                name=f"{g.name}_{base.name}",
                label=f"{g.label} {base.label}",
                points=base.points + g.points,
                drm=base.drm + g.drm,
                stealth=g.level,
            )
    return out


# every group type a bay may name, stealthy variants included
FIGHTER_GROUPS: Mapping[str, GroupType] = MappingProxyType(_variants(FIGHTER_TYPES))
DRONE_GROUPS: Mapping[str, GroupType] = MappingProxyType(_variants(DRONE_TYPES))
FIGHTER_BAY = "fighter_bay"
DRONE_BAY = "drone_bay"
BAY_GROUPS: Mapping[str, Mapping[str, GroupType]] = MappingProxyType(
    {FIGHTER_BAY: FIGHTER_GROUPS, DRONE_BAY: DRONE_GROUPS}
)


def group_points(system_type: str, load: str | None) -> int:
    """The points of the group a bay holds (0 for anything else, or a group type not in the
    tables: the design's problems name it)."""
    found = BAY_GROUPS.get(system_type, {}).get(load or "")
    return found.group_points if found is not None else 0


def _bay(**kw: object) -> SystemType:
    return SystemType(family="bay", arcs_rule="none", **kw)  # type: ignore[arg-type]


_POINTS = "its points include its group's: 6 × the group type's points per fighter (C5.0)"
_SECRET = "its group type is secret, like a magazine's loads: the other side sees the bay only"
_LAUNCH = (
    "decision F1, F2: a bay launches its group in its own ship's step 2, one per activation, the "
    "ship in control and the bay working; the group moves at once up to half its primary move"
)
_LOST = "decision F8: a bay that fails or is destroyed loses the group aboard (as a magazine)"
_LAND = (
    "decision F3: a group lands within its primary move + 6 mu of its mother, in its own bay or "
    "any empty working fighter bay; its CEF comes back in full, ready the next turn"
)
BAY_ROWS: tuple[SystemType, ...] = (
    _bay(
        type=FIGHTER_BAY,
        label="fighter bay",
        section="C4.3, C5.1",
        summary="holds one group of six fighters of a type chosen at design",
        mass_rule="9",
        cost_rule="27 + 6 × the type's points per fighter",
        fixed_mass=9,
        fixed_cost=27,
        holds=tuple(n for n in FIGHTER_GROUPS if not FIGHTER_GROUPS[n].boarding),
        decisions=(_POINTS, _SECRET, _PODS, _LAUNCH, _LAND, _LOST),
    ),
    _bay(
        type=DRONE_BAY,
        label="drone bay",
        section="C5.2",
        summary="holds one group of six drones of a type chosen at design; drones never land",
        mass_rule="6",
        cost_rule="18 + 6 × the type's points per drone",
        fixed_mass=6,
        fixed_cost=18,
        holds=tuple(DRONE_GROUPS),
        decisions=(
            _POINTS,
            _SECRET,
            "decision F10: drones are not recovered during a battle (C5.2): a drone bay "
            "launches once",
            _LAUNCH,
            _LOST,
        ),
    ),
)
