"""The reach regions (app/web/reach.py): drawn from the seat's view alone, and never too small.

Games are played by the random player of the rules tests; each seat's view is the one the
server sends (``fog.view``, what ``Reading.view_of`` wraps)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.rules import view
from app.rules.geometry import Vec
from app.rules.state import GameState
from app.web import mapview, reach
from tests.rules.randplay import Style, play
from tests.rules.test_properties import quiet_setup

SEATS = ("A", "B", "spectator")
QUIET = Style(fire=False, public_only=True, max_speed=4, resign_rate=0.0)


def hidden_twin(state: GameState, seat: str, rng: random.Random) -> GameState:
    """The same game with every fact hidden from ``seat`` changed: each enemy ship that is not
    live stands elsewhere on the table, faces and moves otherwise, with other orders."""
    table = state.table
    for s in state.ships:
        if s.side == seat or s.revealed == "live" or s.position is None:
            continue
        state = state.with_ship(
            replace(
                s,
                position=Vec(rng.uniform(0, table.width), rng.uniform(0, table.height)),
                heading=rng.randrange(12),
                speed=rng.randrange(30),
                velocity=Vec(rng.uniform(-20, 20), rng.uniform(-20, 20)),
                trail=(),
                orders_log=(),
            )
        )
    return state


@pytest.mark.parametrize(("seed", "movement"), [(11, "cinematic"), (12, "vector")])
def test_states_that_differ_only_in_hidden_facts_draw_the_same_regions(
    seed: int, movement: str
) -> None:
    """At every command of a game, for each player seat: the true state and its hidden twin,
    each projected to the seat's view as the server does, draw the same regions (and the same
    map), although the twin's ships stand elsewhere."""
    rng = random.Random(seed)
    drawn = seen = 0
    for step in play(random.Random(seed), "duel", movement=movement, style=QUIET):
        for seat in ("A", "B"):
            twin = hidden_twin(step.after, seat, rng)
            mine, theirs = view(step.after, seat), view(twin, seat)
            assert reach.drawn(mine) == reach.drawn(theirs)
            assert mapview.build(mine, []) == mapview.build(theirs, [])
            drawn += len(reach.drawn(mine))
            moved = [
                s.id
                for s, t in zip(step.after.ships, twin.ships, strict=True)
                if s.position != t.position
            ]
            seen += len(moved)
    # the pairs mean something: hidden ships really stood elsewhere, and regions were drawn
    assert drawn > 10 and seen > 10


def test_the_map_draws_the_regions_from_the_view() -> None:
    """The map's reach layer is the module's drawing, for every seat but the referee."""
    setup = quiet_setup(("scout",), ("frigate",), "cinematic")
    for step in play(random.Random(3), setup, style=QUIET, game_id="map"):
        for seat in (*SEATS, "referee"):
            v = view(step.after, seat)
            model = mapview.build(v, [])
            assert [{k: r[k] for k in r if k != "role"} for r in model.reach] == reach.drawn(v)
            if seat == "referee":
                assert model.reach == []


@pytest.mark.parametrize("movement", ["cinematic", "vector"])
def test_the_true_position_is_always_inside_the_region(movement: str) -> None:
    """Any speed the rules allow (no cap on the random player), at every command, for every
    enemy ship a seat does not see now; some regions are small enough to mean something."""
    checked = tight = 0
    for seed in range(8):
        scenario = ("duel", "skirmish")[seed % 2]
        for step in play(random.Random(seed), scenario, movement=movement, style=Style()):
            truth = {s.id: s for s in step.after.ships}
            for seat in ("A", "B"):
                v = view(step.after, seat)
                for r in reach.regions(v):
                    ship = truth[r.ship]
                    assert ship.side != seat and ship.position is not None
                    assert r.contains(ship.position.x, ship.position.y, v["table"]), (
                        f"{r.ship} at {ship.position} is outside its region {r}"
                    )
                    checked += 1
                    tight += r.radius < 40
    assert checked > 100 and tight > 20


def _view(**over: object) -> dict:
    ship = {
        "id": "b1",
        "name": "Raider",
        "side": "B",
        "status": "active",
        "revealed": "stale",
        "activated": False,
        "last_known": {"x": 30.0, "y": 20.0, "heading": 3, "turn": 2},
        "design": {"thrust": 4},
    }
    ship.update(over)
    return {
        "you": "A",
        "turn": 4,
        "phase": {"step": "activate"},
        "table": {"width": 72, "height": 48},
        "deployment_zones": {"B": {"x0": 0, "y0": 40, "x1": 72, "y1": 48}},
        "ships": [ship],
    }


def test_the_radius_sums_the_longest_move_of_each_turn_since() -> None:
    """Seen in turn 2, now turn 4 and not yet activated: moves in turns 2 and 3, each at most
    (2 + turn) × thrust mu; once activated, turn 4's move too."""
    (r,) = reach.regions(_view())
    assert r.steps == (16.0, 36.0) and r.radius == 36.0 and r.age == 2
    (r,) = reach.regions(_view(activated=True))
    assert r.steps == (16.0, 36.0, 60.0)
    assert r.contains(30 + 59.9, 20, {"width": 100, "height": 48})


def test_a_ship_never_seen_grows_from_its_deployment_zone() -> None:
    (r,) = reach.regions(_view(revealed="unseen", last_known=None))
    assert not r.seen and (r.x0, r.y0, r.x1, r.y1) == (0, 40, 72, 48)
    assert r.steps == (12.0, 28.0, 48.0)  # turns 1, 2, 3
    assert r.contains(10, 40 - 48, {"width": 72, "height": 48}) is False  # off the table
    assert r.contains(10, 0, {"width": 72, "height": 48})


def test_live_gone_and_own_ships_have_no_region() -> None:
    assert reach.regions(_view(revealed="live")) == []
    assert reach.regions(_view(status="destroyed")) == []
    assert reach.regions(_view(side="A")) == []
    assert reach.regions({**_view(), "you": "referee"}) == []
