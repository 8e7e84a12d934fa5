"""The event types (``app.rules.events``): every type the log may hold is a class that reads its
JSON form and writes it back byte for byte, declares who sees it, and has a rule to fold it."""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest

from app.rules.events import (
    EVENT_TYPES,
    BadEvent,
    Event,
    GameStarted,
    SeatClaimed,
    ShipLeft,
    ShipMoved,
    UnknownEventType,
    body_class,
)
from app.rules.events.secrecy import Public
from app.rules.evolve import evolve
from app.rules.fog import redact
from app.rules.scenarios import PRESET_SCENARIOS
from tests.rules.golden_runner import golden_files, load
from tests.rules.golden_runner import play as golden_play
from tests.rules.helpers import setup_game
from tests.rules.randplay import random_game

SEED_HEX = "ab" * 32

# what the server and the referee append (app.play), as they write it
SERVICE_EVENTS: list[dict[str, Any]] = [
    {"type": "seat_claimed", "data": {"side": "B", "name": "Bea", "game_active": True}},
    {"type": "seat_claimed", "data": {"side": "A", "name": None, "game_active": False}},
    {"type": "paused", "data": {"reason": "tea"}},
    {"type": "resumed", "data": {"reason": "back"}},
    {"type": "seat_replaced", "data": {"side": "A", "reason": "lost the token"}},
    {"type": "timed_out", "data": {"side": "B", "count": 2, "played": ["activate", "move"]}},
    {"type": "time_added", "data": {"side": "A", "seconds": 60, "reason": "lag"}},
    {
        "type": "rewound",
        "data": {
            "to_seq": 12,
            "voided": [13, 20],
            "reason": "misclick",
            "next_roll": 40,
            "last_known": {"b1": {"x": 30.5, "y": 20.0, "heading": 6, "turn": 2, "seq": 15}},
        },
    },
    {
        "type": "rewound",
        "data": {"to_seq": 3, "voided": None, "reason": "r", "next_roll": 0, "last_known": {}},
    },
    {
        "type": "game_finished",
        "data": {
            "winner": "draw",
            "reason": "referee",
            "score": {"A": 0, "B": 12.5},
            "note": "both players left",
            "seed": SEED_HEX,
        },
    },
    # a game begun under the rules before 2026.12 restored command bridges at the turn's end
    {
        "type": "turn_ended",
        "data": {
            "turn": 3,
            "regained_control": ["a2"],
            "life_support_failed": [],
            "command_bridge_restored": ["b1"],
        },
    },
]

# the groups' events (issue 13), as the engine writes them, until the goldens of a carrier game
# carry every one of them
FIGHTER_EVENTS: list[dict[str, Any]] = [
    {
        "type": "fighters_sighted",
        "data": {
            "cause": "ping",
            "side": "A",
            "by": "a1",
            "groups": [
                {
                    "marker": "m-0123456789ab",
                    "kind": "fighters",
                    "side": "B",
                    "strength": 5,
                    "position": {"x": 10.5, "y": 3.0},
                    "group": "heavy",
                    "engaged_with": "a2",
                }
            ],
        },
    },
    {
        "type": "fighters_step",
        "data": {
            "ship": "a1",
            "held": [{"marker": "m-0a", "side": "A", "kind": "salvo", "target": "b1"}],
        },
    },
    {"type": "fighters_step", "data": {"ship": "a1", "held": []}},
    {
        "type": "fighters_chosen",
        "data": {
            "ship": "a1",
            "choices": [
                {"marker": "m-0a", "attack": "b1", "system": "fire_control"},
                {"marker": "m-0b", "attack": None},
                {"marker": "m-0c", "attack": "m-0d", "mode": "pd"},
            ],
        },
    },
    {
        "type": "contact_lost",
        "data": {"marker": "m-0a", "ship": "b1", "reason": "speed", "at": {"x": 1.0, "y": 2.0}},
    },
    {"type": "contact_lost", "data": {"marker": "m-0a", "ship": "b1", "reason": "broke_off"}},
]


def _die(natural: int, modified: int, further: bool = False) -> dict[str, Any]:
    return {"natural": natural, "modified": modified, "further": further}


def _group_dice(kills: int) -> dict[str, Any]:
    return {
        "notation": "1BD*",
        "fighters": 2,
        "drm": 0,
        "dice": [_die(5, 5), _die(1, 1)],
        "rolled": [5, 1],
        "hits": 1,
        "kills": kills,
    }


