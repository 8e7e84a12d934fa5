"""How much a ship's weapons would do to a target at a point: the captain's quick reckoning.

Each working weapon of a ship's (public) design is read once into its arcs and, per range band,
the hits it should score on average (``beams.beam_hits`` over the faces; a natural 6's further
dice read at screen 0; single-die weapons their chance times their damage dice). Armour, weak
arcs and fire-control limits are left out: this ranks places and choices, it is not the odds
page (``app/web/odds.py``), which the bot may not import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from app.rules.beams import beam_hits
from app.rules.geometry import Vec, arcs_containing, bearing
from app.rules.systems import LAUNCHER_TYPES, FireBand, profile
from app.rules.weapons import WEAPON_TYPES

LAUNCH_REACH = 24.0  # mu: a salvo's reach, taken for every launcher's threat
LAUNCH_HITS = 2.0  # what a launch is reckoned to do, once it strikes


@dataclass(frozen=True)
class Gun:
    arcs: frozenset[str]
    bands: tuple[tuple[float, float], ...]  # (band's outer edge, expected hits), nearest first

    @property
    def reach(self) -> float:
        return self.bands[-1][0] if self.bands else 0.0

    def hits_at(self, distance: float) -> float:
        for to, hits in self.bands:
            if distance <= to + 1e-9:
                return hits
        return 0.0


@lru_cache(maxsize=32)
def _die_mean(screen: int) -> float:
    return sum(beam_hits(face, screen) for face in range(1, 7)) / 6


def expected_hits(fb: FireBand, screen: int = 0) -> float:
    if fb.needle:
        return fb.dice / 3
    if fb.hit_on is not None:
        chance = max(0, 7 - max(fb.hit_on, 1)) / 6
        return chance * max(fb.damage_dice, 1) * 2.5
    further = fb.dice / 6 * (sum(beam_hits(face, 0) for face in range(1, 7)) / 5)
    return fb.dice * _die_mean(screen) + (further if fb.reroll else 0.0)


@lru_cache(maxsize=256)
def _gun(kind: str, cls: int | None, mode: str | None, arcs: tuple[str, ...], screen: int) -> Gun:
    if kind in LAUNCHER_TYPES:
        return Gun(frozenset(arcs), ((LAUNCH_REACH, LAUNCH_HITS),))
    try:
        bands = profile(kind, cls, mode)
    except (KeyError, ValueError):
        return Gun(frozenset(arcs), ())
    return Gun(frozenset(arcs), tuple((fb.to, expected_hits(fb, screen)) for fb in bands))


def guns(ship: Mapping[str, Any], screen: int = 0, *, ready_only: bool = False) -> list[Gun]:
    """The ship's working weapons (with ``ready_only``, those not fired this turn nor spent)."""
    status = {s["id"]: s for s in ship["systems"]}
    fired = set(ship.get("fired", ()))
    out = []
    for spec in ship["design"]["systems"]:
        kind = spec["type"]
        if kind not in WEAPON_TYPES and kind not in LAUNCHER_TYPES:
            continue
        now = status.get(spec["id"], {})
        if now.get("status") != "ok" or now.get("spent"):
            continue
        if ready_only and spec["id"] in fired:
            continue
        arcs = tuple(spec.get("arcs") or ())
        g = _gun(kind, spec.get("class"), spec.get("mode"), arcs, screen)
        if g.bands:
            out.append(g)
    return out


def screen_of(ship: Mapping[str, Any]) -> int:
    """The target's screen level, roughly: one per working screen generator, two at most."""
    return min(2, sum(1 for s in ship["systems"] if s["type"] == "screen" and s["status"] == "ok"))


def volley(at: Vec, heading: int, armed: Sequence[Gun], target: Vec, reach: float) -> float:
    """The hits ``armed`` (at ``at``, facing ``heading``) should score on a target at ``target``;
    ``reach`` is the longest of their reaches (a cheap first test)."""
    d = (target - at).length()
    if d > reach + 1e-9 or not armed:
        return 0.0
    total = 0.0
    if d == 0:
        return sum(g.hits_at(0.0) for g in armed)
    b = bearing(at, heading, target)
    inside = arcs_containing(b, False) | arcs_containing(b, True)  # either ring's names
    for g in armed:
        if not g.arcs.isdisjoint(inside):
            total += g.hits_at(d)
    return total


def reach_of(armed: Sequence[Gun]) -> float:
    return max((g.reach for g in armed), default=0.0)
