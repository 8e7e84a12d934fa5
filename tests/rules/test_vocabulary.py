"""The game's vocabulary as types: movement systems as objects, steps and statuses as StrEnums,
and a systems table whose rows carry their own rules."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules import designs
from app.rules.designs import presets
from app.rules.errors import IllegalOrders
from app.rules.geometry import Vec
from app.rules.movement import (
    MOVEMENT_SYSTEMS,
    CinematicOrders,
    Movement,
    UnknownMovementSystem,
    VectorOrders,
    check_cinematic,
    check_vector,
    cinematic_limits,
    move_cinematic,
    move_vector,
    movement_system,
    vector_limits,
)
from app.rules.state import GameStatus, Seat, ShipStatus, Step, SystemStatus
from app.rules.systems import SYSTEMS, WEAPON_TYPES, row, types_doing

# -- movement systems ---------------------------------------------------------------------------


def test_every_movement_system_is_found_by_its_name() -> None:
    assert set(MOVEMENT_SYSTEMS) == set(Movement)
    for name in Movement:
        assert movement_system(name).name == name
        assert movement_system(str(name)) is movement_system(name)


def test_an_unknown_movement_system_is_a_narrow_server_error() -> None:
    with pytest.raises(UnknownMovementSystem, match="unknown movement system 'warp'"):
        movement_system("warp")
    assert issubclass(UnknownMovementSystem, ValueError)


def test_each_system_names_its_motion_and_its_still_orders() -> None:
    cinematic, vector = movement_system("cinematic"), movement_system("vector")
    assert (cinematic.motion_field, vector.motion_field) == ("speed", "velocity")
    assert cinematic.still.to_dict() == {"speed_change": 0, "turn": 0}
    assert vector.still.to_dict() == {"rotate": 0, "thrust": 0}
    assert cinematic.parse_orders({"speed_change": 1, "turn": -1}) == CinematicOrders(1, -1)
    assert vector.parse_orders({"rotate": 2, "thrust": 3}) == VectorOrders(2, 3)


@given(st.integers(0, 12))
def test_the_systems_limits_are_the_movement_rules(thrust: int) -> None:
    assert movement_system("cinematic").limits(thrust) == cinematic_limits(thrust)
    assert movement_system("vector").limits(thrust) == vector_limits(thrust)


@given(st.integers(-8, 8), st.integers(-6, 6), st.integers(0, 10), st.integers(0, 8))
def test_a_cinematic_move_is_the_rule(change: int, turn: int, speed: int, thrust: int) -> None:
    orders = CinematicOrders(change, turn)
    system = movement_system("cinematic")
    refused = refused_by(lambda: check_cinematic(orders, speed, thrust))
    assert refused_by(lambda: system.check(orders, speed, thrust)) == refused
    if not refused:
        expected = move_cinematic(Vec(10.0, 20.0), 3, speed, orders)
        assert system.move(Vec(10.0, 20.0), 3, speed, orders) == expected


@given(st.integers(-7, 7), st.integers(-1, 9), st.integers(0, 8))
def test_a_vector_move_is_the_rule(rotate: int, burn: int, thrust: int) -> None:
    orders = VectorOrders(rotate, burn)
    system = movement_system("vector")
    refused = refused_by(lambda: check_vector(orders, thrust))
    assert refused_by(lambda: system.check(orders, Vec(1.0, -2.0), thrust)) == refused
    if not refused:
        expected = move_vector(Vec(10.0, 20.0), 5, Vec(1.0, -2.0), orders)
        assert system.move(Vec(10.0, 20.0), 5, Vec(1.0, -2.0), orders) == expected


def refused_by(check: Callable[[], None]) -> str | None:
    """The refusal's class and message, to compare both ways of asking."""
    try:
        check()
    except IllegalOrders as error:
        return f"{type(error).__name__}: {error}"
    return None


def test_orders_of_the_other_system_are_refused() -> None:
    with pytest.raises(TypeError):
        movement_system("vector").move(Vec(0.0, 0.0), 0, Vec(0.0, 0.0), CinematicOrders(0, 0))
    with pytest.raises(TypeError):
        movement_system("cinematic").check(VectorOrders(0, 0), 3, 4)


# -- steps, statuses and seats ------------------------------------------------------------------


@pytest.mark.parametrize("kind", [Step, ShipStatus, SystemStatus, GameStatus, Seat])
def test_a_member_is_its_string_in_json_and_in_comparisons(kind: type) -> None:
    for member in kind:  # type: ignore[attr-defined]
        assert member == member.value and f"{member}" == member.value
        assert json.dumps({"x": member}) == json.dumps({"x": member.value})


def test_the_game_status_covers_the_stored_game() -> None:
    assert [str(s) for s in GameStatus] == ["waiting", "active", "finished"]
    assert {str(s) for s in Seat} == {"A", "B", "referee", "spectator"}


# -- the systems table --------------------------------------------------------------------------


def test_every_weapon_row_fires_and_no_other_row_does() -> None:
    for system_type, table_row in SYSTEMS.items():
        assert (table_row.fire is not None) == (system_type in WEAPON_TYPES)


def test_levels_and_grades_come_from_the_rows() -> None:
    assert row("screen").levels == (1, 2) and row("screen").fields == ("level",)
    assert set(row("sensors").grades) == {"enhanced", "superior"}
    assert row("sensors").fields == ("grade",)
    assert row("screen").choice_problems("s-1", 3, None) == [
        "screen s-1 has level 3: choose level 1 or 2"
    ]
    assert row("sensors").choice_problems("x", None, "basic") == [
        'sensors x: basic sensors are built into every ship; make it "enhanced" or '
        '"superior", or remove it'
    ]
    assert row("screen").choice_problems("s-1", 2, None) == []


def test_area_ecm_does_the_work_of_ecm() -> None:
    assert types_doing("ecm") == ("ecm", "area_ecm")
    assert types_doing("screen") == ("screen",)


def test_the_presets_live_in_their_own_module() -> None:
    assert designs.PRESET_DESIGNS is presets.PRESET_DESIGNS
    assert designs.preset("scout") is presets.PRESET_DESIGNS["scout"]
