"""The rules a design must keep (RULES §13; compendium C1, C3, C6, C8.2), as messages.

``design_problems`` lists every rule a design breaks, each saying what to change; what a system
type allows (classes, arcs, modes, levels, grades, how many) is read from its row of the systems
table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from app.rules.designs.ordnance_problems import ordnance_problems
from app.rules.designs.spec import IMPLICIT_TYPES, SystemSpec
from app.rules.geometry import arcs_adjacent
from app.rules.systems import BUILT_IN, DESIGNABLE_TYPES, MAX_STEALTH, SYSTEMS, system_label

if TYPE_CHECKING:
    from app.rules.designs.design import Design

# -- limits (Decision: TMF 5..300, thrust 0..12; see docs/designs.md) ---------------------------
MIN_MASS = 5
MAX_MASS = 300
MIN_THRUST = 0
MAX_THRUST = 12
MIN_HULL_ROWS = 3
MAX_HULL_ROWS = 6

SYSTEM_TYPES: frozenset[str] = DESIGNABLE_TYPES


def hull_bounds(mass: int) -> tuple[int, int]:
    """(fewest, most) hull boxes for a TMF: 10% rounded up to 50% rounded down, inclusive."""
    return (mass + 9) // 10, mass // 2


def design_problems(d: Design) -> list[str]:
    """Every rule this design breaks, each saying what to change (empty when legal)."""
    out: list[str] = []
    out += _identity_problems(d)
    out += _frame_problems(d)
    out += _system_problems(d)
    out += _mass_problems(d)
    return out


def _identity_problems(d: Design) -> list[str]:
    out: list[str] = []
    if not d.id.strip():
        out.append('id is empty: give the design an id, e.g. "my-frigate"')
    if not d.name.strip():
        out.append("name is empty: give the design a name")
    if not d.hull_class.strip():
        out.append('class is empty: name the hull class, e.g. "frigate"')
    return out


def _frame_problems(d: Design) -> list[str]:
    out: list[str] = []
    if not MIN_MASS <= d.mass <= MAX_MASS:
        out.append(
            f"mass {d.mass} is outside {MIN_MASS}..{MAX_MASS}: "
            f"choose a mass from {MIN_MASS} to {MAX_MASS}"
        )
    if not MIN_THRUST <= d.thrust <= MAX_THRUST:
        out.append(
            f"thrust {d.thrust} is outside {MIN_THRUST}..{MAX_THRUST}: "
            f"choose a thrust from {MIN_THRUST} to {MAX_THRUST}"
        )
    if not MIN_HULL_ROWS <= d.hull_rows <= MAX_HULL_ROWS:
        out.append(f"hull_rows {d.hull_rows} is outside 3..6: choose 3, 4, 5 or 6 rows")
    low, high = hull_bounds(d.mass)
    if d.hull < low:
        out.append(f"hull {d.hull} is below 10% of mass {d.mass}: use at least {low} boxes")
    elif d.hull > high:
        out.append(f"hull {d.hull} is above 50% of mass {d.mass}: use at most {high} boxes")
    elif d.hull < d.hull_rows and _frame_in_range(d):
        out.append(_empty_rows_problem(d, high))
    if d.armour < 0:
        out.append(f"armour {d.armour} is negative: use 0 or more boxes")
    if not 0 <= d.stealth <= MAX_STEALTH:
        out.append(f"stealth {d.stealth} is outside 0..{MAX_STEALTH}: choose 0, 1 or 2")
    return out


def _frame_in_range(d: Design) -> bool:
    return MIN_MASS <= d.mass <= MAX_MASS and MIN_HULL_ROWS <= d.hull_rows <= MAX_HULL_ROWS


def _empty_rows_problem(d: Design, most_boxes: int) -> str:
    """RULES §13: at least one box in every hull row; a row without one would buy the
    cheaper price of a longer hull for a hull that behaves like fewer rows."""
    fixes = []
    if d.hull_rows <= most_boxes:
        fixes.append(f"use at least {d.hull_rows} boxes")
    if d.hull >= MIN_HULL_ROWS:
        fixes.append(f"at most {d.hull} rows")
    elif most_boxes >= MIN_HULL_ROWS and d.hull_rows > MIN_HULL_ROWS:
        fixes.append(f"{MIN_HULL_ROWS} rows and {MIN_HULL_ROWS} boxes")
    if not fixes:  # not even 3 boxes fit in 50% of the mass
        fixes.append(
            f"raise the mass to at least {2 * MIN_HULL_ROWS} ({MIN_HULL_ROWS} rows need "
            f"{MIN_HULL_ROWS} boxes, at most 50% of the mass)"
        )
    return (
        f"hull {d.hull} is spread over {d.hull_rows} rows, but every row needs a box: "
        + " or ".join(fixes)
    )


def _system_problems(d: Design) -> list[str]:
    out: list[str] = []
    counts: dict[str, int] = {}
    for s in d.systems:
        counts[s.id] = counts.get(s.id, 0) + 1
    reported: set[str] = set()
    for index, s in enumerate(d.systems):
        if not s.id.strip():
            out.append(
                f"system #{index + 1} ({s.type}) has an empty id: "
                f'give it an id such as "{s.type}-{index + 1}"'
            )
        elif counts[s.id] > 1 and s.id not in reported:
            reported.add(s.id)
            out.append(
                f"system id {s.id!r} is used {counts[s.id]} times: give each system its own id"
            )
        if s.id in BUILT_IN:
            out.append(
                f"system id {s.id!r} is reserved for the built-in "
                f"{system_label(BUILT_IN[s.id])}: choose another id"
            )
        out += _one_system_problems(d, s)

    for stype, table_row in SYSTEMS.items():
        if table_row.max_per_ship is None:
            continue
        ids = [s.id for s in d.systems if s.type == stype]
        if len(ids) > table_row.max_per_ship:
            out.append(
                f"{len(ids)} {table_row.label} systems ({', '.join(ids)}): keep at most "
                f"{'one' if table_row.max_per_ship == 1 else table_row.max_per_ship}"
            )
    out += _superseded_problems(d)
    out += ordnance_problems(d)
    return out


def _superseded_problems(d: Design) -> list[str]:
    """A system beside one that does its work already (ECM beside area ECM)."""
    out: list[str] = []
    for stype, table_row in SYSTEMS.items():
        if table_row.supersedes is None:
            continue
        ours = [s.id for s in d.systems if s.type == stype]
        theirs = [s.id for s in d.systems if s.type == table_row.supersedes]
        if ours and theirs:
            lesser, label = system_label(table_row.supersedes), table_row.label
            out.append(
                f"{lesser} {', '.join(theirs)} beside {label} {', '.join(ours)}: a ship with "
                f"{label} has {lesser} itself; remove the {lesser}"
            )
    return out


def _one_system_problems(d: Design, s: SystemSpec) -> list[str]:
    out: list[str] = []
    if s.type in IMPLICIT_TYPES:
        return [
            f"{system_label(s.type)} {s.id}: every ship has a {system_label(s.type)} built in; "
            "remove this system"
        ]
    if s.type not in SYSTEM_TYPES:
        return [
            f"system {s.id} has unknown type {s.type!r}: use one of "
            f"{', '.join(sorted(SYSTEM_TYPES))}"
        ]
    takes = SYSTEMS[s.type].fields
    name = s.describe()
    for field, is_set in (
        ("class", s.cls is not None),
        ("arcs", bool(s.arcs)),
        ("weak_arcs", bool(s.weak_arcs)),
        ("mode", s.mode is not None),
        ("level", s.level is not None),
        ("grade", s.grade is not None),
        ("load", s.load is not None),
        ("loads", bool(s.loads)),
        ("magazine", s.magazine is not None),
        ("capacity", s.capacity is not None),
    ):
        if is_set and field not in takes:
            out.append(f"{name} takes no {field}: remove it")
    if SYSTEMS[s.type].is_weapon or SYSTEMS[s.type].max_arcs:
        out += _weapon_problems(d, s)
    else:
        out += SYSTEMS[s.type].choice_problems(s.id, s.level, s.grade)
    return out


def _arc_list_problems(d: Design, name: str, arcs: Sequence[str], field: str) -> list[str]:
    out: list[str] = []
    ring = d.arcs_available
    orientation = "broadside" if d.broadside else "standard"
    seen: set[str] = set()
    twice: list[str] = []
    for arc in arcs:
        if arc in seen:
            if arc not in twice:
                twice.append(arc)
            continue
        seen.add(arc)
        if arc not in ring:
            out.append(
                f"{name}: {field} {arc!r} is not one of this design's {orientation} arcs: "
                f"use {', '.join(ring[:-1])} or {ring[-1]}"
            )
    for arc in twice:
        out.append(f"{name} lists {field} {arc!r} more than once: list each arc once")
    return out


def _weapon_problems(d: Design, s: SystemSpec) -> list[str]:
    """Class, arcs, weak arcs and mode of a weapon (or a launcher: its arcs) against its row of
    the systems table."""
    out: list[str] = []
    table_row = SYSTEMS[s.type]
    if table_row.classes and s.cls not in table_row.classes:
        given = "no class" if s.cls is None else f"class {s.cls}"
        choices = ", ".join(str(c) for c in table_row.classes[:-1])
        out.append(
            f"{table_row.label} {s.id} has {given}: choose class {choices} or "
            f"{table_row.classes[-1]}"
        )
    name = s.describe()
    ring = d.arcs_available
    out += _arc_list_problems(d, name, s.arcs, "arc")
    distinct = set(s.arcs)
    if table_row.all_arcs and s.cls == 1:
        if distinct != set(ring):
            out.append(
                f"{name} always fires in all six arcs: list all six ({', '.join(ring)}) or none"
            )
    elif not s.arcs:
        out.append(f"{name} has no arcs: give it at least one arc")
    elif len(distinct) > table_row.max_arcs:
        out.append(
            f"{name} has {len(distinct)} arcs but a {table_row.label} takes at most "
            f"{table_row.max_arcs}: remove {len(distinct) - table_row.max_arcs}"
        )
    elif table_row.adjacent_arcs and not arcs_adjacent(s.arcs):
        out.append(f"{name}: its arcs must be next to each other ({table_row.arcs_rule})")
    if s.weak_arcs and table_row.weak_arcs:
        if (s.cls or 0) < 2:
            out.append(
                f"{name}: weak arcs fire one class lower, so only class 2 or above may have "
                "them; remove the weak arcs or raise the class"
            )
            return out
        out += _arc_list_problems(d, name, s.weak_arcs, "weak arc")
        both = [a for a in dict.fromkeys(s.weak_arcs) if a in distinct]
        if both:
            out.append(f"{name}: {', '.join(both)} is both a full and a weak arc: list it once")
    if table_row.modes and s.mode is not None and s.mode not in table_row.modes:
        modes = " or ".join(repr(m) for m in table_row.modes)
        out.append(f"{name} has mode {s.mode!r}: choose {modes}")
    return out


def _mass_problems(d: Design) -> list[str]:
    out: list[str] = []
    used = d.mass_used()
    if used > d.mass:
        out.append(
            f"mass used {used} is more than mass {d.mass}: free {used - d.mass} mass "
            "(fewer systems, armour or hull boxes, less thrust) or raise the mass"
        )
    drive = d.drive_mass()
    fixed = drive + d.hull + max(d.armour, 0)
    if fixed > d.mass:
        out.append(
            f"main drive ({drive} mass for thrust {d.thrust}), hull ({d.hull}) and "
            f"armour ({d.armour}) need {fixed} mass; the design's mass is {d.mass}: "
            "lower thrust, hull or armour"
        )
    left = d.mass - fixed
    for s in d.systems:
        need = s.mass(d.mass)
        if need > left:
            out.append(f"{s.describe()} needs {need} mass; only {max(left, 0)} left")
        left -= need
    return out
