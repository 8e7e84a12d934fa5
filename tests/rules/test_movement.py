"""Movement: cinematic and vector orders, limits and moves (RULES §10)."""

from __future__ import annotations

import itertools
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.errors import IllegalOrders
from app.rules.geometry import Table, Vec, distance
from app.rules.movement import (
    CinematicOrders,
    MoveResult,
    OrderLimits,
    Orders,
    PathPoint,
    VectorOrders,
    check_cinematic,
    check_vector,
    cinematic_limits,
    move_cinematic,
    move_vector,
    movement_system,
    vector_limits,
)

ROOT3 = math.sqrt(3.0)
S = ROOT3 / 2.0  # sin 60°


def path_length(result: MoveResult) -> float:
    points = result.path
    return sum(distance(Vec(a.x, a.y), Vec(b.x, b.y)) for a, b in itertools.pairwise(points))


# -- orders as data -------------------------------------------------------------------------


def test_orders_to_dict() -> None:
    assert CinematicOrders(2, -1).to_dict() == {"speed_change": 2, "turn": -1}
    assert CinematicOrders(0, 0, leave=True).to_dict() == {
        "speed_change": 0,
        "turn": 0,
        "leave": True,
    }
    assert VectorOrders(3, 1).to_dict() == {"rotate": 3, "thrust": 1}
    assert VectorOrders(0, 2, leave=True).to_dict() == {"rotate": 0, "thrust": 2, "leave": True}


def test_parse_orders_reads_good_orders() -> None:
    assert movement_system("cinematic").parse_orders(
        {"speed_change": -2, "turn": 1}
    ) == CinematicOrders(-2, 1)
    assert movement_system("cinematic").parse_orders(
        {"speed_change": 0, "turn": 0, "leave": True}
    ) == (CinematicOrders(0, 0, leave=True))
    assert movement_system("vector").parse_orders({"rotate": -6, "thrust": 4}) == VectorOrders(
        -6, 4
    )
    assert movement_system("vector").parse_orders(
        {"rotate": 0, "thrust": 0, "leave": False}
    ) == VectorOrders(0, 0)


def test_parse_orders_round_trips_to_dict() -> None:
    cases: list[tuple[Orders, str]] = [
        (CinematicOrders(1, -2, leave=True), "cinematic"),
        (VectorOrders(2, 3), "vector"),
    ]
    for orders, movement in cases:
        assert movement_system(movement).parse_orders(orders.to_dict()) == orders


@pytest.mark.parametrize(
    ("data", "movement", "message"),
    [
        ({"speed_change": True, "turn": 0}, "cinematic", "'speed_change' must be a whole number"),
        ({"speed_change": 0, "turn": 1.0}, "cinematic", "'turn' must be a whole number"),
        ({"speed_change": "1", "turn": 0}, "cinematic", "'speed_change' must be a whole number"),
        ({"speed_change": 0, "turn": None}, "cinematic", "'turn' must be a whole number"),
        ({"speed_change": 0}, "cinematic", "missing field 'turn'"),
        ({"speed_change": 0, "turn": 0, "boost": 1}, "cinematic", "unknown field 'boost'"),
        ({"rotate": 0, "thrust": 0}, "cinematic", "unknown field 'rotate', 'thrust'"),
        ({"speed_change": 0, "turn": 0}, "vector", "unknown field 'speed_change', 'turn'"),
        ({"rotate": False, "thrust": 1}, "vector", "'rotate' must be a whole number"),
        ({"rotate": 0, "thrust": 2.0}, "vector", "'thrust' must be a whole number"),
        ({"thrust": 2}, "vector", "missing field 'rotate'"),
        ({"rotate": 0, "thrust": 0, "leave": 1}, "vector", "'leave' must be true or false"),
        ({"speed_change": 0, "turn": 0, "leave": "yes"}, "cinematic", "'leave' must be true"),
    ],
)
def test_parse_orders_is_strict(data: dict[str, Any], movement: str, message: str) -> None:
    with pytest.raises(IllegalOrders, match=message) as caught:
        movement_system(movement).parse_orders(data)
    # Every refusal also says what is expected instead.
    assert "orders need" in caught.value.detail or "must be" in caught.value.detail


