"""Table geometry: positions, headings, bearings, fire arcs and range bands (RULES §1).

The table's origin is its south-west corner, x runs east and y north. Headings are clock points
0..11 (0 = north, each point 30° clockwise). Positions stay exact floats; nothing here rounds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# "Exactly on an arc line" and "exactly on a band edge" both mean within this much (RULES §1).
EDGE_TOLERANCE = 1e-9

_HALF_ROOT3 = math.sqrt(3.0) / 2.0

# Exact unit vectors per clock point: built from {0, 0.5, √3/2, 1} rather than sin/cos so that
# heading 0 is exactly (0, 1) and heading 3 exactly (1, 0), with no trig noise in cardinal moves.
_HEADING_TABLE: tuple[tuple[float, float], ...] = (
    (0.0, 1.0),
    (0.5, _HALF_ROOT3),
    (_HALF_ROOT3, 0.5),
    (1.0, 0.0),
    (_HALF_ROOT3, -0.5),
    (0.5, -_HALF_ROOT3),
    (0.0, -1.0),
    (-0.5, -_HALF_ROOT3),
    (-_HALF_ROOT3, -0.5),
    (-1.0, 0.0),
    (-_HALF_ROOT3, 0.5),
    (-0.5, _HALF_ROOT3),
)


def _number(data: Mapping[str, Any], key: str) -> float:
    """Read one finite number from stored or submitted data; bools are not numbers here."""
    if key not in data:
        raise ValueError(f"missing {key!r}")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{key!r} must be a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{key!r} must be finite, got {value!r}")
    return number


@dataclass(frozen=True)
class Vec:
    """A position or a vector velocity in mu: x east, y north."""

    x: float
    y: float

    def __add__(self, other: Vec) -> Vec:
        return Vec(self.x + other.x, self.y + other.y)

    def __sub__(self, other: Vec) -> Vec:
        return Vec(self.x - other.x, self.y - other.y)

    def __mul__(self, k: float) -> Vec:
        return Vec(self.x * k, self.y * k)

    def __rmul__(self, k: float) -> Vec:
        return Vec(self.x * k, self.y * k)

    def length(self) -> float:
        return math.hypot(self.x, self.y)

    def to_dict(self) -> dict[str, float]:
        return {"x": float(self.x), "y": float(self.y)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Vec:
        return cls(_number(d, "x"), _number(d, "y"))


def normalise_heading(h: int) -> int:
    return h % 12


def heading_vector(heading: int) -> Vec:
    """Unit vector of a clock-point heading (any int; it is taken mod 12)."""
    x, y = _HEADING_TABLE[normalise_heading(heading)]
    return Vec(x, y)


def distance(a: Vec, b: Vec) -> float:
    """Range is centre to centre."""
    return math.hypot(b.x - a.x, b.y - a.y)


def bearing(origin: Vec, heading: int, target: Vec) -> float:
    """Degrees clockwise from the firer's heading to the target, 0 <= b < 360.

    A target at range 0 has bearing 0.0 (it is in every arc anyway).
    """
    dx = target.x - origin.x
    dy = target.y - origin.y
    if dx == 0.0 and dy == 0.0:
        return 0.0
    # Project onto the ship's own axes (ahead, starboard) using the exact table, so a target dead
    # ahead or abeam comes out as a clean 0/90/180/270 instead of carrying heading trig noise.
    ahead = heading_vector(heading)
    starboard = heading_vector(heading + 3)
    fwd = dx * ahead.x + dy * ahead.y
    right = dx * starboard.x + dy * starboard.y
    deg = math.degrees(math.atan2(right, fwd))
    if deg < 0.0:
        deg += 360.0
    # A tiny negative angle plus 360 can round up to exactly 360; that is dead ahead.
    if deg >= 360.0:
        deg = 0.0
    return deg


ARCS: tuple[str, ...] = ("F", "FS", "AS", "A", "AP", "FP")
BROADSIDE_ARCS: tuple[str, ...] = ("SF", "S", "SA", "PA", "P", "PF")
ALL_ARCS: tuple[str, ...] = ARCS + BROADSIDE_ARCS

_ARC_SPANS: dict[str, tuple[float, float]] = {
    "F": (330.0, 30.0),
    "FS": (30.0, 90.0),
    "AS": (90.0, 150.0),
    "A": (150.0, 210.0),
    "AP": (210.0, 270.0),
    "FP": (270.0, 330.0),
    # Broadside arcs (C8.2) are the standard six rotated by 30°.
    "SF": (0.0, 60.0),
    "S": (60.0, 120.0),
    "SA": (120.0, 180.0),
    "PA": (180.0, 240.0),
    "P": (240.0, 300.0),
    "PF": (300.0, 360.0),
}


class UnknownArc(KeyError, ValueError):
    """An arc name that is not one of ALL_ARCS; catchable as KeyError or ValueError."""

    def __init__(self, arc: object) -> None:
        self.detail = f"unknown arc {arc!r}; expected one of {', '.join(ALL_ARCS)}"
        super().__init__(self.detail)

    def __str__(self) -> str:
        # KeyError would otherwise quote the whole message.
        return self.detail


def _ring(arcs: Sequence[str]) -> tuple[str, ...] | None:
    """The arc ring (standard or broadside) that holds every one of these arcs, if any."""
    for ring in (ARCS, BROADSIDE_ARCS):
        if all(a in ring for a in arcs):
            return ring
    return None


def arcs_adjacent(arcs: Sequence[str]) -> bool:
    """Whether the distinct arcs form one unbroken run around their ring (F-FS-AS, FP-F, …)."""
    distinct = set(arcs)
    ring = _ring(list(distinct))
    if ring is None:
        return False
    n = len(distinct)
    if n in (0, len(ring)):
        return True
    indices = {ring.index(a) for a in distinct}
    return any({(s + i) % len(ring) for i in range(n)} == indices for s in indices)


def arc_span(arc: str) -> tuple[float, float]:
    """(start, end) of an arc in degrees clockwise from dead ahead; F wraps as (330, 30)."""
    try:
        return _ARC_SPANS[arc]
    except (KeyError, TypeError):
        raise UnknownArc(arc) from None


def in_arc(arc: str, bearing_deg: float) -> bool:
    """Whether a bearing lies in an arc; a bearing on an arc line is in both neighbours."""
    start, end = arc_span(arc)
    if not math.isfinite(bearing_deg):
        raise ValueError(f"bearing must be finite, got {bearing_deg!r}")
    width = end - start
    if width <= 0.0:
        width += 360.0
    offset = (bearing_deg - start) % 360.0
    # The second test catches a bearing a hair anticlockwise of the start line (offset ≈ 360).
    return offset <= width + EDGE_TOLERANCE or offset >= 360.0 - EDGE_TOLERANCE


def arcs_containing(bearing_deg: float, broadside: bool = False) -> frozenset[str]:
    """The standard arcs (or, with broadside, the broadside arcs) that hold this bearing."""
    names = BROADSIDE_ARCS if broadside else ARCS
    return frozenset(name for name in names if in_arc(name, bearing_deg))


def target_in_arcs(origin: Vec, heading: int, target: Vec, arcs: Iterable[str]) -> bool:
    """Whether the target lies in any of the given arcs (a weapon's arcs).

    Range 0 is in every arc, so any non-empty arc list sees it; an empty list sees nothing.
    Unknown arc names are refused even when the answer would not need them.
    """
    names = list(arcs)
    for name in names:
        arc_span(name)
    if not names:
        return False
    if target.x == origin.x and target.y == origin.y:
        return True
    b = bearing(origin, heading, target)
    return any(in_arc(name, b) for name in names)


def weak_arc(
    origin: Vec, heading: int, point: Vec, arcs: Iterable[str], weak_arcs: Iterable[str]
) -> bool | None:
    """Whether a weapon bears on the point only through one of its weak arcs (C1.3): False
    through a full arc, None through none."""
    if target_in_arcs(origin, heading, point, arcs):
        return False
    weak = tuple(weak_arcs)
    if weak and target_in_arcs(origin, heading, point, weak):
        return True
    return None


def range_band(rng: float, band_width: float = 12.0) -> int:
    """Band k = max(1, ceil(range / width)); a range exactly on a band edge is in the nearer band.

    Stealth shrinks band_width (12 → 10 or 8); the rule is the same.
    """
    if not math.isfinite(rng) or rng < 0.0:
        raise ValueError(f"range must be a finite number >= 0, got {rng!r}")
    if not math.isfinite(band_width) or band_width <= 0.0:
        raise ValueError(f"band width must be a finite number > 0, got {band_width!r}")
    nearest_edge = round(rng / band_width)
    # Float noise (e.g. 12.000000000000002 from a computed distance) must not push a target
    # that is on the line into the next band.
    if abs(rng - nearest_edge * band_width) <= EDGE_TOLERANCE:
        band = int(nearest_edge)
    else:
        band = math.ceil(rng / band_width)
    return max(1, band)


@dataclass(frozen=True)
class Table:
    """The playing area, origin at the south-west corner."""

    width: float = 72.0
    height: float = 48.0

    def contains(self, p: Vec) -> bool:
        """Edges are on the table; only a ship strictly beyond them has left."""
        return 0.0 <= p.x <= self.width and 0.0 <= p.y <= self.height

    def to_dict(self) -> dict[str, float]:
        return {"width": float(self.width), "height": float(self.height)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Table:
        return cls(_number(d, "width"), _number(d, "height"))


@dataclass(frozen=True)
class Zone:
    """An axis-aligned rectangle, e.g. a deployment zone; corners may be given in any order."""

    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, p: Vec) -> bool:
        """Edges are inside the zone."""
        in_x = min(self.x0, self.x1) <= p.x <= max(self.x0, self.x1)
        in_y = min(self.y0, self.y1) <= p.y <= max(self.y0, self.y1)
        return in_x and in_y

    def to_dict(self) -> dict[str, float]:
        return {
            "x0": float(self.x0),
            "y0": float(self.y0),
            "x1": float(self.x1),
            "y1": float(self.y1),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Zone:
        return cls(_number(d, "x0"), _number(d, "y0"), _number(d, "x1"), _number(d, "y1"))
