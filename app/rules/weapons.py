"""Direct-fire weapon profiles: what a weapon rolls at a given range (C1, RULES §7–8).

The numbers are the systems table's (``app.rules.systems.profile``); this module applies the
circumstances of one shot to them:

* weak arcs (C1.3): a target only in a weapon's weak arcs is fired at as class − 1;
* the target's stealth (C8.2): every band edge is multiplied by ×5/6 (level 1) or ×2/3 (level 2);
* the firer's passive fire control (C8.2): a stealth design fires through it, never beyond
  ``PASSIVE_FIRE_CONTROL_RANGE`` (24 mu), even once hull damage took its stealth away;
* the multi-fusion launcher's current mode.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from app.rules.designs import Design, SystemSpec
from app.rules.geometry import range_band
from app.rules.systems import (
    PASSIVE_FIRE_CONTROL_RANGE,
    STEALTH_BAND_FACTOR,
    SYSTEMS,
    FireBand,
    profile,
)
from app.rules.systems import WEAPON_TYPES as _TABLE_WEAPON_TYPES

WEAPON_TYPES: frozenset[str] = _TABLE_WEAPON_TYPES
EDGE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Band:
    to: float  # upper edge of the band, mu
    fire: FireBand  # what one shot rolls there

    @property
    def dice(self) -> str:
        return self.fire.describe()

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"to": round(self.to, 4), "dice": self.fire.describe()}
        if self.fire.hit_on is not None:
            out["hit_on"] = self.fire.hit_on
        return out


def is_weapon(spec: SystemSpec) -> bool:
    return spec.type in WEAPON_TYPES


def damage_path(spec: SystemSpec) -> str:
    path = SYSTEMS[spec.type].damage
    assert path is not None
    return path


def once_per_game(spec: SystemSpec) -> bool:
    """Whether the weapon is spent for the rest of the game once it has fired (C2.1 racks)."""
    return SYSTEMS[spec.type].once_per_game


def screens_apply(spec: SystemSpec) -> bool:
    """Whether the target's screens count against this weapon (C1.i default: they do)."""
    return SYSTEMS[spec.type].screens


def targets_system(spec: SystemSpec) -> bool:
    return SYSTEMS[spec.type].targets_system


def passive_fire_control(design: Design) -> int:
    """What a ship's own fire passes as ``firer_stealth``: its design's stealth level.

    Decision (C8.2): "stealth ships require passive fire control"; that fire control is part of
    the design and hull damage does not replace it, so a ship that lost its stealth still fires
    at 24 mu at most (only the range bands of weapons aimed at it stop shrinking).
    """
    return design.stealth


def effective_class(spec: SystemSpec, weak: bool) -> int | None:
    """The class a shot rolls as: one lower through a weak arc (C1.3)."""
    if spec.cls is None:
        return None
    return spec.cls - 1 if weak else spec.cls


def bands(
    spec: SystemSpec,
    *,
    weak: bool = False,
    mode: str | None = None,
    target_stealth: int = 0,
    firer_stealth: int = 0,
) -> tuple[Band, ...]:
    """Every range band in which the weapon rolls, under the given circumstances.

    Band edges shrink by the target's stealth (its level now); the bands of a firer with
    passive fire control (``firer_stealth`` > 0, see ``passive_fire_control``) end at 24 mu (a
    band straddling 24 mu is cut there).
    """
    if not is_weapon(spec):
        raise ValueError(f"{spec.type} is not a direct-fire weapon")
    cls = effective_class(spec, weak)
    return _bands(spec.type, cls, mode or spec.fire_mode(), target_stealth, firer_stealth)


# a pure function of a few small values, asked for in every shot and view: cached like the
# profiles it reads (bounded, as a design sent to the API may hold any numbers)
@lru_cache(maxsize=4096)
def _bands(
    weapon_type: str, cls: int | None, mode: str | None, target_stealth: int, firer_stealth: int
) -> tuple[Band, ...]:
    if cls is not None and cls < 1:
        return ()
    fires = profile(weapon_type, cls, mode)
    num, den = STEALTH_BAND_FACTOR.get(target_stealth, (1, 1))
    out: list[Band] = []
    for fb in fires:
        to = fb.to * num / den
        if firer_stealth > 0:
            prev = out[-1].to if out else 0.0
            if prev >= PASSIVE_FIRE_CONTROL_RANGE - EDGE_TOLERANCE:
                break
            to = min(to, PASSIVE_FIRE_CONTROL_RANGE)
        out.append(Band(to, fb))
    return tuple(out)


def max_range(spec: SystemSpec, **circumstances: int) -> float:
    profile_bands = bands(spec, **circumstances)  # type: ignore[arg-type]
    return profile_bands[-1].to if profile_bands else 0.0


def dice_at(
    spec: SystemSpec,
    rng: float,
    *,
    weak: bool = False,
    mode: str | None = None,
    target_stealth: int = 0,
    firer_stealth: int = 0,
) -> tuple[int, FireBand] | None:
    """(band number, what it rolls) at this range, or None when out of range.

    Bands are equal in width within a profile, so band k = max(1, ceil(range / width)) as for
    beams (RULES §1): a range exactly on an edge is in the nearer band.
    """
    profile_bands = bands(
        spec, weak=weak, mode=mode, target_stealth=target_stealth, firer_stealth=firer_stealth
    )
    if not profile_bands:
        return None
    if firer_stealth > 0 and rng > PASSIVE_FIRE_CONTROL_RANGE + EDGE_TOLERANCE:
        return None
    width = profile(spec.type, effective_class(spec, weak), mode or spec.fire_mode())[0].to
    num, den = STEALTH_BAND_FACTOR.get(target_stealth, (1, 1))
    band = range_band(rng, width * num / den)
    if band > len(profile_bands):
        return None
    return band, profile_bands[band - 1].fire
