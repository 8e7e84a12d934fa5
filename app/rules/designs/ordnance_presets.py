"""The preset designs that carry ordnance (compendium C2.2–C2.5, C3.2–C3.3; issue 12): salvo
racks, salvo launchers and their magazine, heavy missiles, antimatter torpedoes, and an escort
whose point defence meets them. Mass and points by hand: docs/designs.md."""

from __future__ import annotations

from app.rules.designs.design import Design
from app.rules.designs.spec import SystemSpec

_FORE = ("FP", "F", "FS")


def _beam(sid: str, cls: int, *arcs: str) -> SystemSpec:
    return SystemSpec(sid, "beam", cls=cls, arcs=tuple(arcs))


def _fc(n: int) -> tuple[SystemSpec, ...]:
    return tuple(SystemSpec(f"fc-{i}", "fire_control") for i in range(1, n + 1))


ORDNANCE_PRESETS: tuple[Design, ...] = (
    # two one-shot salvo racks forward, standard and extended range: one strike, then a picket
    Design(
        id="missile_frigate",
        name="Missile Frigate",
        hull_class="frigate",
        mass=30,
        thrust=6,
        hull=9,
        systems=(
            *_fc(2),
            SystemSpec("smr-1", "salvo_rack", arcs=("F",), load="salvo"),
            SystemSpec("smr-2", "salvo_rack", arcs=("F",), load="er_salvo"),
            _beam("beam-1", 1),
        ),
    ),
    # three salvo launchers fed from one magazine: salvos, extended range and AFHAWKs
    Design(
        id="missile_cruiser",
        name="Missile Cruiser",
        hull_class="cruiser",
        mass=80,
        thrust=4,
        hull=20,
        armour=4,
        systems=(
            *_fc(3),
            SystemSpec("sml-1", "salvo_launcher", arcs=("F",), magazine="mag-1"),
            SystemSpec("sml-2", "salvo_launcher", arcs=("FP",), magazine="mag-1"),
            SystemSpec("sml-3", "salvo_launcher", arcs=("FS",), magazine="mag-1"),
            SystemSpec("mag-1", "magazine", loads=(("salvo", 4), ("er_salvo", 2), ("af_salvo", 2))),
            _beam("beam-1", 2, *_FORE),
            _beam("beam-2", 1),
            _beam("beam-3", 1),
            SystemSpec("pds-1", "pds"),
            SystemSpec("pds-2", "pds"),
            SystemSpec("screen-1", "screen", level=1),
            SystemSpec("ecm-1", "ecm"),
        ),
    ),
    # two heavy-missile launchers on a mixed magazine, and a rack with a misericorde
    Design(
        id="missile_destroyer",
        name="Heavy Missile Destroyer",
        hull_class="destroyer",
        mass=50,
        thrust=6,
        hull=14,
        armour=2,
        systems=(
            *_fc(2),
            SystemSpec("hml-1", "heavy_missile_launcher", arcs=("F",), magazine="mag-1"),
            SystemSpec("hml-2", "heavy_missile_launcher", arcs=("F",), magazine="mag-1"),
            SystemSpec(
                "mag-1",
                "magazine",
                loads=(("standard", 3), ("long_lance", 2), ("needle", 1), ("ecm", 1), ("emp", 1)),
            ),
            SystemSpec("hmr-1", "heavy_missile_rack", arcs=("F",), load="misericorde"),
            _beam("beam-1", 1),
            SystemSpec("pds-1", "pds"),
            SystemSpec("pds-2", "pds"),
        ),
    ),
    # two antimatter torpedoes forward for a close pass, beams for the rest of the game
    Design(
        id="amt_boat",
        name="AMT Boat",
        hull_class="torpedo boat",
        mass=40,
        thrust=6,
        hull=10,
        armour=2,
        systems=(
            *_fc(2),
            SystemSpec("amt-1", "amt_launcher", arcs=("F",)),
            SystemSpec("amt-2", "amt_launcher", arcs=("F",)),
            _beam("beam-1", 2, *_FORE),
            _beam("beam-2", 1),
            SystemSpec("pds-1", "pds"),
            SystemSpec("ecm-1", "ecm"),
        ),
    ),
    # four PDS and an ADFC to cover a ship beside it (C3.2, C3.3)
    Design(
        id="pd_escort",
        name="Point-Defence Escort",
        hull_class="escort",
        mass=40,
        thrust=6,
        hull=10,
        armour=3,
        systems=(
            *_fc(2),
            *(SystemSpec(f"pds-{i}", "pds") for i in range(1, 5)),
            SystemSpec("adfc-1", "adfc"),
            _beam("beam-1", 2, *_FORE),
            _beam("beam-2", 1),
            _beam("beam-3", 1),
            SystemSpec("screen-1", "screen", level=1),
        ),
    ),
)
