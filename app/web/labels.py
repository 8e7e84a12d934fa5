"""Placing the map's labels so that no two overlap, on the server (svg coordinates, mu).

Each label is a box estimated from its text (the map's font is a sans-serif at a fixed size in
mu, so a character is about 0.56 of the font size wide). Markers are placed in the order given;
each label tries the spots around its marker (below, above, right, left, the corners), then the
same spots farther out on rings with a leader line back to the marker, and takes the first
spot whose box meets no label already placed, no marker's body and stays on the table. If every
ring is full it is stacked below the lowest label, which always fits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

FONT = 1.5  # mu: the labels' font size (static/css/map.css says the same)
CHAR = 0.56 * FONT
HEIGHT = 1.25 * FONT
BODY = 1.6  # mu: the half-size of a ship's silhouette, kept clear of labels
GAP = 0.5
RINGS = 6


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def meets(self, other: Box) -> bool:
        return not (
            self.x1 <= other.x0 or other.x1 <= self.x0 or self.y1 <= other.y0 or other.y1 <= self.y0
        )


@dataclass(frozen=True)
class Placed:
    """Where a label goes: its centre (``x``, ``y``, absolute), its box, and whether it needs a
    leader line back to its marker (placed away from the spots next to it)."""

    x: float
    y: float
    box: Box
    leader: bool


def box_at(cx: float, cy: float, text: str) -> Box:
    half = max(len(text), 1) * CHAR / 2
    return Box(cx - half, cy - HEIGHT / 2, cx + half, cy + HEIGHT / 2)


def _spots(text: str, ring: int, body: float = BODY) -> list[tuple[float, float]]:
    """Offsets of the label's centre from its marker, nearest first."""
    half = max(len(text), 1) * CHAR / 2
    d = body + GAP + ring * (HEIGHT + GAP)
    dy = d + HEIGHT / 2
    dx = d + half
    return [(0, dy), (0, -dy), (dx, 0), (-dx, 0), (dx, dy), (-dx, dy), (dx, -dy), (-dx, -dy)]


def place(
    markers: Sequence[tuple[float, float, str] | tuple[float, float, str, float]],
    width: float,
    height: float,
) -> list[Placed]:
    """One placement per (x, y, text) marker, in the same order; a fourth value is the half-size
    of the marker's body (BODY unless given)."""
    sized = [(m[0], m[1], m[2], m[3] if len(m) > 3 else BODY) for m in markers]
    bodies = [Box(x - b, y - b, x + b, y + b) for x, y, _, b in sized]
    taken: list[Box] = []
    out: list[Placed] = []
    for i, (x, y, text, body) in enumerate(sized):
        found = None
        for ring in range(RINGS):
            for dx, dy in _spots(text, ring, body):
                b = box_at(x + dx, y + dy, text)
                if b.x0 < 0 or b.y0 < 0 or b.x1 > width or b.y1 > height:
                    continue
                clear = not any(b.meets(o) for o in taken)
                if clear and not any(b.meets(o) for j, o in enumerate(bodies) if j != i):
                    found = Placed(x + dx, y + dy, b, ring > 0)
                    break
            if found:
                break
        if found is None:  # every ring is full: below everything placed so far
            low = max([o.y1 for o in taken] + [y + body])
            cy = low + GAP + HEIGHT / 2
            found = Placed(x, cy, box_at(x, cy, text), True)
        taken.append(found.box)
        out.append(found)
    return out
