"""One row of the systems table, and what it weighs, prices and fires by.

A row carries its rules as data and callables: how its mass follows from what is fitted
(``mass_of``), what it fires (``fire``), the choices a design makes for it (classes, arcs,
modes, levels, grades). Nothing outside the table asks which type a system is to learn these.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from app.rules.systems.profiles import FireBand, FireRule


@dataclass(frozen=True)
class Fit:
    """One system as the table weighs it, in a design of TMF ``design_mass``."""

    design_mass: int
    cls: int | None = None
    arcs: int = 0  # how many full arcs
    adjacent: bool = True  # whether those arcs form one unbroken run
    weak_arcs: int = 0
    level: int | None = None
    grade: str | None = None
    load: str | None = None  # a rack's load (its mass differs by load)
    contents: int = 0  # the mass of what a magazine holds (its loads, or its public capacity)


MassRule = Callable[[Fit], int]


@dataclass(frozen=True)
class Grade:
    """One grade a system may be bought in (sensors, C6.2)."""

    mass: int
    cost: int
    ping_dice: int


def either(choices: tuple[str, ...] | list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: how a message offers its choices."""
    if len(choices) <= 1:
        return "".join(choices)
    return f"{', '.join(choices[:-1])} or {choices[-1]}"


@dataclass(frozen=True)
class SystemType:
    """One row of the systems table."""

    type: str
    label: str
    section: str  # where the compendium (or RULES) describes it
    family: str  # weapon | ordnance | bay | defence | electronics | hull
    summary: str
    mass_rule: str  # the mass rule in words (per arc where it varies)
    cost_rule: str
    arcs_rule: str  # which arcs it may have
    classes: tuple[int, ...] = ()  # allowed classes; () when unclassed
    max_arcs: int = 0  # 0: takes no arcs; 6: any
    all_arcs: bool = False  # always fires in all six arcs (class-1 beams)
    adjacent_arcs: bool = False  # its arcs must be next to each other
    weak_arcs: bool = False  # may buy weak arcs (C1.3)
    # the mass of one more full arc by class, half of which a weak arc costs (C1.3)
    extra_arc: Mapping[int, Fraction] = field(default_factory=dict)
    fixed_mass: int | None = None
    mass_of: MassRule | None = None  # the mass when it is not ``fixed_mass``
    tmf_share: bool = False  # its mass is a share of the design's TMF (no fixed list)
    fixed_cost: int | None = None
    cost_per_mass: int = 3
    damage: str | None = None  # damage path (weapons)
    fire: FireRule | None = None  # the firing profile by class and mode (weapons)
    screens: bool = False  # the target's screens reduce its hits
    targets_system: bool = False  # a shot names a target system (needles)
    once_per_game: bool = False  # spent for the rest of the game once fired (C2.1 racks)
    modes: tuple[str, ...] = ()
    levels: tuple[int, ...] = ()  # the levels it comes in (screens)
    grades: Mapping[str, Grade] = field(default_factory=dict)  # the grades it is bought in
    built_in_grade: str | None = None  # the grade every ship has without buying it
    supersedes: str | None = None  # a type it does the work of (area ECM is ECM itself)
    max_per_ship: int | None = None
    pending: str | None = None  # what does not happen in battle yet, and why (shown in the UI)
    # ordnance (C2.2–C2.5): what it launches, and how it is loaded
    fires: tuple[str, ...] = ()  # the load names it can launch (a rack: the loads it is built with)
    rack: bool = False  # built with its one load (``load``), fired once per game
    fed: bool = False  # fed from one magazine of the design (``magazine``)
    stores: bool = False  # a magazine: holds ``loads`` (its public copy: ``capacity``)
    holds: tuple[str, ...] = ()  # a bay: the group types its one group (``load``) may be
    decisions: tuple[str, ...] = ()

    @property
    def is_weapon(self) -> bool:
        return self.family == "weapon"

    @property
    def is_launcher(self) -> bool:
        """Whether it launches markers (salvos, heavy missiles, AMTs: C2.2–C2.5)."""
        return self.family == "ordnance" and bool(self.fires)

    @property
    def fields(self) -> tuple[str, ...]:
        """The optional fields a system of this type takes, beside ``id`` and ``type``."""
        return tuple(
            name
            for name, takes in (
                ("class", bool(self.classes)),
                ("arcs", bool(self.max_arcs)),
                ("weak_arcs", self.weak_arcs),
                ("mode", bool(self.modes)),
                ("level", bool(self.levels)),
                ("grade", bool(self.grades)),
                ("load", self.rack or bool(self.holds)),
                ("loads", self.stores),
                ("magazine", self.fed),
                ("capacity", self.stores),
            )
            if takes
        )

    def mass(self, fit: Fit) -> int:
        """The mass of one system of this type as fitted (weak arcs included)."""
        if self.grades:
            grade = self.grades.get(fit.grade or "")
            return grade.mass if grade else 0
        base = self.mass_of(fit) if self.mass_of is not None else (self.fixed_mass or 0)
        weak = self.weak_arc_mass(fit.cls, fit.weak_arcs) if self.weak_arcs else 0
        return base + weak

    def cost(self, mass: int, grade: str | None = None) -> int:
        """Points of one system of this type given its mass."""
        if self.grades:
            bought = self.grades.get(grade or "")
            return bought.cost if bought else 0
        if self.fixed_cost is not None:
            return self.fixed_cost
        return self.cost_per_mass * mass

    def weak_arc_mass(self, cls: int | None, count: int) -> int:
        """C1.3's weak arcs: half the mass of a full extra arc of the weapon's class each, rounded
        up over all of them. Both of C1.3's examples hold: a class-4 F beam with weak FP and FS
        weighs 8 + 2 × 1 = 10; a class-3 F beam with weak FS and FP, 4 + 2 × ½ = 5. (A class-2
        beam's "extra arc" is the 1 mass it costs beyond three adjacent arcs.)"""
        if count <= 0:
            return 0
        per_arc = self.extra_arc.get(cls or 0, Fraction(1))
        return math.ceil(per_arc * count / 2)

    def bands(self, cls: int | None = None, mode: str | None = None) -> tuple[FireBand, ...]:
        """The firing profile (no stealth, no passive fire control)."""
        if self.fire is None:
            raise ValueError(f"{self.type} is not a weapon")
        return self.fire(cls, mode)

    def describe(self, system_id: str, level: int | None, grade: str | None) -> str | None:
        """How messages name a system of a levelled or graded type (``level-1 screen s-1``,
        ``enhanced sensors sensors-1``); None when neither applies."""
        if self.levels and level is not None:
            return f"level-{level} {self.label} {system_id}"
        if self.grades and grade is not None:
            return f"{grade} {self.label} {system_id}"
        return None

    def choice_problems(self, system_id: str, level: int | None, grade: str | None) -> list[str]:
        """A level or grade the type needs and was not given a valid one of."""
        if self.levels and level not in self.levels:
            given = "no level" if level is None else f"level {level}"
            levels = either([str(n) for n in self.levels])
            return [f"{self.label} {system_id} has {given}: choose level {levels}"]
        if not self.grades or grade in self.grades:
            return []
        grades = either([f'"{g}"' for g in self.grades])
        if grade is not None and grade == self.built_in_grade:
            return [
                f"{self.label} {system_id}: {grade} {self.label} are built into every ship; "
                f"make it {grades}, or remove it"
            ]
        given = "no grade" if grade is None else f"grade {grade!r}"
        return [f"{self.label} {system_id} has {given}: choose {grades}"]
