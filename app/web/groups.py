"""Fighter and drone groups on the map and in words, built only from what the seat's view holds.

An own group (any for the referee) brings its type, mother, strength, CEF, its move reach and
its 6 mu line of sight; an enemy group is in the view only while live and brings its kind,
strength, position, the ship it is engaged with and its type once shown — never its mother,
reach or CEF, so none of them is drawn. An engaged group stands where its ship does: it is drawn
beside the ship with a link to it, so that both stay readable.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from app.rules.systems.bay_rows import DRONE_GROUPS, FIGHTER_GROUPS, GroupType

GROUP_KINDS = ("fighters", "drones")
# the groups' outlines on the map: a fighter group's two chevrons, a drone group's box
SHAPES = {
    "fighters": "M-1.1,0.8 L-0.55,-0.6 L0,0.8 M0,0.8 L0.55,-0.6 L1.1,0.8",
    "drones": "M-1,-0.7 h2 v1.4 h-2 Z M-0.5,-0.2 h1 M-0.5,0.3 h1",
}
SIGHT = 6.0  # mu: a group's line of sight (RULES §9, P5b)
ENGAGED_OFFSET = 2.4  # mu: an engaged group is drawn this far beside its ship
LABEL_Y = -1.3  # a group's label, above its icon (the map's units)
LABEL_STEP = 1.3  # between two stacked labels (as the ordnance's, app/web/mapview.py)
CLOSE = 3.0  # mu: groups this close stack their labels
SHIP_LABEL_Y = 3.6  # a ship's label, below its hull (templates/game.html)
LABEL_WIDTH = 6.0  # mu either side of a label's centre that a ship's label may overlap
KIND_WORDS = {"fighters": "fighter group", "drones": "drone group"}


def group_type(kind: str, name: str | None) -> GroupType | None:
    """The C5.0 row of a group's type (fighters and drones have rows of the same names)."""
    if not name:
        return None
    return (DRONE_GROUPS if kind == "drones" else FIGHTER_GROUPS).get(name)


def type_words(kind: str, name: str | None) -> str:
    """ "standard fighters", "heavy drones"; the kind alone for a type not known."""
    row = group_type(kind, name)
    if row is not None:
        return row.label
    return "fighters" if kind == "fighters" else "drones"


def group_words(kind: str, name: str | None = None) -> str:
    """ "fighter group", or with its type "fighter group (heavy fighters)"."""
    words = KIND_WORDS.get(kind, kind.replace("_", " "))
    return f"{words} ({type_words(kind, name)})" if name and group_type(kind, name) else words


def _svg(height: float, p: Mapping[str, float]) -> tuple[float, float]:
    return round(float(p["x"]), 3), round(height - float(p["y"]), 3)


def _shown_ships(view: Mapping[str, Any], height: float) -> dict[str, tuple[float, float]]:
    """Where the map draws each ship now (svg): an own ship's true position (any for the
    referee), an enemy's only while live."""
    seat = view["you"]
    out = {}
    for s in view["ships"]:
        own = s["side"] == seat or seat == "referee"
        if s.get("position") and (own or s.get("revealed") == "live"):
            out[s["id"]] = _svg(height, s["position"])
    return out


def _reach(m: Mapping[str, Any], orderable: Mapping[str, Mapping[str, Any]]) -> float | None:
    """How far an own group may fly now: the step-2 reach when it may be ordered now, else its
    type's primary move (what it flies at its mother's next activation)."""
    order = orderable.get(m["id"])
    if order is not None and order.get("reach"):
        return float(order["reach"])
    row = group_type(m["kind"], m.get("type"))
    return float(row.primary_move) if row is not None else None


def groups(view: Mapping[str, Any], height: float) -> list[dict[str, Any]]:
    """The view's groups as drawing instructions (svg coordinates)."""
    seat = view["you"]
    names = {s["id"]: s["name"] for s in view["ships"]}
    ships = _shown_ships(view, height)
    orderable = {m["marker"]: m for m in view["phase"]["legal"].get("markers", [])}
    out = []
    beside: dict[str, int] = {}
    for m in view.get("markers", []):
        if m.get("kind") not in GROUP_KINDS or not m.get("position"):
            continue
        mine = m["side"] == seat or seat == "referee"
        role = ("own" if m["side"] == seat else "enemy") if seat in ("A", "B") else ""
        x, y = _svg(height, m["position"])
        item: dict[str, Any] = {
            "id": m["id"],
            "side": m["side"],
            "kind": m["kind"],
            "role": role,
            "x": x,
            "y": y,
            "words": group_words(m["kind"], m.get("type")),
            # the map's label: the type when known ("heavy fighters"), else the kind
            "short": type_words(m["kind"], m.get("type")),
            "shape": SHAPES.get(m["kind"], SHAPES["fighters"]),
            "strength": m.get("strength"),
            "cef": m.get("cef") if mine else None,
            "mother": names.get(m["mother"], m["mother"]) if mine and m.get("mother") else None,
            "engaged": names.get(m["engaged_with"], m["engaged_with"])
            if m.get("engaged_with")
            else None,
            "link": None,
            "sight": SIGHT if mine else None,
            # an engaged group takes no order: it attacks again or breaks off
            "reach": _reach(m, orderable) if mine and not m.get("engaged_with") else None,
        }
        at = ships.get(m.get("engaged_with") or "")
        if at is not None:
            n = beside[m["engaged_with"]] = beside.get(m["engaged_with"], -1) + 1
            item["x"] = round(at[0] - ENGAGED_OFFSET - 2.2 * n, 3)
            item["y"] = round(at[1] + ENGAGED_OFFSET, 3)
            item["link"] = {"x": at[0], "y": at[1]}
        # the circles stay on the group's true position (the engaged ship's)
        item["cx"], item["cy"] = x, y
        # an own group the enemy sees now (live), marked as a revealed own ship is
        item["shown"] = role == "own" and m.get("live") is True
        out.append(item)
    _stack_labels(out, list(ships.values()))
    return out


