"""SVG paths of fire arcs (svg coordinates: y down; a heading of h clock points is a clockwise
turn of h × 30° on screen)."""

from __future__ import annotations

import math

ARC_SPANS = {
    "F": (330, 30),
    "FS": (30, 90),
    "AS": (90, 150),
    "A": (150, 210),
    "AP": (210, 270),
    "FP": (270, 330),
    "SF": (0, 60),
    "S": (60, 120),
    "SA": (120, 180),
    "PA": (180, 240),
    "P": (240, 300),
    "PF": (300, 360),
}


def _ends(cx: float, cy: float, heading: int, arc: str, radius: float) -> tuple[float, ...]:
    start, end = ARC_SPANS[arc]
    a0 = math.radians(heading * 30 + start)
    a1 = math.radians(heading * 30 + end)
    return (
        cx + radius * math.sin(a0),
        cy - radius * math.cos(a0),
        cx + radius * math.sin(a1),
        cy - radius * math.cos(a1),
    )


def wedge(cx: float, cy: float, heading: int, arc: str, radius: float) -> str:
    """An SVG path for one fire arc of a weapon, centred on the ship (svg coordinates)."""
    x0, y0, x1, y1 = _ends(cx, cy, heading, arc, radius)
    return (
        f"M{cx:.2f},{cy:.2f} L{x0:.2f},{y0:.2f} "
        f"A{radius:.2f},{radius:.2f} 0 0 1 {x1:.2f},{y1:.2f} Z"
    )


def arc_edge(cx: float, cy: float, heading: int, arc: str, radius: float) -> str:
    """The arc's curved edge alone at ``radius``: a band limit inside a wedge."""
    x0, y0, x1, y1 = _ends(cx, cy, heading, arc, radius)
    return f"M{x0:.2f},{y0:.2f} A{radius:.2f},{radius:.2f} 0 0 1 {x1:.2f},{y1:.2f}"
