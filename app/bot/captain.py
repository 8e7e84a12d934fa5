"""The captain: plays from a belief of where each enemy ship is (``belief``), not its marks.

Its memory is what ``observe`` feeds it — the seat's own redacted events — and the views it is
asked with; each decision first brings the belief up to date, then scores the choices on a few
particles of every enemy cloud (``tactics``):

* moves: the order whose end place scores best — hits its weapons should score on overwatch
  when an enemy pings, less the hits risked if that ping finds it, a little pull towards the
  enemy — among the orders that leave a coast on the table;
* pings: when the hits it should bring (pinger and own ships on overwatch, on the enemies it
  should find) beat the hits of the enemies on overwatch and what staying quiet is worth; before
  the move where it can (it is then stale again after the move), else after;
* fire: per ship the target with the most expected hits first (worth more when it is nearly
  done); a ship not yet live holds when its shots are worth too little to be seen for;
* launches, heavy missiles and groups: at the point where the most enemy mass should be after
  one more enemy move;
* a critical core: dumped when it would more likely explode before the game ends (``core``).

The budget is how many particles each cloud keeps and how many of them score a choice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.bot import escort, gunnery, moves, step2, tactics
from app.bot import fire as fire_choice
from app.bot.belief import PARTICLES, Belief, BeliefMap
from app.bot.cadet import first_targets
from app.bot.core import core_choice
from app.bot.seat import Command, View, awaited, commands, legal, out_of_control, ship
from app.bot.strategy import SeatPlayer, registered
from app.rules.fighters.dogfight import expected_hits as group_expected_hits
from app.rules.geometry import Table, Vec, Zone
from app.rules.systems import profile

SCORED = 24  # particles of each cloud that score a choice, at the default budget
PING_MARGIN = 1.0  # hits a ping must bring beyond its risk (being seen costs more than that)
QUIET_WORTH = 0.5  # the share of its overwatch shots a ship gives up by pinging
HOLD_BELOW = 0.35  # expected hits under which a ship not yet live holds its fire
KILL = 2.0  # a fighter killed before it strikes weighs this many hits on a ship
LAUNCH_MASS = 0.15  # enemy mass a launch's aim point must hold to be worth a launch
# An enemy that pings often shows itself to a quiet captain; one that pings less than this
# share of its activations must be hunted: the ping margin and the weight of the enemy's answer
# shrink with how far below it the enemy's observed ping rate is.
HUNT_RATE = 0.8
HUNT_RISK = 0.5  # the share of the answer's weight a fully hunted enemy takes away
HUNT_APPROACH = 1.0  # and the pull towards it grows by this share of itself


@registered
class Captain(SeatPlayer):
    name = "captain"

    def __init__(self, particles: int = PARTICLES, scored: int = SCORED) -> None:
        self.belief = Belief(particles)
        self.scored = scored
        self._enemies: list[tactics.Enemy] = []
        self._view: View | None = None

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        self.belief.observe(events)

    def belief_map(self) -> dict[str, BeliefMap]:
        """Per enemy ship on the table, the mass of its cloud per cell (``BeliefMap``) as of
        the last decision: what the computer believed."""
        return self.belief.belief_map(self._view) if self._view is not None else {}

    def decide(self, view: View, rng: random.Random) -> Command | None:
        if not awaited(view):
            return None
        self._view = view
        self.belief.update(view, rng)
        self._enemies = tactics.sample(view, self.belief, self.scored, rng)
        step = view["phase"]["step"]
        offered = commands(view)
        if "core_action" in offered:
            dump = self.core(view, rng)
            if dump is not None:
                return dump
        if step not in ("start", "after_ping", "after_move") or offered & {"fire", "defend"}:
            return super().decide(view, rng)
        if "fighters" in offered:
            return super().decide(view, rng)
        active = ship(view, view["phase"]["ship"])
        if step == "start" and "ping" in offered and self.pings(view, active, rng):
            return {"type": "ping", "ship": active["id"]}
        if step in ("start", "after_ping") and "markers" in offered:
            orders = self.markers(view, active, rng)
            if orders is not None:
                return orders
        if step == "after_move":
            if "ping" in offered and self.pings(view, active, rng):
                return {"type": "ping", "ship": active["id"]}
            return {"type": "end_activation", "ship": active["id"]}
        return self.move(view, active, rng)

    def core(self, view: View, rng: random.Random) -> Command | None:
        return core_choice(view)

    def deploy(self, view: View, rng: random.Random) -> Command:
        enemy = next(side for side in view["deployment_zones"] if side != view["you"])
        zone = Zone.from_dict(view["deployment_zones"][enemy])
        goal = Vec((zone.x0 + zone.x1) / 2, (zone.y0 + zone.y1) / 2)
        return moves.deployment(
            view,
            rng,
            heading_of=lambda here: moves.heading_towards(here, goal),
            speed_share=rng.uniform(0.25, 0.6),
        )

    def activate(self, view: View, rng: random.Random) -> Command:
        """The ship in most danger where it is moves first; one out of control drifts last."""
        ids = legal(view)["activatable"]

        def urgency(ship_id: str) -> tuple[int, float]:
            s = ship(view, ship_id)
            if out_of_control(s):
                return (0, 0.0)
            here = Vec.from_dict(s["position"])
            return (1, tactics.danger(s, here, self._enemies, ready=False))

        chosen = max(ids, key=lambda i: (urgency(i), -ids.index(i)))
        return {"type": "activate", "ship": chosen}

    def pings(self, view: View, active: Mapping[str, Any], rng: random.Random) -> bool:
        if not self._enemies:
            return False
        here = Vec.from_dict(active["position"])
        eager = self._eager()
        value = tactics.ping_value(view, active, here, self._enemies, 1.0 - HUNT_RISK * eager)
        quiet = 0.0
        if active["overwatch"]:
            quiet = QUIET_WORTH * self.belief.ping_rate()
            quiet *= tactics.offense(active, here, int(active["heading"]), self._enemies)
        # an even game ends in a draw: the margin shrinks as the turn limit nears
        late = max(0.0, 1.0 - float(view["turn"]) / float(view["turn_limit"]))
        return value > quiet + PING_MARGIN * late * (1.0 - eager)

    def _eager(self) -> float:
        """How much the enemy must be hunted: 0 for one that pings often, up to 1 for one
        that never does (its observed ping rate, ``belief.ping_rate``)."""
        return max(0.0, 1.0 - self.belief.ping_rate() / HUNT_RATE)

    def move(self, view: View, active: Mapping[str, Any], rng: random.Random) -> Command:
        on, off = moves.candidates(view, active)
        if not on:
            return moves.move(active["id"], off[0], leave=True)
        table = Table.from_dict(view["table"])
        pool = tactics.stoppable(moves.safe(on, table), int(active["thrust"]), table)
        pull = tactics.APPROACH * (1.0 + HUNT_APPROACH * self._eager())

        def score(i: int) -> float:
            c = pool[i]
            return tactics.place_score(view, active, c.end, c.heading, self._enemies, pull)

        best = max(range(len(pool)), key=lambda i: (score(i), -i))
        return moves.move(active["id"], pool[best])

    def fire(self, view: View, rng: random.Random) -> Command:
        shots, launches = fire_choice.options(view)
        ordered = self._shots_in_order(view, shots)

        def aim_of(o: Mapping[str, Any]) -> Mapping[str, Any] | None:
            return self._aim(view, o, rng)

        return fire_choice.declaration(view, ordered, launches, rng, aim_of)

    def _shots_in_order(
        self, view: View, shots: Sequence[Mapping[str, Any]]
    ) -> list[Mapping[str, Any]]:
        """Per own ship its options, the best target's first; nothing from a hidden ship whose
        whole volley is worth too little to be seen for."""
        by_ship: dict[str, dict[str, list[tuple[float, Mapping[str, Any]]]]] = {}
        for o in shots:
            hits = _option_hits(o) if _is_ship(view, o["target"]) else _group_hits(o)
            by_ship.setdefault(o["ship"], {}).setdefault(o["target"], []).append((hits, o))
        out: list[Mapping[str, Any]] = []
        for ship_id, targets in by_ship.items():
            worth = {
                t: sum(h for h, _ in opts) * (_worth(ship(view, t)) if _is_ship(view, t) else KILL)
                for t, opts in targets.items()
            }
            own = ship(view, ship_id)
            if own["revealed"] != "live" and max(worth.values()) < HOLD_BELOW:
                continue
            for t in sorted(targets, key=lambda t: (-worth[t], t)):
                out.extend(o for _, o in sorted(targets[t], key=lambda x: -x[0]))
        return out

    def _aim(
        self, view: View, o: Mapping[str, Any], rng: random.Random
    ) -> Mapping[str, Any] | None:
        offered: list[Mapping[str, Any]] = o["aim_at"]
        if "fire_control" in o:  # none free: only an aim point the ship took already
            return offered[0] if offered else None
        own = ship(view, o["ship"])
        here = Vec.from_dict(own["position"])
        reach = max(float(x["reach"]) for x in o["loads"] if x["load"] != fire_choice.AF_SALVO)
        arcs = (here, int(own["heading"]), list(o["arcs"]))
        found = tactics.aim_point(view, here, reach, self._enemies, rng, arcs)
        if found is None or found[1] < LAUNCH_MASS:
            return None
        return {"aim": found[0].to_dict()}

    def fighters(self, view: View, rng: random.Random) -> Command:
        return first_targets(view, rng)

    def defend(self, view: View, rng: random.Random) -> Command:
        return escort.defend(view)

    def markers(self, view: View, active: Mapping[str, Any], rng: random.Random) -> Command | None:
        """Heavy missiles, groups and launches towards the likeliest enemy mass in reach."""

        def goal(here: Vec, reach: float) -> Vec:
            found = tactics.aim_point(view, here, reach, self._enemies, rng)
            if found is not None:
                return found[0]
            near = min(
                (e.mean() for e in self._enemies), key=lambda m: (m - here).length(), default=here
            )
            return near

        threats = [e.mean() for e in self._enemies]
        guard = escort.guarded(view, threats)
        return step2.markers_command(view, active, goal, launch=bool(self._enemies), escort=guard)


def _option_hits(o: Mapping[str, Any]) -> float:
    try:
        bands = profile(o["weapon_type"], o.get("class"), o.get("mode"))
        fb = bands[int(o["band"]) - 1]
    except (KeyError, ValueError, IndexError, TypeError):
        return 0.5  # an option the reckoning cannot read: worth a middling shot
    return gunnery.expected_hits(fb, int(o.get("screen") or 0))


def _group_hits(o: Mapping[str, Any]) -> float:
    """A shot at a group: each hit kills one of its fighters (the engine's own expectation)."""
    try:
        return float(group_expected_hits(o.get("dice"), int(o.get("drm") or 0)))
    except (KeyError, ValueError, TypeError):
        return 0.5


def _is_ship(view: View, target: str) -> bool:
    return any(s["id"] == target for s in view["ships"])


def _worth(target: Mapping[str, Any]) -> float:
    hull = target["hull"]
    return 1.0 + 4.0 / max(int(hull["total"]) - int(hull["lost"]), 1)