# the events of fighter combat (H2), until the goldens and random games play them
COMBAT_EVENTS: list[dict[str, Any]] = [
    {
        "type": "fighters_attack",
        "data": {
            "marker": "m-0a",
            "side": "A",
            "kind": "fighters",
            "target": "b1",
            "group": "standard",
            "killed": 1,
            "run": "beam",
            "fighters": 2,
            "notation": "1BD*",
            "screen": 1,
            "dice": [_die(6, 6), _die(4, 4, True), _die(2, 2)],
            "rolled": [6, 4, 2],
            "armour_damage": 2,
            "hull_damage": 1,
            "rolls": [7, 8, 9],
        },
    },
    {
        "type": "fighters_attack",
        "data": {
            "marker": "m-0b",
            "side": "B",
            "kind": "drones",
            "target": "a1",
            "group": "needle",
            "killed": 0,
            "run": "needle",
            "fighters": 1,
            "notation": "1 needle die",
            "screen": 0,
            "dice": [_die(6, 6)],
            "rolled": [6],
            "armour_damage": 0,
            "hull_damage": 1,
            "sixes": 1,
            "system": "fire_control",
            "needle_system": "fc-1",
            "exhausted": True,
            "rolls": [3],
        },
    },
    {
        "type": "dogfight",
        "data": {
            "marker": "m-0a",
            "side": "A",
            "kind": "fighters",
            "group": "interceptor",
            "killed": 0,
            "fighters": 2,
            "target": "m-0b",
            "target_kind": "drones",
            "target_group": "heavy",
            "target_fighters": 2,
            "attacker": _group_dice(1),
            "defender": _group_dice(1),
            "gone": ["m-0b"],
            "rolls": [1, 2, 3, 4],
        },
    },
    {
        "type": "groups_hit",
        "data": {"window": 12, "groups": [{"marker": "m-0a", "killed": 2, "strength": 4}]},
    },
]


def golden_logs() -> Iterator[tuple[str, list[Event]]]:
    for path in golden_files():
        _, log = golden_play(load(path))
        yield path.name, log


def random_logs() -> Iterator[tuple[str, list[Event]]]:
    for scenario in PRESET_SCENARIOS:
        for movement in ("cinematic", "vector"):
            for seed in range(2):
                _, log = random_game(random.Random(seed), scenario, movement=movement)
                yield f"{scenario} {movement} {seed}", log


def samples() -> list[dict[str, Any]]:
    out = [
        {"seq": i, "turn": 1, **e}
        for i, e in enumerate([*SERVICE_EVENTS, *FIGHTER_EVENTS, *COMBAT_EVENTS], start=2)
    ]
    for _, log in [*golden_logs(), *random_logs()]:
        out += [e.to_dict() for e in log]
    return out


def as_json(d: Any) -> str:
    return json.dumps(d, separators=(",", ":"))


@pytest.fixture(scope="module")
def all_samples() -> list[dict[str, Any]]:
    return samples()


def test_every_event_type_round_trips_byte_for_byte(all_samples: list[dict[str, Any]]) -> None:
    seen = set()
    for d in all_samples:
        stored = json.loads(as_json(d))  # what a database gives back: lists, no tuples
        again = Event.from_dict(stored)
        assert type(again.body) is body_class(d["type"])
        assert as_json(again.to_dict()) == as_json(d), d["type"]
        seen.add(d["type"])
    assert seen == set(EVENT_TYPES), f"no sample of {set(EVENT_TYPES) - seen}"


def test_every_golden_log_reads_into_its_classes_and_writes_back_identically() -> None:
    for name, log in golden_logs():
        for event in log:
            written = as_json(event.to_dict())
            again = Event(event.seq, event.turn, event.type, json.loads(written)["data"])
            assert again == event, (name, event.seq)
            assert as_json(again.to_dict()) == written, (name, event.seq)


def test_every_event_type_a_golden_file_names_is_a_declared_type() -> None:
    for path in golden_files():
        for step in load(path)["steps"]:
            named = [*step.get("events", []), *(e["type"] for e in step.get("expect_events", []))]
            assert set(named) <= set(EVENT_TYPES), (path.name, set(named) - set(EVENT_TYPES))


def test_a_typed_body_writes_the_keys_in_the_order_the_engine_emits_them() -> None:
    """Built by keyword (no key order given), a body writes the same JSON as the engine's own
    events: call sites may move over to typed construction without changing the log."""
    for name, log in [*golden_logs(), *random_logs()]:
        for event in log:
            body = event.body
            typed = type(body)(
                **{
                    f.name: getattr(body, f.name)
                    for f in fields(body)
                    if f.name not in ("given", "extra")
                }
            )
            assert as_json(typed.to_data()) == as_json(event.data), (name, event.type)


def test_an_order_read_back_from_jsonb_is_written_back_as_read() -> None:
    data = {"ship": "a1", "drift": False, "to": {"y": 2.0, "x": 1.0}, "heading": 3, "orders": {}}
    data |= {"from": {"x": 0, "y": 0}, "path": [], "speed": 4}
    event = Event(9, 1, "ship_moved", data)
    assert isinstance(event.body, ShipMoved) and event.body.from_.x == 0
    assert as_json(event.data) == as_json(data)


