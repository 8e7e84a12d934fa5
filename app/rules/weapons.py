"""Direct-fire weapon profiles: what a weapon rolls at a given range (C1.1).

Only standard beam batteries exist so far; each weapon family is one small function of
``(spec, range)`` so that later families slot in beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.beams import BeamDice
from app.rules.designs import SystemSpec
from app.rules.geometry import range_band

WEAPON_TYPES = frozenset({"beam"})
BEAM_BAND = 12.0


@dataclass(frozen=True)
class Band:
    to: float  # upper edge of the band, mu
    dice: BeamDice

    def to_dict(self) -> dict[str, object]:
        return {"to": self.to, "dice": str(self.dice)}


def is_weapon(spec: SystemSpec) -> bool:
    return spec.type in WEAPON_TYPES


def bands(spec: SystemSpec) -> tuple[Band, ...]:
    """Every range band in which the weapon rolls at least one die."""
    if spec.type == "beam":
        cls = spec.cls or 1
        # class n rolls n BD* in band 1, one fewer per further 12 mu band (C1.1)
        return tuple(
            Band(to=BEAM_BAND * k, dice=BeamDice(cls - k + 1, 0, True)) for k in range(1, cls + 1)
        )
    raise ValueError(f"{spec.type} is not a direct-fire weapon")


def max_range(spec: SystemSpec) -> float:
    return bands(spec)[-1].to


def dice_at(spec: SystemSpec, rng: float) -> tuple[int, BeamDice] | None:
    """(band, dice) the weapon rolls at this range, or None when out of range."""
    if spec.type == "beam":
        band = range_band(rng, BEAM_BAND)
        profile = bands(spec)
        if band > len(profile):
            return None
        return band, profile[band - 1].dice
    raise ValueError(f"{spec.type} is not a direct-fire weapon")
