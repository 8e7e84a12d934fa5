"""The systems table: every battle system in scope (RULES §8, §13; compendium C1, C3, C6, C8).

One row per designable system type: where the compendium describes it, its mass and cost rules
(per arc where they vary), the arcs it may have, its range bands, its dice per band and the path
its damage takes. The designer, the engine, the record sheet, the docs (``docs/systems.md``,
rendered from this module by ``scripts/render_systems.py``) and the tests all read this table,
so a number lives in one place. A value the sources do not give is a project decision and the
row says so in ``decisions``.

Firing profiles are tuples of ``FireBand``: the band's far edge and what a shot rolls there.
Two kinds of roll exist: beam dice (``dice`` BD, ``reroll`` for ``*``) and a single to-hit d6
(``hit_on``) followed by damage. Stealth and the firer's passive fire control shrink or cut the
bands at fire time (``app.rules.weapons``); the table holds the plain profile.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

# -- damage paths ----------------------------------------------------------------------------
# How the hits of a weapon become damage (RULES §8; C1.iv separates hits from damage).
STANDARD = "standard"  # 1 damage per hit; armour first; reroll hits go past armour to the hull
HEAVY = "heavy"  # as standard, but each hit does 1d6 - 2 - screen level (C1.2)
# each hit does 1d6 to the hull past armour (C1.9); the to-hit dice still read screens (C1.i)
PENETRATING = "penetrating"
TORPEDO = "torpedo"  # one to-hit d6; a hit does Xd6 to the hull, ignoring screens and armour
FUSION = "fusion"  # one to-hit d6; a hit rolls beam dice of damage (screens count, armour first)
NEEDLE = "needle"  # a die per needle at a named system: 5 = 1 damage, 6 = 1 + system destroyed
EMP = "emp"  # hits (at most 3 per firing ship and target) make vulnerable systems roll

DAMAGE_PATHS: Mapping[str, str] = MappingProxyType(
    {
        STANDARD: "1 per hit; armour first, reroll hits past armour to the hull",
        HEAVY: "1d6 - 2 - screen level per hit (at least 0); armour first, reroll hits past it",
        PENETRATING: "1d6 per hit, penetrating: straight to the hull past armour (screens "
        "reduce the hits, not the damage)",
        TORPEDO: "a hit does Xd6 (X = class, 1 when unclassed) to the hull; "
        "ignores screens and armour",
        FUSION: "a hit rolls the band's beam dice against screens; armour first, "
        "reroll hits past it",
        NEEDLE: "at a named non-core system: 5 = 1 hull damage, 6 = 1 hull damage and the "
        "system destroyed beyond repair; ignores screens and armour",
        EMP: "no damage: at most 3 hits per firing ship and target in a turn; each EMP-vulnerable "
        "system "
        "rolls 1D6 and is damaged on a roll equal to or below the hits, after all of the "
        "firer's weapons",
    }
)

# Systems an EMP hit can damage (RULES §8 restores the list lost from C1.5).
EMP_VULNERABLE: frozenset[str] = frozenset(
    {"main_drive", "ftl", "screen", "fire_control", "adfc", "sensors", "ecm", "area_ecm"}
)
EMP_MAX_HITS = 3

# A stealthed ship fires through passive fire control only: nothing beyond this (C8.2).
PASSIVE_FIRE_CONTROL_RANGE = 24.0
# Stealth level -> range band factor for weapons aimed at the ship (RULES §8 reads C8.2).
STEALTH_BAND_FACTOR: Mapping[int, tuple[int, int]] = MappingProxyType(
    {0: (1, 1), 1: (5, 6), 2: (2, 3)}
)
MAX_STEALTH = 2

# Multi-fusion launcher modes (C1.16) and how long a switch keeps it offline.
FUSION_MODES: tuple[str, ...] = ("flare", "torpedo")
MODE_SWITCH_OFFLINE_TURNS = 2


@dataclass(frozen=True)
class FireBand:
    """One range band of a firing profile: out to ``to`` mu, what one shot rolls there."""

    to: float
    dice: int  # beam dice rolled to hit (BD weapons) or needle dice; 1 for single-die weapons
    reroll: bool = False  # natural 6s reroll (the ``*`` of the notation)
    hit_on: int | None = None  # single-die weapons: the d6 needed to hit
    damage_dice: int = 0  # torpedoes: Xd6 of damage; fusion: the BD of damage on a hit
    damage_reroll: bool = False
    needle: bool = False  # needle dice: 5 = 1 damage, 6 = damage and the system destroyed

    def describe(self) -> str:
        if self.needle:
            return f"{self.dice} needle {'die' if self.dice == 1 else 'dice'}"
        if self.hit_on is not None:
            if self.damage_dice and self.damage_reroll:
                dmg = f"{self.damage_dice}BD*"
            else:
                dmg = f"{self.damage_dice}d6"
            return f"hit on {self.hit_on}+, {dmg}"
        return f"{self.dice}BD{'*' if self.reroll else ''}"


def _beam_bands(cls: int, width: float = 12.0) -> tuple[FireBand, ...]:
    # class n rolls n BD* in band 1, one fewer per further band (C1.1)
    return tuple(FireBand(width * k, cls - k + 1, True) for k in range(1, cls + 1))


def _hit_table(width: float, damage: int = 1) -> tuple[FireBand, ...]:
    # pulse torpedoes: 2+ in the first band up to 6+ in the fifth (C1.10–1.13)
    return tuple(FireBand(width * k, 1, hit_on=k + 1, damage_dice=damage) for k in range(1, 6))


def _fusion(torpedo: bool) -> tuple[FireBand, ...]:
    # flare: 1+ and 1BD* close, 6+ and 6BD* far; the torpedo is the converse (C1.14–1.15)
    bands = []
    for k in range(1, 7):
        n = 7 - k if torpedo else k
        bands.append(FireBand(6.0 * k, 1, hit_on=n, damage_dice=n, damage_reroll=True))
    return tuple(bands)


# -- mass rules ------------------------------------------------------------------------------
def _pct_half_up(mass: int, percent: int) -> int:
    return max(0, (mass * percent + 50) // 100)


def beam_mass(cls: int | None, arcs: int, adjacent: bool = True) -> int:
    """Standard beams (RULES §13): 1; 2 (3 for more than three, or non-adjacent, arcs);
    4 + 1 per extra arc; 8 + 2 per extra arc. 0 for a class that does not exist."""
    if cls == 1:
        return 1
    if cls == 2:
        return 2 if arcs <= 3 and adjacent else 3
    if cls == 3:
        return 4 + max(arcs - 1, 0)
    if cls == 4:
        return 8 + 2 * max(arcs - 1, 0)
    return 0


def heavy_beam_mass(cls: int | None, arcs: int, adjacent: bool = True) -> int:
    # Decision: half as much again as the standard beam of that class and arcs, halves up.
    return (3 * beam_mass(cls, arcs, adjacent) + 1) // 2


def graser_mass(cls: int | None, arcs: int, adjacent: bool = True) -> int:
    """C1.9's table: class 1 is 2 / 3 / 4 mass for 1 / 3 / 6 arcs; class 2 is 9 + 3 per extra
    arc; class 3 is 24 + 6 per extra arc. Decision: 2 arcs price as 3, 4–5 arcs as 6."""
    if cls == 1:
        return 2 if arcs <= 1 else (3 if arcs <= 3 else 4)
    if cls == 2:
        return 9 + 3 * max(arcs - 1, 0)
    if cls == 3:
        return 24 + 6 * max(arcs - 1, 0)
    return 0


def gatling_mass(cls: int | None, arcs: int, adjacent: bool = True) -> int:
    # Decision (C1.4 refers to FB2's pulser): 2 mass for one arc, 3 for up to three, 4 for six.
    return 2 if arcs <= 1 else (3 if arcs <= 3 else 4)


def screen_mass(level: int | None, design_mass: int) -> int:
    """Level 1: 5% of TMF (min 3); level 2: 10% of TMF (min 6); halves round up (RULES §13)."""
    if level == 1:
        return max(3, _pct_half_up(design_mass, 5))
    if level == 2:
        return max(6, _pct_half_up(design_mass, 10))
    return 0


def ftl_mass(design_mass: int) -> int:
    # Decision (Fleet Book practice): 10% of TMF, halves up, at least 1.
    return max(1, _pct_half_up(design_mass, 10))


# -- the table -------------------------------------------------------------------------------
MassRule = Callable[[int | None, int, bool], int]  # (class, arc count, arcs adjacent) -> mass


@dataclass(frozen=True)
class SystemType:
    """One row of the systems table."""

    type: str
    label: str
    section: str  # where the compendium (or RULES) describes it
    family: str  # weapon | defence | electronics | hull
    summary: str
    mass_rule: str  # the mass rule in words (per arc where it varies)
    cost_rule: str
    arcs_rule: str  # which arcs it may have
    classes: tuple[int, ...] = ()  # allowed classes; () when unclassed
    max_arcs: int = 0  # 0: takes no arcs; 6: any
    all_arcs: bool = False  # always fires in all six arcs (class-1 beams)
    weak_arcs: bool = False  # may buy weak arcs (C1.3)
    fixed_mass: int | None = None
    fixed_cost: int | None = None
    cost_per_mass: int = 3
    arc_mass: MassRule | None = None  # weapons whose mass depends on class and arcs
    damage: str | None = None  # damage path (weapons)
    screens: bool = False  # the target's screens reduce its hits
    targets_system: bool = False  # a shot names a target system (needles)
    modes: tuple[str, ...] = ()
    max_per_ship: int | None = None
    pending: str | None = None  # what does not happen in battle yet, and why (shown in the UI)
    decisions: tuple[str, ...] = ()
    extra: Mapping[str, object] = field(default_factory=dict)

    @property
    def is_weapon(self) -> bool:
        return self.family == "weapon"

    @property
    def fields(self) -> tuple[str, ...]:
        """The optional fields a system of this type takes, beside ``id`` and ``type``."""
        if self.type == "screen":
            return ("level",)
        if self.type == "sensors":
            return ("grade",)
        return tuple(
            name
            for name, takes in (
                ("class", bool(self.classes)),
                ("arcs", bool(self.max_arcs)),
                ("weak_arcs", self.weak_arcs),
                ("mode", bool(self.modes)),
            )
            if takes
        )


def _weapon(**kw: object) -> SystemType:
    return SystemType(family="weapon", **kw)  # type: ignore[arg-type]


_ROWS: tuple[SystemType, ...] = (
    _weapon(
        type="beam",
        label="beam",
        section="C1.1",
        summary="n BD* in 0–12 mu (n = class), one fewer die per further 12 mu band",
        mass_rule="class 1: 1 (all six arcs); class 2: 2 for up to three adjacent arcs, else 3; "
        "class 3: 4 + 1 per extra arc; class 4: 8 + 2 per extra arc",
        cost_rule="3 × mass",
        arcs_rule="class 1 fires in all six arcs; others any arcs of the orientation",
        classes=(1, 2, 3, 4),
        max_arcs=6,
        all_arcs=True,
        weak_arcs=True,
        arc_mass=beam_mass,
        damage=STANDARD,
        screens=True,
    ),
    _weapon(
        type="heavy_beam",
        label="heavy beam",
        section="C1.2",
        summary="hits as the standard beam of its class; each hit does 1d6 − 2 − screen",
        mass_rule="1.5 × the standard beam of that class and arcs, halves up",
        cost_rule="3 × mass",
        arcs_rule="any arcs (class 1: all six)",
        classes=(1, 2, 3, 4),
        max_arcs=6,
        all_arcs=True,
        weak_arcs=True,
        arc_mass=heavy_beam_mass,
        damage=HEAVY,
        screens=True,
        decisions=(
            "mass 1.5 × the standard beam's (the compendium gives none)",
            "every hit, reroll hits included, does 1d6 − 2 − screen level",
        ),
    ),
    _weapon(
        type="gatling",
        label="gatling battery",
        section="C1.4",
        summary="6BD* at 0–12 mu only",
        mass_rule="as FB2's pulser: 2 for one arc, 3 for up to three adjacent arcs, 4 for six",
        cost_rule="2 × mass (the pulser's 3 per mass less 1)",
        arcs_rule="1, up to 3 adjacent, or all 6 arcs",
        max_arcs=6,
        arc_mass=gatling_mass,
        cost_per_mass=2,
        damage=STANDARD,
        screens=True,
        decisions=(
            "pulser mass 2 / 3 / 4 for 1 / 3 / 6 arcs and 3 points per mass (FB2 practice)",
        ),
    ),
    _weapon(
        type="emp",
        label="EMP projector",
        section="C1.5",
        summary="hits as the standard beam of its class; up to 3 hits per firing ship and "
        "target make the target's EMP-vulnerable systems roll",
        mass_rule="as the standard beam of that class and arcs",
        cost_rule="3 × mass",
        arcs_rule="as the standard beam",
        classes=(1, 2, 3, 4),
        max_arcs=6,
        all_arcs=True,
        weak_arcs=True,
        arc_mass=beam_mass,
        damage=EMP,
        screens=True,
        decisions=(
            "weak arcs as for the standard beam (C1.3 allows them on other weapons; C1.5 makes "
            "EMP a standard beam for hitting, mass and cost)",
        ),
    ),
    _weapon(
        type="needle",
        label="needle beam",
        section="C1.6",
        summary="one die at a named system, 0–12 mu: 5 = 1 damage, 6 = 1 damage and the "
        "system destroyed",
        mass_rule="2",
        cost_rule="3 × mass",
        arcs_rule="one arc",
        max_arcs=1,
        fixed_mass=2,
        damage=NEEDLE,
        targets_system=True,
        decisions=(
            "mass 2 (FB1 practice)",
            "a 6 against the main drive counts as one drive hit (C1.8 calls it a two-hit system)",
        ),
    ),
    _weapon(
        type="multi_needle",
        label="multi-arc needle beam",
        section="C1.7",
        summary="a needle beam with up to three arcs",
        mass_rule="2 + 1 per extra arc",
        cost_rule="3 × mass",
        arcs_rule="1 to 3 arcs",
        max_arcs=3,
        arc_mass=lambda cls, arcs, adjacent: 2 + max(arcs - 1, 0),
        damage=NEEDLE,
        targets_system=True,
        decisions=("1 mass per extra arc",),
    ),
    _weapon(
        type="heavy_needle",
        label="heavy needle beam",
        section="C1.8",
        summary="two needle dice at one system at 0–12 mu, one at 12–24 mu; two 6s destroy "
        "the system, do 1 hull damage and roll a beam-die reroll past armour",
        mass_rule="3",
        cost_rule="3 × mass",
        arcs_rule="one arc",
        max_arcs=1,
        fixed_mass=3,
        damage=NEEDLE,
        targets_system=True,
        decisions=("mass 3",),
    ),
    _weapon(
        type="graser",
        label="graser",
        section="C1.9",
        summary="n BD* to hit in the first band (read against screens), one fewer per band; "
        "each hit does 1d6 penetrating damage",
        mass_rule="class 1: 2 / 3 / 4 for 1 / 3 / 6 arcs; class 2: 9 + 3 per extra arc; "
        "class 3: 24 + 6 per extra arc",
        cost_rule="3 × mass",
        arcs_rule="any arcs",
        classes=(1, 2, 3),
        max_arcs=6,
        weak_arcs=True,
        arc_mass=graser_mass,
        damage=PENETRATING,
        # C1.9 says nothing of screens, so they count against the to-hit dice (C1.i)
        screens=True,
        extra={"band_width": {1: 12.0, 2: 18.0, 3: 24.0}},
        decisions=(
            "range bands of 12 / 18 / 24 mu for classes 1 / 2 / 3 (FB2 practice)",
            "2 arcs cost as 3, 4–5 arcs as 6 for class 1",
            "3 points per mass",
        ),
    ),
    _weapon(
        type="pulse_torpedo",
        label="pulse torpedo launcher",
        section="C1.10",
        summary="hit on 2+ at 0–6 mu … 6+ at 24–30 mu; 1d6 damage",
        mass_rule="4",
        cost_rule="3 × mass",
        arcs_rule="one arc",
        max_arcs=1,
        fixed_mass=4,
        damage=TORPEDO,
        decisions=("mass 4, one arc (FB1 practice)",),
    ),
    _weapon(
        type="classed_pulse_torpedo",
        label="classed pulse torpedo launcher",
        section="C1.11",
        summary="hits as the pulse torpedo; Xd6 damage (X = class)",
        mass_rule="4 × class",
        cost_rule="3 × mass",
        arcs_rule="one arc",
        classes=(1, 2, 3),
        max_arcs=1,
        arc_mass=lambda cls, arcs, adjacent: 4 * (cls or 0) if cls in (1, 2, 3) else 0,
        damage=TORPEDO,
        decisions=("mass 4 per class, classes 1–3",),
    ),
    _weapon(
        type="long_range_pulse_torpedo",
        label="long-range pulse torpedo launcher",
        section="C1.12",
        summary="hit on 2+ at 0–9 mu … 6+ at 36–45 mu; 1d6 damage",
        mass_rule="6",
        cost_rule="3 × mass",
        arcs_rule="one arc",
        max_arcs=1,
        fixed_mass=6,
        damage=TORPEDO,
        decisions=("mass 6",),
    ),
    _weapon(
        type="short_range_pulse_torpedo",
        label="short-range pulse torpedo launcher",
        section="C1.13",
        summary="hit on 2+ at 0–4 mu … 6+ at 16–20 mu; 1d6 damage",
        mass_rule="3",
        cost_rule="3 × mass",
        arcs_rule="one arc",
        max_arcs=1,
        fixed_mass=3,
        damage=TORPEDO,
        decisions=("mass 3; the second variant C1.13 mentions is lost from the seed",),
    ),
    _weapon(
        type="fusion_flare",
        label="fusion flare launcher",
        section="C1.14",
        summary="hit on 1+ and 1BD* at 0–6 mu … 6+ and 6BD* at 30–36 mu",
        mass_rule="4",
        cost_rule="3 × mass",
        arcs_rule="one arc",
        max_arcs=1,
        fixed_mass=4,
        damage=FUSION,
        screens=True,
        decisions=("mass 4", "the damage beam dice are read against screens (C1.i default)"),
    ),
    _weapon(
        type="fusion_torpedo",
        label="fusion torpedo launcher",
        section="C1.15",
        summary="hit on 6+ and 6BD* at 0–6 mu … 1+ and 1BD* at 30–36 mu",
        mass_rule="4",
        cost_rule="3 × mass",
        arcs_rule="one arc",
        max_arcs=1,
        fixed_mass=4,
        damage=FUSION,
        screens=True,
        decisions=("mass 4", "the damage beam dice are read against screens (C1.i default)"),
    ),
    _weapon(
        type="multi_fusion",
        label="multi-fusion launcher",
        section="C1.16",
        summary="fires as a fusion flare or a fusion torpedo; switching mode (set_mode) takes "
        "it offline for 2 turns",
        mass_rule="5",
        cost_rule="3 × mass",
        arcs_rule="one arc",
        max_arcs=1,
        fixed_mass=5,
        damage=FUSION,
        screens=True,
        modes=FUSION_MODES,
        decisions=(
            "mass 5",
            "offline for the turn of the switch and the next one",
        ),
    ),
    _weapon(
        type="meson",
        label="meson flechette",
        section="C1.17",
        summary="6BD* at 0–12 mu, 3BD* at 12–24 mu",
        mass_rule="6",
        cost_rule="3 × mass",
        arcs_rule="up to three adjacent arcs",
        max_arcs=3,
        fixed_mass=6,
        damage=STANDARD,
        screens=True,
        decisions=("mass 6 for up to three adjacent arcs (a 'wide-angle' beam)",),
    ),
    SystemType(
        type="fire_control",
        label="fire control",
        section="C3.1",
        family="defence",
        summary="lets the ship engage one target per turn",
        mass_rule="1",
        cost_rule="4",
        arcs_rule="none",
        fixed_mass=1,
        fixed_cost=4,
    ),
    SystemType(
        type="pds",
        label="PDS",
        section="C3.2",
        family="defence",
        summary="defends against ordnance and fighters",
        mass_rule="1",
        cost_rule="3",
        arcs_rule="none",
        fixed_mass=1,
        fixed_cost=3,
        pending="ordnance and fighters are not in the game yet: PDS has nothing to shoot at",
    ),
    SystemType(
        type="adfc",
        label="ADFC",
        section="C3.3",
        family="defence",
        summary="directs point defence for nearby ships",
        mass_rule="2",
        cost_rule="8",
        arcs_rule="none",
        fixed_mass=2,
        fixed_cost=8,
        pending="ordnance and fighters are not in the game yet: ADFC has nothing to direct",
    ),
    SystemType(
        type="screen",
        label="screen",
        section="C6.1",
        family="defence",
        summary="level 1 or 2; any number of generators, at most two levels active",
        mass_rule="level 1: 5% of TMF (min 3); level 2: 10% of TMF (min 6); halves up",
        cost_rule="3 × mass",
        arcs_rule="none",
    ),
    SystemType(
        type="command_bridge",
        label="command bridge",
        section="C3.7",
        family="defence",
        summary="a second bridge: a bridge hit picks one of the two with a d2; a command bridge "
        "hit knocks it out for 1d6 turns (6: destroyed)",
        mass_rule="2",
        cost_rule="10",
        arcs_rule="none",
        fixed_mass=2,
        fixed_cost=10,
        max_per_ship=1,
        decisions=("a knocked-out command bridge has no other effect (no officers in a duel)",),
    ),
    SystemType(
        type="sensors",
        label="sensors",
        section="C6.2",
        family="electronics",
        summary="enhanced or superior: more ping dice (basic sensors are built in)",
        mass_rule="enhanced 1, superior 2",
        cost_rule="enhanced 15, superior 30",
        arcs_rule="none",
        max_per_ship=1,
    ),
    SystemType(
        type="ecm",
        label="ECM",
        section="C6.4",
        family="electronics",
        summary="an ECM die against pings",
        mass_rule="2",
        cost_rule="20",
        arcs_rule="none",
        fixed_mass=2,
        fixed_cost=20,
        max_per_ship=1,
    ),
    SystemType(
        type="area_ecm",
        label="area ECM",
        section="C6.4",
        family="electronics",
        summary="ECM for every friendly ship within 12 mu (and itself)",
        mass_rule="3",
        cost_rule="30",
        arcs_rule="none",
        fixed_mass=3,
        fixed_cost=30,
        max_per_ship=1,
    ),
    SystemType(
        type="ftl",
        label="FTL drive",
        section="C6.8",
        family="hull",
        summary="no use in a battle, but it can be hit (threshold checks, EMP)",
        mass_rule="10% of TMF, halves up, at least 1",
        cost_rule="2 × mass",
        arcs_rule="none",
        cost_per_mass=2,
        max_per_ship=1,
        decisions=("10% of TMF and 2 points per mass (Fleet Book practice)",),
    ),
)

SYSTEMS: Mapping[str, SystemType] = MappingProxyType({row.type: row for row in _ROWS})
DESIGNABLE_TYPES: frozenset[str] = frozenset(SYSTEMS)
WEAPON_TYPES: frozenset[str] = frozenset(t for t, row in SYSTEMS.items() if row.is_weapon)
SENSOR_GRADES: Mapping[str, tuple[int, int]] = MappingProxyType(
    {"enhanced": (1, 15), "superior": (2, 30)}
)

# Hull options (C6.0, C8.2): points per hull box by row count, threshold numbers per row.
HULL_ROW_COST: Mapping[int, tuple[int, int]] = MappingProxyType(
    {3: (3, 1), 4: (2, 1), 5: (3, 2), 6: (1, 1)}  # points per box as a fraction (num, den)
)
STEALTH_COST_PER_BOX = 2  # per hull or armour box per level (C8.2)
# Stealth lost after this many rows finished, by hull rows (C8.2): level 1 -> lost; level 2 ->
# (reduced to level 1, lost).
STEALTH_LOST_AT: Mapping[int, tuple[int, int, int]] = MappingProxyType(
    # rows: (level 1 lost, level 2 becomes 1, level 2 lost)
    {3: (2, 1, 2), 4: (2, 1, 3), 5: (3, 2, 4), 6: (3, 2, 4)}
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
) -> int:
    """Mass of one system in a design of TMF ``design_mass`` (0 for an unknown type)."""
    r = SYSTEMS.get(system_type)
    if r is None:
        return 0
    if system_type == "screen":
        return screen_mass(level, design_mass)
    if system_type == "sensors":
        return SENSOR_GRADES.get(grade or "", (0, 0))[0]
    if system_type == "ftl":
        return ftl_mass(design_mass)
    weak = weak_arc_mass(system_type, cls, weak_arcs) if r.weak_arcs else 0
    if r.arc_mass is not None:
        return r.arc_mass(cls, arcs, adjacent) + weak
    return (r.fixed_mass or 0) + weak


# The mass of one more full arc, by type and class (C1.1, C1.9; heavy beams 1.5 × the beam's).
_EXTRA_ARC: Mapping[str, Mapping[int, Fraction]] = MappingProxyType(
    {
        "beam": {2: Fraction(1), 3: Fraction(1), 4: Fraction(2)},
        "emp": {2: Fraction(1), 3: Fraction(1), 4: Fraction(2)},
        "heavy_beam": {2: Fraction(3, 2), 3: Fraction(3, 2), 4: Fraction(3)},
        "graser": {2: Fraction(3), 3: Fraction(6)},
    }
)


def weak_arc_mass(system_type: str, cls: int | None, count: int) -> int:
    """C1.3's weak arcs: half the mass of a full extra arc of the weapon's class each, rounded up
    over all of them. Both of C1.3's examples hold: a class-4 F beam with weak FP and FS weighs
    8 + 2 × 1 = 10; a class-3 F beam with weak FS and FP, 4 + 2 × ½ = 5. (A class-2 beam's
    "extra arc" is the 1 mass it costs beyond three adjacent arcs.)"""
    if count <= 0:
        return 0
    per_arc = _EXTRA_ARC.get(system_type, {}).get(cls or 0, Fraction(1))
    return math.ceil(per_arc * count / 2)


def system_cost(system_type: str, mass: int, *, grade: str | None = None) -> int:
    """Points of one system given its mass."""
    r = SYSTEMS.get(system_type)
    if r is None:
        return 0
    if system_type == "sensors":
        return SENSOR_GRADES.get(grade or "", (0, 0))[1]
    if r.fixed_cost is not None:
        return r.fixed_cost
    return r.cost_per_mass * mass


def hull_cost(hull: int, hull_rows: int) -> int:
    """Points for the hull boxes by row count (C8.2: 3, 2, 1.5, 1 per box; halves up)."""
    num, den = HULL_ROW_COST.get(hull_rows, (2, 1))
    return (num * hull + den - 1) // den


def stealth_cost(level: int, hull: int, armour: int) -> int:
    """+2 points per hull or armour box per level (C8.2)."""
    return STEALTH_COST_PER_BOX * max(level, 0) * (max(hull, 0) + max(armour, 0))


def threshold_numbers(hull_rows: int) -> tuple[int, ...]:
    """The check number of each finished row but the last (C8.2: 6, 5+, 4+, 3+, 2+)."""
    return tuple(7 - r for r in range(1, hull_rows))


def core_threshold_numbers(hull_rows: int) -> tuple[int, ...]:
    """What the core systems need at each of those checks: one more (RULES §8, C8.1)."""
    return tuple(n + 1 for n in threshold_numbers(hull_rows))


# -- firing profiles -------------------------------------------------------------------------
_TORPEDO_WIDTH = {
    "pulse_torpedo": 6.0,
    "classed_pulse_torpedo": 6.0,
    "long_range_pulse_torpedo": 9.0,
    "short_range_pulse_torpedo": 4.0,
}


def profile(
    system_type: str, cls: int | None = None, mode: str | None = None
) -> tuple[FireBand, ...]:
    """The firing profile of a weapon (no stealth, no passive fire control)."""
    r = row(system_type)
    if not r.is_weapon:
        raise ValueError(f"{system_type} is not a weapon")
    if system_type in ("beam", "heavy_beam", "emp"):
        return _beam_bands(cls or 1)
    if system_type == "gatling":
        return (FireBand(12.0, 6, True),)
    if system_type in ("needle", "multi_needle"):
        return (FireBand(12.0, 1, needle=True),)
    if system_type == "heavy_needle":
        return (FireBand(12.0, 2, needle=True), FireBand(24.0, 1, needle=True))
    if system_type == "graser":
        widths = r.extra["band_width"]
        assert isinstance(widths, dict)
        return _beam_bands(cls or 1, widths.get(cls or 1, 12.0))
    if system_type in _TORPEDO_WIDTH:
        damage = cls or 1 if system_type == "classed_pulse_torpedo" else 1
        return _hit_table(_TORPEDO_WIDTH[system_type], damage)
    if system_type == "fusion_flare":
        return _fusion(torpedo=False)
    if system_type == "fusion_torpedo":
        return _fusion(torpedo=True)
    if system_type == "multi_fusion":
        return _fusion(torpedo=mode == "torpedo")
    if system_type == "meson":
        return (FireBand(12.0, 6, True), FireBand(24.0, 3, True))
    raise ValueError(f"{system_type} has no firing profile")  # pragma: no cover - table is closed


# -- the table as documentation --------------------------------------------------------------
def _profile_text(r: SystemType) -> list[str]:
    """One line per class (or mode) of the firing profile: ``0–12: 3BD*; 12–24: 2BD*; …``."""
    variants: list[tuple[str, int | None, str | None]] = []
    if r.modes:
        variants = [(f"{m}: ", None, m) for m in r.modes]
    elif r.classes:
        variants = [(f"class {c}: ", c, None) for c in r.classes]
    else:
        variants = [("", None, None)]
    lines = []
    for prefix, cls, mode in variants:
        start = 0.0
        parts = []
        for band in profile(r.type, cls, mode):
            parts.append(f"{start:g}–{band.to:g} {band.describe()}")
            start = band.to
        lines.append(prefix + "; ".join(parts))
    return lines


def render_markdown() -> str:
    """``docs/systems.md``: the table for readers (a test keeps the file equal to this)."""
    out = [
        "# The systems table",
        "",
        "Generated from `app/rules/systems.py` by `scripts/render_systems.py`; do not edit by "
        "hand (a test fails when this file and the table differ). Ranges are in mu; "
        "*decision* marks a value the compendium does not give, chosen by the project.",
        "",
        "## Weapons (compendium C1)",
        "",
        "| system | § | classes | mass | cost | arcs | range bands and dice | damage | screens "
        "| project decisions |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in _ROWS:
        if not r.is_weapon:
            continue
        classes = ", ".join(str(c) for c in r.classes) or "—"
        if r.modes:
            classes = "modes " + " / ".join(r.modes)
        weak_rule = "; weak arcs (C1.3): half a full extra arc's mass each, rounded up in all"
        arcs = r.arcs_rule + (weak_rule if r.weak_arcs else "")
        bands = "<br>".join(_profile_text(r))
        target = " Names a target system." if r.targets_system else ""
        screens = "reduce hits" if r.screens else "ignored"
        out.append(
            f"| {r.label} (`{r.type}`) | {r.section} | {classes} | {r.mass_rule} | {r.cost_rule} "
            f"| {arcs} | {bands} | {DAMAGE_PATHS[r.damage or STANDARD]}.{target} | {screens} "
            f"| {_decided(r)} |"
        )
    out += [
        "",
        "## Defences, electronics and hull systems (C3, C6)",
        "",
        "| system | § | mass | cost | at most | in battle | project decisions |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in _ROWS:
        if r.is_weapon:
            continue
        effect = r.summary + (f" — *not yet:* {r.pending}" if r.pending else "")
        most = str(r.max_per_ship) if r.max_per_ship else "any"
        out.append(
            f"| {r.label} (`{r.type}`) | {r.section} | {r.mass_rule} | {r.cost_rule} | {most} "
            f"| {effect} | {_decided(r)} |"
        )
    out += [
        "",
        "## Hull options (C6.0, C8.2)",
        "",
        "- Hull integrity: 10–50% of the design's mass (TMF), 1 mass per box.",
        "- Armour: 1 mass and 2 points per box; ordinary hits take armour first.",
        "",
        "| hull rows | points per hull box | threshold checks | core systems fail on |",
        "| --- | --- | --- | --- |",
    ]
    for rows, (num, den) in HULL_ROW_COST.items():
        cost = f"{num / den:g}"
        checks = ", ".join(f"{n}+" for n in threshold_numbers(rows))
        core = ", ".join(f"{n}+" for n in core_threshold_numbers(rows))
        out.append(f"| {rows} | {cost} (halves up) | {checks} | {core} |")
    out += [
        "",
        "- The core systems (power core, bridge, life support) roll as one system and fail on "
        "one more than the row's number; the +1 per further row finished in the same batch "
        "is added to every die, theirs too.",
        "",
        f"- Stealth hull level 1–{MAX_STEALTH}: +{STEALTH_COST_PER_BOX} points per hull or "
        "armour box per level, no mass. Weapons aimed at the ship use range bands × 5/6 "
        "(level 1) or × 2/3 (level 2); the ship's own fire reaches at most "
        f"{PASSIVE_FIRE_CONTROL_RANGE:g} mu (passive fire control). Stealth does not change "
        "ping detection.",
        "",
        "| hull rows | level 1 lost after row | level 2 drops to 1 after row "
        "| level 2 lost after row |",
        "| --- | --- | --- | --- |",
    ]
    for rows, (one, two_down, two_lost) in STEALTH_LOST_AT.items():
        out.append(f"| {rows} | {one} | {two_down} | {two_lost} |")
    out += [
        "",
        "- EMP-vulnerable systems ([rules.md](rules.md) §8): "
        + ", ".join(f"`{t}`" for t in sorted(EMP_VULNERABLE))
        + f"; at most {EMP_MAX_HITS} EMP hits per firing ship and target.",
    ]
    return "\n".join(out) + "\n"


def _decided(r: SystemType) -> str:
    return "<br>".join(f"*decision:* {d}" for d in r.decisions) or "—"
