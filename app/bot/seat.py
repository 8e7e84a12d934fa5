"""Reading a seat's view: what the seat is awaited for, its own ships, its marks of the enemy.

Only the view's public fields and the seat's own ships' truth are read here; nothing in this
package ever receives the game state itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.geometry import Vec

View = Mapping[str, Any]
Command = dict[str, Any]


def awaited(view: View) -> bool:
    """Whether the game waits for this seat now (deployment, its activation, a window)."""
    return view["status"] == "active" and view["you"] in view["phase"]["awaiting"]


def legal(view: View) -> Mapping[str, Any]:
    legal_now: Mapping[str, Any] = view["phase"]["legal"]
    return legal_now


def commands(view: View) -> frozenset[str]:
    return frozenset(legal(view)["commands"])


def ship(view: View, ship_id: str) -> Mapping[str, Any]:
    return next(s for s in view["ships"] if s["id"] == ship_id)


def own_ships(view: View) -> list[Mapping[str, Any]]:
    return [s for s in view["ships"] if s["side"] == view["you"]]


def out_of_control(s: Mapping[str, Any]) -> bool:
    return any(c["type"] == "out_of_control" for c in s["conditions"])


def core_critical(s: Mapping[str, Any]) -> bool:
    """A ship whose core choice the view offers: critical, its crew still aboard (RULES §8)."""
    kinds = {c["type"] for c in s["conditions"]}
    return "core_critical" in kinds and "abandoned" not in kinds and s["status"] != "destroyed"


def enemy_marks(view: View) -> dict[str, Vec]:
    """Where the seat last saw each enemy ship still on the table: live or stale alike.

    A stale mark is only where the ship *was*; the naive strategy treats it as where it is.
    """
    return {
        s["id"]: Vec(s["last_known"]["x"], s["last_known"]["y"])
        for s in view["ships"]
        if s["side"] != view["you"]
        and s["last_known"] is not None
        and s["status"] in ("active", "out_of_play")
    }


def nearest(here: Vec, marks: Mapping[str, Vec]) -> Vec | None:
    if not marks:
        return None
    return min(marks.values(), key=lambda m: ((m - here).length(), m.x, m.y))


def table_centre(view: View) -> Vec:
    return Vec(float(view["table"]["width"]) / 2, float(view["table"]["height"]) / 2)
