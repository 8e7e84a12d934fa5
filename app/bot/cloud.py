"""A particle cloud: the places one enemy ship may be, each with a weight.

A particle is one possible truth of the ship — position, heading and motion (cinematic speed, or
vector velocity). The cloud moves each particle with the engine's own movement functions under
orders drawn within the ship's limits, so no particle goes where the ship could not. Weights
always sum to 1; a cloud whose weights have gathered on few particles is resampled.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from app.rules.geometry import Table, Vec, Zone, heading_vector
from app.rules.movement import (
    CinematicOrders,
    VectorOrders,
    cinematic_limits,
    move_cinematic,
    move_vector,
)

MOVE_TRIES = 4  # orders drawn per particle before it is judged unable to stay on the table
JITTER = 0.25  # mu: a resampled copy is nudged this much so copies do not stay identical
FLOOR = 1e-12  # a weight below this is nothing: such particles go at the next resampling


@dataclass(frozen=True)
class Particle:
    x: float
    y: float
    heading: int
    speed: int = 0  # cinematic
    vx: float = 0.0  # vector
    vy: float = 0.0

    @property
    def at(self) -> Vec:
        return Vec(self.x, self.y)


@dataclass(frozen=True)
class Cloud:
    particles: tuple[Particle, ...]
    weights: tuple[float, ...]

    def ess(self) -> float:
        """The effective sample size: how many equal particles the weights are worth."""
        return 1.0 / sum(w * w for w in self.weights)

    def mean(self) -> Vec:
        x = sum(p.x * w for p, w in zip(self.particles, self.weights, strict=True))
        y = sum(p.y * w for p, w in zip(self.particles, self.weights, strict=True))
        return Vec(x, y)


def uniform(particles: Sequence[Particle]) -> Cloud:
    n = len(particles)
    return Cloud(tuple(particles), tuple(1.0 / n for _ in range(n)))


def from_zone(zone: Zone, top_speed: int, vector: bool, n: int, rng: random.Random) -> Cloud:
    """A ship never seen: anywhere in its zone, any heading, any starting speed it may take."""
    x0, x1 = sorted((zone.x0, zone.x1))
    y0, y1 = sorted((zone.y0, zone.y1))
    out = []
    for _ in range(n):
        h = rng.randrange(12)
        p = Particle(rng.uniform(x0, x1), rng.uniform(y0, y1), h)
        out.append(_with_motion(p, top_speed, vector, rng))
    return uniform(out)


def _with_motion(p: Particle, top_speed: int, vector: bool, rng: random.Random) -> Particle:
    if vector:  # a deployment's velocity may point anywhere, no longer than twice the thrust
        v = heading_vector(rng.randrange(12)) * (top_speed * math.sqrt(rng.random()))
        return Particle(p.x, p.y, p.heading, 0, v.x, v.y)
    return Particle(p.x, p.y, p.heading, rng.randint(0, top_speed))


def collapse(
    cloud: Cloud, at: Vec, heading: int, rng: random.Random, top_speed: int, vector: bool
) -> Cloud:
    """A live sighting: position and heading are known, the motion is not. Half the particles
    keep the motion of a particle near the sighting (it fits how the ship got there), half take
    a fresh one up to ``top_speed``: a sighting must not make the cloud sure of a speed."""
    near = [math.exp(-((p.at - at).length() ** 2) / 18.0) for p in cloud.particles]
    total = sum(near)
    weights = [w / total for w in near] if total > FLOOR else list(cloud.weights)
    picked = _systematic(weights, len(cloud.particles), rng)
    out = []
    for k, i in enumerate(picked):
        p = cloud.particles[i]
        if k % 2:
            p = _with_motion(p, top_speed, vector, rng)
        out.append(_replace_place(p, at, heading))
    return uniform(out)


def _replace_place(p: Particle, at: Vec, heading: int) -> Particle:
    return Particle(at.x, at.y, heading, p.speed, p.vx, p.vy)


def reweight(cloud: Cloud, likelihood: Callable[[Particle], float]) -> Cloud | None:
    """Bayes: each weight times the likelihood of the evidence at its particle; None when no
    particle explains the evidence (the caller then starts again more widely)."""
    raw = [w * likelihood(p) for p, w in zip(cloud.particles, cloud.weights, strict=True)]
    total = sum(raw)
    if total <= FLOOR:
        return None
    return Cloud(cloud.particles, tuple(w / total for w in raw))


def _systematic(weights: Sequence[float], n: int, rng: random.Random) -> list[int]:
    """Systematic resampling: one random offset, n evenly spaced picks along the weights."""
    step = 1.0 / n
    u = rng.random() * step
    out, acc, i = [], weights[0], 0
    for _ in range(n):
        while u > acc and i < len(weights) - 1:
            i += 1
            acc += weights[i]
        out.append(i)
        u += step
    return out


def drawn(cloud: Cloud, n: int, rng: random.Random) -> list[Particle]:
    """``n`` particles drawn in proportion to their weights (systematic: one random offset)."""
    return [cloud.particles[i] for i in _systematic(cloud.weights, n, rng)]


def resampled(cloud: Cloud, table: Table, rng: random.Random, *, force: bool = False) -> Cloud:
    """A fresh, equally weighted cloud when the weights have gathered (ESS below half)."""
    n = len(cloud.particles)
    if not force and cloud.ess() >= n / 2:
        return cloud
    out = []
    for i in _systematic(cloud.weights, n, rng):
        p = cloud.particles[i]
        x = min(max(p.x + rng.gauss(0.0, JITTER), 0.0), table.width)
        y = min(max(p.y + rng.gauss(0.0, JITTER), 0.0), table.height)
        out.append(Particle(x, y, p.heading, p.speed, p.vx, p.vy))
    return uniform(out)


@lru_cache(maxsize=64)
def _cinematic_orders(thrust: int) -> tuple[tuple[int, int], ...]:
    lim = cinematic_limits(thrust)
    return tuple(
        (s, t)
        for s in range(-lim.max_speed_change, lim.max_speed_change + 1)
        for t in range(-lim.max_turn, lim.max_turn + 1)
        if abs(s) + abs(t) <= lim.thrust
    )


def moved(p: Particle, thrust: int, vector: bool, rng: random.Random, drift: bool) -> Particle:
    """One move under orders drawn at random within the limits (a drift: no change)."""
    if vector:
        rot, burn = (0, 0) if drift or thrust <= 0 else (rng.randint(-6, 6), rng.randint(0, thrust))
        res = move_vector(p.at, p.heading, Vec(p.vx, p.vy), VectorOrders(rot, burn))
        v = res.velocity if res.velocity is not None else Vec(p.vx, p.vy)
        return Particle(res.position.x, res.position.y, res.heading, 0, v.x, v.y)
    orders = [(s, t) for s, t in _cinematic_orders(thrust) if p.speed + s >= 0]
    s, t = (0, 0) if drift or not orders else rng.choice(orders)
    res = move_cinematic(p.at, p.heading, p.speed, CinematicOrders(s, t))
    return Particle(res.position.x, res.position.y, res.heading, p.speed + s)


def advanced(
    cloud: Cloud, thrust: int, vector: bool, table: Table, rng: random.Random, drift: bool
) -> Cloud:
    """The cloud after one enemy move that did not leave the table: each particle moves under
    random orders; one that cannot stay on the table in a few tries is dropped (weight 0)."""
    out, weights = [], []
    for p, w in zip(cloud.particles, cloud.weights, strict=True):
        tries = 1 if drift else MOVE_TRIES
        for _ in range(tries):
            q = moved(p, thrust, vector, rng, drift)
            if table.contains(q.at):
                out.append(q)
                weights.append(w)
                break
        else:
            out.append(q)
            weights.append(0.0)
    total = sum(weights)
    if total <= FLOOR:  # nothing stayed: the enemy did something the orders drawn missed
        return uniform(out)
    return resampled(Cloud(tuple(out), tuple(w / total for w in weights)), table, rng)
