"""What the game page's map measures and animates, built only from the seat's view and the
events its page already receives (the same ``build(view, events)`` inputs as ``mapview``).

Two parts, both in SVG coordinates (``sy = height - y``):

- ``ships``: the ships the seat may measure from — those whose true position its view holds
  (its own; every ship for the referee) — with their heading and weapons' public arcs and
  bands, so that the page can say which band a point would be in.
- ``fx``: short animations of what just happened, one item per event, each tagged with its
  ``seq`` (the page plays only items newer than the last it showed). Moves are drawn for the
  seat's own ships only, from the ``ship_moved`` events it receives in full: an enemy's path is
  secret even when its positions are public, so nothing here reads an enemy's move. Beam lines
  need both ends at positions made public by ``ship_revealed``; damage numbers and arrivals
  stand at a ship's last public position (its true one for the seat's own).

The items carry no seq of the view itself: the map block's key is a hash of what it draws, and
a view seq would redraw it on every hint.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# the turns whose events may still be played: the current one and the one before (a page
# opened after a long absence shows the latest happenings, not the whole game again)
RECENT_TURNS = 2
# a ping ring's radius where the game has no ping range (a picture, not a range)
PING_RING = 6.0
ARRIVALS = ("salvo_attack", "heavy_missile_attack", "fighters_attack")


def _svg(h: float, p: Mapping[str, Any]) -> list[float]:
    return [round(float(p["x"]), 3), round(h - float(p["y"]), 3)]


def _truly_seen(view: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The ships whose true position the seat's view holds: its own (every ship for the
    referee), by id. A spectator has none."""
    seat = view["you"]
    return {
        s["id"]: s
        for s in view["ships"]
        if (s["side"] == seat or seat == "referee") and s.get("position")
    }


def _weapon(w: Mapping[str, Any]) -> dict[str, Any]:
    """A weapon as the measuring tool reads it: arcs and bands (upper edge and dice)."""
    ready = w.get("status") == "ok" and not w.get("fired") and not w.get("offline")
    out: dict[str, Any] = {
        "id": w["id"],
        "arcs": list(w.get("arcs", ())),
        "bands": [{"to": float(b["to"]), "dice": b.get("dice", "")} for b in w.get("bands", ())],
        "ready": ready and not w.get("spent"),
    }
    if w.get("weak_arcs"):
        out["weak_arcs"] = list(w["weak_arcs"])
        out["weak_bands"] = [
            {"to": float(b["to"]), "dice": b.get("dice", "")} for b in w.get("weak_bands", ())
        ]
    return out


def measurable(view: Mapping[str, Any], h: float) -> list[dict[str, Any]]:
    """The ships a measurement may start from, in the view's order."""
    return [
        {
            "id": s["id"],
            "name": s["name"],
            "at": _svg(h, s["position"]),
            "heading": int(s["heading"]),
            "weapons": [_weapon(w) for w in s.get("weapons", ())],
        }
        for s in _truly_seen(view).values()
        if s["status"] not in ("destroyed", "left")
    ]


class _Public:
    """Where the seat's map may put each ship as the events go by: the last position
    ``ship_revealed`` made public, else (for the seat's own) its true position now."""

    def __init__(self, view: Mapping[str, Any], h: float) -> None:
        self.h = h
        self.own = {i: _svg(h, s["position"]) for i, s in _truly_seen(view).items()}
        self.revealed: dict[str, list[float]] = {}

    def feed(self, e: Mapping[str, Any]) -> None:
        if e["type"] == "ship_revealed" and e["data"].get("position"):
            self.revealed[e["data"]["ship"]] = _svg(self.h, e["data"]["position"])

    def at(self, ship: str | None) -> list[float] | None:
        if not ship:
            return None
        return self.revealed.get(ship) or self.own.get(ship)


def _move(e: Mapping[str, Any], own: Mapping[str, Any], h: float) -> dict[str, Any] | None:
    """An own ship's move along its path (an event received in full, of a ship the seat owns)."""
    d = e["data"]
    if e.get("redacted") or d.get("ship") not in own or not d.get("path"):
        return None
    points = [_svg(h, p) for p in d["path"]]
    if len(points) < 2 or all(p == points[0] for p in points):
        return None
    return {"kind": "move", "ship": d["ship"], "points": points, "heading": int(d["heading"])}


