"""Plays a golden scenario file through the engine and checks what it says should happen.

File format (JSON, one scenario per file under ``tests/rules/golden/``)::

    {"name": "...", "covers": ["RULES §5 ..."], "description": "...",
     "setup": {"scenario": "duel", "movement": "cinematic"}
              or {"sides": {"A": [{"name": "Vigilant", "design": "frigate" | {...}}],
                            "B": [...]},
                  "movement", "table", "zones", "turn_limit", "ping_range"},
     "dice": [4, 6, ...],                       # played back in the order the engine asks
     "steps": [{"seat": "A", "command": {...},
                "events": ["activation_started", ...],   # optional: the exact event types
                "expect_events": [{"type": "ping", "data": {...subset...}}],  # optional, in order
                "error": "out_of_zone",                 # optional: the command must be refused
                "detail": "..."}],                      # optional, with an error: its exact detail
     "expect": {"status": "active", "winner": null, "turn": 1,
                "phase": {...subset...},
                "ships": {"b1": {"revealed": "live", "hull_lost": 2,
                                 "systems": {"fc-1": "damaged"}}},
                "views": {"A": {"ships": {"b1": {"position": "__absent__"}}}}}}

A subset match compares only the keys given (lists item by item); ``"__absent__"`` asserts a
key is missing. Every golden run also checks that replaying its log rebuilds the final state
exactly and that every scripted die was used.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from app.rules import GameSetup, ScriptedDice, ShipEntry, decide, game_started, replay, view
from app.rules.designs import Design, preset
from app.rules.errors import RulesError
from app.rules.events import Event
from app.rules.evolve import evolve, start_state
from app.rules.geometry import Table, Zone
from app.rules.state import GameState

GOLDEN_DIR = Path(__file__).parent / "golden"
ABSENT = "__absent__"


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def setup_from(spec: dict[str, Any]) -> GameSetup:
    movement = spec.get("movement", "cinematic")
    if "scenario" in spec:
        return GameSetup.from_scenario(spec["scenario"], movement)
    ships = {
        side: [
            ShipEntry(
                s["name"],
                preset(s["design"])
                if isinstance(s["design"], str)
                else Design.from_dict(s["design"]),
            )
            for s in entries
        ]
        for side, entries in spec["sides"].items()
    }
    zones = {k: Zone.from_dict(v) for k, v in spec["zones"].items()} if "zones" in spec else None
    return GameSetup(
        ships=ships,
        movement=movement,
        table=Table.from_dict(spec["table"]) if "table" in spec else Table(),
        zones=zones,
        turn_limit=spec.get("turn_limit", 12),
        ping_range=spec.get("ping_range"),
    )


def match(actual: Any, expected: Any, where: str) -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, want in expected.items():
            if want == ABSENT:
                assert key not in actual, f"{where}.{key} should be absent, is {actual[key]!r}"
                continue
            assert key in actual, f"{where}.{key} is missing (have {sorted(actual)})"
            match(actual[key], want, f"{where}.{key}")
    elif isinstance(expected, list) and isinstance(actual, list | tuple):
        assert len(actual) == len(expected), f"{where}: {actual!r} != {expected!r}"
        for i, (got, want) in enumerate(zip(actual, expected, strict=True)):
            match(got, want, f"{where}[{i}]")
    elif isinstance(expected, float) and isinstance(actual, int | float):
        assert abs(actual - expected) < 1e-6, f"{where}: {actual!r} != {expected!r}"
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def ship_facts(state: GameState, ship_id: str) -> dict[str, Any]:
    ship = state.ship(ship_id)
    facts = asdict(ship)
    facts["systems"] = {s.id: s.status for s in ship.systems}
    facts["position"] = ship.position.to_dict() if ship.position else None
    facts["velocity"] = ship.velocity.to_dict()
    facts["fired"] = sorted(ship.fired)
    facts["locks"] = list(ship.locks)
    return facts


def play(scenario: dict[str, Any], game_id: str = "golden") -> tuple[GameState, list[Event]]:
    dice = ScriptedDice(scenario.get("dice", []))
    first = game_started(game_id, setup_from(scenario["setup"]))
    state = start_state(first)
    log = [first]
    for i, step in enumerate(scenario["steps"]):
        where = f"step {i} ({step['seat']} {step['command'].get('type')})"
        if "error" in step:
            try:
                decide(state, step["seat"], step["command"], dice)
            except RulesError as refusal:
                assert refusal.code == step["error"], f"{where}: {refusal.code}: {refusal.detail}"
                if "detail" in step:
                    assert refusal.detail == step["detail"], f"{where}: {refusal.detail!r}"
                continue
            raise AssertionError(f"{where}: expected {step['error']}, but it was accepted")
        try:
            events = decide(state, step["seat"], step["command"], dice).events
        except RulesError as refusal:
            raise AssertionError(f"{where}: refused {refusal.code}: {refusal.detail}") from None
        for event in events:
            state = evolve(state, event)
        log.extend(events)
        if "events" in step:
            assert [e.type for e in events] == step["events"], (
                f"{where}: {[e.type for e in events]}"
            )
        pending = list(step.get("expect_events", []))
        for event in events:
            if pending and event.type == pending[0]["type"]:
                match(event.to_dict(), pending[0], f"{where} {event.type}")
                pending.pop(0)
        assert not pending, f"{where}: events not seen: {pending} in {[e.type for e in events]}"
    return state, log


def check(scenario: dict[str, Any]) -> None:
    dice_values = scenario.get("dice", [])
    state, log = play(scenario)
    expect = scenario.get("expect", {})
    for key in ("status", "winner", "turn", "finish_reason"):
        if key in expect:
            assert getattr(state, key) == expect[key], f"{key}: {getattr(state, key)!r}"
    if "phase" in expect:
        match(asdict(state.phase), expect["phase"], "phase")
    for ship_id, facts in expect.get("ships", {}).items():
        match(ship_facts(state, ship_id), facts, f"ship {ship_id}")
    for seat, wanted in expect.get("views", {}).items():
        seen = view(state, seat)
        seen["ships"] = {s["id"]: s for s in seen["ships"]}
        match(seen, wanted, f"view of {seat}")
    assert replay(log) == state, "replaying the log did not rebuild the final state"
    assert state.next_roll == len(dice_values) - expect.get("dice_left", 0), "unused dice"


def golden_files() -> list[Path]:
    return sorted(GOLDEN_DIR.glob("*.json"))
