"""RULES §12: a finished record lets anyone recompute every die from the seed."""

from __future__ import annotations

import random

import pytest

from app.rules.dice import SeededDice, seed_commitment
from app.rules.record import dice_values, verify_dice
from tests.rules.randplay import random_game


@pytest.mark.parametrize("scenario", ["duel", "skirmish", "hunt"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_roll_of_a_random_game_verifies(scenario: str, seed: int) -> None:
    rng = random.Random(seed)
    key = bytes(rng.getrandbits(8) for _ in range(32))
    state, events = random_game(rng, scenario, SeededDice(key, "g-verify"))
    record = [e.to_dict() for e in events]
    rolled = sum(len(e["data"].get("rolls") or []) for e in record)
    assert rolled == state.next_roll > 0
    assert verify_dice(record, key.hex(), "g-verify", seed_commitment(key)) == []


def test_a_tampered_die_or_seed_is_caught() -> None:
    rng = random.Random(7)
    key = bytes(rng.getrandbits(8) for _ in range(32))
    _, events = random_game(rng, "duel", SeededDice(key, "g-t"))
    record = [e.to_dict() for e in events]
    ping = next(e for e in record if e["type"] == "ping")
    original = ping["data"]["detections"][0]["ping_dice"][0]
    ping["data"]["detections"][0]["ping_dice"][0] = original % 6 + 1
    problems = verify_dice(record, key.hex(), "g-t", seed_commitment(key))
    assert len(problems) == 1 and f"event {ping['seq']}" in problems[0]
    other = bytes(32)
    assert "commitment" in verify_dice(record, other.hex(), "g-t", seed_commitment(key))[0]


def test_dice_values_of_each_rolling_event_type() -> None:
    assert dice_values({"type": "turn_started", "data": {"rolloff": [[3, 3], [5, 2]]}}) == [
        3,
        3,
        5,
        2,
    ]
    assert dice_values({"type": "core_roll", "data": {"die": 4}}) == [4]
    ping = {"detections": [{"ping_dice": [1, 6], "ecm_drawn": [2, 5]}]}
    assert dice_values({"type": "ping", "data": ping}) == [1, 6, 2, 5]
    shots = {"shots": [{"rolled": [6, 2]}, {"cancelled": True}, {"rolled": [4]}]}
    assert dice_values({"type": "fire_resolved", "data": shots}) == [6, 2, 4]
    assert dice_values({"type": "system_damaged", "data": {"core_roll": 3, "effect_roll": 2}}) == [
        3,
        2,
    ]
    assert dice_values({"type": "deployed", "data": {}}) == []
