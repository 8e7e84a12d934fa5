"""The tactical map as drawing instructions, built only from what the seat's view holds.

SVG y runs down, the table's y runs north: ``sy = height - y``. A heading of h clock points is a
clockwise rotation of h × 30° on screen. Nothing here can draw a fact the view does not carry:
enemy positions come only from live ships and stale markers of the view.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.rules.state import ShipStatus
from app.web import hulls, labels, reach
from app.web.geometry_svg import wedge
from app.web.groups import BAY_TYPES, GROUP_KINDS, group_keys, group_words
from app.web.groups import groups as fighter_groups
from app.web.threat import enemy_arcs

# Two families of outline, both pointing along the heading, told apart without colour (darts
# and gems, app/web/hulls.py), each in three sizes by the hull's mass.
DART = hulls.DART
DIAMOND = hulls.DIAMOND


def look(seat: str, side: str, cls: str = "cruiser") -> tuple[str, str]:
    """(role, outline) of a ship of ``side`` (and hull class ``cls``) on ``seat``'s page: role
    "own" or "enemy" for a player, "" for a spectator or the referee (they see sides, not
    friend and foe)."""
    if seat in ("A", "B"):
        return (
            ("own", hulls.outline(True, cls))
            if side == seat
            else ("enemy", hulls.outline(False, cls))
        )
    return "", hulls.outline(side == "A", cls)


@dataclass
class Marker:
    id: str
    name: str
    side: str
    kind: str  # own | live | stale | truth (referee's view of a hidden ship)
    x: float  # svg coordinates
    y: float
    heading: int
    label: str
    status: str
    arcs: list[dict[str, Any]] = field(default_factory=list)
    role: str = ""  # own | enemy for a player's page, "" for a spectator or the referee
    hull: str = DART  # the outline (a dart or a gem, sized by the hull's class)
    shown: bool = False  # an own ship that is revealed now: the other side sees it here
    cls: str = "cruiser"  # the hull's class by mass (escort, cruiser, capital)
    bridge: str = ""  # the class's markings drawn over the outline
    scale: float = 1.0  # the class's size
    # the label's centre relative to the marker, and a leader line when it stands away
    label_dx: float = 0.0
    label_dy: float = 3.6
    leader: bool = False
    # a live enemy's fire arcs (public design, position and heading), shown on demand
    threat: list[dict[str, Any]] = field(default_factory=list)

    @property
    def css(self) -> str:
        """The marker's classes: what it is, whose it is for the viewer, its side, its status,
        its hull class."""
        parts = [self.kind, f"hull-{self.cls}"]
        if self.role and self.role != self.kind:
            parts.append(self.role)
        if self.shown:
            parts.append("live")
        return " ".join([*parts, f"side-{self.side}", self.status])


@dataclass
class MapModel:
    width: float
    height: float
    grid: list[float]
    grid_y: list[float]
    zone: dict[str, float] | None
    markers: list[Marker]
    unseen: list[dict[str, str]]
    trails: list[dict[str, Any]]
    pings: list[dict[str, float]]
    shots: list[dict[str, Any]]
    gone: list[dict[str, str]]
    # the referee's layers: what each side currently believes about the other's ships
    beliefs: dict[str, list[Marker]] = field(default_factory=dict)
    # the legend: one line per kind of marker this seat's map can show
    keys: list[dict[str, str]] = field(default_factory=list)
    # ordnance in flight: the seat's own (with aim points) and the enemy's live ones
    ordnance: list[dict[str, Any]] = field(default_factory=list)
    # fighter and drone groups: the seat's own (reach, sight) and the enemy's live ones
    groups: list[dict[str, Any]] = field(default_factory=list)
    # where each stale or never-seen enemy could be by now (app/web/reach.py)
    reach: list[dict[str, Any]] = field(default_factory=list)
    # the grid's labels along the edges and the scale bar (mu)
    ticks_x: list[float] = field(default_factory=list)
    ticks_y: list[dict[str, float]] = field(default_factory=list)
    scale: dict[str, float] = field(default_factory=dict)
    # the map's text alternative: one row per ship the seat knows of
    roster: list[dict[str, Any]] = field(default_factory=list)
    stars: Sequence[dict[str, Any]] = ()


def _starfield() -> tuple[dict[str, Any], ...]:
    """The stars of one 24 mu tile of the table's pattern: fixed (a seeded draw), so the page
    and its fragments are the same bytes every time, and sparse so they never hide a marker."""
    rng = random.Random(1016)
    return tuple(
        {
            "x": round(rng.uniform(0, 24), 2),
            "y": round(rng.uniform(0, 24), 2),
            "r": round(rng.choice((0.05, 0.06, 0.08, 0.1, 0.14)), 2),
            "c": rng.choice(("dim", "dim", "dim", "mid", "bright")),
        }
        for _ in range(34)
    )


STARS = _starfield()


def _svg(height: float, x: float, y: float) -> tuple[float, float]:
    return round(x, 3), round(height - y, 3)


def _arcs(ship: Mapping[str, Any], cx: float, cy: float) -> list[dict[str, Any]]:
    """One wedge per arc of each weapon, out to that weapon's own reach (weak arcs to the reach
    they fire at, drawn fainter)."""
    out = []
    for w in ship.get("weapons", []):
        working = (
            w["status"] == "ok" and not w["fired"] and not w.get("offline") and not w.get("spent")
        )
        for arcs, bands, weak in (
            (w["arcs"], w["bands"], False),
            (w.get("weak_arcs", ()), w.get("weak_bands", ()), True),
        ):
            reach = max((b["to"] for b in bands), default=0.0)
            for arc in arcs:
                out.append(
                    {
                        "weapon": w["id"],
                        "arc": arc,
                        "reach": reach,
                        "weak": weak,
                        "path": wedge(cx, cy, ship["heading"], arc, reach),
                        "working": working,
                    }
                )
    return out


def rings(arcs: Sequence[Mapping[str, Any]]) -> list[float]:
    """The range rings of a ship: every distinct reach of its weapons (12/24/36 without any)."""
    found = sorted({float(a["reach"]) for a in arcs if a["reach"] > 0})
    return found or [12.0, 24.0, 36.0]


def _last_seen(ship: Mapping[str, Any], h: float, marker_id: str) -> Marker:
    """A dashed marker where the ship was last seen, its turn in the label."""
    lk = ship["last_known"]
    x, y = _svg(h, lk["x"], lk["y"])
    label = f"{ship['name']} (T{lk['turn']})"
    return Marker(
        marker_id, ship["name"], ship["side"], "stale", x, y, lk["heading"], label, ship["status"]
    )


def _own(
    ship: Mapping[str, Any], seat: str, h: float
) -> tuple[list[Marker], dict[str, Any] | None]:
    """A ship the seat sees truly (its own, or any for the referee): its marker with arcs, its
    trail, and for the referee where the other side last saw it."""
    sx, sy = _svg(h, ship["position"]["x"], ship["position"]["y"])
    kind = "own" if ship["side"] == seat else "truth"
    if seat == "referee" and ship["revealed"] == "live":
        kind = "live"
    markers = [
        Marker(
            ship["id"],
            ship["name"],
            ship["side"],
            kind,
            sx,
            sy,
            ship["heading"],
            ship["name"],
            ship["status"],
            _arcs(ship, sx, sy),
            shown=kind == "own" and ship["revealed"] == "live",
        )
    ]
    trail = None
    points = [_svg(h, p["x"], p["y"]) for p in ship.get("trail", [])]
    if len(points) > 1:
        trail = {
            "ship": ship["id"],
            "side": ship["side"],
            "points": " ".join(f"{x},{y}" for x, y in points),
        }
    if seat == "referee" and ship["revealed"] == "stale" and ship.get("last_known"):
        markers.append(_last_seen(ship, h, ship["id"] + "-ghost"))
    return markers, trail


def _enemy(ship: Mapping[str, Any], h: float) -> Marker | None:
    """An enemy ship where the seat sees it: revealed now, or last seen; None if unseen."""
    if ship["revealed"] == "live" and ship.get("position"):
        sx, sy = _svg(h, ship["position"]["x"], ship["position"]["y"])
        return Marker(
            ship["id"],
            ship["name"],
            ship["side"],
            "live",
            sx,
            sy,
            ship["heading"],
            ship["name"],
            ship["status"],
            threat=enemy_arcs(ship, sx, sy),
        )
    if ship["revealed"] == "stale" and ship.get("last_known"):
        return _last_seen(ship, h, ship["id"])
    return None


@dataclass
class _Ships:
    markers: list[Marker] = field(default_factory=list)
    unseen: list[dict[str, str]] = field(default_factory=list)
    gone: list[dict[str, str]] = field(default_factory=list)
    trails: list[dict[str, Any]] = field(default_factory=list)


def _ships(view: Mapping[str, Any], seat: str, h: float) -> _Ships:
    out = _Ships()
    for ship in view["ships"]:
        own = ship["side"] == seat or seat == "referee"
        status = ship["status"]
        if status in (ShipStatus.DESTROYED, ShipStatus.LEFT):
            out.gone.append({"name": ship["name"], "side": ship["side"], "status": status})
        if own and ship.get("position"):
            markers, trail = _own(ship, seat, h)
            out.markers.extend(markers)
            if trail is not None:
                out.trails.append(trail)
            continue
        if own:
            continue  # not deployed yet
        marker = _enemy(ship, h)
        if marker is not None:
            out.markers.append(marker)
        elif status not in (ShipStatus.DESTROYED, ShipStatus.LEFT):
            out.unseen.append({"name": ship["name"], "side": ship["side"]})
    return out


def _zone(view: Mapping[str, Any], seat: str, h: float) -> dict[str, float] | None:
    """The seat's deployment zone while it deploys."""
    if view["phase"]["step"] != "deploy" or seat not in view["deployment_zones"]:
        return None
    z = view["deployment_zones"][seat]
    x0, x1 = sorted((z["x0"], z["x1"]))
    y0, y1 = sorted((z["y0"], z["y1"]))
    return {"x": x0, "y": h - y1, "w": x1 - x0, "h": y1 - y0}


