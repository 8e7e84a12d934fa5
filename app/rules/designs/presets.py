"""The preset designs: the product's own generic designs, and those that show off the
compendium's other systems (issue 6). Each one's mass and points are worked out by hand in
docs/designs.md and checked in tests/rules/test_designs.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.rules.designs.design import Design
from app.rules.designs.fighter_presets import FIGHTER_PRESETS
from app.rules.designs.ordnance_presets import ORDNANCE_PRESETS
from app.rules.designs.spec import SystemSpec


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
    # submunition racks (C2.1): three one-shot racks across the fore arcs for one close pass
    Design(
        id="strike_frigate",
        name="Strike Frigate",
        hull_class="strike frigate",
        mass=30,
        thrust=6,
        hull=10,
        armour=2,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("fc-2", "fire_control"),
            SystemSpec("rack-1", "submunitions", arcs=("F",)),
            SystemSpec("rack-2", "submunitions", arcs=("FP",)),
            SystemSpec("rack-3", "submunitions", arcs=("FS",)),
            _beam("beam-1", 2, *_FORE),
            _beam("beam-2", 1),
            SystemSpec("pds-1", "pds"),
        ),
    ),
)

PRESET_DESIGNS: Mapping[str, Design] = MappingProxyType(
    {d.id: d for d in (*_PRESETS, *_SHOWCASE, *ORDNANCE_PRESETS, *FIGHTER_PRESETS)}
)


def preset(design_id: str) -> Design:
    """The preset design with this id; KeyError naming the choices otherwise."""
    try:
        return PRESET_DESIGNS[design_id]
    except KeyError:
        raise KeyError(
            f"unknown preset design {design_id!r}: choose one of {', '.join(PRESET_DESIGNS)}"
        ) from None
