"""The cadet: legal moves, mostly random, and never two pings in a row with one ship.

"In a row" is read from the view alone: a ship that pinged in its last activation is not on
overwatch until its next one ends (RULES §4, P3), so a ship off overwatch does not ping now.
(An out-of-control drift also leaves a ship off overwatch; the cadet then waits one more
activation, which never breaks the rule.)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from app.bot import fire as fire_choice
from app.bot import moves, step2
from app.bot.seat import Command, View, core_critical, legal, out_of_control, own_ships, ship
from app.bot.strategy import SeatPlayer, registered
from app.rules.geometry import Table, Vec

PING_RATE = 0.35  # chance to ping when the ship may
FIRE_RATE = 0.8  # chance to fire at all in a window
LAUNCH_RATE = 0.5  # chance that a ready launcher launches at an offered aim point
CORE_RATE = 0.3  # chance to make a core choice when one is offered
ATTACK_RATE = 0.85  # chance that a group attacks when it must choose
ORDERS_RATE = 0.5  # chance to give step 2 its orders rather than leave it to standing orders
CARELESS = 0.1  # chance to take any order that stays on the table, even one it cannot coast on


@registered
class Cadet(SeatPlayer):
    name = "cadet"

    def core(self, view: View, rng: random.Random) -> Command | None:
        critical = [s["id"] for s in own_ships(view) if core_critical(s)]
        if not critical or rng.random() >= CORE_RATE:
            return None
        action = rng.choice(("dump", "abandon"))
        return {"type": "core_action", "ship": rng.choice(critical), "action": action}

    def deploy(self, view: View, rng: random.Random) -> Command:
        return moves.deployment(view, rng)

    def activate(self, view: View, rng: random.Random) -> Command:
        ship_id = rng.choice(legal(view)["activatable"])
        chosen = ship(view, ship_id)
        r = rng.random()
        if out_of_control(chosen) or r < 0.2:  # out of control: named only to drift
            return {"type": "activate", "ship": ship_id}
        if self.pings(view, chosen, rng):
            return {"type": "ping", "ship": ship_id}
        return self.move(view, chosen, rng)

    def markers(self, view: View, active: Mapping[str, Any], rng: random.Random) -> Command | None:
        """Now and then step 2 by orders: every marker that may move and every ready bay's
        group to a random point within its reach; otherwise standing orders."""
        if rng.random() >= ORDERS_RATE:
            return None

        def anywhere(here: Vec, reach: float) -> Vec:
            angle = rng.uniform(0.0, 2 * math.pi)
            length = reach * math.sqrt(rng.random())
            return Vec(here.x + length * math.sin(angle), here.y + length * math.cos(angle))

        return step2.markers_command(view, active, anywhere, launch=rng.random() < LAUNCH_RATE)

    def pings(self, view: View, active: Mapping[str, Any], rng: random.Random) -> bool:
        return bool(active["overwatch"]) and rng.random() < PING_RATE

    def move(self, view: View, active: Mapping[str, Any], rng: random.Random) -> Command:
        on, off = moves.candidates(view, active)
        if on:
            # mostly an order it can coast on from: a cadet is careless, not suicidal
            pool = on if rng.random() < CARELESS else moves.safe(on, Table.from_dict(view["table"]))
            return moves.move(active["id"], rng.choice(pool))
        return moves.move(active["id"], rng.choice(off), leave=True)  # every order leaves

    def fire(self, view: View, rng: random.Random) -> Command:
        shots, launches = fire_choice.options(view)
        if rng.random() >= FIRE_RATE:
            shots, launches = [], []
        shots = rng.sample(shots, len(shots))
        keep = rng.uniform(0.3, 1.0)
        shots = [o for o in shots if rng.random() < keep]

        def aim_of(o: Mapping[str, Any]) -> Mapping[str, Any] | None:
            offered = o["aim_at"]
            if not offered or rng.random() >= LAUNCH_RATE:
                return None
            picked: Mapping[str, Any] = rng.choice(offered)
            return picked

        return fire_choice.declaration(view, shots, launches, rng, aim_of)

    def fighters(self, view: View, rng: random.Random) -> Command:
        choices = []
        for g in legal(view)["fighters"]:
            targets = attackable(view, g)
            attack = rng.choice(targets) if targets and rng.random() < ATTACK_RATE else None
            choices.append(attack_choice(view, g["marker"], attack, rng))
        return {"type": "fighters", "choices": choices}


def attackable(view: View, group: Mapping[str, Any]) -> list[str]:
    """The targets a group may attack, as ids. Interceptors fight groups only (C5.0), whatever
    else the list offers."""
    targets = [t if isinstance(t, str) else t["target"] for t in group["targets"]]
    kind = str(_own_marker(view, group["marker"]).get("type") or "")
    if kind.endswith("interceptor"):
        ships = {s["id"] for s in view["ships"]}
        targets = [t for t in targets if t not in ships]
    return sorted(targets)


def attack_choice(view: View, group: str, attack: str | None, rng: random.Random) -> dict[str, Any]:
    """One group's choice; a needle group names a system type of its target ship, a
    multi-role group a mode (RULES §9.8)."""
    out: dict[str, Any] = {"marker": group, "attack": attack}
    if attack is None:
        return out
    kind = str(_own_marker(view, group).get("type") or "")
    ships = {s["id"]: s for s in view["ships"]}
    if kind.endswith("needle") and attack in ships:
        kinds = sorted({x["type"] for x in ships[attack]["design"]["systems"]})
        if kinds:
            out["system"] = rng.choice(kinds)
    if kind.endswith("multi"):
        out["mode"] = rng.choice(("anti_ship", "pd"))
    return out


def first_targets(view: View, rng: random.Random) -> Command:
    """The fighters step with each group at the first target it may attack (or none): the
    naive baseline's and the captain's choice."""
    choices = []
    for g in legal(view)["fighters"]:
        targets = attackable(view, g)
        choices.append(attack_choice(view, g["marker"], targets[0] if targets else None, rng))
    return {"type": "fighters", "choices": choices}


def _own_marker(view: View, marker: str) -> Mapping[str, Any]:
    found: Mapping[str, Any] = next(
        (m for m in view.get("markers", []) if m["id"] == marker and m["side"] == view["you"]), {}
    )
    return found