def _stack_labels(items: list[dict[str, Any]], ships: Sequence[tuple[float, float]]) -> None:
    """Close groups' labels one above the other (as the ordnance's), each also clear of the
    labels of the ships drawn near it."""
    for i, item in enumerate(items):
        close = sum(
            1 for o in items[:i] if math.hypot(o["x"] - item["x"], o["y"] - item["y"]) < CLOSE
        )
        label_y = LABEL_Y - LABEL_STEP * close
        # a ship label (below its hull) where this label would stand: go above it
        while any(
            abs(sx - item["x"]) < LABEL_WIDTH
            and abs(sy + SHIP_LABEL_Y - (item["y"] + label_y)) < LABEL_STEP
            for sx, sy in ships
        ):
            label_y -= LABEL_STEP
        item["label_y"] = round(label_y, 2)


BAY_TYPES = ("fighter_bay", "drone_bay")


def bays(ship: Mapping[str, Any], turn: int) -> list[dict[str, Any]]:
    """The record sheet's bay rows of an own ship (any for the referee): each bay's hardware and
    status, and what it holds now from the view's ``bays`` (a bay missing there is empty: its
    group is in flight, was lost, or was a drone group spent). The group's type, strength and
    CEF are the owner's secret: only the seat's own sheets call this."""
    status = {s["id"]: s for s in ship["systems"]}
    held = ship.get("bays") or {}
    rows = []
    for spec in ship["design"]["systems"]:
        if spec["type"] not in BAY_TYPES:
            continue
        kind = "drones" if spec["type"] == "drone_bay" else "fighters"
        group = held.get(spec["id"])
        sys = status.get(spec["id"], {})
        row: dict[str, Any] = {
            "id": spec["id"],
            "type": spec["type"],
            "status": sys.get("status", "ok"),
            "design": type_words(kind, spec.get("load")) if spec.get("load") else None,
            "holds": None,
            "ready": True,
        }
        if group:
            row["holds"] = {
                "words": type_words(kind, group.get("group")),
                "strength": group.get("strength"),
                "cef": group.get("cef"),
            }
            row["ready"] = int(group.get("ready_turn", 0)) <= turn
            row["ready_turn"] = group.get("ready_turn", 0)
        rows.append(row)
    return rows


def bay_hardware(ship: Mapping[str, Any]) -> list[dict[str, Any]]:
    """An enemy's bays as its public condition shows them: the hardware and its status only."""
    return [
        {"id": s["id"], "type": s["type"], "status": s["status"]}
        for s in ship["systems"]
        if s["type"] in BAY_TYPES
    ]


def step2_ships(
    ships: Sequence[Mapping[str, Any]], markers: Sequence[Mapping[str, Any]], seat: str, turn: int
) -> list[str]:
    """The seat's ships whose step 2 has something to order: ordnance or groups in flight from
    them, or a working bay with a ready group aboard (the seat's own facts only)."""
    mothers = {m.get("mother") for m in markers if m.get("side") == seat or seat == "referee"}
    out = []
    for ship in ships:
        ready = [
            b
            for b in bays(ship, turn)
            if b["holds"] and b["ready"] and b["status"] == "ok" and b["holds"]["strength"]
        ]
        if ship["id"] in mothers or ready:
            out.append(ship["id"])
    return out


def group_keys(seat: str) -> list[dict[str, str]]:
    """The legend's lines for groups, drawn with the groups' own classes and outlines."""
    own = "own side-" + seat if seat in ("A", "B") else "side-A"
    return [
        {
            "css": f"group grp-fighters {own}",
            "hull": "",
            "group": SHAPES["fighters"],
            "text": "fighter group (dotted circle: its 6 mu line of sight)",
        },
        {
            "css": f"group grp-drones {own}",
            "hull": "",
            "group": SHAPES["drones"],
            "text": "drone group",
        },
    ] + (
        [
            {
                "css": f"group grp-fighters {own} live",
                "hull": "",
                "group": SHAPES["fighters"],
                "text": "your group, revealed now (white edge: the enemy sees it)",
            }
        ]
        if seat in ("A", "B")
        else []
    )