def test_parse_orders_refuses_a_non_object() -> None:
    with pytest.raises(IllegalOrders, match="orders must be an object"):
        movement_system("cinematic").parse_orders([1, 2])  # type: ignore[arg-type]


def test_parse_orders_unknown_movement_system_is_a_server_bug() -> None:
    with pytest.raises(ValueError, match="unknown movement system"):
        movement_system("warp").parse_orders({"speed_change": 0, "turn": 0})


# -- limits ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("thrust", "max_turn"), [(0, 0), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 3), (8, 4)]
)
def test_cinematic_limits(thrust: int, max_turn: int) -> None:
    assert cinematic_limits(thrust) == OrderLimits(
        thrust=thrust, max_speed_change=thrust, max_turn=max_turn, max_rotate=0
    )


def test_vector_limits() -> None:
    assert vector_limits(0) == OrderLimits(0, 0, 0, 0)
    assert vector_limits(1) == OrderLimits(1, 0, 0, 6)
    assert vector_limits(4).to_dict() == {
        "thrust": 4,
        "max_speed_change": 0,
        "max_turn": 0,
        "max_rotate": 6,
    }


def test_limits_refuse_negative_thrust() -> None:
    with pytest.raises(ValueError):
        cinematic_limits(-1)
    with pytest.raises(ValueError):
        vector_limits(-1)


@pytest.mark.parametrize(
    ("orders", "speed", "thrust", "message"),
    [
        (CinematicOrders(0, 3), 5, 4, "turn 3 exceeds this ship's limit of 2"),
        (CinematicOrders(0, -3), 5, 4, "turn -3 exceeds this ship's limit of 2"),
        (
            CinematicOrders(-5, 0),
            3,
            6,
            "speed change -5 would leave speed -2; speed cannot go below 0",
        ),
        (CinematicOrders(3, 2), 0, 4, "|speed change| + |turn| = 5 exceeds thrust 4"),
        (CinematicOrders(-3, -2), 6, 4, "|speed change| + |turn| = 5 exceeds thrust 4"),
        (CinematicOrders(2, 0), 0, 1, "|speed change| + |turn| = 2 exceeds thrust 1"),
        (CinematicOrders(1, 1), 0, 1, "|speed change| + |turn| = 2 exceeds thrust 1"),
        (
            CinematicOrders(0, 1),
            4,
            0,
            "turn 1 exceeds this ship's limit of 0; |speed change| + |turn| = 1 exceeds thrust 0",
        ),
        (
            CinematicOrders(-3, 3),
            1,
            4,
            "turn 3 exceeds this ship's limit of 2; "
            "speed change -3 would leave speed -2; speed cannot go below 0; "
            "|speed change| + |turn| = 6 exceeds thrust 4",
        ),
    ],
)
def test_check_cinematic_refusals(
    orders: CinematicOrders, speed: int, thrust: int, message: str
) -> None:
    with pytest.raises(IllegalOrders) as caught:
        check_cinematic(orders, speed, thrust)
    assert caught.value.detail == message
    assert caught.value.code == "illegal_orders"


@pytest.mark.parametrize(
    ("orders", "speed", "thrust"),
    [
        (CinematicOrders(0, 1), 0, 1),  # thrust 1 may always turn 1
        (CinematicOrders(0, -1), 3, 1),
        (CinematicOrders(1, 0), 0, 1),
        (CinematicOrders(-3, 0), 3, 3),  # down to exactly 0
        (CinematicOrders(2, 2), 5, 4),
        (CinematicOrders(0, -2), 5, 4),
        (CinematicOrders(0, 0), 0, 0),
        (CinematicOrders(0, 0), 7, 0),
    ],
)
def test_check_cinematic_accepts_legal_orders(
    orders: CinematicOrders, speed: int, thrust: int
) -> None:
    check_cinematic(orders, speed, thrust)