def _beams(e: Mapping[str, Any], public: _Public) -> list[dict[str, Any]]:
    """A volley's beam lines, where both ends stand at public positions: one line per firer
    and target (a hit if any of its shots hit)."""
    lines: dict[tuple[str, str], dict[str, Any]] = {}
    for shot in e["data"].get("shots", ()):
        if shot.get("cancelled"):
            continue
        a, b = public.revealed.get(shot["ship"]), public.revealed.get(shot.get("target", ""))
        if a and b:
            hits = int(shot.get("hits") or 0) + int(shot.get("reroll_hits") or 0)
            line = lines.setdefault(
                (shot["ship"], shot["target"]), {"kind": "beam", "from": a, "to": b, "hit": False}
            )
            line["hit"] = line["hit"] or hits > 0
    return list(lines.values())


def _damage(e: Mapping[str, Any], public: _Public) -> dict[str, Any] | None:
    d = e["data"]
    lost = int(d.get("armour_lost") or 0) + int(d.get("hull_lost") or 0)
    at = public.at(d.get("ship"))
    if not lost or at is None:
        return None
    return {"kind": "damage", "at": at, "amount": lost, "destroyed": bool(d.get("destroyed"))}


def _flights(e: Mapping[str, Any], own: Mapping[str, Any], h: float) -> list[dict[str, Any]]:
    """The seat's own markers' flights in a step 2 (received in full: the ship is its own)."""
    d = e["data"]
    if e.get("redacted") or d.get("ship") not in own:
        return []
    out = []
    for m in d.get("markers", ()):
        if m.get("from") and m.get("to") and m["from"] != m["to"]:
            path = [_svg(h, m["from"]), _svg(h, m["to"])]
            out.append({"kind": "fly", "marker_kind": m.get("kind", ""), "points": path})
    return out


def _items(
    view: Mapping[str, Any], e: Mapping[str, Any], public: _Public, h: float
) -> list[dict[str, Any]]:
    """The animation items of one event (none for most)."""
    kind, d = e["type"], e["data"]
    own = _truly_seen(view)
    if kind == "ship_moved":
        return [m for m in [_move(e, own, h)] if m]
    if kind == "ping" and d.get("position"):
        radius = float(view.get("ping_range") or PING_RING)
        return [{"kind": "ping", "at": _svg(h, d["position"]), "r": radius}]
    if kind == "fire_resolved":
        return _beams(e, public)
    if kind == "damage":
        return [m for m in [_damage(e, public)] if m]
    if kind == "ordnance_acted":
        return _flights(e, own, h)
    if kind in ARRIVALS and public.at(d.get("target")):
        return [
            {"kind": "arrive", "marker_kind": d.get("kind", kind), "at": public.at(d["target"])}
        ]
    if kind == "amt_detonated" and d.get("point"):
        return [{"kind": "arrive", "marker_kind": "amt", "at": _svg(h, d["point"])}]
    return []


def effects(
    view: Mapping[str, Any],
    events: Sequence[Mapping[str, Any]],
    turns: int | None = RECENT_TURNS,
) -> list[dict[str, Any]]:
    """The animation items of the last ``turns`` turns' events (None: all), in log order."""
    h = float(view["table"]["height"])
    public = _Public(view, h)
    since = int(view.get("turn") or 0) - turns + 1 if turns is not None else 0
    out = []
    for e in events:
        if e.get("voided"):
            continue
        if int(e.get("turn") or 0) >= since:
            for item in _items(view, e, public, h):
                out.append({"seq": int(e["seq"]), "turn": int(e.get("turn") or 0), **item})
        public.feed(e)  # after: a volley's lines use the positions revealed before it
    return out


def build(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The map's measuring data and animations for the seat whose view this is."""
    h = float(view["table"]["height"])
    return {"ships": measurable(view, h), "fx": effects(view, events)}
