"""A fire declaration from a fire window's options (``phase.legal.fire_options``).

The engine lists each weapon × target it may fire at and each launcher that may launch; what it
leaves to the seat is the choice, within two limits the bot keeps itself: a weapon fires once,
and a ship engages one target or aim point per working fire control this turn (decision 7). The
view shows a ship's locked targets but not its aim points, so a launcher the ship fired this
turn is counted as one aim point taken: never too few, so never a refused declaration.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.bot.seat import View, legal, own_ships, ship
from app.rules.damage import CORE_TYPES
from app.rules.geometry import Vec
from app.rules.systems import LAUNCHER_TYPES, SYSTEMS

AF_SALVO = "af_salvo"  # launched only in a defence window, never in a fire declaration
# what a needle names when its target's design shows nothing better (every design has one)
_NEEDLE_FALLBACK = "fire_control"


@dataclass
class _Controls:
    """One ship's fire controls in this declaration: what is engaged and what is left free."""

    free: int
    engaged: set[str] = field(default_factory=set)  # targets (old locks and new ones)
    aimed: set[tuple[float, float]] = field(default_factory=set)  # new aim points
    # more locks and aim points than working fire controls (some lost since): no more fire
    # this turn (RULES §7), though the window may still offer a lock or a shared aim point
    blocked: bool = False

    def takes_target(self, target: str) -> bool:
        if self.blocked:
            return False
        if target in self.engaged:
            return True
        if self.free <= 0:
            return False
        self.free -= 1
        self.engaged.add(target)
        return True

    def takes_aim(self, point: tuple[float, float], shared: bool) -> bool:
        if self.blocked:
            return False
        if shared or point in self.aimed:
            return True
        if self.free <= 0:
            return False
        self.free -= 1
        self.aimed.add(point)
        return True


def _controls(view: View) -> dict[str, _Controls]:
    out = {}
    for s in own_ships(view):
        launchers = {x["id"] for x in s["design"]["systems"] if x["type"] in LAUNCHER_TYPES}
        aims_taken = len(launchers & set(s["fired"]))  # at most one aim point per launch
        free = int(s.get("fire_controls", 0)) - len(s.get("locks", ())) - aims_taken
        out[s["id"]] = _Controls(max(free, 0), set(s.get("locks", ())), blocked=free < 0)
    return out


def options(view: View) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """The window's (shots at targets, launches), in the engine's order."""
    everything = legal(view).get("fire_options", [])
    return [o for o in everything if "target" in o], [o for o in everything if "launch" in o]


def declaration(
    view: View,
    shots: Sequence[Mapping[str, Any]],
    launches: Sequence[Mapping[str, Any]],
    rng: random.Random,
    aim_of: Callable[[Mapping[str, Any]], Mapping[str, Any] | None],
) -> dict[str, Any]:
    """The ``fire`` command: the given options in their order, each kept while the weapon is
    unused and its ship has a fire control for it. ``aim_of(launch option)`` picks one of its
    ``aim_at`` entries (or none: that launcher holds)."""
    controls = _controls(view)
    used: set[tuple[str, str]] = set()
    out: list[dict[str, Any]] = []
    for o in shots:
        key = (o["ship"], o["weapon"])
        if key in used or not controls[o["ship"]].takes_target(o["target"]):
            continue
        used.add(key)
        shot = {"ship": o["ship"], "weapon": o["weapon"], "target": o["target"]}
        if o.get("systems"):  # a needle beam names one of the target's systems it lists
            shot["system"] = rng.choice(sorted(o["systems"]))
        out.append(shot)
    taken: dict[tuple[str, str], int] = {}
    for o in launches:
        launch = _launch(view, o, controls[o["ship"]], taken, rng, aim_of)
        if launch is not None:
            out.append(launch)
    return {"type": "fire", "window": legal(view)["window"], "shots": out}


def _launch(
    view: View,
    o: Mapping[str, Any],
    controls: _Controls,
    taken: dict[tuple[str, str], int],
    rng: random.Random,
    aim_of: Callable[[Mapping[str, Any]], Mapping[str, Any] | None],
) -> dict[str, Any] | None:
    """One launch: an aim point the option offers, a load that reaches it and is left (loads
    shared by two launchers of a magazine are counted per ship and load: never too many)."""
    if o.get("fire_control") == "none":
        return None
    pick = aim_of(o)
    if pick is None:
        return None
    aim = Vec.from_dict(pick["aim"])
    here = Vec.from_dict(ship(view, o["ship"])["position"])
    far = (aim - here).length()
    loads = [
        x
        for x in o["loads"]
        if x["load"] != AF_SALVO
        and float(x["reach"]) + 1e-9 >= far
        and taken.get((o["ship"], x["load"]), 0) < int(x["left"])
    ]
    if not loads or not controls.takes_aim((aim.x, aim.y), bool(pick.get("shared"))):
        return None
    load = rng.choice(loads)["load"]
    taken[(o["ship"], load)] = taken.get((o["ship"], load), 0) + 1
    out: dict[str, Any] = {"ship": o["ship"], "weapon": o["weapon"], "aim": aim.to_dict()}
    out["load"] = load
    if load == "needle":
        out["system"] = _needle_system(view, pick.get("target"), rng)
    return out


def _needle_system(view: View, target: str | None, rng: random.Random) -> str:
    """A system type the target's (public) design shows, never a core system."""
    if target is None:
        return _NEEDLE_FALLBACK
    kinds = sorted(
        {
            x["type"]
            for x in ship(view, target)["design"]["systems"]
            if x["type"] in SYSTEMS and x["type"] not in CORE_TYPES
        }
    )
    return rng.choice(kinds) if kinds else _NEEDLE_FALLBACK
