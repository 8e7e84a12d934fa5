"""The command registry (app/rules/commands.py): one class per command, read from JSON and
written back without loss, each with its handler, its legal test, its API schema and its form.

A command generated at random, written with ``to_json``, reads back equal through its class
and through ``parse_command``, and the API's request schema for it takes the same JSON.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api.schemas import COMMAND_REQUESTS, command_dict
from app.rules.commands import (
    COMMAND_TYPES,
    COMMANDS,
    PLAY_STEPS,
    RESTING_STEPS,
    Activate,
    Command,
    CoreAction,
    Deploy,
    EndActivation,
    Fire,
    MarkerOrder,
    Markers,
    Move,
    Ping,
    Placement,
    Resign,
    SetMode,
    allowed_in,
    parse_command,
)
from app.rules.decide import HANDLERS
from app.rules.errors import InvalidCommand
from app.rules.fighters.commands import FighterChoice, Fighters
from app.rules.fighters.orders import BayLaunch
from app.rules.geometry import Vec
from app.rules.movement import CinematicOrders, VectorOrders
from app.rules.ordnance.defence_commands import Defend, DefendAllocation, StandingOrders
from app.rules.state import Shot
from app.rules.systems import FUSION_MODES

MOVEMENTS = ("cinematic", "vector")

ids = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=12)
coords = st.floats(min_value=-1000, max_value=1000, allow_nan=False, allow_infinity=False)
vecs = st.builds(Vec, coords, coords)
small = st.integers(min_value=-12, max_value=12)


@st.composite
def placements(draw: st.DrawFn, movement: str) -> Placement:
    ship, position, heading = draw(ids), draw(vecs), draw(st.integers(0, 11))
    if movement == "vector":
        return Placement(ship, position, heading, velocity=draw(vecs))
    return Placement(ship, position, heading, speed=draw(st.integers(0, 24)))


def orders(movement: str) -> st.SearchStrategy[CinematicOrders | VectorOrders]:
    if movement == "vector":
        return st.builds(VectorOrders, small, st.integers(0, 12), st.booleans())
    return st.builds(CinematicOrders, small, small, st.booleans())


direct_shots = st.builds(Shot, ids, ids, ids, st.none() | ids)
# a launch: an aim point instead of a target, maybe a load and a needle missile's system type
launches = st.builds(
    lambda ship, weapon, system, aim, load: Shot(ship, weapon, None, system, aim, load),
    ids,
    ids,
    st.none() | ids,
    vecs,
    st.none() | ids,
)
shots = direct_shots | launches
marker_orders = st.builds(MarkerOrder, ids, st.none() | vecs, st.just(False)) | st.builds(
    MarkerOrder, ids, st.none(), st.just(True)
)
bay_launches = st.builds(BayLaunch, ids, st.none() | vecs)
choices = st.builds(
    FighterChoice, ids, st.none() | ids, st.none() | ids, st.none() | st.sampled_from(["pd"])
)
allocations = st.builds(DefendAllocation, ids, st.none() | ids, st.none() | ids, st.none() | ids)

# one strategy per command class: the registry may not gain a command without one here
STRATEGIES: dict[type[Command], Any] = {
    Deploy: lambda m: st.builds(Deploy, st.lists(placements(m), max_size=4).map(tuple)),
    Activate: lambda m: st.builds(Activate, ids),
    Ping: lambda m: st.builds(Ping, ids),
    Move: lambda m: st.builds(Move, ids, orders(m)),
    EndActivation: lambda m: st.builds(EndActivation, ids),
    Fire: lambda m: st.builds(Fire, st.integers(0, 10**6), st.lists(shots, max_size=4).map(tuple)),
    Markers: lambda m: st.builds(
        Markers,
        ids,
        st.lists(marker_orders, max_size=4).map(tuple),
        st.lists(bay_launches, max_size=3).map(tuple),
    ),
    Fighters: lambda m: st.builds(Fighters, st.lists(choices, max_size=4).map(tuple)),
    CoreAction: lambda m: st.builds(CoreAction, ids, st.sampled_from(CoreAction.ACTIONS)),
    SetMode: lambda m: st.builds(SetMode, ids, ids, st.sampled_from(FUSION_MODES)),
    Resign: lambda m: st.just(Resign()),
    Defend: lambda m: st.builds(Defend, st.integers(0, 10**6), st.lists(allocations).map(tuple)),
    StandingOrders: lambda m: st.builds(StandingOrders, st.booleans()),
}


@st.composite
def commands(draw: st.DrawFn) -> tuple[Command, str]:
    movement = draw(st.sampled_from(MOVEMENTS))
    cls = draw(st.sampled_from(list(COMMANDS.values())))
    return draw(STRATEGIES[cls](movement)), movement


def test_every_command_is_registered_once_under_its_type() -> None:
    assert set(STRATEGIES) == set(COMMANDS.values())
    assert tuple(COMMANDS) == COMMAND_TYPES
    for name, cls in COMMANDS.items():
        assert cls.type == name
        assert cls.steps and cls.steps <= RESTING_STEPS, name


def test_every_command_has_a_handler_and_a_schema() -> None:
    every = set(COMMANDS.values())
    assert set(HANDLERS) == every
    assert set(COMMAND_REQUESTS) == every


def test_the_steps_table_lists_a_steps_own_commands_first() -> None:
    for step in RESTING_STEPS:
        listed = allowed_in(step)
        assert {cls for cls in COMMANDS.values() if step in cls.steps} == set(listed)
        flags = [cls.any_time() for cls in listed]
        assert flags == sorted(flags), step
    assert Resign.steps == RESTING_STEPS and CoreAction.steps == PLAY_STEPS


@settings(max_examples=300, deadline=None)
@given(commands())
def test_round_trip(drawn: tuple[Command, str]) -> None:
    command, movement = drawn
    data = command.to_json()
    assert data["type"] == command.type
    assert type(command).from_json(data, movement) == command
    assert parse_command(data, movement) == command
    assert command.to_dict() == data


@settings(max_examples=200, deadline=None)
@given(commands())
def test_the_api_schema_takes_what_the_rules_write(drawn: tuple[Command, str]) -> None:
    command, movement = drawn
    data = command.to_json()
    request = COMMAND_REQUESTS[type(command)].model_validate(data)
    # the API drops what is unset (``at_seq``, a shot's ``system``), as the rules write it
    assert parse_command(command_dict(request), movement) == command


@settings(max_examples=100, deadline=None)
@given(commands())
def test_an_unknown_field_is_named(drawn: tuple[Command, str]) -> None:
    command, movement = drawn
    with pytest.raises(InvalidCommand) as caught:
        parse_command({**command.to_json(), "stray": 1}, movement)
    assert caught.value.detail == f"{command.type}: unknown field 'stray'"
