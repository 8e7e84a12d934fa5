"""The preset designs that carry fighter and drone bays (compendium C4.3, C5.0–C5.2; issue 13):
a light carrier with two fighter groups, a drone tender with three drone groups, and an escort
carrier whose interceptors cover the ships beside it. Mass and points by hand: docs/designs.md."""

from __future__ import annotations

from app.rules.designs.design import Design
from app.rules.designs.spec import SystemSpec

_FORE = ("FP", "F", "FS")


def _beam(sid: str, cls: int, *arcs: str) -> SystemSpec:
    return SystemSpec(sid, "beam", cls=cls, arcs=tuple(arcs))


def _fc(n: int) -> tuple[SystemSpec, ...]:
    return tuple(SystemSpec(f"fc-{i}", "fire_control") for i in range(1, n + 1))


def _bay(sid: str, bay_type: str, group: str) -> SystemSpec:
    return SystemSpec(sid, bay_type, load=group)


FIGHTER_PRESETS: tuple[Design, ...] = (
    # two fighter groups, one for the dogfight and one to strike, and little else: it hides
    Design(
        id="light_carrier",
        name="Light Carrier",
        hull_class="light carrier",
        mass=60,
        thrust=4,
        hull=15,
        armour=2,
        systems=(
            *_fc(2),
            _bay("bay-1", "fighter_bay", "standard"),
            _bay("bay-2", "fighter_bay", "attack"),
            _beam("beam-1", 2, *_FORE),
            _beam("beam-2", 1),
            _beam("beam-3", 1),
            SystemSpec("pds-1", "pds"),
            SystemSpec("pds-2", "pds"),
            SystemSpec("screen-1", "screen", level=1),
            SystemSpec("ecm-1", "ecm"),
        ),
    ),
    # three drone groups that never come back: one long strike, then a frigate with a beam
    Design(
        id="drone_tender",
        name="Drone Tender",
        hull_class="tender",
        mass=50,
        thrust=6,
        hull=12,
        systems=(
            *_fc(1),
            _bay("bay-1", "drone_bay", "standard"),
            _bay("bay-2", "drone_bay", "attack"),
            _bay("bay-3", "drone_bay", "fast"),
            _beam("beam-1", 2, *_FORE),
            _beam("beam-2", 1),
            SystemSpec("pds-1", "pds"),
        ),
    ),
    # two interceptor groups and an ADFC: it guards a carrier against fighters and salvos
    Design(
        id="escort_carrier",
        name="Escort Carrier",
        hull_class="escort carrier",
        mass=60,
        thrust=5,
        hull=14,
        armour=2,
        systems=(
            *_fc(2),
            _bay("bay-1", "fighter_bay", "interceptor"),
            _bay("bay-2", "fighter_bay", "interceptor"),
            SystemSpec("pds-1", "pds"),
            SystemSpec("pds-2", "pds"),
            SystemSpec("adfc-1", "adfc"),
            _beam("beam-1", 1),
            _beam("beam-2", 1),
            SystemSpec("screen-1", "screen", level=1),
        ),
    ),
)
