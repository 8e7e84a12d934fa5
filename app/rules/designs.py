"""Ship designs: systems, mass and points (RULES §13; compendium C1.1, C3.1–3.3, C6, C8).

A design has a total mass (TMF); its hull, armour, main drive and systems must fit in it. The
points value is the base cost (= TMF) plus the cost of everything in it. Every number and every
rounding choice here is written out in ``docs/designs.md``; the ones the sources leave open are
marked there as decisions.

Nothing here raises while a design is being built or measured: ``Design.problems()`` lists every
rule a design breaks, each saying what to change, and ``validate_design`` turns a non-empty list
into a ``DesignError``. ``Design.from_dict`` is strict about JSON types (a bool is not a number).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from app.rules.errors import DesignError
from app.rules.geometry import ARCS, BROADSIDE_ARCS
from app.rules.systems import (
    DESIGNABLE_TYPES,
    MAX_STEALTH,
    SYSTEMS,
    hull_cost,
    stealth_cost,
    system_cost,
    system_mass,
)
from app.rules.systems import SENSOR_GRADES as TABLE_SENSOR_GRADES
from app.rules.systems import WEAPON_TYPES as TABLE_WEAPON_TYPES
from app.rules.systems import beam_mass as _table_beam_mass
from app.rules.systems import screen_mass as screen_mass

# -- limits (Decision: TMF 5..300, thrust 0..12; see docs/designs.md) ---------------------------
MIN_MASS = 5
MAX_MASS = 300
MIN_THRUST = 0
MAX_THRUST = 12
MIN_HULL_ROWS = 3
MAX_HULL_ROWS = 6

SYSTEM_TYPES: frozenset[str] = DESIGNABLE_TYPES
WEAPON_TYPES: frozenset[str] = TABLE_WEAPON_TYPES
SENSOR_GRADES: tuple[str, ...] = tuple(TABLE_SENSOR_GRADES)

_LABELS: dict[str, str] = {
    **{t: r.label for t, r in SYSTEMS.items()},
    "main_drive": "main drive",
    "power_core": "power core",
    "bridge": "bridge",
    "life_support": "life support",
}


def _pct_half_up(mass: int, percent: int) -> int:
    """``percent``% of ``mass``, rounded to the nearest whole number with halves going up."""
    return max(0, (mass * percent + 50) // 100)


def _ring(arcs: Sequence[str]) -> tuple[str, ...] | None:
    """The arc ring (standard or broadside) that holds every one of these arcs, if any."""
    for ring in (ARCS, BROADSIDE_ARCS):
        if all(a in ring for a in arcs):
            return ring
    return None


def arcs_adjacent(arcs: Sequence[str]) -> bool:
    """Whether the distinct arcs form one unbroken run around their ring (F-FS-AS, FP-F, …)."""
    distinct = set(arcs)
    ring = _ring(list(distinct))
    if ring is None:
        return False
    n = len(distinct)
    if n in (0, len(ring)):
        return True
    indices = {ring.index(a) for a in distinct}
    return any({(s + i) % len(ring) for i in range(n)} == indices for s in indices)


def beam_mass(cls: int | None, arcs: Sequence[str]) -> int:
    """Mass of a standard beam battery (C1.1, RULES §13); 0 for a class that does not exist."""
    return _table_beam_mass(cls, len(arcs), arcs_adjacent(arcs))


def hull_points(hull: int, hull_rows: int) -> int:
    """Points for the hull boxes by row count (C8.2); a row count out of range is priced as 4."""
    return hull_cost(hull, hull_rows)


def hull_bounds(mass: int) -> tuple[int, int]:
    """(fewest, most) hull boxes for a TMF: 10% rounded up to 50% rounded down, inclusive."""
    return (mass + 9) // 10, mass // 2


@dataclass(frozen=True)
class SystemSpec:
    """One designed system (or one of the implicit ones every ship has)."""

    id: str
    type: str
    cls: int | None = None
    arcs: tuple[str, ...] = ()
    level: int | None = None
    grade: str | None = None
    weak_arcs: tuple[str, ...] = ()  # C1.3: extra arcs firing one class lower
    mode: str | None = None  # multi-fusion launchers: "flare" or "torpedo" at the start

    # -- mass and points ---------------------------------------------------------------------
    def mass(self, design_mass: int) -> int:
        """Mass in a design of TMF ``design_mass``, by the systems table.

        The implicit systems weigh nothing here: the main drive's mass depends on thrust and is
        ``Design.drive_mass()``; the core systems come with the hull. Unknown types weigh 0 (and
        are reported by ``Design.problems()``).
        """
        return system_mass(
            self.type,
            design_mass,
            cls=self.cls,
            arcs=len(self.arcs),
            adjacent=arcs_adjacent(self.arcs),
            weak_arcs=len(self.weak_arcs),
            level=self.level,
            grade=self.grade,
        )

    def points(self, design_mass: int) -> int:
        return system_cost(self.type, self.mass(design_mass), grade=self.grade)

    @property
    def is_weapon(self) -> bool:
        return self.type in WEAPON_TYPES

    def fire_mode(self) -> str | None:
        """The mode a multi-mode weapon starts a battle in (the first of its modes by default)."""
        modes = SYSTEMS[self.type].modes if self.type in SYSTEMS else ()
        return (self.mode or modes[0]) if modes else None

    def describe(self) -> str:
        """How messages name this system, e.g. ``class-3 beam battery beam-2 with 4 arcs``."""
        label = _LABELS.get(self.type, self.type)
        if self.type in SYSTEMS and SYSTEMS[self.type].classes:
            table_row = SYSTEMS[self.type]
            if self.cls in table_row.classes and not (table_row.all_arcs and self.cls == 1):
                n = len(self.arcs)
                return f"class-{self.cls} {label} {self.id} with {n} arc{'' if n == 1 else 's'}"
            if self.cls is not None:
                return f"class-{self.cls} {label} {self.id}"
        if self.type == "screen" and self.level is not None:
            return f"level-{self.level} screen {self.id}"
        if self.type == "sensors" and self.grade is not None:
            return f"{self.grade} sensors {self.id}"
        return f"{label} {self.id}"

    # -- JSON --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """``{"id", "type"}`` plus the fields that apply: ``class``, ``arcs``, ``weak_arcs``,
        ``mode`` (weapons), ``level`` (screens), ``grade`` (sensors). A field set on a type it
        does not apply to is kept too, so that the validator can still see (and refuse) it after
        a round trip."""
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.cls is not None:
            out["class"] = self.cls
        if self.arcs or self.type in WEAPON_TYPES:
            out["arcs"] = list(self.arcs)
        if self.level is not None:
            out["level"] = self.level
        if self.grade is not None:
            out["grade"] = self.grade
        if self.weak_arcs:
            out["weak_arcs"] = list(self.weak_arcs)
        if self.mode is not None:
            out["mode"] = self.mode
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SystemSpec:
        """Strict: a wrong JSON type raises ``DesignError`` naming the field."""
        spec, problems = _system_from_dict(d, "")
        if problems or spec is None:
            raise DesignError(problems or ["system: could not be read"])
        return spec


# The systems every ship has without designing them (basic sensors are not a system at all).
_IMPLICIT: tuple[SystemSpec, ...] = (
    SystemSpec("drive", "main_drive"),
    SystemSpec("core", "power_core"),
    SystemSpec("bridge", "bridge"),
    SystemSpec("life_support", "life_support"),
)
IMPLICIT_SYSTEMS = _IMPLICIT
IMPLICIT_TYPES: frozenset[str] = frozenset(s.type for s in _IMPLICIT)
_RESERVED_IDS: dict[str, str] = {s.id: s.type for s in _IMPLICIT}


# -- strict JSON readers --------------------------------------------------------------------
def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_str(d: Mapping[str, Any], key: str, where: str, problems: list[str]) -> str | None:
    value = d[key]
    if not isinstance(value, str):
        problems.append(f"{where}{key} must be a string, got {value!r}")
        return None
    return value


def _read_int(d: Mapping[str, Any], key: str, where: str, problems: list[str]) -> int | None:
    value = d[key]
    if not _is_int(value):
        problems.append(f"{where}{key} must be a whole number, got {value!r}")
        return None
    return int(value)


_SYSTEM_KEYS = ("id", "type", "class", "arcs", "weak_arcs", "level", "grade", "mode")


def _system_from_dict(d: object, where: str) -> tuple[SystemSpec | None, list[str]]:
    problems: list[str] = []
    label = where.rstrip(".") or "system"
    if not isinstance(d, Mapping):
        return None, [f"{label} must be an object, got {d!r}"]
    for key in d:
        if key not in _SYSTEM_KEYS:
            problems.append(
                f"{where}{key}: unknown field {key!r}; a system has {', '.join(_SYSTEM_KEYS)}"
            )
    for key in ("id", "type"):
        if key not in d:
            problems.append(f"{where}{key} is missing: every system needs an id and a type")
    sid = _read_str(d, "id", where, problems) if "id" in d else None
    stype = _read_str(d, "type", where, problems) if "type" in d else None
    scls = _read_int(d, "class", where, problems) if "class" in d else None
    level = _read_int(d, "level", where, problems) if "level" in d else None
    grade = _read_str(d, "grade", where, problems) if "grade" in d else None
    mode = _read_str(d, "mode", where, problems) if "mode" in d else None
    arcs = _read_arcs(d, "arcs", where, problems)
    weak = _read_arcs(d, "weak_arcs", where, problems)
    if problems or sid is None or stype is None:
        return None, problems
    spec = SystemSpec(
        sid, stype, cls=scls, arcs=arcs, level=level, grade=grade, weak_arcs=weak, mode=mode
    )
    return spec, []


def _read_arcs(d: Mapping[str, Any], key: str, where: str, problems: list[str]) -> tuple[str, ...]:
    if key not in d:
        return ()
    raw = d[key]
    if not isinstance(raw, list | tuple):
        problems.append(f"{where}{key} must be a list of arc names, got {raw!r}")
    elif not all(isinstance(a, str) for a in raw):
        problems.append(f"{where}{key} must be a list of arc names (strings), got {raw!r}")
    else:
        return tuple(raw)
    return ()


_DESIGN_KEYS = (
    "id",
    "name",
    "class",
    "mass",
    "thrust",
    "hull",
    "hull_rows",
    "armour",
    "broadside",
    "stealth",
    "systems",
)
_REQUIRED_DESIGN_KEYS = ("id", "name", "class", "mass", "thrust", "hull")


@dataclass(frozen=True)
class Design:
    """A ship design. Build freely; ask ``problems()`` (or ``validate_design``) whether it is legal.

    A class-1 beam (heavy beam, EMP) given no arcs is read as firing in all six arcs of the
    design's orientation.
    """

    id: str
    name: str
    hull_class: str
    mass: int
    thrust: int
    hull: int
    hull_rows: int = 4
    armour: int = 0
    broadside: bool = False
    systems: tuple[SystemSpec, ...] = ()
    stealth: int = 0  # stealth hull level 0..2 (C8.2)

    def __post_init__(self) -> None:
        ring = BROADSIDE_ARCS if self.broadside else ARCS
        normalised = tuple(
            replace(s, arcs=ring) if _all_arcs(s) and s.cls == 1 and not s.arcs else s
            for s in self.systems
        )
        if normalised != self.systems or not isinstance(self.systems, tuple):
            object.__setattr__(self, "systems", normalised)

    # -- measures ----------------------------------------------------------------------------
    @property
    def arcs_available(self) -> tuple[str, ...]:
        """The six arc names of this design's orientation."""
        return BROADSIDE_ARCS if self.broadside else ARCS

    def drive_mass(self) -> int:
        """Main drive: thrust × 5% of TMF, rounded to the nearest whole number, halves up."""
        return _pct_half_up(self.mass, 5 * max(self.thrust, 0))

    def hull_points(self) -> int:
        return hull_points(self.hull, self.hull_rows)

    def mass_used(self) -> int:
        return (
            self.drive_mass()
            + self.hull
            + self.armour
            + sum(s.mass(self.mass) for s in self.systems)
        )

    def points(self) -> int:
        return (
            self.mass
            + self.hull_points()
            + 2 * self.armour
            + 2 * self.drive_mass()
            + sum(s.points(self.mass) for s in self.systems)
            + self.stealth_points()
        )

    def stealth_points(self) -> int:
        return stealth_cost(self.stealth, self.hull, self.armour)

    def all_systems(self) -> tuple[SystemSpec, ...]:
        """The designed systems in design order, then the implicit drive and core systems."""
        return self.systems + _IMPLICIT

    def weapons(self) -> tuple[SystemSpec, ...]:
        return tuple(s for s in self.systems if s.type in WEAPON_TYPES)

    def system(self, system_id: str) -> SystemSpec:
        """The system (designed or implicit) with this id; KeyError otherwise."""
        for s in self.all_systems():
            if s.id == system_id:
                return s
        raise KeyError(f"design {self.id!r} has no system {system_id!r}")

    # -- rules -------------------------------------------------------------------------------
    def problems(self) -> list[str]:
        """Every rule this design breaks, each saying what to change (empty when legal)."""
        out: list[str] = []
        out += self._identity_problems()
        out += self._frame_problems()
        out += self._system_problems()
        out += self._mass_problems()
        return out

    def _identity_problems(self) -> list[str]:
        out: list[str] = []
        if not self.id.strip():
            out.append('id is empty: give the design an id, e.g. "my-frigate"')
        if not self.name.strip():
            out.append("name is empty: give the design a name")
        if not self.hull_class.strip():
            out.append('class is empty: name the hull class, e.g. "frigate"')
        return out

    def _frame_problems(self) -> list[str]:
        out: list[str] = []
        if not MIN_MASS <= self.mass <= MAX_MASS:
            out.append(
                f"mass {self.mass} is outside {MIN_MASS}..{MAX_MASS}: "
                f"choose a mass from {MIN_MASS} to {MAX_MASS}"
            )
        if not MIN_THRUST <= self.thrust <= MAX_THRUST:
            out.append(
                f"thrust {self.thrust} is outside {MIN_THRUST}..{MAX_THRUST}: "
                f"choose a thrust from {MIN_THRUST} to {MAX_THRUST}"
            )
        if not MIN_HULL_ROWS <= self.hull_rows <= MAX_HULL_ROWS:
            out.append(f"hull_rows {self.hull_rows} is outside 3..6: choose 3, 4, 5 or 6 rows")
        low, high = hull_bounds(self.mass)
        if self.hull < low:
            out.append(
                f"hull {self.hull} is below 10% of mass {self.mass}: use at least {low} boxes"
            )
        elif self.hull > high:
            out.append(
                f"hull {self.hull} is above 50% of mass {self.mass}: use at most {high} boxes"
            )
        elif self.hull < self.hull_rows and self._frame_in_range():
            out.append(self._empty_rows_problem(high))
        if self.armour < 0:
            out.append(f"armour {self.armour} is negative: use 0 or more boxes")
        if not 0 <= self.stealth <= MAX_STEALTH:
            out.append(f"stealth {self.stealth} is outside 0..{MAX_STEALTH}: choose 0, 1 or 2")
        return out

    def _frame_in_range(self) -> bool:
        return (
            MIN_MASS <= self.mass <= MAX_MASS and MIN_HULL_ROWS <= self.hull_rows <= MAX_HULL_ROWS
        )

    def _empty_rows_problem(self, most_boxes: int) -> str:
        """RULES §13: at least one box in every hull row; a row without one would buy the
        cheaper price of a longer hull for a hull that behaves like fewer rows."""
        fixes = []
        if self.hull_rows <= most_boxes:
            fixes.append(f"use at least {self.hull_rows} boxes")
        if self.hull >= MIN_HULL_ROWS:
            fixes.append(f"at most {self.hull} rows")
        elif most_boxes >= MIN_HULL_ROWS and self.hull_rows > MIN_HULL_ROWS:
            fixes.append(f"{MIN_HULL_ROWS} rows and {MIN_HULL_ROWS} boxes")
        if not fixes:  # not even 3 boxes fit in 50% of the mass
            fixes.append(
                f"raise the mass to at least {2 * MIN_HULL_ROWS} ({MIN_HULL_ROWS} rows need "
                f"{MIN_HULL_ROWS} boxes, at most 50% of the mass)"
            )
        return (
            f"hull {self.hull} is spread over {self.hull_rows} rows, but every row needs a box: "
            + " or ".join(fixes)
        )

    def _system_problems(self) -> list[str]:
        out: list[str] = []
        counts: dict[str, int] = {}
        for s in self.systems:
            counts[s.id] = counts.get(s.id, 0) + 1
        reported: set[str] = set()
        for index, s in enumerate(self.systems):
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
            if s.id in _RESERVED_IDS:
                out.append(
                    f"system id {s.id!r} is reserved for the built-in "
                    f"{_LABELS[_RESERVED_IDS[s.id]]}: choose another id"
                )
            out += self._one_system_problems(s)

        for stype, table_row in SYSTEMS.items():
            if table_row.max_per_ship is None:
                continue
            ids = [s.id for s in self.systems if s.type == stype]
            if len(ids) > table_row.max_per_ship:
                out.append(
                    f"{len(ids)} {table_row.label} systems ({', '.join(ids)}): keep at most "
                    f"{'one' if table_row.max_per_ship == 1 else table_row.max_per_ship}"
                )
        ecm = [s.id for s in self.systems if s.type == "ecm"]
        area = [s.id for s in self.systems if s.type == "area_ecm"]
        if ecm and area:
            out.append(
                f"ECM {', '.join(ecm)} beside area ECM {', '.join(area)}: a ship with area ECM "
                "has ECM itself; remove the ECM"
            )
        return out

    def _one_system_problems(self, s: SystemSpec) -> list[str]:
        out: list[str] = []
        if s.type in IMPLICIT_TYPES:
            return [
                f"{_LABELS[s.type]} {s.id}: every ship has a {_LABELS[s.type]} built in; "
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
        ):
            if is_set and field not in takes:
                out.append(f"{name} takes no {field}: remove it")
        if SYSTEMS[s.type].is_weapon:
            out += self._weapon_problems(s)
        elif s.type == "screen" and s.level not in (1, 2):
            given = "no level" if s.level is None else f"level {s.level}"
            out.append(f"screen {s.id} has {given}: choose level 1 or 2")
        elif s.type == "sensors" and s.grade not in SENSOR_GRADES:
            if s.grade == "basic":
                out.append(
                    f"sensors {s.id}: basic sensors are built into every ship; make it "
                    '"enhanced" or "superior", or remove it'
                )
            else:
                given = "no grade" if s.grade is None else f"grade {s.grade!r}"
                out.append(f'sensors {s.id} has {given}: choose "enhanced" or "superior"')
        return out

    def _arc_list_problems(self, name: str, arcs: Sequence[str], field: str) -> list[str]:
        out: list[str] = []
        ring = self.arcs_available
        orientation = "broadside" if self.broadside else "standard"
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

    def _weapon_problems(self, s: SystemSpec) -> list[str]:
        """Class, arcs, weak arcs and mode of a weapon against its row of the systems table."""
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
        ring = self.arcs_available
        out += self._arc_list_problems(name, s.arcs, "arc")
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
        elif s.type == "meson" and not arcs_adjacent(s.arcs):
            out.append(f"{name}: its arcs must be next to each other ({table_row.arcs_rule})")
        if s.weak_arcs and table_row.weak_arcs:
            if (s.cls or 0) < 2:
                out.append(
                    f"{name}: weak arcs fire one class lower, so only class 2 or above may have "
                    "them; remove the weak arcs or raise the class"
                )
                return out
            out += self._arc_list_problems(name, s.weak_arcs, "weak arc")
            both = [a for a in dict.fromkeys(s.weak_arcs) if a in distinct]
            if both:
                out.append(f"{name}: {', '.join(both)} is both a full and a weak arc: list it once")
        if table_row.modes and s.mode is not None and s.mode not in table_row.modes:
            modes = " or ".join(repr(m) for m in table_row.modes)
            out.append(f"{name} has mode {s.mode!r}: choose {modes}")
        return out

    def _mass_problems(self) -> list[str]:
        out: list[str] = []
        used = self.mass_used()
        if used > self.mass:
            out.append(
                f"mass used {used} is more than mass {self.mass}: free {used - self.mass} mass "
                "(fewer systems, armour or hull boxes, less thrust) or raise the mass"
            )
        drive = self.drive_mass()
        fixed = drive + self.hull + max(self.armour, 0)
        if fixed > self.mass:
            out.append(
                f"main drive ({drive} mass for thrust {self.thrust}), hull ({self.hull}) and "
                f"armour ({self.armour}) need {fixed} mass; the design's mass is {self.mass}: "
                "lower thrust, hull or armour"
            )
        left = self.mass - fixed
        for s in self.systems:
            need = s.mass(self.mass)
            if need > left:
                out.append(f"{s.describe()} needs {need} mass; only {max(left, 0)} left")
            left -= need
        return out

    # -- JSON --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "class": self.hull_class,
            "mass": self.mass,
            "thrust": self.thrust,
            "hull": self.hull,
            "hull_rows": self.hull_rows,
            "armour": self.armour,
            "broadside": self.broadside,
            "systems": [s.to_dict() for s in self.systems],
            **({"stealth": self.stealth} if self.stealth else {}),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Design:
        """Strict reader: every wrong JSON type (or unknown field) raises one ``DesignError``
        listing them all, each naming its field. Rules are not checked here: see problems()."""
        if not isinstance(d, Mapping):
            raise DesignError([f"a design must be an object, got {d!r}"])
        problems: list[str] = []
        for key in d:
            if key not in _DESIGN_KEYS:
                problems.append(
                    f"{key}: unknown field {key!r}; a design has {', '.join(_DESIGN_KEYS)}"
                )
        for key in _REQUIRED_DESIGN_KEYS:
            if key not in d:
                problems.append(f"{key} is missing: a design needs {key}")
        did = _read_str(d, "id", "", problems) if "id" in d else None
        name = _read_str(d, "name", "", problems) if "name" in d else None
        hull_class = _read_str(d, "class", "", problems) if "class" in d else None
        mass = _read_int(d, "mass", "", problems) if "mass" in d else None
        thrust = _read_int(d, "thrust", "", problems) if "thrust" in d else None
        hull = _read_int(d, "hull", "", problems) if "hull" in d else None
        hull_rows = _read_int(d, "hull_rows", "", problems) if "hull_rows" in d else 4
        armour = _read_int(d, "armour", "", problems) if "armour" in d else 0
        stealth = _read_int(d, "stealth", "", problems) if "stealth" in d else 0
        broadside: bool | None = False
        if "broadside" in d:
            if isinstance(d["broadside"], bool):
                broadside = d["broadside"]
            else:
                problems.append(f"broadside must be true or false, got {d['broadside']!r}")
                broadside = None
        systems: list[SystemSpec] = []
        if "systems" in d:
            raw = d["systems"]
            if not isinstance(raw, list | tuple):
                problems.append(f"systems must be a list of systems, got {raw!r}")
            else:
                for i, item in enumerate(raw):
                    spec, found = _system_from_dict(item, f"systems[{i}].")
                    problems += found
                    if spec is not None:
                        systems.append(spec)
        if (
            problems
            or did is None
            or name is None
            or hull_class is None
            or mass is None
            or thrust is None
            or hull is None
            or hull_rows is None
            or armour is None
            or stealth is None
            or broadside is None
        ):
            raise DesignError(problems or ["design: could not be read"])
        return cls(
            id=did,
            name=name,
            hull_class=hull_class,
            mass=mass,
            thrust=thrust,
            hull=hull,
            hull_rows=hull_rows,
            armour=armour,
            broadside=broadside,
            systems=tuple(systems),
            stealth=stealth,
        )


