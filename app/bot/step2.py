"""Step 2 of an activation by ``markers`` orders (rules.md §4, §9.4, §9.8): where each heavy
missile and group that may move goes, and where each ready bay launches its group.

The view's ``phase.legal.markers`` lists each marker with where it is and how far it may move
(0 for an engaged group or a salvo: nothing to order), ``phase.legal.launch`` each ready bay with
its launch reach from the ship. A strategy says only where it would like each to go; the point
sent is that far along the way, a hair inside the reach, and on the table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.bot.seat import Command, View, legal
from app.rules.geometry import Table, Vec

INTERCEPTOR = "interceptor"  # a group type with no attack on ships (C5.0)
_SHORT = 0.99  # a hair inside a reach, so the engine's own check never rounds it out

# (from, reach) -> the point a strategy would like the marker or the launched group to reach
Goal = Callable[[Vec, float], Vec]


def within(table: Table, here: Vec, goal: Vec, reach: float) -> Vec:
    """``goal``, or the point ``reach`` along the way to it, kept on the table (clamping towards
    a table that holds ``here`` never lengthens the way)."""
    way = goal - here
    length = way.length()
    point = goal if length <= reach * _SHORT else here + way * (reach * _SHORT / length)
    return Vec(min(max(point.x, 0.0), table.width), min(max(point.y, 0.0), table.height))


def _spent(marker: Mapping[str, Any] | None) -> bool:
    """An own group of fighters (not drones, which never land) at 0 CEF."""
    if marker is None or marker.get("kind") != "fighters" or marker.get("cef") is None:
        return False
    return int(marker["cef"]) <= 0


def markers_command(
    view: View,
    active: Mapping[str, Any],
    goal: Goal,
    *,
    launch: bool = True,
    escort: Vec | None = None,
) -> Command | None:
    """The ``markers`` command sending every movable marker and (with ``launch``) every ready
    bay's group towards ``goal`` — interceptor groups to ``escort`` instead, when it is given;
    None when there is nothing to order (standing orders do)."""
    table = Table.from_dict(view["table"])
    own = {m["id"]: m for m in view.get("markers", []) if m["side"] == view["you"]}

    def towards(group_type: Any, here: Vec, reach: float) -> Vec:
        if escort is not None and group_type == INTERCEPTOR:
            return escort
        return goal(here, reach)

    orders = []
    for item in legal(view)["markers"]:
        reach = float(item["reach"])
        if reach <= 0:
            continue
        here = Vec.from_dict(item["from"])
        if _spent(own.get(item["marker"])):
            # a group with no CEF left can only fly: home to land, and fight again (F3, F4)
            if item.get("can_land"):
                orders.append({"marker": item["marker"], "land": True})
                continue
            home = Vec.from_dict(active["position"])
            orders.append(
                {"marker": item["marker"], "to": within(table, here, home, reach).to_dict()}
            )
            continue
        group_type = own.get(item["marker"], {}).get("type")
        to = within(table, here, towards(group_type, here, reach), reach)
        orders.append({"marker": item["marker"], "to": to.to_dict()})
    launches = []
    if launch:
        here = Vec.from_dict(active["position"])
        for bay in legal(view).get("launch", []):
            reach = float(bay["reach"])
            to = within(table, here, towards(bay.get("group"), here, reach), reach)
            launches.append({"bay": bay["bay"], "to": to.to_dict()})
    if not orders and not launches:
        return None
    command: dict[str, Any] = {"type": "markers", "ship": active["id"], "orders": orders}
    if launches:
        command["launch"] = launches
    return command
