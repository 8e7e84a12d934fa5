"""Hull options of the systems table (C6.0, C8.2): hull rows, thresholds and stealth."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

# Hull options (C6.0, C8.2): points per hull box by row count, threshold numbers per row.
HULL_ROW_COST: Mapping[int, tuple[int, int]] = MappingProxyType(
    {3: (3, 1), 4: (2, 1), 5: (3, 2), 6: (1, 1)}  # points per box as a fraction (num, den)
)
STEALTH_COST_PER_BOX = 2  # per hull or armour box per level (C8.2)
# Stealth lost after this many rows finished, by hull rows (C8.2): level 1 -> lost; level 2 ->
# (reduced to level 1, lost).
STEALTH_LOST_AT: Mapping[int, tuple[int, int, int]] = MappingProxyType(
    # rows: (level 1 lost, level 2 becomes 1, level 2 lost)
    {3: (2, 1, 2), 4: (2, 1, 3), 5: (3, 2, 4), 6: (3, 2, 4)}
)


def hull_cost(hull: int, hull_rows: int) -> int:
    """Points for the hull boxes by row count (C8.2: 3, 2, 1.5, 1 per box; halves up)."""
    num, den = HULL_ROW_COST.get(hull_rows, (2, 1))
    return (num * hull + den - 1) // den


def stealth_cost(level: int, hull: int, armour: int) -> int:
    """+2 points per hull or armour box per level (C8.2)."""
    return STEALTH_COST_PER_BOX * max(level, 0) * (max(hull, 0) + max(armour, 0))


def threshold_numbers(hull_rows: int) -> tuple[int, ...]:
    """The check number of each finished row but the last (C8.2: 6, 5+, 4+, 3+, 2+)."""
    return tuple(7 - r for r in range(1, hull_rows))


def core_threshold_numbers(hull_rows: int) -> tuple[int, ...]:
    """What the core systems need at each of those checks: one more (RULES §8, C8.1)."""
    return tuple(n + 1 for n in threshold_numbers(hull_rows))