def _all_arcs(s: SystemSpec) -> bool:
    return s.type in SYSTEMS and SYSTEMS[s.type].all_arcs


def validate_design(d: Design) -> None:
    """Raise ``DesignError`` listing every problem, if the design has any."""
    problems = d.problems()
    if problems:
        raise DesignError(problems)


def design_summary(d: Design) -> dict[str, Any]:
    """Mass and points, item by item. The ``systems`` rows cover all_systems() (the main drive
    carries the drive's mass and points), so hull + armour + the rows' mass = ``mass_used``."""
    drive = d.drive_mass()
    rows: list[dict[str, Any]] = []
    for s in d.all_systems():
        if s.type == "main_drive":
            mass, points = drive, 2 * drive
        else:
            mass, points = s.mass(d.mass), s.points(d.mass)
        rows.append({"id": s.id, "type": s.type, "mass": mass, "points": points})
    used = d.mass_used()
    return {
        "id": d.id,
        "name": d.name,
        "class": d.hull_class,
        "mass": d.mass,
        "mass_used": used,
        "mass_free": d.mass - used,
        "points": d.points(),
        "base_cost": d.mass,
        "thrust": d.thrust,
        "drive_mass": drive,
        "drive_cost": 2 * drive,
        "hull": d.hull,
        "hull_rows": d.hull_rows,
        "hull_mass": d.hull,
        "hull_cost": d.hull_points(),
        "armour": d.armour,
        "armour_cost": 2 * d.armour,
        "broadside": d.broadside,
        "stealth": d.stealth,
        "stealth_cost": d.stealth_points(),
        "systems": rows,
        "problems": d.problems(),
    }


