"""Beam dice (compendium C1.i–C1.iii, RULES.md §8): the hit table, the notation, the roll.

Range bands, screens that are down and weapons that ignore screens are the caller's business:
it passes the number of dice and the screen level that applies (0 when screens are ignored).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from app.rules.errors import NotationError

MAX_SCREEN = 2  # at most two screen levels are ever active

_NOTATION = re.compile(r"\s*(?P<count>[0-9]*)BD(?P<drm>[+-][0-9]+)?(?P<reroll>\*?)\s*", re.ASCII)
_FORMAT_HINT = "expected [n]BD[±DRM][*], e.g. 2BD+1*"


@dataclass(frozen=True)
class BeamDice:
    """``[n]BD[±DRM][*]``: n beam dice, each modified by the DRM; ``*`` rerolls natural 6s."""

    count: int
    drm: int = 0
    reroll: bool = False

    def __post_init__(self) -> None:
        if self.count < 0:
            raise NotationError(f"a beam-dice count cannot be negative, got {self.count}")

    @classmethod
    def parse(cls, text: str) -> BeamDice:
        m = _NOTATION.fullmatch(text)
        if m is None:
            raise NotationError(f"{text!r} is not beam-dice notation: {_FORMAT_HINT}")
        count = m["count"]
        drm = m["drm"]
        return cls(
            count=int(count) if count else 1,
            drm=int(drm) if drm else 0,
            reroll=m["reroll"] == "*",
        )

    def __str__(self) -> str:
        drm = f"{self.drm:+d}" if self.drm else ""
        return f"{self.count}BD{drm}{'*' if self.reroll else ''}"


def beam_hits(modified_roll: int, screen: int) -> int:
    """Hits for one modified beam die read in the column of the given screen level (C1.i)."""
    screen = min(max(screen, 0), MAX_SCREEN)
    if modified_roll <= 3:
        return 0
    if modified_roll == 4:
        return 1 if screen == 0 else 0
    if modified_roll == 5:
        return 1
    return 1 if screen == 2 else 2


@dataclass(frozen=True)
class BeamDie:
    natural: int
    modified: int
    hits: int
    is_reroll: bool  # an extra die earned by a natural 6, read in the screen-0 column


@dataclass(frozen=True)
class BeamRoll:
    notation: str
    screen: int  # the column the primary dice were read in (after clamping to 0..2)
    dice: tuple[BeamDie, ...]  # each primary die followed by its reroll chain
    hits: int  # from primary dice: armour stops these first
    reroll_hits: int  # from reroll dice: straight to the hull, past armour

    @property
    def total(self) -> int:
        return self.hits + self.reroll_hits


def roll_beam_dice(bd: BeamDice, screen: int, roll: Callable[[], int]) -> BeamRoll:
    """Roll ``bd`` against a screen level, drawing each d6 from ``roll`` in order."""
    screen = min(max(screen, 0), MAX_SCREEN)
    dice: list[BeamDie] = []
    hits = 0
    reroll_hits = 0
    for _ in range(bd.count):
        natural = roll()
        modified = natural + bd.drm
        die_hits = beam_hits(modified, screen)
        dice.append(BeamDie(natural, modified, die_hits, is_reroll=False))
        hits += die_hits
        # Every natural 6 earns another die (no limit); rerolls keep the DRM but ignore screens.
        while bd.reroll and natural == 6:
            natural = roll()
            modified = natural + bd.drm
            die_hits = beam_hits(modified, 0)
            dice.append(BeamDie(natural, modified, die_hits, is_reroll=True))
            reroll_hits += die_hits
    return BeamRoll(
        notation=str(bd),
        screen=screen,
        dice=tuple(dice),
        hits=hits,
        reroll_hits=reroll_hits,
    )
