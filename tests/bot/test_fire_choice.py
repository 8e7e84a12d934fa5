"""The fire declaration keeps the limits the engine leaves to the seat: a weapon fires once, and
a ship engages one target or aim point per working fire control; a launcher fired this turn
counts as an aim point taken (the view does not show aim points)."""

from __future__ import annotations

import random
from typing import Any

from app.bot import fire, strategy
from app.rules import GameSetup, SeededDice, decide, game_started, start_state, view


def _view(options: list[dict[str, Any]], *, controls: int, fired: list[str]) -> dict[str, Any]:
    own = {
        "id": "a1",
        "side": "A",
        "position": {"x": 10.0, "y": 10.0},
        "fire_controls": controls,
        "locks": [],
        "fired": fired,
        "design": {"systems": [{"id": "rack-1", "type": "salvo_rack"}]},
    }
    legal = {"commands": ["fire"], "window": 7, "fire_options": options}
    return {"you": "A", "ships": [own], "phase": {"legal": legal}}


def _option(weapon: str, target: str) -> dict[str, Any]:
    return {"ship": "a1", "weapon": weapon, "target": target}


def test_one_fire_control_engages_one_target() -> None:
    options = [_option("beam-1", "b1"), _option("beam-2", "b2"), _option("beam-2", "b1")]
    v = _view(options, controls=1, fired=[])
    shots, launches = fire.options(v)
    command = fire.declaration(v, shots, launches, random.Random(0), lambda o: None)
    assert command == {
        "type": "fire",
        "window": 7,
        "shots": [
            {"ship": "a1", "weapon": "beam-1", "target": "b1"},
            {"ship": "a1", "weapon": "beam-2", "target": "b1"},
        ],
    }


def test_a_launcher_fired_this_turn_takes_a_fire_control() -> None:
    v = _view([_option("beam-1", "b1")], controls=1, fired=["rack-1"])
    shots, launches = fire.options(v)
    assert fire.declaration(v, shots, launches, random.Random(0), lambda o: None)["shots"] == []


def test_a_seat_that_has_deployed_is_not_asked_again() -> None:
    state = start_state(game_started("g", GameSetup.from_scenario("duel", "cinematic")))
    dice = SeededDice(bytes(32), "g")
    command = strategy("cadet").decide(view(state, "A"), random.Random(2))
    assert command is not None and command["type"] == "deploy"
    state = decide(state, "A", command, dice).state
    assert strategy("cadet").decide(view(state, "A"), random.Random(2)) is None
    assert strategy("naive").decide(view(state, "B"), random.Random(2)) is not None


def test_a_ship_that_lost_its_fire_controls_after_aiming_launches_nothing() -> None:
    # the window offers the aim point it took this turn (shared), but with no working fire
    # control left the ship fires no more this turn (RULES §7): the engine would refuse it
    launch = {
        "ship": "a1",
        "weapon": "rack-2",
        "launch": "salvo",
        "arcs": ["F"],
        "loads": [{"load": "salvo", "reach": 24.0, "left": 1}],
        "aim_at": [{"aim": {"x": 12.0, "y": 12.0}, "shared": True}],
        "fire_control": "shared",
    }
    v = _view([launch], controls=0, fired=["rack-1"])
    shots, launches = fire.options(v)

    def first(o: dict[str, Any]) -> dict[str, Any]:
        picked: dict[str, Any] = o["aim_at"][0]
        return picked

    assert fire.declaration(v, shots, launches, random.Random(0), first)["shots"] == []