# -- presets --------------------------------------------------------------------------------
# The product's own generic designs. Each one's mass and points are worked out by hand in
# docs/designs.md and checked in tests/rules/test_designs.py.
def _beam(sid: str, cls: int, *arcs: str) -> SystemSpec:
    return SystemSpec(sid, "beam", cls=cls, arcs=tuple(arcs))


_FORE = ("FP", "F", "FS")
_AFT = ("AS", "A", "AP")

_PRESETS: tuple[Design, ...] = (
    Design(
        id="scout",
        name="Scout",
        hull_class="scout",
        mass=16,
        thrust=8,
        hull=6,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            _beam("beam-1", 1),
            _beam("beam-2", 1),
            SystemSpec("sensors-1", "sensors", grade="enhanced"),
        ),
    ),
    Design(
        id="frigate",
        name="Frigate",
        hull_class="frigate",
        mass=30,
        thrust=6,
        hull=10,
        armour=2,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            _beam("beam-1", 2, *_FORE),
            _beam("beam-2", 2, *_FORE),
            _beam("beam-3", 1),
            SystemSpec("pds-1", "pds"),
            SystemSpec("ecm-1", "ecm"),
        ),
    ),
    Design(
        id="destroyer",
        name="Destroyer",
        hull_class="destroyer",
        mass=50,
        thrust=6,
        hull=14,
        armour=3,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("fc-2", "fire_control"),
            _beam("beam-1", 3, *_FORE),
            _beam("beam-2", 2, *_FORE),
            _beam("beam-3", 2, *_AFT),
            _beam("beam-4", 1),
            SystemSpec("screen-1", "screen", level=1),
            SystemSpec("pds-1", "pds"),
            SystemSpec("pds-2", "pds"),
        ),
    ),
    Design(
        id="light_cruiser",
        name="Light Cruiser",
        hull_class="light cruiser",
        mass=70,
        thrust=5,
        hull=20,
        armour=5,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("fc-2", "fire_control"),
            SystemSpec("fc-3", "fire_control"),
            _beam("beam-1", 3, *_FORE),
            SystemSpec("emp-1", "emp", cls=2, arcs=_FORE),
            SystemSpec("heavy-beam-1", "heavy_beam", cls=2, arcs=_FORE),
            _beam("beam-3", 2, *_AFT),
            _beam("beam-4", 1),
            _beam("beam-5", 1),
            SystemSpec("screen-1", "screen", level=1),
            SystemSpec("pds-1", "pds"),
            SystemSpec("pds-2", "pds"),
            SystemSpec("area-ecm-1", "area_ecm"),
        ),
    ),
    Design(
        id="heavy_cruiser",
        name="Heavy Cruiser",
        hull_class="heavy cruiser",
        mass=100,
        thrust=4,
        hull=27,
        hull_rows=5,
        armour=6,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("fc-2", "fire_control"),
            SystemSpec("fc-3", "fire_control"),
            SystemSpec("beam-1", "beam", cls=4, arcs=("F",), weak_arcs=("FP", "FS")),
            SystemSpec("meson-1", "meson", arcs=_FORE),
            _beam("beam-3", 3, *_FORE),
            _beam("beam-4", 2, *_AFT),
            _beam("beam-5", 1),
            _beam("beam-6", 1),
            SystemSpec("screen-1", "screen", level=2),
            SystemSpec("pds-1", "pds"),
            SystemSpec("pds-2", "pds"),
            SystemSpec("pds-3", "pds"),
            SystemSpec("sensors-1", "sensors", grade="enhanced"),
            SystemSpec("ecm-1", "ecm"),
            SystemSpec("command-bridge-1", "command_bridge"),
        ),
    ),
    Design(
        id="hunter",
        name="Hunter",
        hull_class="hunter",
        mass=60,
        thrust=6,
        hull=15,
        hull_rows=3,
        armour=2,
        broadside=True,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("fc-2", "fire_control"),
            _beam("beam-1", 3, "SF", "S"),
            _beam("beam-2", 3, "PF", "P"),
            _beam("beam-3", 2, "SF", "S", "SA"),
            _beam("beam-4", 2, "PF", "P", "PA"),
            _beam("beam-5", 1),
            SystemSpec("sensors-1", "sensors", grade="superior"),
            SystemSpec("screen-1", "screen", level=1),
            SystemSpec("pds-1", "pds"),
            SystemSpec("ecm-1", "ecm"),
        ),
    ),
)