def test_the_typed_way_and_the_json_way_build_the_same_event() -> None:
    typed = Event.of(5, 2, ShipLeft(ship="a1"))
    assert typed == Event(5, 2, "ship_left", {"ship": "a1"})
    assert typed.to_dict() == {"seq": 5, "turn": 2, "type": "ship_left", "data": {"ship": "a1"}}
    assert Event.from_dict(typed.to_dict()) == typed


def test_an_unknown_event_type_is_refused_when_read() -> None:
    with pytest.raises(UnknownEventType, match="ship_stationary"):
        Event(7, 1, "ship_stationary", {"ship": "a1"})
    with pytest.raises(UnknownEventType):
        Event.from_dict({"seq": 7, "turn": 1, "type": "Ship_Left", "data": {"ship": "a1"}})
    assert issubclass(UnknownEventType, BadEvent)


def test_data_that_does_not_fit_its_type_is_refused() -> None:
    with pytest.raises(BadEvent, match="'ship' is missing"):
        Event(7, 1, "ship_left", {})
    with pytest.raises(BadEvent, match="expected a string"):
        Event(7, 1, "core_action", {"ship": "a1", "action": 3})
    with pytest.raises(BadEvent, match="expected an integer"):  # a bool is not a number here
        Event(
            7,
            1,
            "mode_set",
            {"side": "A", "ship": "a1", "weapon": "w", "mode": "m"} | {"offline_until": True},
        )
    with pytest.raises(BadEvent, match="expected a list"):
        Event(7, 1, "fire_window", {"window": 7, "pinger": "A", "when": "x", "awaiting": "A"})


def test_a_key_the_type_does_not_declare_is_kept_where_it_stood() -> None:
    data = {"ship": "a1", "note": [1.5, 2.0], "overwatch": True, "reason": "overwatch"}
    event = Event(7, 1, "activation_ended", data)
    assert as_json(event.data) == as_json(data)
    assert event.body.extra == {"note": [1.5, 2.0]}


def test_every_event_type_declares_who_sees_it() -> None:
    for kind, cls in EVENT_TYPES.items():
        assert cls.kind == kind
        assert "secrecy" in cls.__dict__, f"{kind} does not declare its secrecy"
    secret = {k for k, cls in EVENT_TYPES.items() if not isinstance(cls.secrecy, Public)}
    assert secret == {
        "deployed",
        "ship_moved",
        "ping",
        "fire_declared",
        "fire_resolved",
        # ordnance (RULES §9.1): the owner's launches and step 2, markers removed unseen
        "ordnance_launched",
        "ordnance_acted",
        "marker_removed",
        "loads_lost",  # a destroyed magazine's loads: its owner's (decision 3)
        # a side's defence allocation is its own until the window resolves (RULES §9.5)
        "defence_declared",
        # the fighters step's choices: the owner's until the window announces the attacks
        "fighters_chosen",
    }


def test_every_event_type_but_the_first_has_a_rule_that_folds_it() -> None:
    folded = set(importlib.import_module("app.rules.evolve")._HANDLERS)
    assert folded == {cls for cls in EVENT_TYPES.values() if cls is not GameStarted}
    state = setup_game()
    first = Event.from_dict(next(golden_logs())[1][0].to_dict())
    with pytest.raises(UnknownEventType):
        evolve(state, first)


def test_service_events_are_public_and_change_nothing_in_the_game() -> None:
    state = setup_game()
    for i, d in enumerate(SERVICE_EVENTS[:5], start=state.seq + 1):
        event = Event(i, state.turn, d["type"], d["data"])
        after = evolve(state, event)
        assert after == type(state)(**{**vars(state), "seq": i})
        for seat in ("A", "B", "spectator"):
            assert redact(event, seat, after) == event.to_dict()
        state = after


def test_a_status_or_step_given_as_its_enum_member_is_logged_as_its_plain_string() -> None:
    from app.rules.state import Seat

    data = {"side": Seat.A, "name": "Ann", "game_active": True}
    claimed = Event(6, 1, "seat_claimed", data)
    body = claimed.body
    assert isinstance(body, SeatClaimed) and type(body.side) is str
    assert type(claimed.data["side"]) is str and claimed.data == {**data, "side": "A"}


@pytest.mark.parametrize("movement", ["cinematic", "vector"])
def test_who_receives_an_event_in_full_is_the_same_against_any_later_state(movement: str) -> None:
    """The command room stores each event's ``full_for`` against the state after the whole
    command, not after the event: that holds only while an event's secrecy reads nothing that
    changes during a game (the ships' sides). A secrecy that read a position or a reveal would
    fail here."""
    from app.play.logbook import full_for
    from app.rules.evolve import start_state

    for seed in range(4):
        final, log = random_game(random.Random(seed), "skirmish", movement=movement)
        state = start_state(log[0])
        for event in log[1:]:
            state = evolve(state, event)
            assert full_for(event, state) == full_for(event, final), (seed, event.type)
