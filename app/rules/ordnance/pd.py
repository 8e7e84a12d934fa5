"""Point-defence dice and their odds (RULES §9.5, compendium C2.2–2.3, C3.2; decisions 8, 17).

Pure: every roll comes from the ``roll`` callable the caller passes (the game's roller).

* A PDS (or a class-1 beam fired as one) rolls 1BD* with the attacking marker's DRM. Against a
  salvo each hit kills one missile (a 6 scores two and earns a further die, as any beam die
  read in the screen-0 column). Against a one-missile marker (a heavy missile, an AMT) every
  die, the further dice of 6s included, destroys it on a modified 5 or more.
* An anti-fighter salvo (AFHAWK) rolls one d6: that many missiles of a salvo are killed; a
  one-missile marker is destroyed on 4 or more (decision 8).

The odds are exact: the expected kills of one pairing's dice against a salvo (before the
salvo's own 1D6 caps them), or the chance that they destroy a one-missile marker.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.rules.beams import BeamDice, beam_hits, roll_beam_dice

SALVO_KINDS = frozenset({"salvo", "er_salvo", "af_salvo"})
# shown kinds whose kills are counted one by one: salvo missiles, and a group's fighters on an
# attack run (RULES §9.5: each PD hit kills one fighter, an AF salvo 1D6 of them)
MANY_KINDS = SALVO_KINDS | {"fighters"}
ONE_MISSILE_KINDS = frozenset({"heavy_missile", "amt"})
PD_DESTROYS_ON = 5  # modified roll that destroys a heavy missile or AMT (RULES §9.5)
AF_DESTROYS_ON = 4  # an AF salvo's die against a heavy missile or AMT (decision 8)
SALVO_MISSILES = 6  # missiles in a salvo at launch; the most a defence can ever kill
PD_NOTATION = "1BD*"


def marker_drm(kind: str) -> int:
    """The DRM point defence rolls with against a marker of this kind (C5.0's net DRMs are for
    fighters and drones, issue 13; missiles and AMTs have none)."""
    if kind not in SALVO_KINDS | ONE_MISSILE_KINDS:
        raise ValueError(f"no point-defence DRM for a {kind!r} marker")
    return 0


def pd_dice(drm: int) -> BeamDice:
    return BeamDice(1, drm, reroll=True)


@dataclass(frozen=True)
class PdRoll:
    """What one defence's dice did to one marker."""

    dice: tuple[dict[str, Any], ...]  # each die: natural, modified, further (a 6's extra die)
    kills: int  # missiles of a salvo killed (0 against a one-missile marker)
    destroyed: bool  # a one-missile marker destroyed (False against a salvo)

    def to_dict(self) -> dict[str, Any]:
        return {
            "dice": [dict(d) for d in self.dice],
            "kills": self.kills,
            "destroyed": self.destroyed,
        }


def roll_pd(kind: str, drm: int, roll: Callable[[], int]) -> PdRoll:
    """One PDS (or class-1 beam) firing 1BD* at a marker of ``kind``."""
    result = roll_beam_dice(pd_dice(drm), 0, roll)
    dice = tuple(
        {"natural": d.natural, "modified": d.modified, "further": d.is_reroll} for d in result.dice
    )
    if kind in MANY_KINDS:
        return PdRoll(dice, result.total, False)
    destroyed = any(d.modified >= PD_DESTROYS_ON for d in result.dice)
    return PdRoll(dice, 0, destroyed)


def roll_af(kind: str, roll: Callable[[], int]) -> PdRoll:
    """An anti-fighter salvo at a marker of ``kind``: 1D6 kills, or destroyed on 4+."""
    die = roll()
    dice = ({"natural": die, "modified": die, "further": False},)
    if kind in MANY_KINDS:
        return PdRoll(dice, die, False)
    return PdRoll(dice, 0, die >= AF_DESTROYS_ON)


# -- odds -----------------------------------------------------------------------------------------
def expected_pd_kills(drm: int) -> Fraction:
    """Expected hits of 1BD* with a DRM, read in the screen-0 column, further dice included.

    E = Σ_f hits(f + drm) / 6 + E / 6 (a natural 6 earns a further die), so E = Σ_f hits / 5."""
    return Fraction(sum(beam_hits(f + drm, 0) for f in range(1, 7)), 5)


def pd_destroy_chance(drm: int) -> Fraction:
    """Chance that 1BD* with a DRM has some die (a 6's further dice included) of modified 5+.

    A natural 6 is the best face: if it does not make 5, no die ever does (0); if it does, the
    faces that make it are the answer and a 6's further die changes nothing."""
    if 6 + drm < PD_DESTROYS_ON:
        return Fraction(0)
    return Fraction(sum(1 for f in range(1, 7) if f + drm >= PD_DESTROYS_ON), 6)


def pd_odds(kind: str, drm: int) -> Fraction:
    """The number ``phase.legal.defend`` shows for one PDS pairing: expected kills (salvo) or
    the chance of destruction (one-missile marker)."""
    return expected_pd_kills(drm) if kind in SALVO_KINDS else pd_destroy_chance(drm)


def af_odds(kind: str) -> Fraction:
    """An AF salvo's number: 3.5 expected kills, or a 1/2 chance of destruction (4+)."""
    if kind in SALVO_KINDS:
        return Fraction(7, 2)
    return Fraction(7 - AF_DESTROYS_ON, 6)


def odds_number(odds: Fraction) -> float:
    """The JSON form of an odds value: a float rounded to 4 places."""
    return round(float(odds), 4)
