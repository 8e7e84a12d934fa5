"""The naive baseline of the arena: every mark is where the enemy is, every activation pings,
every weapon that may fire does.

It treats each enemy ship's last-known position (live or stale) as its position now: it steers
at the nearest such mark, sends its heavy missiles and groups at it and launches every ready bay
towards it. Where it has no mark at all, it heads for the centre of the enemy's deployment zone,
where the enemy began. Its only randomness is its deployment in its zone.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from app.bot import fire as fire_choice
from app.bot import moves, step2
from app.bot.cadet import first_targets
from app.bot.seat import Command, View, enemy_marks, legal, nearest, out_of_control, ship
from app.bot.strategy import SeatPlayer, registered
from app.rules.geometry import Table, Vec, Zone

DEPLOY_SPEED = 0.5  # half its starting maximum: there is no hurry towards a guess


@registered
class Naive(SeatPlayer):
    name = "naive"

    def deploy(self, view: View, rng: random.Random) -> Command:
        goal = _enemy_zone_centre(view)
        return moves.deployment(
            view,
            rng,
            heading_of=lambda here: moves.heading_towards(here, goal),
            speed_share=DEPLOY_SPEED,
        )

    def activate(self, view: View, rng: random.Random) -> Command:
        ship_id = legal(view)["activatable"][0]  # the roster's order: no choice to make
        chosen = ship(view, ship_id)
        if out_of_control(chosen):
            return {"type": "activate", "ship": ship_id}
        return {"type": "ping", "ship": ship_id}  # names it and pings before it moves

    def pings(self, view: View, active: Mapping[str, Any], rng: random.Random) -> bool:
        return True

    def move(self, view: View, active: Mapping[str, Any], rng: random.Random) -> Command:
        on, off = moves.candidates(view, active)
        if not on:
            return moves.move(active["id"], off[0], leave=True)
        pool = moves.safe(on, Table.from_dict(view["table"]))
        return moves.move(active["id"], moves.towards(pool, goal_of(view, active))[0])

    def fire(self, view: View, rng: random.Random) -> Command:
        shots, launches = fire_choice.options(view)

        def aim_of(o: Mapping[str, Any]) -> Mapping[str, Any] | None:
            offered: list[Mapping[str, Any]] = o["aim_at"]
            return offered[0] if offered else None

        return fire_choice.declaration(view, shots, launches, rng, aim_of)

    def fighters(self, view: View, rng: random.Random) -> Command:
        return first_targets(view, rng)

    def markers(self, view: View, active: Mapping[str, Any], rng: random.Random) -> Command | None:
        """Step 2 by orders: each heavy missile and group that may move goes at the nearest
        mark as far as it reaches; every ready bay launches towards it."""
        goal = goal_of(view, active)
        return step2.markers_command(view, active, lambda here, reach: goal)


def goal_of(view: View, active: Mapping[str, Any]) -> Vec:
    here = Vec.from_dict(active["position"])
    mark = nearest(here, enemy_marks(view))
    return mark if mark is not None else _enemy_zone_centre(view)


def _enemy_zone_centre(view: View) -> Vec:
    enemy = next(side for side in view["deployment_zones"] if side != view["you"])
    zone = Zone.from_dict(view["deployment_zones"][enemy])
    return Vec((zone.x0 + zone.x1) / 2, (zone.y0 + zone.y1) / 2)
