"""Where an enemy ship that is not live could be by now: a pure function of the seat's view.

Product decision (docs/rules.md, "Reach regions"): a ship moves once per game turn (its
activation, or a hulk's drift at the turn's end). It starts with a speed of at most twice its
design's thrust (a velocity no longer than that with vector movement) and each move changes it
by at most its thrust, so its move in turn j is at most (2 + j) × thrust mu long, in either
movement system. From where it was last seen (a stale marker, seen in turn s) it can have
moved in turns s … now − 1, and in this turn once its activation has begun; a ship never seen starts
anywhere in its side's deployment zone and has moved from turn 1 on. The region is every point
of the table within the sum of those moves of that start. It over-estimates on purpose: it
reads nothing the seat does not know (not the speed, heading or orders), so two games that
differ only in hidden facts draw the same regions, and the true position is always inside.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.rules.state import ShipStatus

GONE = (ShipStatus.DESTROYED, ShipStatus.LEFT)


@dataclass(frozen=True)
class Reach:
    """One ship's region, in table coordinates (y north): the start (a point when it was seen,
    the deployment zone when it never was) grown by ``radius`` mu, cut to the table."""

    ship: str
    name: str
    side: str
    seen: bool  # True: from a stale marker; False: never seen, from its deployment zone
    seen_turn: int  # the turn it was last seen (1 for a ship never seen: it deployed before)
    age: int  # turns since then (how long ago), for the shading
    x0: float
    y0: float
    x1: float
    y1: float
    radius: float  # the farthest it can have moved since
    steps: tuple[float, ...]  # the radius after each move it may have made (the contours)

    def contains(self, x: float, y: float, table: Mapping[str, Any]) -> bool:
        """Whether the point is in the region (on the table, within reach of the start)."""
        eps = 1e-6
        if not (-eps <= x <= table["width"] + eps and -eps <= y <= table["height"] + eps):
            return False
        dx = max(self.x0 - x, 0.0, x - self.x1)
        dy = max(self.y0 - y, 0.0, y - self.y1)
        return math.hypot(dx, dy) <= self.radius + eps


def move_turns(view: Mapping[str, Any], ship: Mapping[str, Any], since: int) -> list[int]:
    """The turns in which ``ship`` may have moved since it was seen in turn ``since``: that
    turn itself (it may have been seen before its move), every turn after it, and the current
    turn once the ship is activating or has activated (public facts)."""
    now = int(view.get("turn") or 0)
    turns = list(range(max(since, 1), now))
    activating = (view.get("phase") or {}).get("ship") == ship["id"]
    if (ship.get("activated") or activating) and now >= max(since, 1):
        turns.append(now)
    return turns


def _start(view: Mapping[str, Any], ship: Mapping[str, Any]) -> tuple[float, ...] | None:
    """(x0, y0, x1, y1, seen turn): where it was last seen, or its side's deployment zone."""
    lk = ship.get("last_known")
    if ship.get("revealed") == "stale" and lk:
        return (lk["x"], lk["y"], lk["x"], lk["y"], float(lk["turn"]))
    if ship.get("revealed") == "unseen":
        zone = view.get("deployment_zones", {}).get(ship["side"])
        if zone is None:
            return None
        x0, x1 = sorted((zone["x0"], zone["x1"]))
        y0, y1 = sorted((zone["y0"], zone["y1"]))
        return (x0, y0, x1, y1, 1.0)
    return None


def reach_of(view: Mapping[str, Any], ship: Mapping[str, Any]) -> Reach | None:
    """The region of one ship of the view, or None (live, gone, or not yet on the table)."""
    if ship.get("status") in GONE or ship.get("revealed") == "live":
        return None
    start = _start(view, ship)
    if start is None:
        return None
    x0, y0, x1, y1, seen_turn = start
    thrust = max(float(ship["design"]["thrust"]), 0.0)
    steps: list[float] = []
    total = 0.0
    for turn in move_turns(view, ship, int(seen_turn)):
        total += (2 + turn) * thrust
        steps.append(round(total, 3))
    now = int(view.get("turn") or 0)
    return Reach(
        ship=ship["id"],
        name=ship["name"],
        side=ship["side"],
        seen=ship.get("revealed") == "stale",
        seen_turn=int(seen_turn),
        age=max(now - int(seen_turn), 0),
        x0=x0,
        y0=y0,
        x1=x1,
        y1=y1,
        radius=total,
        steps=tuple(steps),
    )


def regions(view: Mapping[str, Any]) -> list[Reach]:
    """Every stale or never-seen ship of the other side (both sides for a spectator); none for
    the referee, who sees every ship where it is, nor before the deployment is over."""
    seat = view["you"]
    if seat == "referee" or view["phase"]["step"] == "deploy" or not view.get("turn"):
        return []
    out = []
    for ship in view["ships"]:
        if ship["side"] == seat:
            continue
        found = reach_of(view, ship)
        if found is not None:
            out.append(found)
    return out


def _shape(r: Reach, h: float, radius: float) -> dict[str, float]:
    """The start grown by ``radius`` as one SVG rounded rectangle (a circle when the start is
    a point: the corners' radius is the whole radius), in svg coordinates (y down)."""
    return {
        "x": round(r.x0 - radius, 3),
        "y": round(h - r.y1 - radius, 3),
        "w": round(r.x1 - r.x0 + 2 * radius, 3),
        "h": round(r.y1 - r.y0 + 2 * radius, 3),
        "rx": round(radius, 3),
    }


def drawn(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The regions as drawing instructions for the map: the outer shape, one contour per
    possible move, where its label goes, and an age class (fainter the longer ago)."""
    h = float(view["table"]["height"])
    out = []
    for r in regions(view):
        words = f"seen turn {r.seen_turn}" if r.seen else "never seen"
        out.append(
            {
                "ship": r.ship,
                "name": r.name,
                "side": r.side,
                "seen": r.seen,
                "age": min(r.age, 4),
                "radius": round(r.radius, 3),
                "outer": _shape(r, h, r.radius),
                "contours": [_shape(r, h, s) for s in r.steps[:-1]],
                "start": _shape(r, h, 0.0),
                "title": f"{r.name} could be anywhere in here ({words}; "
                f"up to {r.radius:g} mu from {'there' if r.seen else 'its deployment zone'})",
            }
        )
    # the oldest (widest, faintest) first, so a fresher region is drawn over it
    out.sort(key=lambda d: -int(str(d["age"])))
    return out
