"""Mass rules of the systems table (RULES §13; compendium C1, C6): functions of what is fitted."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.rules.systems.row import Fit


def _pct_half_up(mass: int, percent: int) -> int:
    return max(0, (mass * percent + 50) // 100)


def beam_mass(cls: int | None, arcs: int, adjacent: bool = True) -> int:
    """Standard beams (RULES §13): 1; 2 (3 for more than three, or non-adjacent, arcs);
    4 + 1 per extra arc; 8 + 2 per extra arc. 0 for a class that does not exist."""
    if cls == 1:
        return 1
    if cls == 2:
        return 2 if arcs <= 3 and adjacent else 3
    if cls == 3:
        return 4 + max(arcs - 1, 0)
    if cls == 4:
        return 8 + 2 * max(arcs - 1, 0)
    return 0


def heavy_beam_mass(cls: int | None, arcs: int, adjacent: bool = True) -> int:
    # Decision: half as much again as the standard beam of that class and arcs, halves up.
    return (3 * beam_mass(cls, arcs, adjacent) + 1) // 2


def graser_mass(cls: int | None, arcs: int, adjacent: bool = True) -> int:
    """C1.9's table: class 1 is 2 / 3 / 4 mass for 1 / 3 / 6 arcs; class 2 is 9 + 3 per extra
    arc; class 3 is 24 + 6 per extra arc. Decision: 2 arcs price as 3, 4–5 arcs as 6."""
    if cls == 1:
        return 2 if arcs <= 1 else (3 if arcs <= 3 else 4)
    if cls == 2:
        return 9 + 3 * max(arcs - 1, 0)
    if cls == 3:
        return 24 + 6 * max(arcs - 1, 0)
    return 0


def gatling_mass(cls: int | None, arcs: int, adjacent: bool = True) -> int:
    # Decision (C1.4 refers to FB2's pulser): 2 mass for one arc, 3 for up to three, 4 for six.
    return 2 if arcs <= 1 else (3 if arcs <= 3 else 4)


def screen_mass(level: int | None, design_mass: int) -> int:
    """Level 1: 5% of TMF (min 3); level 2: 10% of TMF (min 6); halves round up (RULES §13)."""
    if level == 1:
        return max(3, _pct_half_up(design_mass, 5))
    if level == 2:
        return max(6, _pct_half_up(design_mass, 10))
    return 0


def ftl_mass(design_mass: int) -> int:
    # Decision (Fleet Book practice): 10% of TMF, halves up, at least 1.
    return max(1, _pct_half_up(design_mass, 10))


ArcMass = Callable[[int | None, int, bool], int]  # (class, arc count, arcs adjacent) -> mass


def by_arcs(rule: ArcMass) -> Callable[[Fit], int]:
    """A weapon's mass rule that reads its class and arcs."""
    return lambda fit: rule(fit.cls, fit.arcs, fit.adjacent)