def build(view: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> MapModel:
    table = view["table"]
    w, h = float(table["width"]), float(table["height"])
    seat = view["you"]
    ships = _ships(view, seat, h)
    trails = ships.trails
    beliefs: dict[str, list[Marker]] = {}
    if seat == "referee":
        trails = _whole_tracks(view, events, h)
        beliefs = {side: _believed(view, side, h) for side in ("A", "B")}
    mass = {s["id"]: s["design"].get("mass") for s in view["ships"]}
    for m in [*ships.markers, *(m for ms in beliefs.values() for m in ms)]:
        m.cls = hulls.hull_class(mass.get(m.id.removesuffix("-ghost")))
        m.role, m.hull = look(seat, m.side, m.cls)
        m.bridge = hulls.MARKINGS[m.cls]
        m.scale = hulls.SCALE[m.cls]
    _place_labels(ships.markers, w, h)
    for t in trails:
        t["role"] = look(seat, t["side"])[0]
    drawn = fighter_groups(view, h)
    keys = legend(seat, view.get("side_names", {}))
    # the groups' key where a ship has a bay (public hardware) or a group is drawn: the legend
    # is drawn with the page, not refreshed with the map
    bays = any(sys["type"] in BAY_TYPES for s in view["ships"] for sys in s.get("systems", ()))
    if drawn or bays:
        keys += group_keys(seat)
    step = grid_step(w, h)
    return MapModel(
        width=w,
        height=h,
        grid=[float(x) for x in _steps(w, step / 2)],
        grid_y=[float(y) for y in _steps(h, step / 2)],
        zone=_zone(view, seat, h),
        markers=ships.markers,
        unseen=ships.unseen,
        trails=trails,
        pings=_pings(view, events, h),
        shots=_shots(events, h),
        gone=ships.gone,
        beliefs=beliefs,
        keys=keys,
        ordnance=ordnance(view, h),
        groups=drawn,
        reach=[r | {"role": look(seat, r["side"])[0]} for r in reach.drawn(view)],
        stars=STARS,
        ticks_x=[float(x) for x in _steps(w, step)],
        ticks_y=[{"y": round(h - y, 3), "mu": float(y)} for y in _steps(h, step)],
        scale=_scale(w, h, step),
        roster=roster(view, ships.markers),
    )


def grid_step(w: float, h: float) -> float:
    """The labelled grid's step: the first of 6, 12, 24, 48 mu that gives at most 8 cells
    across the longer side (12 mu on the standard 72 × 48 table)."""
    for step in (6.0, 12.0, 24.0, 48.0):
        if max(w, h) / step <= 8:
            return step
    return 96.0


def _steps(length: float, step: float) -> list[float]:
    return [round(step * i, 3) for i in range(1, int(length / step + 1e-9)) if step * i < length]


def _scale(w: float, h: float, step: float) -> dict[str, float]:
    """The scale bar: one grid step long, in the south-west corner, in halves."""
    return {"x": 1.5, "y": round(h - 1.6, 3), "length": step, "half": step / 2}


def _place_labels(markers: list[Marker], w: float, h: float) -> None:
    """Each ship's label where it overlaps no other (app/web/labels.py): the seat's own first,
    then the enemies it sees now, then the stale markers."""
    order = {"own": 0, "truth": 0, "live": 1, "stale": 2}
    ranked = sorted(markers, key=lambda m: (order.get(m.kind, 3), m.y, m.x))
    placed = labels.place([(m.x, m.y, m.label, 1.6 * m.scale) for m in ranked], w, h)
    for m, p in zip(ranked, placed, strict=True):
        m.label_dx = round(p.x - m.x, 3)
        m.label_dy = round(p.y - m.y, 3)
        m.leader = p.leader


def _clock(heading: int | None) -> str:
    return "" if heading is None else f"{12 if heading == 0 else heading} o'clock"


def _motion(view: Mapping[str, Any], ship: Mapping[str, Any]) -> str:
    """An own ship's speed or velocity (only the seat's own, or the referee's, has one)."""
    v = ship.get("velocity")
    if v is None:
        return ""
    if isinstance(v, Mapping):
        return f"velocity ({v['x']:.1f}, {v['y']:.1f})"
    return f"speed {v}"


def roster(view: Mapping[str, Any], markers: Sequence[Marker]) -> list[dict[str, Any]]:
    """The map's text alternative: every ship the seat knows of, where the map shows it, with
    heading, speed (own ships only), status and when it was last seen."""
    seat = view["you"]
    on_map = {m.id for m in markers}
    out = []
    for s in view["ships"]:
        own = s["side"] == seat or seat == "referee"
        role, _ = look(seat, s["side"])
        lk = s.get("last_known")
        now = own or s.get("revealed") == "live"
        at = s.get("position") if now else lk
        heading = s.get("heading") if now else (lk or {}).get("heading")
        if s.get("revealed") == "live":
            seen = "now"
        elif lk:
            seen = f"turn {lk['turn']}"
        else:
            seen = "never" if not own else ""
        out.append(
            {
                "id": s["id"],
                "name": s["name"],
                "side": s["side"],
                "role": role,
                # the design's own class (as on its record sheet), else the hull's size
                "cls": s["design"].get("class")
                or hulls.WORDS[hulls.hull_class(s["design"].get("mass"))],
                "where": f"({at['x']:.1f}, {at['y']:.1f})" if at else "unknown",
                "heading": _clock(heading) if at else "",
                "speed": _motion(view, s) if own else "",
                "status": str(s["status"]).replace("_", " "),
                "revealed": s.get("revealed", ""),
                "seen": seen,
                "on_map": s["id"] in on_map,
            }
        )
    return out


# RULES §9: a salvo or heavy missile finds a ship within 6 mu of its point (3 with vector
# movement); an AMT's blast reaches 1, 2 and 3 mu; a heavy missile flies up to 18 mu a turn
SEEKER = {"cinematic": 6.0, "vector": 3.0}
BLAST_RINGS = (1.0, 2.0, 3.0)
SALVO_KINDS = ("salvo", "er_salvo", "af_salvo")
KIND_WORDS = {
    "salvo": "salvo",
    "er_salvo": "extended-range salvo",
    "af_salvo": "anti-fighter salvo",
    "heavy_missile": "heavy missile",
    "amt": "antimatter torpedo",
}


def kind_words(kind: str, missile: str | None = None) -> str:
    """A marker's kind as a player reads it (a heavy missile with its type when known, a
    group with its type)."""
    if kind in GROUP_KINDS:
        return group_words(kind, missile)
    words = KIND_WORDS.get(kind, kind.replace("_", " "))
    return f"{missile.replace('_', ' ')} {words}" if missile else words


def _shown_at(view: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    """Where the seat's map shows each ship (table coordinates): the true position of its own
    (any for the referee), else an enemy's live position or where it was last seen."""
    seat = view["you"]
    out = {}
    for s in view["ships"]:
        own = s["side"] == seat or seat == "referee"
        if s.get("position") and (own or s.get("revealed") == "live"):
            out[s["id"]] = (s["position"]["x"], s["position"]["y"])
        elif s.get("last_known"):
            out[s["id"]] = (s["last_known"]["x"], s["last_known"]["y"])
    return out


BESIDE = 2.6  # mu: an attacking marker without a position is drawn this far beside its target
LABEL_STEP = 1.3  # the map's units between two stacked labels
CLOSE = 3.0  # mu: markers this close stack their labels


def _placed(view: Mapping[str, Any], h: float) -> list[tuple[Mapping[str, Any], float, float]]:
    """Each drawable marker with its svg position: its own ``position`` when the view has one;
    an enemy's live marker without one (the public form names only its target) beside where
    the map shows that target, several at one target side by side; else not drawn."""
    shown = _shown_at(view)
    beside: dict[str, int] = {}
    out = []
    for m in view.get("markers", []):
        if m.get("kind") in GROUP_KINDS:
            continue  # drawn as groups (app/web/groups.py)
        if m.get("position"):
            out.append((m, *_svg(h, m["position"]["x"], m["position"]["y"])))
            continue
        at = shown.get(m.get("target") or "")
        if at is None:
            continue
        n = beside[m["target"]] = beside.get(m["target"], -1) + 1
        x, y = _svg(h, at[0] + BESIDE + 2.2 * n, at[1] + BESIDE)
        out.append((m, x, y))
    return out


def _stack_labels(items: list[dict[str, Any]]) -> None:
    """Close markers' labels one above the other instead of over each other."""
    for i, item in enumerate(items):
        close = sum(
            1 for o in items[:i] if math.hypot(o["x"] - item["x"], o["y"] - item["y"]) < CLOSE
        )
        item["label_y"] = round(-1.4 - LABEL_STEP * close, 2)


def ordnance(view: Mapping[str, Any], h: float) -> list[dict[str, Any]]:
    """The view's markers as drawing instructions: position, and for the seat's own (and the
    referee) the aim point, the seeker circle or the blast rings around it, the endurance, the
    mother ship, and the 18 mu reach of a heavy missile that may be ordered now. An enemy
    marker brings only what the view holds of it (a live one: its kind, its id as the defence
    form names it, and its position, or its target's when the view gives none)."""
    seat = view["you"]
    names = {s["id"]: s["name"] for s in view["ships"]}
    seeker = SEEKER.get(view.get("movement", "cinematic"), 6.0)
    orderable = {m["marker"]: m for m in view["phase"]["legal"].get("markers", [])}
    out = []
    for m, x, y in _placed(view, h):
        role, _ = look(seat, m["side"])
        item: dict[str, Any] = {
            "id": m["id"],
            "side": m["side"],
            "kind": m["kind"],
            "role": role,
            "x": x,
            "y": y,
            "words": kind_words(m["kind"], m.get("type")),
            "mother": names.get(m["mother"], m["mother"]) if m.get("mother") else None,
            "endurance": m.get("endurance"),
            "strength": m.get("strength"),
            "aim": None,
            "seeker": 0.0,
            "rings": (),
            "reach": None,
            "tag": m["id"] if role == "enemy" else None,  # the id the defence form uses
            "target": names.get(m["target"], m["target"]) if m.get("target") else None,
            "beside": not m.get("position"),
        }
        if m.get("aim"):
            ax, ay = _svg(h, m["aim"]["x"], m["aim"]["y"])
            item["aim"] = {"x": ax, "y": ay}
        if m.get("mother") or seat == "referee":  # what the owner knows of its own
            # a salvo seeks around its aim point, an AMT bursts there; a heavy missile seeks
            # from wherever it stands
            centre = item["aim"] if m["kind"] != "heavy_missile" and item["aim"] else item
            item["centre"] = {"x": centre["x"], "y": centre["y"]}
            if m["kind"] == "amt":
                item["rings"] = BLAST_RINGS
            else:
                item["seeker"] = seeker
        if m["id"] in orderable and orderable[m["id"]].get("reach"):
            item["reach"] = float(orderable[m["id"]].get("reach", 18.0))
        out.append(item)
    _stack_labels(out)
    return out


def legend(seat: str, side_names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The legend's lines, each drawn with the same classes and outline as the markers it names
    (``css`` is the key's classes, ``hull`` its outline; ``hull`` "" for the ping ring)."""

    def key(side: str, kind: str, text: str) -> dict[str, Any]:
        role, hull = look(seat, side)
        return {"css": f"{kind} {role} side-{side}".replace("  ", " "), "hull": hull, "text": text}

    if seat in ("A", "B"):
        enemy = "B" if seat == "A" else "A"
        lines = [
            key(seat, "own", "your ship (true position)"),
            key(seat, "own live", "your ship, revealed now (the enemy sees it)"),
            key(enemy, "live", "enemy revealed now"),
            key(enemy, "stale", "enemy last seen (dashed, turn shown)"),
        ]
    else:
        named = {s: f"{side_names.get(s, 'Side ' + s)} (side {s})" for s in ("A", "B")}
        if seat == "referee":
            lines = [
                key("A", "truth", f"{named['A']}: true position"),
                key("B", "truth", f"{named['B']}: true position"),
                key("A", "live", "white edge: revealed now"),
                key("B", "stale", "dashed: where the other side last saw it (turn shown)"),
            ]
        else:
            lines = [
                key("A", "live", f"{named['A']} revealed now"),
                key("B", "live", f"{named['B']} revealed now"),
                key("B", "stale", "dashed: last seen (turn shown)"),
            ]
    own_side = seat if seat in ("A", "B") else "A"
    role, _ = look(seat, own_side)
    sizes = {
        "css": f"own {role} side-{own_side}".replace("  ", " "),
        "hull": "",
        "sizes": [
            {
                "hull": hulls.outline(role == "own" or seat not in ("A", "B"), c),
                "scale": hulls.SCALE[c],
                "marks": hulls.MARKINGS[c],
            }
            for c in hulls.CLASSES
        ],
        "text": f"small, medium and large hulls (mass up to {hulls.ESCORT}, up to "
        f"{hulls.CRUISER}, more)",
    }
    lines.append(sizes)
    if seat != "referee":
        lines += [
            {
                "css": "age-1 enemy",
                "hull": "",
                "reach": "1",
                "text": "where a ship not seen now could be (a ring per move; fainter: seen "
                "longer ago)",
            },
            {"css": "threat", "hull": "", "threat": "1", "text": "an enemy's arcs (on demand)"},
        ]
    return [*lines, {"css": "ping", "hull": "", "text": "ping this turn"}]


def _believed(view: Mapping[str, Any], side: str, h: float) -> list[Marker]:
    """The other side's ships as ``side`` knows them: live and stale markers (public facts)."""
    out = []
    for ship in view["ships"]:
        lk = ship.get("last_known")
        if ship["side"] == side or not lk or ship["revealed"] not in ("live", "stale"):
            continue
        x, y = _svg(h, lk["x"], lk["y"])
        label = ship["name"] if ship["revealed"] == "live" else f"{ship['name']} (T{lk['turn']})"
        out.append(
            Marker(
                ship["id"],
                ship["name"],
                ship["side"],
                ship["revealed"],
                x,
                y,
                lk["heading"],
                label,
                ship["status"],
            )
        )
    return out


def _whole_tracks(
    view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], h: float
) -> list[dict[str, Any]]:
    """Every ship's whole secret track, from deployment on (the referee's log is unredacted)."""
    sides = {s["id"]: s["side"] for s in view["ships"]}
    tracks: dict[str, list[tuple[float, float]]] = {}
    for e in events:
        if e.get("voided") or e.get("redacted"):
            continue
        if e["type"] == "deployed":
            for p in e["data"]["ships"]:
                tracks[p["ship"]] = [_svg(h, p["position"]["x"], p["position"]["y"])]
        elif e["type"] == "ship_moved":
            track = tracks.setdefault(e["data"]["ship"], [])
            track.extend(_svg(h, p["x"], p["y"]) for p in e["data"]["path"])
    return [
        {"ship": ship, "side": sides.get(ship, "A"), "points": " ".join(f"{x},{y}" for x, y in pts)}
        for ship, pts in tracks.items()
        if len(pts) > 1
    ]


def _pings(
    view: Mapping[str, Any], events: Sequence[Mapping[str, Any]], h: float
) -> list[dict[str, float]]:
    """Pings of the current turn, as rings at the pinger's revealed position."""
    out = []
    for e in events:
        if e["type"] == "ping" and e["turn"] == view["turn"] and not e.get("voided"):
            x, y = _svg(h, e["data"]["position"]["x"], e["data"]["position"]["y"])
            out.append({"x": x, "y": y})
    return out


def _shots(events: Sequence[Mapping[str, Any]], h: float) -> list[dict[str, Any]]:
    """The last volley's shots, from the firers' revealed positions to the targets'."""
    last = None
    for i, e in enumerate(events):
        if e["type"] == "fire_resolved" and not e.get("voided"):
            last = i
    if last is None:
        return []
    positions: dict[str, tuple[float, float]] = {}
    for e in events[: last + 1]:
        if e["type"] == "ship_revealed" and not e.get("voided"):
            positions[e["data"]["ship"]] = _svg(
                h, e["data"]["position"]["x"], e["data"]["position"]["y"]
            )
    out = []
    for shot in events[last]["data"]["shots"]:
        if shot.get("cancelled"):
            continue
        a, b = positions.get(shot["ship"]), positions.get(shot["target"])
        if a and b:
            out.append(
                {
                    "x1": a[0],
                    "y1": a[1],
                    "x2": b[0],
                    "y2": b[1],
                    "hit": shot["hits"] + shot.get("reroll_hits", 0) > 0,
                    "label": f"{shot['weapon']} {shot['hits'] + shot.get('reroll_hits', 0)} hits",
                }
            )
    return out
