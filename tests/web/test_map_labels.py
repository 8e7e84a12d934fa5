"""The map's labels (app/web/labels.py, placed by app/web/mapview.py): never over each other."""

from __future__ import annotations

import itertools
import random

from app.web import labels, mapview
from app.web.labels import Box


def _boxes(placed: list[labels.Placed]) -> list[Box]:
    return [p.box for p in placed]


def _overlapping(boxes: list[Box]) -> list[tuple[int, int]]:
    return [(i, j) for (i, a), (j, b) in itertools.combinations(enumerate(boxes), 2) if a.meets(b)]


def test_a_tight_cluster_of_ships_gets_labels_that_never_meet() -> None:
    rng = random.Random(4)
    for _ in range(30):
        n = rng.randrange(2, 12)
        ships = [
            (30 + rng.uniform(-3, 3), 20 + rng.uniform(-3, 3), "Ship " + "x" * rng.randrange(1, 14))
            for _ in range(n)
        ]
        placed = labels.place(ships, 72, 48)
        assert _overlapping(_boxes(placed)) == []


def test_ships_on_one_spot_in_a_corner_are_stacked_apart() -> None:
    ships = [(1.0, 47.0, f"Destroyer {i}") for i in range(9)]
    placed = labels.place(ships, 72, 48)
    assert _overlapping(_boxes(placed)) == []
    assert any(p.leader for p in placed)  # the far ones point back to their ship


def test_a_lone_ship_keeps_its_label_just_below_it_without_a_leader() -> None:
    (p,) = labels.place([(30.0, 20.0, "Raider")], 72, 48)
    assert p.x == 30.0 and p.y > 20.0 and not p.leader


def test_the_overlap_check_can_fail() -> None:
    """Meta: the old fixed spot (every label 3.6 below its ship) overlaps for close ships."""
    ships = [(30.0, 20.0, "Alpha"), (30.5, 20.2, "Bravo")]
    fixed = [labels.box_at(x, y + 3.6, t) for x, y, t in ships]
    assert _overlapping(fixed) == [(0, 1)]


def _view() -> dict:
    def ship(i: int, side: str, x: float, y: float) -> dict:
        base = {
            "id": f"{side.lower()}{i}",
            "name": f"{side} ship {i}",
            "side": side,
            "status": "active",
            "design": {"mass": 30 + 20 * i, "thrust": 4, "systems": []},
            "systems": [],
            "activated": False,
        }
        if side == "A":
            return base | {"revealed": "unseen", "position": {"x": x, "y": y}, "heading": i}
        seen = {"x": x, "y": y, "heading": 2, "turn": 1}
        return base | {
            "revealed": "live",
            "position": {"x": x, "y": y},
            "heading": 2,
            "last_known": seen,
        }

    ships = [ship(i, "A", 30 + 0.6 * i, 20 + 0.4 * i) for i in range(4)]
    ships += [ship(i, "B", 31 + 0.5 * i, 21 - 0.5 * i) for i in range(3)]
    return {
        "you": "A",
        "turn": 2,
        "movement": "cinematic",
        "phase": {"step": "activate", "legal": {"commands": []}},
        "table": {"width": 72, "height": 48},
        "deployment_zones": {},
        "side_names": {},
        "ships": ships,
        "markers": [],
    }


def test_the_map_model_places_every_ship_label_apart() -> None:
    model = mapview.build(_view(), [])
    boxes = [labels.box_at(m.x + m.label_dx, m.y + m.label_dy, m.label) for m in model.markers]
    assert len(boxes) == 7
    assert _overlapping(boxes) == []
    # silhouettes by class: the masses 30, 50, 70, 90 make an escort, two cruisers, a capital
    own = [m for m in model.markers if m.role == "own"]
    assert [m.cls for m in own] == ["escort", "cruiser", "cruiser", "capital"]
    enemy = [m for m in model.markers if m.role == "enemy"]
    assert {m.hull for m in own}.isdisjoint({m.hull for m in enemy})
