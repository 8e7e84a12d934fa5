"""The captain's reckoning over its belief: what a place, a ping or an aim point is worth.

Every figure is an average over a few particles drawn from each enemy's cloud (``Sample``):
expected hits (``gunnery``) that own ships would score on the enemy, or the enemy on them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.bot import cloud as pc
from app.bot import detection, gunnery, moves
from app.bot.belief import Belief
from app.bot.seat import View, own_ships, ship
from app.rules.geometry import Table, Vec, target_in_arcs

APPROACH = 0.03  # hits per mu: a pull towards the enemy when no place offers a shot yet
RISK = 1.0  # a hit taken weighs this many hits given, in choosing a place
# a ship plans to brake on half its thrust: a hit on the drive halves it (rules.md §8), and one
# that cannot stop in time leaves the table and gives the enemy half its points (§11)
BRAKE_SHARE = 0.5
LOCK_ON, LOCK_ON_VECTOR = 6.0, 3.0  # a salvo's lock-on radius (RULES §9.4)


@dataclass(frozen=True)
class Enemy:
    """One enemy ship as the captain reckons with it: its view and some of its particles."""

    view: Mapping[str, Any]
    particles: tuple[pc.Particle, ...]

    @property
    def id(self) -> str:
        return str(self.view["id"])

    @property
    def live(self) -> bool:
        return bool(self.view["revealed"] == "live")

    @property
    def armed(self) -> bool:
        """In play and in control: it may fire in a window (on overwatch or pinging)."""
        kinds = {c["type"] for c in self.view["conditions"]}
        return self.view["status"] == "active" and "out_of_control" not in kinds

    def worth(self) -> float:
        """Hits on it count more the nearer it is to its end (a kill ends its fire)."""
        hull = self.view["hull"]
        left = max(int(hull["total"]) - int(hull["lost"]), 1)
        return 1.0 + 4.0 / left

    def mean(self) -> Vec:
        n = len(self.particles)
        return Vec(sum(p.x for p in self.particles) / n, sum(p.y for p in self.particles) / n)


def sample(view: View, belief: Belief, n: int, rng: random.Random) -> list[Enemy]:
    """``n`` equally weighted particles of every enemy cloud (systematic resampling)."""
    out = []
    for ship_id, c in sorted(belief.clouds.items()):
        s = ship(view, ship_id)
        if s["status"] not in ("active", "out_of_play"):
            continue
        out.append(Enemy(s, tuple(pc.drawn(c, n, rng))))
    return out


def offense(own: Mapping[str, Any], at: Vec, heading: int, enemies: Sequence[Enemy]) -> float:
    """The hits this ship at ``at`` facing ``heading`` should score on the enemies where they
    may be now (on overwatch, when one of them pings)."""
    total = 0.0
    for e in enemies:
        armed = gunnery.guns(own, gunnery.screen_of(e.view))
        reach = gunnery.reach_of(armed)
        hits = sum(gunnery.volley(at, heading, armed, p.at, reach) for p in e.particles)
        total += e.worth() * hits / len(e.particles)
    return total


def danger(own: Mapping[str, Any], at: Vec, enemies: Sequence[Enemy], ready: bool) -> float:
    """The hits the armed enemies, where they may be, should score on this ship at ``at``
    (``ready``: only with weapons they have not fired this turn)."""
    total = 0.0
    screen = gunnery.screen_of(own)
    for e in enemies:
        if not e.armed:
            continue
        armed = gunnery.guns(e.view, screen, ready_only=ready)
        reach = gunnery.reach_of(armed)
        hits = sum(gunnery.volley(p.at, p.heading, armed, at, reach) for p in e.particles)
        total += hits / len(e.particles)
    return total


def seen_chance(view: View, own: Mapping[str, Any], enemies: Sequence[Enemy]) -> float:
    """The chance an enemy ping reveals this ship (the best sensors among the enemies)."""
    dice = max((detection.sensor_dice(e.view) for e in enemies if e.armed), default=1)
    return detection.reveal_chance(dice, view, own)


def stoppable(pool: list[moves.Candidate], thrust: int, table: Table) -> list[moves.Candidate]:
    """The orders after which the ship could brake to a stop on the table, shedding half its
    thrust a turn straight along its course (``BRAKE_SHARE``: room for a drive hit); when none
    could, those that could on its whole thrust; every order when none could even so: the least
    bad is then left to the score."""

    def stops(c: moves.Candidate, brake: float) -> bool:
        at, way = c.end, c.coast - c.end  # one turn's coast is its motion now
        speed = way.length()
        while speed > 1e-9:
            step = max(speed - brake, 0.0)
            at = at + way * (step / way.length())
            if not table.contains(at):
                return False
            if thrust <= 0:
                return table.contains(at + way * 4.0)  # cannot brake: it coasts on
            speed = step
        return True

    for brake in (thrust * BRAKE_SHARE, float(thrust)):
        kept = [c for c in pool if stops(c, brake)]
        if kept:
            return kept
    return pool


def place_score(
    view: View,
    own: Mapping[str, Any],
    at: Vec,
    heading: int,
    enemies: Sequence[Enemy],
    approach: float = APPROACH,
) -> float:
    """A place to end a move: shots on overwatch, less the fire risked if a ping finds it,
    less ``approach`` hits for every mu from the nearest enemy (so the captain closes in)."""
    score = offense(own, at, heading, enemies)
    score -= RISK * seen_chance(view, own, enemies) * danger(own, at, enemies, ready=False)
    if enemies:
        score -= approach * min((e.mean() - at).length() for e in enemies)
    return score


def ping_value(
    view: View, own: Mapping[str, Any], at: Vec, enemies: Sequence[Enemy], risk: float = 1.0
) -> float:
    """What pinging here should bring (hits of the pinger and the own ships on overwatch on the
    enemies it finds) less what it risks (the enemies on overwatch firing at the pinger, times
    ``risk``)."""
    reach = view.get("ping_range")
    dice = detection.sensor_dice(own)
    shooters = [s for s in own_ships(view) if s["id"] == own["id"] or s["overwatch"]]
    gain = 0.0
    for e in enemies:
        found = 1.0 if e.live else detection.reveal_chance(dice, view, e.view)
        hits = 0.0
        for s in shooters:
            if s["status"] != "active" or "position" not in s:
                continue
            here = at if s["id"] == own["id"] else Vec.from_dict(s["position"])
            armed = gunnery.guns(s, gunnery.screen_of(e.view), ready_only=True)
            top = gunnery.reach_of(armed)
            for p in e.particles:
                if reach is not None and not e.live and (p.at - at).length() > float(reach):
                    continue  # beyond the ping range: not found
                hits += gunnery.volley(here, int(s["heading"]), armed, p.at, top)
        gain += found * e.worth() * hits / len(e.particles)
    watching = [e for e in enemies if e.view["overwatch"]]
    return gain - risk * danger(own, at, watching, ready=True)


def aim_point(
    view: View,
    here: Vec,
    reach: float,
    enemies: Sequence[Enemy],
    rng: random.Random,
    arcs: tuple[Vec, int, Sequence[str]] | None = None,
) -> tuple[Vec, float] | None:
    """The point within ``reach`` of ``here`` (and in ``arcs``: origin, heading, arc names)
    where the most enemy mass should be after one more enemy move, and that mass."""
    table = Table.from_dict(view["table"])
    vector = view["movement"] == "vector"
    radius = LOCK_ON_VECTOR if vector else LOCK_ON
    ahead: list[tuple[pc.Particle, float]] = []
    for e in enemies:
        thrust = detection.thrust_of(e.view)
        for p in e.particles:
            ahead.append((pc.moved(p, thrust, vector, rng, False), 1.0 / len(e.particles)))
    best: tuple[Vec, float] | None = None
    for p, _ in ahead:
        point = p.at
        if not table.contains(point) or (point - here).length() > reach * 0.99:
            continue
        if arcs is not None and not target_in_arcs(arcs[0], arcs[1], point, arcs[2]):
            continue
        mass = sum(w for q, w in ahead if (q.at - point).length() <= radius)
        if best is None or mass > best[1] + 1e-12:
            best = (point, mass)
    return best