# Presets that show off the compendium's other systems (issue 6); worked out in docs/designs.md.
_SHOWCASE: tuple[Design, ...] = (
    Design(
        id="torpedo_boat",
        name="Torpedo Boat",
        hull_class="torpedo boat",
        mass=50,
        thrust=6,
        hull=12,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("fc-2", "fire_control"),
            SystemSpec("torpedo-1", "pulse_torpedo", arcs=("F",)),
            SystemSpec("torpedo-2", "classed_pulse_torpedo", cls=2, arcs=("F",)),
            SystemSpec("torpedo-3", "long_range_pulse_torpedo", arcs=("F",)),
            SystemSpec("torpedo-4", "short_range_pulse_torpedo", arcs=("FS",)),
        ),
    ),
    Design(
        id="needle_raider",
        name="Needle Raider",
        hull_class="raider",
        mass=40,
        thrust=8,
        hull=10,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("fc-2", "fire_control"),
            SystemSpec("needle-1", "needle", arcs=("F",)),
            SystemSpec("needle-2", "multi_needle", arcs=_FORE),
            SystemSpec("needle-3", "heavy_needle", arcs=("F",)),
            _beam("beam-1", 1),
            SystemSpec("ecm-1", "ecm"),
        ),
    ),
    Design(
        id="stealth_hunter",
        name="Stealth Hunter",
        hull_class="stealth hunter",
        mass=60,
        thrust=6,
        hull=15,
        stealth=2,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("fc-2", "fire_control"),
            SystemSpec("sensors-1", "sensors", grade="superior"),
            SystemSpec("flare-1", "fusion_flare", arcs=("F",)),
            SystemSpec("fusion-1", "fusion_torpedo", arcs=("F",)),
            _beam("beam-1", 3, *_FORE),
            _beam("beam-2", 2, *_AFT),
            _beam("beam-3", 1),
            SystemSpec("screen-1", "screen", level=1),
            SystemSpec("pds-1", "pds"),
            SystemSpec("ecm-1", "ecm"),
        ),
    ),
    Design(
        id="ecm_picket",
        name="ECM Picket",
        hull_class="picket",
        mass=40,
        thrust=6,
        hull=10,
        armour=2,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("area-ecm-1", "area_ecm"),
            SystemSpec("sensors-1", "sensors", grade="enhanced"),
            SystemSpec("adfc-1", "adfc"),
            SystemSpec("pds-1", "pds"),
            SystemSpec("pds-2", "pds"),
            SystemSpec("pds-3", "pds"),
            SystemSpec("gatling-1", "gatling", arcs=_FORE),
            SystemSpec("gatling-2", "gatling", arcs=_AFT),
        ),
    ),
    Design(
        id="graser_cruiser",
        name="Graser Cruiser",
        hull_class="graser cruiser",
        mass=90,
        thrust=4,
        hull=24,
        hull_rows=5,
        armour=6,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("fc-2", "fire_control"),
            SystemSpec("fc-3", "fire_control"),
            SystemSpec("graser-1", "graser", cls=2, arcs=("F",)),
            SystemSpec("graser-2", "graser", cls=1, arcs=_AFT),
            SystemSpec("fusion-1", "multi_fusion", arcs=("F",), mode="torpedo"),
            _beam("beam-1", 2, *_FORE),
            _beam("beam-2", 1),
            SystemSpec("screen-1", "screen", level=1),
            SystemSpec("pds-1", "pds"),
            SystemSpec("pds-2", "pds"),
            SystemSpec("pds-3", "pds"),
            SystemSpec("ecm-1", "ecm"),
            SystemSpec("ftl-1", "ftl"),
        ),
    ),
)

PRESET_DESIGNS: Mapping[str, Design] = MappingProxyType({d.id: d for d in _PRESETS + _SHOWCASE})


def preset(design_id: str) -> Design:
    """The preset design with this id; KeyError naming the choices otherwise."""
    try:
        return PRESET_DESIGNS[design_id]
    except KeyError:
        raise KeyError(
            f"unknown preset design {design_id!r}: choose one of {', '.join(PRESET_DESIGNS)}"
        ) from None