@pytest.mark.parametrize(
    ("orders", "thrust", "message"),
    [
        (VectorOrders(7, 0), 4, "rotate 7 exceeds the limit of 6 clock points"),
        (VectorOrders(-7, 0), 4, "rotate -7 exceeds the limit of 6 clock points"),
        (VectorOrders(0, 5), 4, "thrust 5 exceeds this ship's thrust of 4"),
        (VectorOrders(0, -1), 4, "thrust -1 is negative; a burn is 0 or more"),
        (
            VectorOrders(1, 0),
            0,
            "rotate 1 is not possible: a ship with no thrust cannot rotate",
        ),
        (
            VectorOrders(0, 1),
            0,
            "thrust 1 is not possible: a ship with no thrust cannot burn",
        ),
        (
            VectorOrders(8, 9),
            2,
            "rotate 8 exceeds the limit of 6 clock points; "
            "thrust 9 exceeds this ship's thrust of 2",
        ),
    ],
)
def test_check_vector_refusals(orders: VectorOrders, thrust: int, message: str) -> None:
    with pytest.raises(IllegalOrders) as caught:
        check_vector(orders, thrust)
    assert caught.value.detail == message


@pytest.mark.parametrize(
    ("orders", "thrust"),
    [(VectorOrders(6, 4), 4), (VectorOrders(-6, 0), 1), (VectorOrders(0, 0), 0)],
)
def test_check_vector_accepts_legal_orders(orders: VectorOrders, thrust: int) -> None:
    check_vector(orders, thrust)


# -- cinematic moves ------------------------------------------------------------------------


def test_speed_zero_may_pivot() -> None:
    start = Vec(10.0, 10.0)
    check_cinematic(CinematicOrders(0, 1), 0, 2)
    result = move_cinematic(start, 0, 0, CinematicOrders(0, 1))
    assert result.position == start
    assert result.heading == 1
    assert result.speed == 0
    assert result.velocity is None
    # Turn 1: nothing before the first leg, the whole point before the second.
    assert result.path == (
        PathPoint(10.0, 10.0, 0),
        PathPoint(10.0, 10.0, 0),
        PathPoint(10.0, 10.0, 1),
    )


def test_speed_zero_pivot_of_two_points() -> None:
    result = move_cinematic(Vec(5.0, 5.0), 3, 0, CinematicOrders(0, -2))
    assert result.position == Vec(5.0, 5.0)
    assert result.heading == 1
    assert [p.heading for p in result.path] == [3, 2, 1]


def test_speed_5_turn_3_brief_example() -> None:
    # Speed 5, turn 3 from heading 0: turn 1 point, move 2, turn 2 more, move 3.
    result = move_cinematic(Vec(10.0, 10.0), 0, 5, CinematicOrders(0, 3))
    # Two mu along heading 1 = (2 * 0.5, 2 * √3/2) = (1, √3).
    mid = Vec(11.0, 10.0 + ROOT3)
    # Then three mu due east (heading 3).
    end = Vec(14.0, 10.0 + ROOT3)
    assert result.path == (
        PathPoint(10.0, 10.0, 0),
        PathPoint(mid.x, mid.y, 1),
        PathPoint(end.x, end.y, 3),
    )
    assert result.position == end
    assert result.heading == 3
    assert result.speed == 5


def test_straight_ahead_even_speed() -> None:
    result = move_cinematic(Vec(10.0, 10.0), 0, 4, CinematicOrders(0, 0))
    assert result.path == (
        PathPoint(10.0, 10.0, 0),
        PathPoint(10.0, 12.0, 0),
        PathPoint(10.0, 14.0, 0),
    )
    assert result.speed == 4


def test_odd_speed_after_acceleration_and_a_one_point_port_turn() -> None:
    # Speed 2 + 1 = 3; turn -1: no turn first, 1 mu north, turn to 11, then 2 mu along 11.
    result = move_cinematic(Vec(10.0, 10.0), 0, 2, CinematicOrders(1, -1))
    assert result.speed == 3
    assert result.path == (
        PathPoint(10.0, 10.0, 0),
        PathPoint(10.0, 11.0, 0),
        # 2 mu along heading 11 = (-1, √3).
        PathPoint(9.0, 11.0 + ROOT3, 11),
    )
    assert result.heading == 11


