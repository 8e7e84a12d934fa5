"""Firing profiles and damage paths: what a weapon of the systems table rolls, band by band.

Firing profiles are tuples of ``FireBand``: the band's far edge and what a shot rolls there.
Two kinds of roll exist: beam dice (``dice`` BD, ``reroll`` for ``*``) and a single to-hit d6
(``hit_on``) followed by damage. Stealth and the firer's passive fire control shrink or cut the
bands at fire time (``app.rules.weapons``); the table holds the plain profile.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

# -- damage paths ----------------------------------------------------------------------------
# How the hits of a weapon become damage (RULES §8; C1.iv separates hits from damage).
STANDARD = "standard"  # 1 damage per hit; armour first; reroll hits go past armour to the hull
HEAVY = "heavy"  # as standard, but each hit does 1d6 - 2 - screen level (C1.2)
# each hit does 1d6 to the hull past armour (C1.9); the to-hit dice still read screens (C1.i)
PENETRATING = "penetrating"
TORPEDO = "torpedo"  # one to-hit d6; a hit does Xd6 to the hull, ignoring screens and armour
FUSION = "fusion"  # one to-hit d6; a hit rolls beam dice of damage (screens count, armour first)
NEEDLE = "needle"  # a die per needle at a named system: 5 = 1 damage, 6 = 1 + system destroyed
EMP = "emp"  # hits (at most 3 per firing ship and target) make vulnerable systems roll

DAMAGE_PATHS: Mapping[str, str] = MappingProxyType(
    {
        STANDARD: "1 per hit; armour first, reroll hits past armour to the hull",
        HEAVY: "1d6 - 2 - screen level per hit (at least 0); armour first, reroll hits past it",
        PENETRATING: "1d6 per hit, penetrating: straight to the hull past armour (screens "
        "reduce the hits, not the damage)",
        TORPEDO: "a hit does Xd6 (X = class, 1 when unclassed) to the hull; "
        "ignores screens and armour",
        FUSION: "a hit rolls the band's beam dice against screens; armour first, "
        "reroll hits past it",
        NEEDLE: "at a named non-core system: 5 = 1 hull damage, 6 = 1 hull damage and the "
        "system destroyed beyond repair; ignores screens and armour",
        EMP: "no damage: at most 3 hits per firing ship and target in a turn; each EMP-vulnerable "
        "system "
        "rolls 1D6 and is damaged on a roll equal to or below the hits, after all of the "
        "firer's weapons",
    }
)

# Systems an EMP hit can damage (RULES §8 restores the list lost from C1.5).
EMP_VULNERABLE: frozenset[str] = frozenset(
    {"main_drive", "ftl", "screen", "fire_control", "adfc", "sensors", "ecm", "area_ecm"}
)
EMP_MAX_HITS = 3

# A stealthed ship fires through passive fire control only: nothing beyond this (C8.2).
PASSIVE_FIRE_CONTROL_RANGE = 24.0
# Stealth level -> range band factor for weapons aimed at the ship (RULES §8 reads C8.2).
STEALTH_BAND_FACTOR: Mapping[int, tuple[int, int]] = MappingProxyType(
    {0: (1, 1), 1: (5, 6), 2: (2, 3)}
)
MAX_STEALTH = 2

# Multi-fusion launcher modes (C1.16) and how long a switch keeps it offline.
FUSION_MODES: tuple[str, ...] = ("flare", "torpedo")
MODE_SWITCH_OFFLINE_TURNS = 2


@dataclass(frozen=True)
class FireBand:
    """One range band of a firing profile: out to ``to`` mu, what one shot rolls there."""

    to: float
    dice: int  # beam dice rolled to hit (BD weapons) or needle dice; 1 for single-die weapons
    reroll: bool = False  # natural 6s reroll (the ``*`` of the notation)
    hit_on: int | None = None  # single-die weapons: the d6 needed to hit
    damage_dice: int = 0  # torpedoes: Xd6 of damage; fusion: the BD of damage on a hit
    damage_reroll: bool = False
    needle: bool = False  # needle dice: 5 = 1 damage, 6 = damage and the system destroyed

    def describe(self) -> str:
        if self.needle:
            return f"{self.dice} needle {'die' if self.dice == 1 else 'dice'}"
        if self.hit_on is not None:
            if self.damage_dice and self.damage_reroll:
                dmg = f"{self.damage_dice}BD*"
            else:
                dmg = f"{self.damage_dice}d6"
            return f"hit on {self.hit_on}+, {dmg}"
        return f"{self.dice}BD{'*' if self.reroll else ''}"


FireRule = Callable[[int | None, str | None], tuple[FireBand, ...]]  # (class, mode) -> bands


def steady(*bands: FireBand) -> FireRule:
    """A profile that is the same whatever the class and mode."""
    return lambda cls, mode: bands


def beam_bands(cls: int, width: float = 12.0) -> tuple[FireBand, ...]:
    # class n rolls n BD* in band 1, one fewer per further band (C1.1)
    return tuple(FireBand(width * k, cls - k + 1, True) for k in range(1, cls + 1))


def hit_table(width: float, damage: int = 1) -> tuple[FireBand, ...]:
    # pulse torpedoes: 2+ in the first band up to 6+ in the fifth (C1.10–1.13)
    return tuple(FireBand(width * k, 1, hit_on=k + 1, damage_dice=damage) for k in range(1, 6))


def fusion_bands(torpedo: bool) -> tuple[FireBand, ...]:
    # flare: 1+ and 1BD* close, 6+ and 6BD* far; the torpedo is the converse (C1.14–1.15)
    bands = []
    for k in range(1, 7):
        n = 7 - k if torpedo else k
        bands.append(FireBand(6.0 * k, 1, hit_on=n, damage_dice=n, damage_reroll=True))
    return tuple(bands)
