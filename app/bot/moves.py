"""Where a seat's ships may go: deployment placements and every order within a ship's limits.

Computed from the seat's own view (its ships' true position, heading and motion, the order
limits of ``phase.legal``) with the engine's own movement functions, so a listed order is
exactly the move the engine would make.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.bot.seat import View, legal, own_ships
from app.rules.geometry import Table, Vec, Zone, heading_vector
from app.rules.movement import (
    CinematicOrders,
    VectorOrders,
    cinematic_limits,
    move_cinematic,
    move_vector,
    vector_limits,
)

# a deployment keeps this far inside the zone's edges, so a rounding never puts a ship outside
_ZONE_MARGIN = 0.01


@dataclass(frozen=True)
class Candidate:
    """One order and where it takes the ship."""

    orders: dict[str, Any]
    end: Vec
    coast: Vec  # where one more turn of "no change" would take it: off the table is a trap
    heading: int = 0  # the heading the order leaves the ship at


def safe(pool: list[Candidate], table: Table) -> list[Candidate]:
    """The orders after which the ship could still coast a turn on the table (all if none)."""
    kept = [c for c in pool if table.contains(c.coast)]
    return kept or pool


def heading_towards(here: Vec, goal: Vec) -> int:
    """The clock point that faces ``goal`` best (ties to the lower point, for determinism)."""
    way = goal - here
    if way.length() == 0:
        return 0
    return max(range(12), key=lambda h: (_dot(heading_vector(h), way), -h))


def _dot(a: Vec, b: Vec) -> float:
    return a.x * b.x + a.y * b.y


def placement(
    view: View,
    ship: Mapping[str, Any],
    rng: random.Random,
    *,
    heading: int | None = None,
    speed_share: float | None = None,
) -> dict[str, Any]:
    """A placement in the seat's zone: a random point, the given heading (else a random one),
    ``speed_share`` of the ship's starting maximum along it (else a random speed)."""
    zone = Zone.from_dict(view["deployment_zones"][view["you"]])
    x0, x1 = sorted((zone.x0, zone.x1))
    y0, y1 = sorted((zone.y0, zone.y1))
    x = rng.uniform(x0 + _ZONE_MARGIN, x1 - _ZONE_MARGIN)
    y = rng.uniform(y0 + _ZONE_MARGIN, y1 - _ZONE_MARGIN)
    facing = rng.randrange(12) if heading is None else heading
    top = int(legal(view)["deploy"][ship["id"]]["max_speed"])
    share = rng.random() if speed_share is None else speed_share
    out: dict[str, Any] = {"ship": ship["id"], "position": {"x": x, "y": y}, "heading": facing}
    if view["movement"] == "vector":
        # a hair under the limit: the engine compares the length with a tolerance of its own
        out["velocity"] = (heading_vector(facing) * (top * share * 0.999)).to_dict()
    else:
        out["speed"] = math.floor(top * share)
    return out


def deployment(
    view: View,
    rng: random.Random,
    heading_of: Callable[[Vec], int] | None = None,
    speed_share: float | None = None,
) -> dict[str, Any]:
    """The seat's ``deploy`` command: every own ship placed (``heading_of(position)`` faces it)."""
    ships = []
    for s in own_ships(view):
        p = placement(view, s, rng, speed_share=speed_share)
        if heading_of is not None:
            p = placement_facing(view, p, heading_of(Vec.from_dict(p["position"])))
        ships.append(p)
    return {"type": "deploy", "ships": ships}


def placement_facing(view: View, p: dict[str, Any], heading: int) -> dict[str, Any]:
    """The same placement turned to ``heading`` (a vector velocity turned with it)."""
    out = {**p, "heading": heading}
    if "velocity" in p:
        length = Vec.from_dict(p["velocity"]).length()
        out["velocity"] = (heading_vector(heading) * length).to_dict()
    return out


def candidates(view: View, ship: Mapping[str, Any]) -> tuple[list[Candidate], list[Candidate]]:
    """Every order within the ship's limits, split by whether the move ends on the table."""
    limits = legal(view).get("order_limits")
    if limits is None:  # moving straight from the activate step: the ship's own limits
        limits = legal(view).get("ship_limits", {}).get(ship["id"])
    if limits is None:
        rule = vector_limits if view["movement"] == "vector" else cinematic_limits
        limits = rule(int(ship["thrust"])).to_dict()
    table = Table.from_dict(view["table"])
    pos = Vec.from_dict(ship["position"])
    heading = int(ship["heading"])
    found = (
        _vector(pos, heading, Vec.from_dict(ship["velocity"]), limits)
        if view["movement"] == "vector"
        else _cinematic(pos, heading, int(ship["velocity"]), limits)
    )
    on = [c for c in found if table.contains(c.end)]
    off = [c for c in found if not table.contains(c.end)]
    return on, off


def coasting(view: View, ship: Mapping[str, Any]) -> Vec:
    """Where one turn of "no change" would take the ship from where it is now (its own view:
    ``velocity`` is a vector, or a cinematic ship's speed)."""
    pos, heading = Vec.from_dict(ship["position"]), int(ship["heading"])
    if view["movement"] == "vector":
        velocity = Vec.from_dict(ship["velocity"])
        return move_vector(pos, heading, velocity, VectorOrders(0, 0)).position
    return move_cinematic(pos, heading, int(ship["velocity"]), CinematicOrders(0, 0)).position


def _vector(pos: Vec, heading: int, vel: Vec, limits: Mapping[str, Any]) -> list[Candidate]:
    out = []
    for r in range(-limits["max_rotate"], limits["max_rotate"] + 1):
        for n in range(limits["thrust"] + 1):
            res = move_vector(pos, heading, vel, VectorOrders(r, n))
            new = res.velocity if res.velocity is not None else vel
            coast = move_vector(res.position, res.heading, new, VectorOrders(0, 0)).position
            out.append(Candidate({"rotate": r, "thrust": n}, res.position, coast, res.heading))
    return out


def _cinematic(pos: Vec, heading: int, speed: int, limits: Mapping[str, Any]) -> list[Candidate]:
    out = []
    mt, thrust = limits["max_turn"], limits["thrust"]
    for s in range(-limits["max_speed_change"], limits["max_speed_change"] + 1):
        for t in range(-mt, mt + 1):
            if abs(s) + abs(t) > thrust or speed + s < 0:
                continue
            res = move_cinematic(pos, heading, speed, CinematicOrders(s, t))
            coast = move_cinematic(res.position, res.heading, speed + s, CinematicOrders(0, 0))
            orders = {"speed_change": s, "turn": t}
            out.append(Candidate(orders, res.position, coast.position, res.heading))
    return out


def move(ship_id: str, chosen: Candidate, *, leave: bool = False) -> dict[str, Any]:
    orders = {**chosen.orders, "leave": True} if leave else dict(chosen.orders)
    return {"type": "move", "ship": ship_id, "orders": orders}


def towards(pool: list[Candidate], goal: Vec, few: int = 1) -> list[Candidate]:
    """The ``few`` orders ending nearest ``goal`` (in order of listing when equally near)."""
    return sorted(pool, key=lambda c: (c.end - goal).length())[:few]
