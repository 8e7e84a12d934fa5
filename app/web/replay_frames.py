"""The replay's frames: at every event of a finished game, what each side knew then, and the
truth.

A side's frame is its view at that seq, made by the function the server answers a seat with
(``fog.ship_view`` and ``markers_view``, the ships and markers of ``fog.view``) from the state
folded to that event; what happened at that event (a ping's ring, a volley's beams, the damage)
comes from the event as ``fog.redact`` gives it to that side, drawn where that side's view put
the ships. The page draws these frames and computes nothing of its own about who knew what.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.rules import Event, GameState, redact
from app.rules.fog import ship_view
from app.rules.ordnance.view import markers_view
from app.rules.state import ShipState
from app.web.summary import Folded
from app.web.words import Teller

# the viewpoints: a side's knowledge, or everything (the referee's seat sees the truth)
VIEWPOINTS = {"A": "A", "B": "B", "all": "referee"}
Point = tuple[float, float]


def _ship(state: GameState, seat: str, ship: ShipState) -> dict[str, Any] | None:
    """One ship as ``seat`` saw it at this state: where (true, live or last seen), or None."""
    seen = ship_view(state, ship, seat)
    item: dict[str, Any] = {"id": ship.id, "side": ship.side, "status": seen["status"]}
    if seen.get("position"):
        kind = "truth" if seat == "referee" else "own" if ship.side == seat else "live"
        pos, heading = seen["position"], seen["heading"]
        item["revealed"] = seen["revealed"]
    elif seen["revealed"] == "stale" and seen.get("last_known"):
        kind, pos = "stale", seen["last_known"]
        heading = pos["heading"]
        item["seen"] = pos["turn"]
    else:
        return None  # not deployed yet, or never seen by this side
    item.update(kind=kind, x=round(pos["x"], 3), y=round(pos["y"], 3), heading=heading)
    return item


def _markers(state: GameState, seat: str, at: Mapping[str, Point]) -> list[dict[str, Any]]:
    """The markers ``seat`` saw: its own where they are, a live enemy one beside its target
    (the view gives no position for those)."""
    out = []
    for m in markers_view(state, seat):
        item: dict[str, Any] = {k: m[k] for k in ("id", "side", "kind", "strength") if k in m}
        if m.get("target"):
            item["target"] = m["target"]
        if m.get("position"):
            item["x"], item["y"] = round(m["position"]["x"], 3), round(m["position"]["y"], 3)
        elif m.get("target") in at:
            x, y = at[m["target"]]
            item["x"], item["y"], item["beside"] = x + 1.5, y + 1.5, True
        else:
            continue
        out.append(item)
    return out


def _effects(told: Mapping[str, Any], at: Mapping[str, Point]) -> list[dict[str, Any]]:
    """What the event (as the side was told it) shows on its map."""
    d, kind = told["data"], told["type"]
    if kind == "ping" and d.get("position"):
        p = d["position"]
        return [{"fx": "ping", "x": p["x"], "y": p["y"], "ship": d.get("ship")}]
    if kind == "fire_resolved":
        out = []
        for shot in d.get("shots", ()):
            a, b = at.get(shot["ship"]), at.get(shot["target"])
            if shot.get("cancelled") or a is None or b is None:
                continue
            hits = (shot.get("hits") or 0) + (shot.get("reroll_hits") or 0)
            out.append({"fx": "shot", "x1": a[0], "y1": a[1], "x2": b[0], "y2": b[1], "hits": hits})
        return out
    if kind == "damage" and d.get("ship") in at:
        x, y = at[d["ship"]]
        amount = (d.get("armour_lost") or 0) + (d.get("hull_lost") or 0)
        return [{"fx": "damage", "x": x, "y": y, "amount": amount}]
    if kind == "ship_destroyed" and d.get("ship") in at:
        x, y = at[d["ship"]]
        return [{"fx": "destroyed", "x": x, "y": y}]
    return []


class _Seen:
    """What ``seat`` saw of each ship, worked out once per ship state: an event that leaves a
    ship alone keeps its very ``ShipState`` (frozen), and where a seat sees a ship depends on
    that ship's own fields only (its position, ``revealed``, ``last_known``, status)."""

    def __init__(self, seat: str) -> None:
        self.seat = seat
        self.known: dict[int, tuple[ShipState, dict[str, Any] | None]] = {}

    def ships(self, state: GameState) -> list[dict[str, Any]]:
        out = []
        for ship in state.ships:
            hit = self.known.get(id(ship))
            if hit is None or hit[0] is not ship:
                hit = ship, _ship(state, self.seat, ship)
                self.known[id(ship)] = hit
            if hit[1] is not None:
                out.append(hit[1])
        return out


def _frame_view(
    state: GameState, seen: _Seen, told: Mapping[str, Any], text: str
) -> dict[str, Any]:
    seat = seen.seat
    ships = seen.ships(state)
    at = {s["id"]: (s["x"], s["y"]) for s in ships}
    markers = _markers(state, seat, at)
    at.update({m["id"]: (m["x"], m["y"]) for m in markers})
    return {"ships": ships, "markers": markers, "fx": _effects(told, at), "text": text}


def _told(events: Sequence[Event], seat: str, final: GameState) -> list[dict[str, Any]]:
    # a ship's side never changes: the final state answers every "whose ship is it"
    return [redact(e, seat, final) for e in events]


def frames(folded: Folded) -> list[dict[str, Any]]:
    """One frame per event in force: its seq, turn and type, and each viewpoint's picture."""
    final = folded.final
    per_seat: dict[str, tuple[list[dict[str, Any]], list[str]]] = {}
    for name, seat in VIEWPOINTS.items():
        told = _told(folded.events, seat, final)
        roster: list[Mapping[str, Any]] = [ship_view(final, s, seat) for s in final.ships]
        per_seat[name] = told, Teller(roster, seat, final.side_names).tell_all(told)
    seen = {name: _Seen(seat) for name, seat in VIEWPOINTS.items()}
    out: list[dict[str, Any]] = []
    for i, (event, state) in enumerate(zip(folded.events, folded.states, strict=True)):
        views = {
            name: _frame_view(state, seen[name], per_seat[name][0][i], per_seat[name][1][i])
            for name in VIEWPOINTS
        }
        out.append({"seq": event.seq, "turn": event.turn, "type": event.type, "views": views})
    return _unchanged_as_null(out)


def _unchanged_as_null(out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A viewpoint's ships or markers that are as in the frame before are sent as null (most
    events move nothing): the page carries the previous ones forward."""
    last: dict[tuple[str, str], Any] = {}
    for frame in out:
        for name, view in frame["views"].items():
            for part in ("ships", "markers"):
                if last.get((name, part)) == view[part]:
                    view[part] = None
                else:
                    last[name, part] = view[part]
    return out


def roster(final: GameState) -> list[dict[str, Any]]:
    """The ships as the replay names them (every design is public after the end)."""
    return [
        {
            "id": s.id,
            "name": s.name,
            "side": s.side,
            "design": final.design_of(s).name,
            "class": final.design_of(s).hull_class,
        }
        for s in final.ships
    ]
