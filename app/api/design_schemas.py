"""Response models of the design routes: the systems table, a design, a design's summary.

Output models only (more fields may come; clients tolerate additions). Design bodies coming in
stay plain JSON objects: ``Design.from_dict`` reads them strictly and reports every fault at
once, each naming its field, which a schema-first parser would stop short of.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Out(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


# -- the systems table -------------------------------------------------------------------------
class FireBandOut(_Out):
    to: float = Field(description="the band's far edge in mu")
    dice: int = Field(description="beam dice (or needle dice) rolled; 1 for single-die weapons")
    reroll: bool = Field(description="natural 6s reroll (the * of the notation)")
    hit_on: int | None = Field(description="single-die weapons: the d6 needed to hit")
    damage_dice: int = Field(description="torpedoes: Xd6 damage; fusion: the BD of damage")
    damage_reroll: bool
    notation: str = Field(description='e.g. "3BD*" or "hit on 2+, 1d6"')


class ProfileOut(_Out):
    cls: int | None = Field(alias="class", description="the class (null when unclassed)")
    mode: str | None = Field(description="the mode (multi-fusion: flare or torpedo)")
    bands: list[FireBandOut]


class VariantMassOut(_Out):
    """Mass and points of one buildable variant (class and arc count, or grade)."""

    cls: int | None = Field(default=None, alias="class")
    arcs: int | None = None
    adjacent: bool | None = Field(default=None, description="the arcs form one unbroken run")
    grade: str | None = None
    mass: int
    points: int


class SystemRowOut(_Out):
    type: str = Field(description="the system type, as in a design's systems[].type")
    label: str
    section: str = Field(description="where the compendium (or RULES.md) describes it")
    family: str = Field(description="weapon | defence | electronics | hull")
    summary: str
    mass_rule: str
    cost_rule: str
    arcs_rule: str
    classes: list[int] = Field(description="allowed classes; empty when unclassed")
    max_arcs: int = Field(description="0: takes no arcs")
    all_arcs: bool = Field(description="class 1 always fires in all six arcs")
    weak_arcs: bool = Field(description="may buy weak arcs (C1.3), class 2 and above")
    weak_arc_mass: dict[str, float] | None = Field(
        description="mass of one weak arc by class (C1.3: half a full extra arc), "
        "the weapon's total for its weak arcs rounded up"
    )
    modes: list[str]
    fields: list[str] = Field(description="the optional fields a system of this type takes")
    levels: list[int] = Field(description="screens: the levels")
    grades: list[str] = Field(description="sensors: the grades")
    fixed_mass: int | None
    fixed_cost: int | None
    cost_per_mass: int | None = Field(description="points per mass when the cost is not fixed")
    masses: list[VariantMassOut] = Field(
        description="mass and points per variant; empty when the mass is a share of the TMF"
    )
    damage: str | None = Field(description="the damage path's key (weapons)")
    damage_path: str | None = Field(description="how its hits become damage, in words")
    screens: bool = Field(description="the target's screens reduce its hits")
    targets_system: bool = Field(description="a shot names a target system")
    once_per_game: bool = Field(description="spent for the rest of the game once fired (racks)")
    emp_vulnerable: bool
    max_per_ship: int | None
    pending: str | None = Field(description="what does not happen in battle yet, and why")
    decisions: list[str] = Field(description="project decisions where the sources are silent")
    profiles: list[ProfileOut] = Field(description="firing bands per class and mode (weapons)")


class RangeOut(_Out):
    min: int
    max: int


class HullRowsLimitOut(RangeOut):
    default: int


class LimitsOut(_Out):
    mass: RangeOut
    thrust: RangeOut
    hull_rows: HullRowsLimitOut
    hull_boxes: str


class StealthLossOut(_Out):
    level_1_lost: int
    level_2_becomes_1: int
    level_2_lost: int


class HullRowOut(_Out):
    rows: int
    cost_per_box: float
    cost_fraction: list[int] = Field(description="[numerator, denominator]; halves round up")
    threshold_numbers: list[int] = Field(description="the check number after each row but last")
    stealth_lost_after_rows: StealthLossOut


class HullOptionsOut(_Out):
    rows: list[HullRowOut]


class BandFactorOut(_Out):
    level: int
    num: int
    den: int


class StealthOut(_Out):
    levels: list[int]
    cost_rule: str
    cost_per_box_per_level: int
    band_factor: list[BandFactorOut] = Field(
        description="range bands of weapons aimed at the ship, × num / den"
    )
    passive_fire_control_range: float


class ArcSpanOut(_Out):
    arc: str
    from_: float = Field(alias="from", description="degrees clockwise from dead ahead")
    to: float


class OrientationOut(_Out):
    arcs: list[str]
    spans: list[ArcSpanOut]


class OrientationsOut(_Out):
    standard: OrientationOut
    broadside: OrientationOut


class SystemsOut(_Out):
    """The systems table and the frame options a design is built from."""

    systems: list[SystemRowOut]
    families: list[str]
    limits: LimitsOut
    frame: dict[str, str]
    hull: HullOptionsOut
    stealth: StealthOut
    orientations: OrientationsOut


# -- designs ----------------------------------------------------------------------------------
class SystemSpecOut(_Out):
    id: str
    type: str
    cls: int | None = Field(default=None, alias="class")
    arcs: list[str] | None = None
    weak_arcs: list[str] | None = Field(default=None, description="C1.3: one class lower")
    mode: str | None = None
    level: int | None = None
    grade: str | None = None


class SummaryRowOut(_Out):
    id: str
    type: str
    mass: int
    points: int


class DesignSummaryOut(_Out):
    """Mass and points item by item; ``problems`` is empty for a legal design."""

    id: str
    name: str
    cls: str = Field(alias="class")
    mass: int
    mass_used: int
    mass_free: int
    points: int
    base_cost: int
    thrust: int
    drive_mass: int
    drive_cost: int
    hull: int
    hull_rows: int
    hull_mass: int
    hull_cost: int
    armour: int
    armour_cost: int
    broadside: bool
    stealth: int
    stealth_cost: int
    systems: list[SummaryRowOut]
    problems: list[str]


class DesignOut(_Out):
    id: str
    name: str
    cls: str = Field(alias="class")
    mass: int
    thrust: int
    hull: int
    hull_rows: int
    armour: int
    broadside: bool
    stealth: int | None = Field(default=None, description="0..2; omitted when 0")
    systems: list[SystemSpecOut]
    points: int
    summary: DesignSummaryOut
