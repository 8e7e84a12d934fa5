"""Geometry: headings, bearings, fire arcs, range bands, table and zones (RULES §1)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.geometry import (
    ALL_ARCS,
    ARCS,
    BROADSIDE_ARCS,
    Table,
    Vec,
    Zone,
    arc_span,
    arcs_containing,
    bearing,
    distance,
    heading_vector,
    in_arc,
    normalise_heading,
    range_band,
    target_in_arcs,
)

S = math.sqrt(3.0) / 2.0


def circular_diff(a: float, b: float) -> float:
    """Smallest angle between two bearings, so 359.9999999 and 0 count as close."""
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


# -- Vec ------------------------------------------------------------------------------------


def test_vec_arithmetic() -> None:
    a = Vec(1.0, 2.0)
    b = Vec(0.5, -4.0)
    assert a + b == Vec(1.5, -2.0)
    assert a - b == Vec(0.5, 6.0)
    assert a * 3 == Vec(3.0, 6.0)
    assert 3 * a == Vec(3.0, 6.0)
    assert Vec(3.0, 4.0).length() == 5.0


def test_vec_round_trips_through_dict() -> None:
    v = Vec(1.25, -3.5)
    assert v.to_dict() == {"x": 1.25, "y": -3.5}
    assert Vec.from_dict(v.to_dict()) == v
    assert Vec.from_dict({"x": 2, "y": 3}) == Vec(2.0, 3.0)


@pytest.mark.parametrize("bad", [{"x": 1.0}, {"x": True, "y": 1.0}, {"x": "1", "y": 1.0}])
def test_vec_from_dict_refuses_bad_data(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Vec.from_dict(bad)


# -- headings -------------------------------------------------------------------------------


def test_heading_vectors_are_exact() -> None:
    assert heading_vector(0) == Vec(0.0, 1.0)
    assert heading_vector(1) == Vec(0.5, S)
    assert heading_vector(2) == Vec(S, 0.5)
    assert heading_vector(3) == Vec(1.0, 0.0)
    assert heading_vector(4) == Vec(S, -0.5)
    assert heading_vector(5) == Vec(0.5, -S)
    assert heading_vector(6) == Vec(0.0, -1.0)
    assert heading_vector(7) == Vec(-0.5, -S)
    assert heading_vector(8) == Vec(-S, -0.5)
    assert heading_vector(9) == Vec(-1.0, 0.0)
    assert heading_vector(10) == Vec(-S, 0.5)
    assert heading_vector(11) == Vec(-0.5, S)


@pytest.mark.parametrize("h", range(12))
def test_heading_vectors_are_unit_and_point_clockwise(h: int) -> None:
    v = heading_vector(h)
    assert v.length() == pytest.approx(1.0, abs=1e-15)
    # Compass angle clockwise from north is 30° per clock point.
    assert circular_diff(math.degrees(math.atan2(v.x, v.y)) % 360.0, 30.0 * h) < 1e-9


def test_headings_wrap() -> None:
    assert normalise_heading(12) == 0
    assert normalise_heading(-1) == 11
    assert normalise_heading(25) == 1
    assert heading_vector(12) == heading_vector(0)
    assert heading_vector(-1) == heading_vector(11)


def test_distance_is_centre_to_centre() -> None:
    assert distance(Vec(1.0, 1.0), Vec(4.0, 5.0)) == 5.0
    assert distance(Vec(1.0, 1.0), Vec(1.0, 1.0)) == 0.0


# -- bearings -------------------------------------------------------------------------------

COMPASS = {"N": (Vec(0.0, 10.0), 0.0), "E": (Vec(10.0, 0.0), 90.0)}
COMPASS.update({"S": (Vec(0.0, -10.0), 180.0), "W": (Vec(-10.0, 0.0), 270.0)})


@pytest.mark.parametrize("heading", range(12))
@pytest.mark.parametrize("point", ["N", "E", "S", "W"])
def test_bearing_for_every_heading_to_every_compass_point(heading: int, point: str) -> None:
    origin = Vec(20.0, 20.0)
    offset, compass = COMPASS[point]
    b = bearing(origin, heading, origin + offset)
    assert 0.0 <= b < 360.0
    assert circular_diff(b, (compass - 30.0 * heading) % 360.0) < 1e-9


def test_bearing_is_exact_when_the_ship_faces_a_compass_point() -> None:
    origin = Vec(5.0, 5.0)
    assert bearing(origin, 0, Vec(5.0, 9.0)) == 0.0
    assert bearing(origin, 0, Vec(9.0, 5.0)) == 90.0
    assert bearing(origin, 3, Vec(5.0, 1.0)) == 90.0
    assert bearing(origin, 6, Vec(5.0, 9.0)) == 180.0
    assert bearing(origin, 9, Vec(5.0, 9.0)) == 90.0
    assert bearing(origin, 3, Vec(5.0, 9.0)) == 270.0


def test_bearing_to_a_target_on_a_clock_point() -> None:
    # Target bearing 30° off the bow to starboard (along heading 1 from a north-facing ship).
    origin = Vec(0.0, 0.0)
    assert bearing(origin, 0, heading_vector(1) * 7) == pytest.approx(30.0, abs=1e-9)
    assert bearing(origin, 0, heading_vector(11) * 7) == pytest.approx(330.0, abs=1e-9)


def test_bearing_at_range_zero_is_zero() -> None:
    for h in range(12):
        assert bearing(Vec(3.0, 4.0), h, Vec(3.0, 4.0)) == 0.0


@given(
    st.floats(-100, 100),
    st.floats(-100, 100),
    st.integers(-24, 24),
    st.floats(-100, 100),
    st.floats(-100, 100),
)
def test_bearing_always_in_range(ox: float, oy: float, h: int, tx: float, ty: float) -> None:
    b = bearing(Vec(ox, oy), h, Vec(tx, ty))
    assert 0.0 <= b < 360.0


# -- arcs -----------------------------------------------------------------------------------


def test_arc_tables() -> None:
    assert ARCS == ("F", "FS", "AS", "A", "AP", "FP")
    assert BROADSIDE_ARCS == ("SF", "S", "SA", "PA", "P", "PF")
    assert ALL_ARCS == ARCS + BROADSIDE_ARCS
    assert arc_span("F") == (330.0, 30.0)
    assert arc_span("FS") == (30.0, 90.0)
    assert arc_span("FP") == (270.0, 330.0)
    assert arc_span("SF") == (0.0, 60.0)
    assert arc_span("PF") == (300.0, 360.0)


def test_unknown_arc_is_refused() -> None:
    with pytest.raises(KeyError):
        arc_span("X")
    with pytest.raises(ValueError, match="unknown arc 'X'"):
        in_arc("X", 0.0)


# Each standard arc line, with the arc anticlockwise of it and the arc clockwise of it.
STANDARD_LINES = [
    (30.0, "F", "FS"),
    (90.0, "FS", "AS"),
    (150.0, "AS", "A"),
    (210.0, "A", "AP"),
    (270.0, "AP", "FP"),
    (330.0, "FP", "F"),
]
BROADSIDE_LINES = [
    (0.0, "PF", "SF"),
    (60.0, "SF", "S"),
    (120.0, "S", "SA"),
    (180.0, "SA", "PA"),
    (240.0, "PA", "P"),
    (300.0, "P", "PF"),
]


@pytest.mark.parametrize(("line", "before", "after"), STANDARD_LINES)
def test_standard_arc_lines(line: float, before: str, after: str) -> None:
    assert arcs_containing(line) == {before, after}
    assert arcs_containing(line - 1e-4) == {before}
    assert arcs_containing(line + 1e-4) == {after}
    # Within 1e-9° counts as on the line; 1e-7° off does not.
    assert arcs_containing(line - 5e-10) == {before, after}
    assert arcs_containing(line + 5e-10) == {before, after}
    assert arcs_containing(line - 1e-7) == {before}
    assert arcs_containing(line + 1e-7) == {after}


@pytest.mark.parametrize(("line", "before", "after"), BROADSIDE_LINES)
def test_broadside_arc_lines(line: float, before: str, after: str) -> None:
    assert arcs_containing(line, broadside=True) == {before, after}
    assert arcs_containing((line - 1e-4) % 360.0, broadside=True) == {before}
    assert arcs_containing(line + 1e-4, broadside=True) == {after}
    assert arcs_containing((line - 5e-10) % 360.0, broadside=True) == {before, after}


def test_the_brief_examples() -> None:
    assert in_arc("F", 30.0) and in_arc("FS", 30.0)
    assert in_arc("F", 29.9999) and not in_arc("FS", 29.9999)


@pytest.mark.parametrize(
    ("centre", "arc"),
    [(0.0, "F"), (60.0, "FS"), (120.0, "AS"), (180.0, "A"), (240.0, "AP"), (300.0, "FP")],
)
def test_arc_centres(centre: float, arc: str) -> None:
    assert arcs_containing(centre) == {arc}
    assert len(arcs_containing(centre, broadside=True)) == 2  # centres are broadside lines


def test_in_arc_takes_any_angle() -> None:
    assert in_arc("F", 360.0)
    assert in_arc("FP", -45.0)
    assert in_arc("A", 540.0)
    assert in_arc("PF", 359.9999)
    assert not in_arc("PF", 0.0001)


@given(st.floats(0.0, 360.0, exclude_max=True), st.booleans())
def test_every_bearing_is_in_one_or_two_arcs(b: float, broadside: bool) -> None:
    assert 1 <= len(arcs_containing(b, broadside)) <= 2


def test_target_in_arcs() -> None:
    ship = Vec(10.0, 10.0)
    # Facing east: a target further east is dead ahead; one due south is on the FS/AS line.
    assert target_in_arcs(ship, 3, Vec(20.0, 10.0), ["F"])
    assert not target_in_arcs(ship, 3, Vec(20.0, 10.0), ["A", "AP"])
    assert target_in_arcs(ship, 3, Vec(10.0, 0.0), ["FS"])
    assert target_in_arcs(ship, 3, Vec(10.0, 0.0), ["AS"])
    assert target_in_arcs(ship, 3, Vec(10.0, 0.0), ["S"])
    assert not target_in_arcs(ship, 3, Vec(10.0, 0.0), ["F", "FP", "AP"])
    # Astern.
    assert target_in_arcs(ship, 3, Vec(0.0, 10.0), ("A",))


@pytest.mark.parametrize("arc", ALL_ARCS)
def test_range_zero_is_in_every_arc(arc: str) -> None:
    for h in range(12):
        assert target_in_arcs(Vec(4.0, 4.0), h, Vec(4.0, 4.0), [arc])


def test_target_in_arcs_edge_cases() -> None:
    # No arcs sees nothing, even at range 0; an unknown arc name is an error.
    assert not target_in_arcs(Vec(0.0, 0.0), 0, Vec(0.0, 0.0), [])
    assert not target_in_arcs(Vec(0.0, 0.0), 0, Vec(0.0, 5.0), [])
    with pytest.raises(KeyError):
        target_in_arcs(Vec(0.0, 0.0), 0, Vec(0.0, 5.0), ["F", "Q"])


# -- range bands ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("width", "expected"),
    [
        (12.0, [1, 1, 1, 2, 2, 4]),
        (10.0, [1, 1, 2, 2, 3, 4]),  # stealth 1
        (8.0, [1, 1, 2, 2, 3, 5]),  # stealth 2
    ],
)
def test_range_bands(width: float, expected: list[int]) -> None:
    ranges = [0.0, 0.5, 12.0, 12.0000001, 24.0, 36.1]
    assert [range_band(r, width) for r in ranges] == expected


def test_range_band_edges() -> None:
    assert range_band(12.0) == 1
    assert range_band(12.000001) == 2
    assert range_band(24.0) == 2
    assert range_band(10.0, 10.0) == 1
    assert range_band(8.0, 8.0) == 1
    assert range_band(16.0, 8.0) == 2
    # Float noise within 1e-9 of an edge stays on the edge.
    assert range_band(12.0 + 1e-12) == 1
    assert range_band(24.000000000000004) == 2
    assert range_band(12.0 + 2e-9) == 2


def test_range_band_of_a_computed_distance_on_the_edge() -> None:
    # 12 mu along heading 1 is 12.000000000000002 or so after the float arithmetic.
    target = heading_vector(1) * 6 + heading_vector(1) * 6
    assert range_band(distance(Vec(0.0, 0.0), target)) == 1


def test_range_band_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        range_band(-1.0)
    with pytest.raises(ValueError):
        range_band(5.0, 0.0)


# -- table and zones ------------------------------------------------------------------------


def test_table_edges_are_on_the_table() -> None:
    table = Table()
    assert (table.width, table.height) == (72.0, 48.0)
    for p in [Vec(0.0, 0.0), Vec(72.0, 48.0), Vec(0.0, 48.0), Vec(72.0, 0.0), Vec(36.0, 24.0)]:
        assert table.contains(p)
    for p in [Vec(-1e-9, 10.0), Vec(72.000001, 10.0), Vec(10.0, -0.5), Vec(10.0, 48.1)]:
        assert not table.contains(p)


def test_table_round_trip() -> None:
    table = Table(60.0, 40.0)
    assert table.to_dict() == {"width": 60.0, "height": 40.0}
    assert Table.from_dict(table.to_dict()) == table


def test_zone_edges_are_in_the_zone() -> None:
    zone = Zone(0.0, 0.0, 12.0, 48.0)
    assert zone.contains(Vec(0.0, 0.0))
    assert zone.contains(Vec(12.0, 48.0))
    assert zone.contains(Vec(12.0, 20.0))
    assert not zone.contains(Vec(12.0000001, 20.0))
    assert not zone.contains(Vec(5.0, -0.1))
    # Corners in either order describe the same zone.
    assert Zone(12.0, 48.0, 0.0, 0.0).contains(Vec(6.0, 6.0))


def test_zone_round_trip() -> None:
    zone = Zone(60.0, 0.0, 72.0, 48.0)
    assert zone.to_dict() == {"x0": 60.0, "y0": 0.0, "x1": 72.0, "y1": 48.0}
    assert Zone.from_dict(zone.to_dict()) == zone
    with pytest.raises(ValueError):
        Zone.from_dict({"x0": 0.0, "y0": 0.0, "x1": 1.0})
