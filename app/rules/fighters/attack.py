"""The dice of one fighter or drone attack run at a ship (RULES §9.5, compendium C1.i–iii, C5.0).

Pure: every die comes from the ``roll`` callable (the game's roller). Three kinds of run:

* a **beam** run: each surviving fighter rolls its type's anti-ship notation (``1BD*``,
  ``1BD+1*``) against the target's screens; primary hits go on armour first, the hits of the
  further dice of natural 6s (read in the screen-0 column) straight to the hull, as for beams;
* a **torpedo** run (decision, C5.0 lost note 1): the group fires one pulse torpedo, read in the
  pulse torpedo's closest band (the group attacks from 6 mu at most); a hit does its damage dice
  to the hull, as a ship's pulse torpedo does;
* a **needle** run (lost note 3): each fighter rolls one needle die at the named system type: a
  5 or 6 does 1 hull damage, each 6 also destroys the system (first of its type still standing).

A multi-role group (lost note 2) rolls the notation of the ``mode`` it chose (``run_notation``);
C5.0 gives it 1BD+1* in both, so the choice shows its role rather than changing its dice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.rules.beams import BeamDice, roll_beam_dice
from app.rules.systems import SYSTEMS, GroupType

BEAM_RUN, TORPEDO_RUN, NEEDLE_RUN = "beam", "torpedo", "needle"
ANTI_SHIP, PD_MODE = "anti_ship", "pd"
NEEDLE_HITS_ON = 5  # a needle die's 5+ does 1 damage, a 6 also takes the system (C1.6)
# the pulse torpedo's closest band: to-hit number and damage dice (C1.10)
TORPEDO_BAND = SYSTEMS["pulse_torpedo"].bands()[0]


def run_kind(group: GroupType) -> str:
    """How a group of this type attacks a ship (beam dice, one torpedo, needle dice)."""
    base = group.name.removeprefix("super_stealth_").removeprefix("stealth_")
    if base == "torpedo":
        return TORPEDO_RUN
    if base == "needle":
        return NEEDLE_RUN
    return BEAM_RUN


def can_attack_ships(group: GroupType) -> bool:
    """Interceptors and boarding pods have no anti-ship fire (C5.0's n/a)."""
    return group.anti_ship is not None or run_kind(group) != BEAM_RUN


def ship_attack_left(group: GroupType, torpedo_fired: int | None) -> bool:
    """Whether a group of this type may still attack a ship this sortie: a torpedo group fires
    one pulse torpedo per sortie, launch to landing (C5.0 lost note 1, decided)."""
    spent = run_kind(group) == TORPEDO_RUN and torpedo_fired is not None
    return can_attack_ships(group) and not spent


def run_notation(group: GroupType, at_ship: bool, mode: str | None = None) -> str | None:
    """The beam notation a group rolls at a ship (``at_ship``) or at a group; None: it has none
    (or rolls a torpedo or needles at a ship). A multi-role group rolls the notation of the
    ``mode`` it chose; without one, the notation that fits the target."""
    if mode == ANTI_SHIP:
        return group.anti_ship
    if mode == PD_MODE or not at_ship:
        return group.pd
    return group.anti_ship if run_kind(group) == BEAM_RUN else None


@dataclass(frozen=True)
class RunResult:
    """What one attack run rolled and did (before any armour or thresholds are applied)."""

    how: str  # beam | torpedo | needle
    fighters: int  # fighters that rolled (the torpedo: the group fires one)
    notation: str  # what was rolled, for the log
    screen: int  # the screen column the primary dice were read in (0 for torpedo and needle)
    dice: tuple[dict[str, Any], ...]  # each die: natural, modified, further (a 6's extra die)
    armour_damage: int  # armour boxes first, then hull
    hull_damage: int  # straight to the hull
    damage_rolled: tuple[int, ...] = ()  # a torpedo hit's damage dice
    sixes: int = 0  # needle 6s (each destroys the named system)

    @property
    def rolled(self) -> list[int]:
        return [d["natural"] for d in self.dice]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "run": self.how,
            "fighters": self.fighters,
            "notation": self.notation,
            "screen": self.screen,
            "dice": [dict(d) for d in self.dice],
            "rolled": self.rolled,
            "armour_damage": self.armour_damage,
            "hull_damage": self.hull_damage,
        }
        if self.how == TORPEDO_RUN:
            out["damage_rolled"] = list(self.damage_rolled)
        if self.how == NEEDLE_RUN:
            out["sixes"] = self.sixes
        return out


def _die(natural: int, modified: int, further: bool = False) -> dict[str, Any]:
    return {"natural": natural, "modified": modified, "further": further}


def beam_run(notation: str, fighters: int, screen: int, roll: Callable[[], int]) -> RunResult:
    """``fighters`` dice of a one-die notation against ``screen``: armour hits, hull rerolls."""
    one = BeamDice.parse(notation)
    bd = BeamDice(one.count * fighters, one.drm, one.reroll)
    result = roll_beam_dice(bd, screen, roll)
    dice = tuple(_die(d.natural, d.modified, d.is_reroll) for d in result.dice)
    return RunResult(
        BEAM_RUN, fighters, notation, result.screen, dice, result.hits, result.reroll_hits
    )


def torpedo_run(fighters: int, roll: Callable[[], int]) -> RunResult:
    """One pulse torpedo for the group, whatever its strength (one or more fighters left)."""
    assert TORPEDO_BAND.hit_on is not None
    die = roll()
    damage: tuple[int, ...] = ()
    if die >= TORPEDO_BAND.hit_on:
        damage = tuple(roll() for _ in range(TORPEDO_BAND.damage_dice))
    notation = f"pulse torpedo: {TORPEDO_BAND.describe()}"
    return RunResult(TORPEDO_RUN, fighters, notation, 0, (_die(die, die),), 0, sum(damage), damage)


def needle_run(fighters: int, roll: Callable[[], int]) -> RunResult:
    """A needle die per fighter: 5+ does 1 hull damage; each 6 destroys the named system."""
    dice = tuple(_die(d, d) for d in (roll() for _ in range(fighters)))
    hits = sum(1 for d in dice if d["natural"] >= NEEDLE_HITS_ON)
    sixes = sum(1 for d in dice if d["natural"] == 6)
    return RunResult(NEEDLE_RUN, fighters, "1 needle die", 0, dice, 0, hits, sixes=sixes)


def attack_run(
    group: GroupType,
    fighters: int,
    screen: int,
    roll: Callable[[], int],
    mode: str | None = None,
) -> RunResult:
    """The run of a group with ``fighters`` left at a ship with ``screen`` levels up."""
    if fighters <= 0:
        return RunResult(run_kind(group), 0, "none left", 0, (), 0, 0)
    kind = run_kind(group)
    if kind == TORPEDO_RUN:
        return torpedo_run(fighters, roll)
    if kind == NEEDLE_RUN:
        return needle_run(fighters, roll)
    notation = run_notation(group, True, mode)
    if notation is None:
        # C5.0's n/a (interceptors): sent at a ship, they fly the run and roll nothing
        return RunResult(BEAM_RUN, fighters, "n/a", 0, (), 0, 0)
    return beam_run(notation, fighters, screen, roll)
