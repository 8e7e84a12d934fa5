"""The captain's belief: for every enemy ship, a particle cloud of where it may be now.

Built from two things only, both the seat's own: its view (deployment zones, the roster's
designs, live positions) and its redacted events, fed in order. The evidence:

* ``ship_moved`` of an enemy ship: every particle moves once, within the design's limits;
* ``ship_revealed`` (a ping of either side, or fire): the cloud collapses at the sighting;
* an own ``ping`` that did not reveal a ship: particles the ping could have found are
  reweighted by the chance that the dice missed them (RULES §5: sensor dice against ECM dice;
  only a ping range makes this depend on the place — elsewhere a miss says nothing of where);
* an own ``salvo_wasted``: no enemy ship was within the lock-on radius of its aim point;
* an own ship's step 2 (``ordnance_acted``) with groups in flight: no enemy ship that stayed
  unrevealed was within their line of sight;
* a ship gone (destroyed, left the table): its cloud goes.

A shot received tells no more than the reveal the firing makes (RULES §6), so it is read as
that reveal. Randomness comes only from the ``rng`` handed to ``update``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bot import cloud as pc
from app.bot import detection
from app.bot.seat import View
from app.rules.fighters.groups import SIGHT  # a group's line of sight, shrunk by stealth
from app.rules.fighters.state import GROUP_KINDS
from app.rules.geometry import Table, Vec, Zone

PARTICLES = 300  # particles per enemy ship at the default budget
SIGHTED_SPEED = 3  # times the thrust: the fastest a sighted ship is thought to be going
CELL = 3.0  # mu: the side of a belief map's cell
NEIGHBOURS_SHARE = 0.0  # of a particle's weight spread over the cells around its own
GONE = ("destroyed", "left")
LOCK_ON, LOCK_ON_VECTOR = 6.0, 3.0  # RULES §9.4: a salvo's lock-on radius
_STEALTH_SHRINK = {0: 1.0, 1: 5 / 6, 2: 2 / 3}


@dataclass(frozen=True)
class BeliefMap:
    """Probability mass of one enemy ship per cell: ``mass[row][col]`` covers x from
    ``col * cell`` and y from ``row * cell`` (row 0 along the south edge); it sums to 1."""

    cell: float
    cols: int
    rows: int
    mass: tuple[tuple[float, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        grid = [[round(m, 4) for m in row] for row in self.mass]
        return {"cell": self.cell, "cols": self.cols, "rows": self.rows, "mass": grid}

    def cell_of(self, p: Vec) -> tuple[int, int]:
        col = min(max(int(p.x // self.cell), 0), self.cols - 1)
        row = min(max(int(p.y // self.cell), 0), self.rows - 1)
        return row, col

    def credible(self, share: float = 0.9) -> set[tuple[int, int]]:
        """The fewest cells (the heaviest first) that hold ``share`` of the mass."""
        cells = sorted(
            ((m, r, c) for r, row in enumerate(self.mass) for c, m in enumerate(row) if m > 0),
            key=lambda t: (-t[0], t[1], t[2]),
        )
        out: set[tuple[int, int]] = set()
        total = 0.0
        for m, r, c in cells:
            if total >= share - 1e-9:
                break
            out.add((r, c))
            total += m
        return out


@dataclass
class Belief:
    """Clouds by enemy ship id, and the events not yet read."""

    particles: int = PARTICLES
    clouds: dict[str, pc.Cloud] = field(default_factory=dict)
    pending: list[Mapping[str, Any]] = field(default_factory=list)
    aims: dict[str, Vec] = field(default_factory=dict)  # own salvo marker -> its aim point
    gone: set[str] = field(default_factory=set)
    enemy_pings: int = 0  # enemy activations that pinged, of all enemy activations
    enemy_activations: int = 0

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        self.pending.extend(events)

    def update(self, view: View, rng: random.Random) -> None:
        """Read the pending events (oldest first) against the view, then match the view's live
        sightings: every cloud is then the belief as of this view."""
        table = Table.from_dict(view["table"])
        self._start(view, rng)
        for event in self.pending:
            self._read(view, table, event, rng)
        self.pending.clear()
        for s in _enemies(view):
            if s["status"] in GONE:
                self.gone.add(s["id"])
                self.clouds.pop(s["id"], None)
            elif s["revealed"] == "live" and s["id"] in self.clouds:
                at = Vec(s["last_known"]["x"], s["last_known"]["y"])
                c = self.clouds[s["id"]]
                if any((p.at - at).length() > 1e-6 for p in c.particles):
                    heading = int(s["last_known"]["heading"])
                    self.clouds[s["id"]] = self._collapse(view, s["id"], c, at, heading, rng)

    def ping_rate(self) -> float:
        """The share of enemy activations that pinged (a prior of one in two)."""
        return (self.enemy_pings + 1) / (self.enemy_activations + 2)

    def _start(self, view: View, rng: random.Random) -> None:
        vector = view["movement"] == "vector"
        for s in _enemies(view):
            if s["id"] in self.clouds or s["id"] in self.gone or s["status"] in GONE:
                continue
            top = 2 * int(s["design"]["thrust"])
            known = s.get("last_known")
            zone = Zone.from_dict(view["deployment_zones"][s["side"]])
            c = pc.from_zone(zone, top, vector, self.particles, rng)
            if known is not None:
                at = Vec(known["x"], known["y"])
                c = self._collapse(view, s["id"], c, at, int(known["heading"]), rng)
            self.clouds[s["id"]] = c

    def _collapse(
        self, view: View, ship: str, c: pc.Cloud, at: Vec, heading: int, rng: random.Random
    ) -> pc.Cloud:
        top = SIGHTED_SPEED * int(_ship(view, ship)["design"]["thrust"])
        return pc.collapse(c, at, heading, rng, top, view["movement"] == "vector")

    def _read(self, view: View, table: Table, event: Mapping[str, Any], rng: random.Random) -> None:
        kind, data = event["type"], event.get("data", {})
        ship = data.get("ship")
        if kind == "ship_moved" and ship in self.clouds:
            thrust = detection.thrust_of(_ship(view, ship))
            vector = view["movement"] == "vector"
            drift = bool(data.get("drift"))
            self.clouds[ship] = pc.advanced(self.clouds[ship], thrust, vector, table, rng, drift)
        elif kind == "ship_revealed" and ship in self.clouds:
            at = Vec.from_dict(data["position"])
            heading = int(data["heading"])
            self.clouds[ship] = self._collapse(view, ship, self.clouds[ship], at, heading, rng)
        elif kind == "ping":
            self._ping(view, data, table, rng)
        elif kind in ("ship_destroyed", "ship_left") and ship is not None:
            self.gone.add(ship)
            self.clouds.pop(ship, None)
        elif kind == "ordnance_launched" and "aim" in data:
            self.aims[data["marker"]] = Vec.from_dict(data["aim"])
        elif kind == "salvo_wasted" and data.get("marker") in self.aims:
            self._wasted(view, self.aims[data["marker"]], table, rng)
        elif kind == "ordnance_acted" and "markers" in data and _side_of(view, ship) == view["you"]:
            self._sight(view, str(ship), data["markers"], table, rng)
        elif kind == "activation_ended" and _side_of(view, ship) not in (None, view["you"]):
            self.enemy_activations += 1
            self.enemy_pings += data.get("reason") == "pinged"

    def _ping(self, view: View, data: Mapping[str, Any], table: Table, rng: random.Random) -> None:
        if _side_of(view, data["ship"]) != view["you"]:
            return  # an enemy ping: its reveals come as ship_revealed
        pinger = Vec.from_dict(data["position"])
        reach = view.get("ping_range")
        for d in data["detections"]:
            target = d["target"]
            if d["revealed"] or target not in self.clouds:
                continue
            miss = 1.0 - detection.reveal_chance(len(d["ping_dice"]), view, _ship(view, target))

            def likelihood(p: pc.Particle, miss: float = miss) -> float:
                if reach is not None and (p.at - pinger).length() > float(reach) + 1e-9:
                    return 1.0  # beyond the ping range: the dice never counted
                return miss

            self._weigh(target, likelihood, table, rng)

    def _wasted(self, view: View, aim: Vec, table: Table, rng: random.Random) -> None:
        base = LOCK_ON_VECTOR if view["movement"] == "vector" else LOCK_ON
        for target in list(self.clouds):
            stealth = int((_ship(view, target).get("stealth") or {}).get("now", 0))
            radius = base * _STEALTH_SHRINK.get(stealth, 1.0)

            def likelihood(p: pc.Particle, radius: float = radius) -> float:
                return 0.0 if (p.at - aim).length() <= radius else 1.0

            self._weigh(target, likelihood, table, rng)

    def _sight(
        self,
        view: View,
        mother: str,
        items: Sequence[Mapping[str, Any]],
        table: Table,
        rng: random.Random,
    ) -> None:
        """The mother's groups looked around after its step 2 (rules.md §9.8): an enemy ship
        within their sight was revealed, so no ship is where a group saw nothing (the reveals
        that follow collapse the ships that were seen). The groups are where the step's items
        took them, or where the view shows them (groups move only in their mother's step 2)."""
        points = [
            Vec.from_dict(i["to"])
            for i in items
            if i.get("kind") in GROUP_KINDS and i.get("result") != "landed" and "to" in i
        ]
        points += [
            Vec.from_dict(m["position"])
            for m in view.get("markers", ())
            if m.get("mother") == mother and m.get("kind") in GROUP_KINDS and "position" in m
        ]
        if not points:
            return
        for target in list(self.clouds):
            stealth = int((_ship(view, target).get("stealth") or {}).get("now", 0))
            radius = SIGHT * _STEALTH_SHRINK.get(stealth, 1.0)

            def likelihood(p: pc.Particle, radius: float = radius) -> float:
                return 0.0 if any((p.at - g).length() <= radius for g in points) else 1.0

            self._weigh(target, likelihood, table, rng)

    def _weigh(self, target: str, likelihood: Any, table: Table, rng: random.Random) -> None:
        weighed = pc.reweight(self.clouds[target], likelihood)
        if weighed is not None:  # evidence no particle explains is not believed over them all
            self.clouds[target] = pc.resampled(weighed, table, rng)

    def belief_map(self, view: View, cell: float = CELL) -> dict[str, BeliefMap]:
        """Per enemy ship still on the table, its cloud as mass per cell (``BeliefMap``)."""
        table = Table.from_dict(view["table"])
        cols, rows = max(1, int(-(-table.width // cell))), max(1, int(-(-table.height // cell)))
        out = {}
        for ship_id, c in sorted(self.clouds.items()):
            grid = [[0.0] * cols for _ in range(rows)]
            shape = BeliefMap(cell, cols, rows, ())
            for p, w in zip(c.particles, c.weights, strict=True):
                r, col = shape.cell_of(p.at)
                _spread(grid, r, col, w)
            out[ship_id] = BeliefMap(cell, cols, rows, tuple(tuple(row) for row in grid))
        return out


def _spread(grid: list[list[float]], r: int, c: int, w: float) -> None:
    """A particle's weight in its cell, less ``NEIGHBOURS_SHARE`` of it shared by the
    neighbours on the table (none now: a quarter made the 90% region hold the truth 95% of
    the time, wider than it need be)."""
    around = [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < len(grid) and 0 <= c + dc < len(grid[0])
    ]
    grid[r][c] += w * (1.0 - NEIGHBOURS_SHARE) if around else w
    for rr, cc in around:
        grid[rr][cc] += w * NEIGHBOURS_SHARE / len(around)


def _enemies(view: View) -> list[Mapping[str, Any]]:
    return [s for s in view["ships"] if s["side"] != view["you"]]


def _ship(view: View, ship_id: str) -> Mapping[str, Any]:
    return next(s for s in view["ships"] if s["id"] == ship_id)


def _side_of(view: View, ship_id: str | None) -> str | None:
    return next((s["side"] for s in view["ships"] if s["id"] == ship_id), None)
