"""One designed system (``SystemSpec``), the systems built into every ship, and the strict
JSON readers designs and systems share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.rules.errors import DesignError
from app.rules.geometry import arcs_adjacent
from app.rules.systems import (
    BUILT_IN,
    LAUNCHER_TYPES,
    SYSTEMS,
    WEAPON_TYPES,
    group_points,
    loads_mass,
    system_cost,
    system_label,
    system_mass,
)


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
    # ordnance (C2): a rack's load, a magazine's loads at the start, a launcher's magazine id;
    # ``capacity`` only in the copy the other side sees (a magazine's mass without its loads)
    load: str | None = None
    loads: tuple[tuple[str, int], ...] = ()
    magazine: str | None = None
    capacity: int | None = None

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
            load=self.load,
            contents=self.contents_mass(),
        )

    def contents_mass(self) -> int:
        """What a magazine holds, in mass: its loads, or its ``capacity`` when they are hidden."""
        if not self.loads and self.capacity is not None:
            return max(self.capacity, 0)
        return loads_mass(self.loads)

    def points(self, design_mass: int) -> int:
        # a bay's points include its group's (C5.0)
        cost = system_cost(self.type, self.mass(design_mass), grade=self.grade)
        return cost + group_points(self.type, self.load)

    @property
    def is_weapon(self) -> bool:
        return self.type in WEAPON_TYPES

    def fire_mode(self) -> str | None:
        """The mode a multi-mode weapon starts a battle in (the first of its modes by default)."""
        modes = SYSTEMS[self.type].modes if self.type in SYSTEMS else ()
        return (self.mode or modes[0]) if modes else None

    def describe(self) -> str:
        """How messages name this system, e.g. ``class-3 beam battery beam-2 with 4 arcs``."""
        label = label_of(self.type)
        table_row = SYSTEMS.get(self.type)
        if table_row is None:
            return f"{label} {self.id}"
        if table_row.classes:
            if self.cls in table_row.classes and not (table_row.all_arcs and self.cls == 1):
                n = len(self.arcs)
                return f"class-{self.cls} {label} {self.id} with {n} arc{'' if n == 1 else 's'}"
            if self.cls is not None:
                return f"class-{self.cls} {label} {self.id}"
        return table_row.describe(self.id, self.level, self.grade) or f"{label} {self.id}"

    # -- JSON --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """``{"id", "type"}`` plus the fields that apply: ``class``, ``arcs``, ``weak_arcs``,
        ``mode`` (weapons), ``level`` (screens), ``grade`` (sensors), ``load`` (racks),
        ``loads`` (magazines: ``{"salvo": 2}``), ``magazine`` (launchers), ``capacity``. A field
        set on a type it does not apply to is kept too, so that the validator can still see (and
        refuse) it after a round trip."""
        out: dict[str, Any] = {"id": self.id, "type": self.type}
        if self.cls is not None:
            out["class"] = self.cls
        if self.arcs or self.type in WEAPON_TYPES or self.type in LAUNCHER_TYPES:
            out["arcs"] = list(self.arcs)
        if self.level is not None:
            out["level"] = self.level
        if self.grade is not None:
            out["grade"] = self.grade
        if self.weak_arcs:
            out["weak_arcs"] = list(self.weak_arcs)
        if self.mode is not None:
            out["mode"] = self.mode
        if self.load is not None:
            out["load"] = self.load
        if self.loads:
            out["loads"] = dict(self.loads)
        if self.magazine is not None:
            out["magazine"] = self.magazine
        if self.capacity is not None:
            out["capacity"] = self.capacity
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SystemSpec:
        """Strict: a wrong JSON type raises ``DesignError`` naming the field."""
        spec, problems = system_from_dict(d, "")
        if problems or spec is None:
            raise DesignError(problems or ["system: could not be read"])
        return spec


# The systems every ship has without designing them, in the table's order (drive first).
IMPLICIT_SYSTEMS: tuple[SystemSpec, ...] = tuple(SystemSpec(i, t) for i, t in BUILT_IN.items())
IMPLICIT_TYPES: frozenset[str] = frozenset(BUILT_IN.values())


def label_of(system_type: str) -> str:
    """The name messages give a type: the table's, a built-in system's, else the type as sent."""
    if system_type in SYSTEMS or system_type in IMPLICIT_TYPES:
        return system_label(system_type)
    return system_type


# -- strict JSON readers (a bool is not a number) -------------------------------------------
def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_str(d: Mapping[str, Any], key: str, where: str, problems: list[str]) -> str | None:
    value = d[key]
    if not isinstance(value, str):
        problems.append(f"{where}{key} must be a string, got {value!r}")
        return None
    return value


def read_int(d: Mapping[str, Any], key: str, where: str, problems: list[str]) -> int | None:
    value = d[key]
    if not is_int(value):
        problems.append(f"{where}{key} must be a whole number, got {value!r}")
        return None
    return int(value)


_SYSTEM_KEYS = (
    "id",
    "type",
    "class",
    "arcs",
    "weak_arcs",
    "level",
    "grade",
    "mode",
    "load",
    "loads",
    "magazine",
    "capacity",
)


def system_from_dict(d: object, where: str) -> tuple[SystemSpec | None, list[str]]:
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
    sid = read_str(d, "id", where, problems) if "id" in d else None
    stype = read_str(d, "type", where, problems) if "type" in d else None
    scls = read_int(d, "class", where, problems) if "class" in d else None
    level = read_int(d, "level", where, problems) if "level" in d else None
    grade = read_str(d, "grade", where, problems) if "grade" in d else None
    mode = read_str(d, "mode", where, problems) if "mode" in d else None
    arcs = read_arcs(d, "arcs", where, problems)
    weak = read_arcs(d, "weak_arcs", where, problems)
    load = read_str(d, "load", where, problems) if "load" in d else None
    loads = read_loads(d, where, problems)
    magazine = read_str(d, "magazine", where, problems) if "magazine" in d else None
    capacity = read_int(d, "capacity", where, problems) if "capacity" in d else None
    if problems or sid is None or stype is None:
        return None, problems
    spec = SystemSpec(
        sid,
        stype,
        cls=scls,
        arcs=arcs,
        level=level,
        grade=grade,
        weak_arcs=weak,
        mode=mode,
        load=load,
        loads=loads,
        magazine=magazine,
        capacity=capacity,
    )
    return spec, []


def read_loads(
    d: Mapping[str, Any], where: str, problems: list[str]
) -> tuple[tuple[str, int], ...]:
    """A magazine's ``loads``: an object of load name -> whole number (``{"salvo": 2}``)."""
    if "loads" not in d:
        return ()
    raw = d["loads"]
    if not isinstance(raw, Mapping):
        problems.append(
            f'{where}loads must be an object of load name -> count, e.g. {{"salvo": 2}}, '
            f"got {raw!r}"
        )
        return ()
    out: list[tuple[str, int]] = []
    for name, count in raw.items():
        if not isinstance(name, str) or not is_int(count):
            problems.append(
                f"{where}loads[{name!r}] must be a whole number of loads, got {count!r}"
            )
            continue
        out.append((name, int(count)))
    return tuple(out)


def read_arcs(d: Mapping[str, Any], key: str, where: str, problems: list[str]) -> tuple[str, ...]:
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