def test_even_speed_even_turn() -> None:
    # Heading 3 (east), speed 4, turn 2: turn 1 to heading 4, 2 mu, turn 1 to heading 5, 2 mu.
    result = move_cinematic(Vec(0.0, 0.0), 3, 4, CinematicOrders(0, 2))
    mid = Vec(ROOT3, -1.0)  # 2 * (√3/2, -1/2)
    end = Vec(ROOT3 + 1.0, -1.0 - ROOT3)  # + 2 * (1/2, -√3/2)
    assert result.path == (
        PathPoint(0.0, 0.0, 3),
        PathPoint(mid.x, mid.y, 4),
        PathPoint(end.x, end.y, 5),
    )
    assert result.position == end


def test_odd_speed_port_turn_of_three() -> None:
    # Heading 0, speed 6 - 0, turn -3: turn -1 to 11, 3 mu, turn -2 to 9, 3 mu west.
    result = move_cinematic(Vec(20.0, 20.0), 0, 6, CinematicOrders(0, -3))
    mid = Vec(20.0 - 1.5, 20.0 + S * 3)
    end = Vec(mid.x - 3.0, mid.y)
    assert result.path == (
        PathPoint(20.0, 20.0, 0),
        PathPoint(mid.x, mid.y, 11),
        PathPoint(end.x, end.y, 9),
    )


def test_turn_wraps_through_north() -> None:
    result = move_cinematic(Vec(0.0, 0.0), 11, 2, CinematicOrders(0, 2))
    assert result.heading == 1
    assert [p.heading for p in result.path] == [11, 0, 1]
    # 1 mu north, then 1 mu along heading 1.
    assert result.position == Vec(0.5, 1.0 + S)


def test_deceleration_to_zero_pivots_in_place() -> None:
    result = move_cinematic(Vec(3.0, 3.0), 6, 2, CinematicOrders(-2, 0))
    assert result.speed == 0
    assert result.position == Vec(3.0, 3.0)


def test_move_cinematic_refuses_negative_speed() -> None:
    with pytest.raises(IllegalOrders, match="speed cannot go below 0"):
        move_cinematic(Vec(0.0, 0.0), 0, 1, CinematicOrders(-2, 0))


def test_a_move_may_end_off_the_table() -> None:
    table = Table()
    start = Vec(70.0, 24.0)
    assert table.contains(start)
    result = move_cinematic(start, 3, 6, CinematicOrders(0, 0, leave=True))
    assert result.position == Vec(76.0, 24.0)
    assert not table.contains(result.position)
    vec = move_vector(Vec(1.0, 1.0), 6, Vec(0.0, -1.0), VectorOrders(0, 1))
    assert vec.position == Vec(1.0, -1.0)
    assert not table.contains(vec.position)


def test_move_result_to_dict() -> None:
    result = move_cinematic(Vec(0.0, 0.0), 0, 2, CinematicOrders(0, 0))
    assert result.to_dict() == {
        "path": [
            {"x": 0.0, "y": 0.0, "heading": 0},
            {"x": 0.0, "y": 1.0, "heading": 0},
            {"x": 0.0, "y": 2.0, "heading": 0},
        ],
        "position": {"x": 0.0, "y": 2.0},
        "heading": 0,
        "speed": 2,
        "velocity": None,
    }


@st.composite
def legal_cinematic(draw: st.DrawFn) -> tuple[int, int, int, CinematicOrders]:
    thrust = draw(st.integers(0, 12))
    speed = draw(st.integers(0, 30))
    max_turn = cinematic_limits(thrust).max_turn
    turn = draw(st.integers(-max_turn, max_turn))
    budget = thrust - abs(turn)
    speed_change = draw(st.integers(max(-budget, -speed), budget))
    heading = draw(st.integers(0, 11))
    return heading, speed, thrust, CinematicOrders(speed_change, turn)


