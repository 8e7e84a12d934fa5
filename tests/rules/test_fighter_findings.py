"""Engine defects found by the fighters' property tests and goldens (issue 13), each as the
failing test first, marked ``xfail`` until the owner's fix is merged (then it passes and the
mark is to be removed). Reported to the engine's owners in the content helper's notes."""

from __future__ import annotations

import pytest

from app.rules import GameSetup, ScriptedDice, ShipEntry, decide, game_started, view
from app.rules.designs import preset
from app.rules.errors import RulesError
from app.rules.evolve import evolve, start_state
from app.rules.geometry import Zone
from app.rules.state import GameState

STILL = {"speed_change": 0, "turn": 0}


def _interceptors_in_sight_of_a_frigate() -> GameState:
    """An escort carrier's interceptor group launched to 4 mu from a frigate: the frigate is
    revealed and the game rests in the fighters step."""
    setup = GameSetup(
        ships={
            "A": [ShipEntry("Bulwark", preset("escort_carrier"))],
            "B": [ShipEntry("Shade", preset("frigate")), ShipEntry("Wraith", preset("frigate"))],
        },
        movement="cinematic",
        zones={"A": Zone(0, 0, 72, 10), "B": Zone(0, 18, 72, 48)},
    )
    state = start_state(game_started("findings", setup))
    dice = ScriptedDice([])
    place = {"heading": 0, "speed": 0}
    commands = [
        (
            "A",
            {"type": "deploy", "ships": [{"ship": "a1", "position": {"x": 36, "y": 4}, **place}]},
        ),
        (
            "B",
            {
                "type": "deploy",
                "ships": [
                    {"ship": "b1", "position": {"x": 36, "y": 20}, "heading": 6, "speed": 0},
                    {"ship": "b2", "position": {"x": 60, "y": 44}, "heading": 6, "speed": 0},
                ],
            },
        ),
        ("B", {"type": "move", "ship": "b1", "orders": STILL}),
        ("B", {"type": "end_activation", "ship": "b1"}),
        ("A", {"type": "activate", "ship": "a1"}),
        (
            "A",
            {
                "type": "markers",
                "ship": "a1",
                "orders": [],
                "launch": [{"bay": "bay-1", "to": {"x": 36, "y": 16}}],
            },
        ),
    ]
    for seat, command in commands:
        for event in decide(state, seat, command, dice).events:
            state = evolve(state, event)
    return state


def test_interceptors_are_not_offered_a_ship_to_attack() -> None:
    """C5.0: interceptors have no anti-ship fire — they may fight groups only. A ship in their
    line of sight is revealed, but it is not one of their targets, and an attack on it is
    refused as bad input rather than crashing the strike later."""
    state = _interceptors_in_sight_of_a_frigate()
    assert state.ship("b1").revealed == "live"
    group = state.markers[0]
    offered = view(state, "A")["phase"]["legal"].get("fighters", [])
    assert all("b1" not in item["targets"] for item in offered), offered
    with pytest.raises(RulesError):
        choice = {"marker": group.id, "attack": "b1"}
        decide(state, "A", {"type": "fighters", "choices": [choice]}, ScriptedDice([]))
