"""A ship design: its frame, its systems, its mass and points, and its JSON form."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from app.rules.designs.problems import design_problems
from app.rules.designs.spec import (
    IMPLICIT_SYSTEMS,
    SystemSpec,
    read_int,
    read_str,
    system_from_dict,
)
from app.rules.errors import DesignError
from app.rules.geometry import ARCS, BROADSIDE_ARCS
from app.rules.systems import SYSTEMS, WEAPON_TYPES, hull_cost, stealth_cost
from app.rules.systems.ordnance_rows import LAUNCHER_TYPES


def _pct_half_up(mass: int, percent: int) -> int:
    """``percent``% of ``mass``, rounded to the nearest whole number with halves going up."""
    return max(0, (mass * percent + 50) // 100)


def hull_points(hull: int, hull_rows: int) -> int:
    """Points for the hull boxes by row count (C8.2); a row count out of range is priced as 4."""
    return hull_cost(hull, hull_rows)


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
        return self._points

    # every view shows each ship's points: worked out once per design (see ``_all_systems``)
    @cached_property
    def _points(self) -> int:
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
        return self._all_systems

    # A design never changes once built, and the engine asks for its systems in every shot,
    # ping and view: they are worked out once per design (kept in the instance's dict, beside
    # the fields, so that equality, hashing and ``replace`` never see them).
    @cached_property
    def _all_systems(self) -> tuple[SystemSpec, ...]:
        return self.systems + IMPLICIT_SYSTEMS

    @cached_property
    def weapon_systems(self) -> tuple[SystemSpec, ...]:
        """The direct-fire weapons among ``all_systems()``, in their order."""
        return tuple(s for s in self._all_systems if s.type in WEAPON_TYPES)

    @cached_property
    def launcher_systems(self) -> tuple[SystemSpec, ...]:
        """The ordnance launchers (``LAUNCHER_TYPES``) among ``all_systems()``, in their order."""
        return tuple(s for s in self._all_systems if s.type in LAUNCHER_TYPES)

    @cached_property
    def spec_by_id(self) -> Mapping[str, SystemSpec]:
        """Every system (designed or implicit) by id; the first one where ids repeat."""
        out: dict[str, SystemSpec] = {}
        for s in self._all_systems:
            out.setdefault(s.id, s)
        return out

    def weapons(self) -> tuple[SystemSpec, ...]:
        return tuple(s for s in self.systems if s.type in WEAPON_TYPES)

    def system(self, system_id: str) -> SystemSpec:
        """The system (designed or implicit) with this id; KeyError otherwise."""
        try:
            return self.spec_by_id[system_id]
        except KeyError:
            raise KeyError(f"design {self.id!r} has no system {system_id!r}") from None

    def public(self) -> Design:
        """The copy the other side may see (RULES §9.1: hardware is public, loads are secret):
        each magazine without its ``loads`` but with its mass kept as ``capacity``, each
        heavy-missile rack and each fighter or drone bay without its ``load``. Salvo racks keep
        theirs (it is their mass)."""
        return self._public

    @cached_property
    def _public(self) -> Design:
        # asked for in every enemy view of a ship with secret loads: built once per design
        return replace(self, systems=tuple(_public_spec(s) for s in self.systems))

    # -- rules -------------------------------------------------------------------------------
    def problems(self) -> list[str]:
        """Every rule this design breaks, each saying what to change (empty when legal)."""
        return design_problems(self)

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
        problems = [
            f"{key}: unknown field {key!r}; a design has {', '.join(_DESIGN_KEYS)}"
            for key in d
            if key not in _DESIGN_KEYS
        ]
        problems += [
            f"{key} is missing: a design needs {key}" for key in _REQUIRED_KEYS if key not in d
        ]
        fields: dict[str, Any] = {
            name: read(d, key, "", problems) if key in d else default
            for key, name, read, default in _FIELDS
        }
        systems = _read_systems(d, problems)
        if problems or any(value is None for value in fields.values()):
            raise DesignError(problems or ["design: could not be read"])
        return cls(**fields, systems=systems)


def _read_bool(d: Mapping[str, Any], key: str, where: str, problems: list[str]) -> bool | None:
    value = d[key]
    if not isinstance(value, bool):
        problems.append(f"{where}{key} must be true or false, got {value!r}")
        return None
    return value


# JSON key, Design field, reader, default when the key is absent; in the order problems are told
_FIELDS: tuple[tuple[str, str, Callable[..., Any], Any], ...] = (
    ("id", "id", read_str, None),
    ("name", "name", read_str, None),
    ("class", "hull_class", read_str, None),
    ("mass", "mass", read_int, None),
    ("thrust", "thrust", read_int, None),
    ("hull", "hull", read_int, None),
    ("hull_rows", "hull_rows", read_int, 4),
    ("armour", "armour", read_int, 0),
    ("stealth", "stealth", read_int, 0),
    ("broadside", "broadside", _read_bool, False),
)
# the keys in the order an unknown field's message lists them
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
_REQUIRED_KEYS = tuple(key for key, _, _, default in _FIELDS if default is None)


def _read_systems(d: Mapping[str, Any], problems: list[str]) -> tuple[SystemSpec, ...]:
    if "systems" not in d:
        return ()
    raw = d["systems"]
    if not isinstance(raw, list | tuple):
        problems.append(f"systems must be a list of systems, got {raw!r}")
        return ()
    systems: list[SystemSpec] = []
    for i, item in enumerate(raw):
        spec, found = system_from_dict(item, f"systems[{i}].")
        problems += found
        if spec is not None:
            systems.append(spec)
    return tuple(systems)


def _public_spec(s: SystemSpec) -> SystemSpec:
    table_row = SYSTEMS.get(s.type)
    if table_row is not None and table_row.stores:
        return replace(s, loads=(), capacity=s.contents_mass())
    if s.type == "heavy_missile_rack" or (table_row is not None and table_row.holds):
        return replace(s, load=None)  # a heavy missile's type, a bay's group type
    return s


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
