"""The captain's belief: clouds started in the enemy's zone, weights that always sum to 1, a ping
that found nothing thins the cloud within its range, a salvo that found nothing empties its
lock-on circle, a sighting collapses the cloud, and a move keeps the truth within its support."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bot import cloud as pc
from app.bot import detection, strategy
from app.bot.belief import Belief
from app.rules import GameSetup, SeededDice, decide, game_started, start_state, view
from app.rules.geometry import Table, Vec, Zone
from app.rules.movement import CinematicOrders, move_cinematic


def _deployed(scenario: str, movement: str = "cinematic") -> dict[str, Any]:
    """Side A's view once both sides deployed (the naive baseline's placements)."""
    state = start_state(game_started("belief", GameSetup.from_scenario(scenario, movement)))
    dice = SeededDice(bytes(32), "belief")
    for seat in ("A", "B"):
        command = strategy("naive").decide(view(state, seat), random.Random(5))
        assert command is not None
        state = decide(state, seat, command, dice).state
    return view(state, "A")


def _event(kind: str, **data: Any) -> dict[str, Any]:
    return {"seq": 0, "turn": 1, "type": kind, "data": data}


def _pairs(c: pc.Cloud) -> list[tuple[pc.Particle, float]]:
    return list(zip(c.particles, c.weights, strict=True))


def _weights_sum_to_one(belief: Belief) -> None:
    for c in belief.clouds.values():
        assert sum(c.weights) == pytest.approx(1.0)
        assert all(w >= 0 for w in c.weights)


def test_an_unseen_ship_is_anywhere_in_its_zone() -> None:
    seen = _deployed("duel")
    belief = Belief(particles=200)
    belief.update(seen, random.Random(1))
    zone = Zone.from_dict(seen["deployment_zones"]["B"])
    assert set(belief.clouds) == {"b1"}
    assert all(zone.contains(p.at) for p in belief.clouds["b1"].particles)
    _weights_sum_to_one(belief)


def test_a_ping_that_found_nothing_thins_the_cloud_within_its_range() -> None:
    seen = _deployed("hunt")  # a 36 mu ping range
    belief = Belief(particles=400)
    rng = random.Random(2)
    belief.update(seen, rng)
    pinger = Vec(36.0, 20.0)
    reach = float(seen["ping_range"])

    def inside(c: pc.Cloud) -> float:
        return sum(w for p, w in _pairs(c) if (p.at - pinger).length() <= reach)

    before = inside(belief.clouds["b1"])
    assert 0.2 < before < 0.95  # the test needs particles on both sides of the range
    detections = [
        {"target": t, "ping_dice": [3, 2, 1], "revealed": False} for t in sorted(belief.clouds)
    ]
    ping = _event("ping", ship="a1", position=pinger.to_dict(), heading=0, detections=detections)
    belief.observe([ping])
    belief.update(seen, rng)
    after = inside(belief.clouds["b1"])
    miss = 1.0 - detection.reveal_chance(3, seen, next(s for s in seen["ships"] if s["id"] == "b1"))
    expected = before * miss / (before * miss + (1.0 - before))
    assert after < before
    assert after == pytest.approx(expected, abs=0.08)  # Bayes, up to the resampling's noise
    _weights_sum_to_one(belief)


def test_a_wasted_salvo_empties_its_lock_on_circle() -> None:
    seen = _deployed("duel")
    belief = Belief(particles=300)
    rng = random.Random(3)
    belief.update(seen, rng)
    aim = belief.clouds["b1"].particles[0].at
    launched = _event("ordnance_launched", ship="a1", marker="m-1", aim=aim.to_dict())
    belief.observe([launched, _event("salvo_wasted", ship="a1", marker="m-1")])
    belief.update(seen, rng)
    c = belief.clouds["b1"]
    assert all((p.at - aim).length() > 6.0 - 0.5 for p, w in _pairs(c) if w > 0)
    _weights_sum_to_one(belief)


def test_a_sighting_collapses_the_cloud_and_a_move_keeps_the_truth_in_its_support() -> None:
    seen = _deployed("duel")
    belief = Belief(particles=300)
    rng = random.Random(4)
    belief.update(seen, rng)
    at = Vec(30.0, 30.0)
    belief.observe([_event("ship_revealed", ship="b1", position=at.to_dict(), heading=6)])
    belief.update(seen, rng)
    assert all(p.at == at and p.heading == 6 for p in belief.clouds["b1"].particles)
    # the truth moves at a speed the cloud does not know, under orders it does not know
    truth = move_cinematic(at, 6, 7, CinematicOrders(2, -2)).position
    belief.observe([_event("ship_moved", ship="b1", drift=False)])
    belief.update(seen, rng)
    grid = belief.belief_map(seen)["b1"]
    row, col = grid.cell_of(truth)
    assert grid.mass[row][col] > 0
    _weights_sum_to_one(belief)


def test_a_ship_gone_has_no_cloud() -> None:
    seen = _deployed("duel")
    belief = Belief(particles=50)
    belief.update(seen, random.Random(5))
    belief.observe([_event("ship_destroyed", ship="b1", cause="volley")])
    belief.update(seen, random.Random(5))
    assert belief.clouds == {} and belief.belief_map(seen) == {}


def test_resampling_and_motion_keep_the_weights_a_distribution() -> None:
    rng = random.Random(6)
    table = Table()
    c = pc.from_zone(Zone(0, 40, 72, 48), 12, False, 100, rng)
    for _ in range(5):
        c = pc.advanced(c, 6, False, table, rng, drift=False)
        assert sum(c.weights) == pytest.approx(1.0)
        assert all(table.contains(p.at) for p, w in _pairs(c) if w > 0)
    skewed = pc.Cloud(c.particles, tuple([0.9] + [0.1 / 99] * 99))
    fresh = pc.resampled(skewed, table, rng)
    assert fresh.ess() == pytest.approx(100.0)


def _sighted(seen: dict[str, Any], items: list[dict[str, Any]], seed: int) -> Belief:
    belief = Belief(particles=300)
    rng = random.Random(seed)
    belief.update(seen, rng)
    belief.observe([_event("ordnance_acted", ship="a1", markers=items)])
    belief.update(seen, rng)
    return belief


def test_groups_that_saw_nothing_empty_their_line_of_sight() -> None:
    seen = _deployed("carrier_hunt")
    first = Belief(particles=300)
    first.update(seen, random.Random(4))
    # a group of a1 moved into the middle of where b1 may be; b1 was not revealed
    at = first.clouds["b1"].particles[0].at
    item = {"marker": "m-9", "kind": "fighters", "from": at.to_dict(), "to": at.to_dict()}
    belief = _sighted(seen, [{**item, "result": "moved"}], 4)
    for ship_id, c in belief.clouds.items():
        target = next(s for s in seen["ships"] if s["id"] == ship_id)
        shrink = {0: 1.0, 1: 5 / 6, 2: 2 / 3}[int((target.get("stealth") or {}).get("now", 0))]
        near = [w for p, w in _pairs(c) if (p.at - at).length() <= 6.0 * shrink]
        assert sum(near) == 0.0
    assert any((p.at - at).length() <= 6.0 for p in first.clouds["b1"].particles)
    _weights_sum_to_one(belief)
    # a group that landed looked from no point of its own; another side's step 2 tells nothing
    landed = _sighted(seen, [{**item, "result": "landed"}], 4)
    assert any((p.at - at).length() <= 5.0 for p in landed.clouds["b1"].particles)
    stub = Belief(particles=300)
    rng = random.Random(4)
    stub.update(seen, rng)
    stub.observe([_event("ordnance_acted", ship="b1")])
    stub.update(seen, rng)
    assert any((p.at - at).length() <= 5.0 for p in stub.clouds["b1"].particles)
