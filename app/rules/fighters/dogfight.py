"""The dice of fire at fighter and drone groups (RULES §9.5, compendium C1.i–iv, C5.0).

Pure: every die comes from the ``roll`` callable. Fire at a group is beam dice read in the
screen-0 column (groups have no screens), each die modified by the target group's DRM (C5.0's
"DRM to attacking fire": heavy −1, drones +1, ...) on top of the notation's own; every hit
kills one fighter (C1.iv), never more than the group has.

* a **dogfight**: each fighter of both groups rolls its type's PD notation at the other group,
  simultaneously (the attacker's dice first in the roll order; the kills are counted against
  the strengths before either group's losses);
* **PD at a group**: a PDS (or a class-1 beam fired as one) rolls 1BD* with the group's DRM;
* a group's PD at a **salvo** it intercepts: its PD notation per fighter, missiles have no DRM;
* a ship's **weapon** at a group in a fire window (decision F12, C1.iv): only its to-hit dice
  count, each with the group's DRM: beam dice as above, a single-die weapon's die against its
  to-hit number, a needle die on 5+; damage dice are never rolled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.rules.beams import BeamDice, beam_hits, roll_beam_dice
from app.rules.systems import FireBand, GroupType

NEEDLE_HITS_ON = 5  # a needle die hits on 5+ (C1.6)


@dataclass(frozen=True)
class GroupFire:
    """One side's dice at a group (or a salvo): what it rolled and how many it killed."""

    notation: str  # per fighter (or per system), before the target's DRM
    fighters: int  # dice rolled before rerolls: the firing group's strength, or 1
    drm: int  # the net DRM on each die (notation's plus the target's)
    dice: tuple[dict[str, Any], ...]  # each die: natural, modified, further
    hits: int
    kills: int  # hits, capped at what the target had

    def to_dict(self) -> dict[str, Any]:
        return {
            "notation": self.notation,
            "fighters": self.fighters,
            "drm": self.drm,
            "dice": [dict(d) for d in self.dice],
            "rolled": [d["natural"] for d in self.dice],
            "hits": self.hits,
            "kills": self.kills,
        }


def fire_at(
    notation: str | None, count: int, target_drm: int, target_strength: int, roll: Callable[[], int]
) -> GroupFire:
    """``count`` dice of a one-die notation at a target of ``target_strength`` with a DRM.
    No notation (C5.0's n/a) or no firer left: nothing is rolled."""
    if notation is None or count <= 0:
        return GroupFire(notation or "n/a", 0, target_drm, (), 0, 0)
    one = BeamDice.parse(notation)
    bd = BeamDice(one.count * count, one.drm + target_drm, one.reroll)
    result = roll_beam_dice(bd, 0, roll)
    dice = tuple(
        {"natural": d.natural, "modified": d.modified, "further": d.is_reroll} for d in result.dice
    )
    hits = result.total
    return GroupFire(notation, count, bd.drm, dice, hits, min(hits, max(target_strength, 0)))


@dataclass(frozen=True)
class DogfightResult:
    attacker: GroupFire  # the attacking (or intercepting) group's dice at the other
    defender: GroupFire  # the other group's dice back

    def to_dict(self) -> dict[str, Any]:
        return {"attacker": self.attacker.to_dict(), "defender": self.defender.to_dict()}


def dogfight(
    attacker: GroupType,
    attacker_strength: int,
    defender: GroupType,
    defender_strength: int,
    roll: Callable[[], int],
    attacker_notation: str | None = None,
) -> DogfightResult:
    """Both groups' PD notation at each other at once (``attacker_notation`` overrides the
    attacker's, e.g. a multi-role group's chosen mode)."""
    notation = attacker_notation if attacker_notation is not None else attacker.pd
    a = fire_at(notation, attacker_strength, defender.drm, defender_strength, roll)
    d = fire_at(defender.pd, defender_strength, attacker.drm, attacker_strength, roll)
    return DogfightResult(a, d)


def weapon_at_group(
    band: FireBand, target_drm: int, target_strength: int, roll: Callable[[], int]
) -> GroupFire:
    """One weapon's to-hit dice in its band at a group: each hit kills one fighter."""
    if band.hit_on is None and not band.needle:
        notation = f"{band.dice}BD{'*' if band.reroll else ''}"
        return fire_at(notation, 1, target_drm, target_strength, roll)
    need = band.hit_on if band.hit_on is not None else NEEDLE_HITS_ON
    naturals = [roll() for _ in range(band.dice)]
    dice = tuple({"natural": n, "modified": n + target_drm, "further": False} for n in naturals)
    hits = sum(1 for d in dice if d["modified"] >= need)
    kills = min(hits, max(target_strength, 0))
    return GroupFire(band.describe(), 1, target_drm, dice, hits, kills)


# -- odds ---------------------------------------------------------------------------------------
def expected_hits(notation: str | None, target_drm: int) -> Fraction:
    """Expected hits of one die of a one-die notation read in the screen-0 column, further dice
    of natural 6s included: E = S/6 + E/6 with a reroll (so S/5), S/6 without."""
    if notation is None:
        return Fraction(0)
    one = BeamDice.parse(notation)
    drm = one.drm + target_drm
    total = sum(beam_hits(f + drm, 0) for f in range(1, 7))
    return Fraction(total * one.count, 5 if one.reroll else 6)


def expected_kills(
    notation: str | None, count: int, target_drm: int, target_strength: int
) -> Fraction:
    """Expected kills of ``count`` dice at a target (the cap at its strength ignored when it
    would change nothing: a shown odds value, not a promise)."""
    return min(expected_hits(notation, target_drm) * count, Fraction(max(target_strength, 0)))