@given(
    legal_cinematic(),
    st.floats(-100.0, 100.0),
    st.floats(-100.0, 100.0),
)
def test_legal_cinematic_moves_fly_their_speed_and_turn(
    case: tuple[int, int, int, CinematicOrders], x: float, y: float
) -> None:
    heading, speed, thrust, orders = case
    check_cinematic(orders, speed, thrust)
    result = move_cinematic(Vec(x, y), heading, speed, orders)
    new_speed = speed + orders.speed_change
    assert result.speed == new_speed
    assert len(result.path) == 3
    assert path_length(result) == pytest.approx(new_speed, abs=1e-9)
    assert result.heading == (heading + orders.turn) % 12
    assert result.path[0] == PathPoint(x, y, heading)
    assert result.path[-1] == PathPoint(result.position.x, result.position.y, result.heading)


# -- vector moves ---------------------------------------------------------------------------


def test_vector_rotate_and_burn() -> None:
    # Drifting (1, 2); rotate to east and burn 2: velocity (3, 2), then move by it.
    result = move_vector(Vec(10.0, 10.0), 0, Vec(1.0, 2.0), VectorOrders(3, 2))
    assert result.heading == 3
    assert result.velocity == Vec(3.0, 2.0)
    assert result.position == Vec(13.0, 12.0)
    assert result.speed is None
    assert result.path == (PathPoint(10.0, 10.0, 0), PathPoint(13.0, 12.0, 3))


def test_vector_port_rotation_and_oblique_burn() -> None:
    # Heading 1, rotate -2 to heading 11, burn 2: velocity += (-1, √3).
    result = move_vector(Vec(0.0, 0.0), 1, Vec(0.5, 0.5), VectorOrders(-2, 2))
    assert result.heading == 11
    assert result.velocity == Vec(-0.5, 0.5 + ROOT3)
    assert result.position == Vec(-0.5, 0.5 + ROOT3)


def test_vector_rotation_without_burn_keeps_velocity() -> None:
    result = move_vector(Vec(5.0, 5.0), 0, Vec(2.0, 0.0), VectorOrders(6, 0))
    assert result.heading == 6
    assert result.velocity == Vec(2.0, 0.0)
    assert result.position == Vec(7.0, 5.0)


def test_vector_burn_against_the_drift_can_stop_a_ship() -> None:
    result = move_vector(Vec(5.0, 5.0), 3, Vec(3.0, 0.0), VectorOrders(6, 3))
    assert result.heading == 9
    assert result.velocity == Vec(0.0, 0.0)
    assert result.position == Vec(5.0, 5.0)


def test_vector_velocity_stays_exact_over_turns() -> None:
    position, heading, velocity = Vec(0.0, 0.0), 0, Vec(0.0, 0.0)
    for _ in range(3):
        result = move_vector(position, heading, velocity, VectorOrders(1, 1))
        assert result.velocity is not None
        position, heading, velocity = result.position, result.heading, result.velocity
    assert heading == 3
    assert velocity == Vec(0.5 + S + 1.0, S + 0.5 + 0.0)


# -- drift ----------------------------------------------------------------------------------


def test_drift_cinematic_holds_course_and_speed() -> None:
    result = movement_system("cinematic").drift(Vec(10.0, 10.0), 3, 5)
    assert result == move_cinematic(Vec(10.0, 10.0), 3, 5, CinematicOrders(0, 0))
    assert result.position == Vec(15.0, 10.0)
    assert result.heading == 3
    assert result.speed == 5


def test_drift_vector_keeps_velocity() -> None:
    result = movement_system("vector").drift(Vec(10.0, 10.0), 4, Vec(-1.0, 2.5))
    assert result.position == Vec(9.0, 12.5)
    assert result.heading == 4
    assert result.velocity == Vec(-1.0, 2.5)


def test_drift_refuses_mismatched_state() -> None:
    with pytest.raises(TypeError):
        movement_system("cinematic").drift(Vec(0.0, 0.0), 0, Vec(1.0, 1.0))
    with pytest.raises(TypeError):
        movement_system("vector").drift(Vec(0.0, 0.0), 0, 3)
    with pytest.raises(ValueError):
        movement_system("warp").drift(Vec(0.0, 0.0), 0, 3)
