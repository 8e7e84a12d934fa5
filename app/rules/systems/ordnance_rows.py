"""The ordnance of the systems table (compendium C2.2–C2.5): salvo missile racks and launchers,
their magazines, heavy-missile racks and launchers, and the antimatter-torpedo launcher.

These launch markers (RULES §9) rather than firing along bands, so their family is
``ordnance``, not ``weapon``: the direct-fire code (bands, fire windows' weapon lists, volleys)
never sees them. Their load names, what each weighs and how far each reaches live here too.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.rules.systems.row import Fit, SystemType

# salvo loads (C2.2, C2.3): standard, extended range, anti-fighter (AFHAWK)
SALVO_LOADS: tuple[str, ...] = ("salvo", "er_salvo", "af_salvo")
# the loads a salvo rack may be built with (C2.2: an SMR holds a standard or an ER salvo)
RACK_SALVO_LOADS: tuple[str, ...] = ("salvo", "er_salvo")
# heavy-missile types and their endurance (C2.5's table)
HEAVY_MISSILE_TYPES: Mapping[str, int] = MappingProxyType(
    {"long_lance": 5, "standard": 3, "misericorde": 1, "emp": 1, "needle": 3, "ecm": 3}
)
# what one load takes of a magazine (C2.3: salvo 2, ER 3, AF 1; C2.5: each heavy missile 1)
LOAD_MASS: Mapping[str, int] = MappingProxyType(
    {"salvo": 2, "er_salvo": 3, "af_salvo": 1, **dict.fromkeys(HEAVY_MISSILE_TYPES, 1)}
)
# how far a launch may be aimed from the launcher's true position, by public kind (decision 6)
REACH: Mapping[str, float] = MappingProxyType(
    {"salvo": 24.0, "er_salvo": 36.0, "heavy_missile": 18.0, "amt": 24.0, "af_salvo": 9.0}
)
AMT = "amt"  # the one thing an AMT launcher fires (not a magazine load)
# a salvo rack's mass by its load (C2.2: 4 with a standard salvo, 5 with an ER salvo)
SALVO_RACK_MASS: Mapping[str, int] = MappingProxyType({"salvo": 4, "er_salvo": 5})
_HM = tuple(HEAVY_MISSILE_TYPES)


def launch_kind(load: str) -> str:
    """The public kind a launch of this load shows: a salvo load itself, ``heavy_missile`` for
    every heavy-missile type (never the type), ``amt``."""
    return "heavy_missile" if load in HEAVY_MISSILE_TYPES else load


def loads_mass(loads: tuple[tuple[str, int], ...]) -> int:
    """What a magazine's loads weigh (unknown names and counts below 1 weigh nothing)."""
    return sum(LOAD_MASS.get(name, 0) * max(count, 0) for name, count in loads)


def _salvo_rack_mass(fit: Fit) -> int:
    return SALVO_RACK_MASS.get(fit.load or "", SALVO_RACK_MASS["salvo"])


def _ordnance(**kw: object) -> SystemType:
    return SystemType(family="ordnance", **kw)  # type: ignore[arg-type]


_ONCE = "spent for the rest of the game once it has launched, and that is public"
ORDNANCE_ROWS: tuple[SystemType, ...] = (
    _ordnance(
        type="salvo_rack",
        label="salvo missile rack",
        section="C2.2",
        summary="one salvo of six missiles, launched once per game at an aim point up to "
        "24 mu away (ER 36); attacks the closest enemy ship within 6 mu of it",
        mass_rule="4 with a standard salvo, 5 with an extended-range salvo (its load)",
        cost_rule="3 × mass",
        arcs_rule="one arc",
        max_arcs=1,
        mass_of=_salvo_rack_mass,
        fires=RACK_SALVO_LOADS,
        rack=True,
        once_per_game=True,
        decisions=(
            "points 12 (standard) and 15 (extended range): 3 per mass, as C2.2 gives no cost",
            "one arc, chosen at design",
            _ONCE,
            "its load (standard or extended range) is public: the two differ in mass",
        ),
    ),
    _ordnance(
        type="salvo_launcher",
        label="salvo missile launcher",
        section="C2.3",
        summary="launches one load per turn from its magazine: a salvo, an extended-range "
        "salvo, an anti-fighter salvo or a heavy missile",
        mass_rule="3 (its loads weigh in its magazine)",
        cost_rule="3 × mass",
        arcs_rule="one arc",
        max_arcs=1,
        fixed_mass=3,
        fires=(*SALVO_LOADS, *_HM),
        fed=True,
        decisions=(
            "points 9: 3 per mass",
            "one arc, chosen at design",
            "fed from exactly one magazine of the design, named by id",
            "may launch heavy missiles from its magazine too (C2.5's SML option)",
            "an anti-fighter salvo only in a defence window, and only from a launcher that has "
            "launched nothing else this game",
        ),
    ),
    _ordnance(
        type="magazine",
        label="missile magazine",
        section="C2.3",
        summary="holds the loads its launchers fire; one system in threshold checks, its loads "
        "lost with it",
        mass_rule="its loads: salvo 2, extended-range salvo 3, anti-fighter salvo 1, each heavy "
        "missile 1",
        cost_rule="3 × mass",
        arcs_rule="none",
        mass_of=lambda fit: fit.contents,
        stores=True,
        decisions=(
            "points 3 per mass of loads (C2.3 and C2.5 price each load at 3 per mass)",
            "feeds at least one launcher, and holds only loads one of its launchers can fire",
            "what it holds is secret: the other side sees its mass (``capacity``) only",
        ),
    ),
    _ordnance(
        type="heavy_missile_rack",
        label="heavy missile rack",
        section="C2.5",
        summary="one heavy missile of a type chosen at design, launched once per game at an aim "
        "point up to 18 mu away",
        mass_rule="2 with its missile",
        cost_rule="6",
        arcs_rule="one arc",
        max_arcs=1,
        fixed_mass=2,
        fires=_HM,
        rack=True,
        once_per_game=True,
        decisions=(
            "one arc, chosen at design",
            _ONCE,
            "its missile's type is secret (hardware is public, loads are not)",
        ),
    ),
    _ordnance(
        type="heavy_missile_launcher",
        label="heavy missile launcher",
        section="C2.5",
        summary="launches one heavy missile per turn from its magazine, up to 18 mu away",
        mass_rule="2 (its missiles weigh in its magazine)",
        cost_rule="6",
        arcs_rule="one arc",
        max_arcs=1,
        fixed_mass=2,
        fires=_HM,
        fed=True,
        decisions=(
            "one arc, chosen at design",
            "fed from exactly one magazine of the design, named by id; heavy missiles only",
        ),
    ),
    _ordnance(
        type="amt_launcher",
        label="antimatter torpedo launcher",
        section="C2.4",
        summary="one antimatter torpedo, aimed up to 24 mu away; it closes up to 6 mu on the "
        "nearest enemy ship, then 3D6 within 1 mu, 2D6 within 2, 1D6 within 3",
        mass_rule="4",
        cost_rule="3 × mass",
        arcs_rule="one arc",
        max_arcs=1,
        fixed_mass=4,
        fires=(AMT,),
        once_per_game=True,
        decisions=(
            "mass 4, points 12, one arc, one torpedo (C2.4 gives no numbers)",
            "reach 24 mu from the launcher",
            _ONCE,
        ),
    ),
)
LAUNCHER_TYPES: frozenset[str] = frozenset(r.type for r in ORDNANCE_ROWS if r.is_launcher)
