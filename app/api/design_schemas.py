"""Response models of the design routes: the systems table, a design, a design's summary.

Output models only (more fields may come; clients tolerate additions). Design bodies coming in
stay plain JSON objects: ``Design.from_dict`` reads them strictly and reports every fault at
once, each naming its field, which a schema-first parser would stop short of.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from app.rules.designs import (
    MAX_HULL_ROWS,
    MAX_MASS,
    MAX_THRUST,
    MIN_HULL_ROWS,
    MIN_MASS,
    MIN_THRUST,
)

# no NUL characters (``app.problems.JsonGuard`` refuses them in every string of a body)
NO_NUL = r"^[^\x00]*$"


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
    """Mass and points of one buildable variant (class and arc count, grade, or load)."""

    cls: int | None = Field(default=None, alias="class")
    arcs: int | None = None
    adjacent: bool | None = Field(default=None, description="the arcs form one unbroken run")
    grade: str | None = None
    load: str | None = Field(
        default=None,
        description="a rack built with this load; for a magazine, what one such load adds to it",
    )
    mass: int
    points: int


class SystemRowOut(_Out):
    type: str = Field(description="the system type, as in a design's systems[].type")
    label: str
    section: str = Field(description="where the compendium (or RULES.md) describes it")
    family: str = Field(description="weapon | ordnance | bay | defence | electronics | hull")
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
    load: str | None = Field(
        default=None, description="a rack's load: salvo rack salvo|er_salvo, heavy-missile type"
    )
    loads: dict[str, int] | None = Field(
        default=None, description='a magazine\'s loads at the start, e.g. {"salvo": 2}'
    )
    magazine: str | None = Field(default=None, description="the magazine a launcher is fed from")
    capacity: int | None = Field(
        default=None, description="a magazine's mass in the other side's copy (no loads)"
    )


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


# -- designs coming in -------------------------------------------------------------------------
# The document's schema of a design body, field for field what ``Design.from_dict`` reads (a
# wrong JSON type or an unknown field is refused, 422 ``invalid_design``), with the ranges the
# design rules check. The routes still hand the body to that reader as a plain object: it
# reports every fault at once, which a schema-first parser would stop short of. What the schema
# cannot say (the mass adds up, a system's fields fit its type) stays the rules' 422.
class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


Text = Annotated[str, Field(pattern=NO_NUL)]
Arcs = list[Text]


class SystemIn(_In):
    """One designed system: ``id`` and ``type``, plus what its type takes (the systems
    table's ``fields``)."""

    id: Text
    type: Text = Field(description="a type of `GET /api/v1/systems`")
    cls: int | None = Field(None, alias="class")
    arcs: Arcs | None = Field(None)
    weak_arcs: Arcs | None = Field(None, description="C1.3: one class lower")
    level: int | None = Field(None)
    grade: Text | None = Field(None)
    mode: Text | None = Field(None)
    load: Text | None = Field(None)
    loads: dict[str, int] | None = Field(
        None,
        description='a magazine\'s loads, e.g. {"salvo": 2}',
        json_schema_extra={"propertyNames": {"pattern": NO_NUL}},
    )
    magazine: Text | None = Field(None)
    capacity: int | None = Field(None)


class DesignIn(_In):
    """A ship design as the design routes and a game's sides take it."""

    id: Text
    name: Text
    cls: Text = Field(alias="class")
    mass: int = Field(ge=MIN_MASS, le=MAX_MASS)
    thrust: int = Field(ge=MIN_THRUST, le=MAX_THRUST)
    hull: int
    hull_rows: int = Field(4, ge=MIN_HULL_ROWS, le=MAX_HULL_ROWS)
    armour: int = 0
    broadside: bool = False
    stealth: int = 0
    systems: list[SystemIn] = Field(default_factory=list)
    points: Any = Field(None, json_schema_extra={"readOnly": True}, description="ignored")
    summary: Any = Field(None, json_schema_extra={"readOnly": True}, description="ignored")


def _inlined(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON Schema with its ``$defs`` written in place (a request body's schema
    is inline in the document; ``#/$defs/...`` would point nowhere)."""
    schema = model.model_json_schema(by_alias=True)
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return walk(defs[ref.removeprefix("#/$defs/")])
            options = node.get("anyOf", [])
            if len(options) == 2 and {"type": "null"} in options:
                # an optional field: absent, never null (the reader refuses a null)
                rest = {k: v for k, v in node.items() if k not in ("anyOf", "default")}
                return walk({**rest, **next(o for o in options if o != {"type": "null"})})
            return {k: walk(v) for k, v in node.items() if not (k == "default" and v is None)}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)  # type: ignore[no-any-return]


DESIGN_IN: dict[str, Any] = _inlined(DesignIn)
