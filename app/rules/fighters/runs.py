"""What a group's attack does once the defences have fired (RULES §9.5): an attack run on a ship
(``fighters_attack``) or a dogfight with an enemy group (``dogfight``). Both public, neither
names the group's mother ship (RULES §9.4); the damage of a run joins the window's one batch
per ship (``ordnance.strike``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rules.builder import Builder
from app.rules.capabilities import screen_level
from app.rules.fighters.attack import NEEDLE_RUN, attack_run, run_notation
from app.rules.fighters.combat_fold import exhausted
from app.rules.fighters.dogfight import fire_at
from app.rules.fighters.groups import group_type
from app.rules.fighters.intercept import find_marker
from app.rules.state import Attack, ShipState, SystemStatus


@dataclass(frozen=True)
class RunHit:
    """A run's damage on its target, and the named system its needle 6s go to."""

    target: str
    armour: int
    hull: int
    needle: tuple[str, int] | None = None  # (system id, sixes)


def _named(target: ShipState, system_type: str | None) -> str | None:
    """The first system of the named type still standing (as a needle missile's)."""
    for s in target.systems:
        if s.type == system_type and s.status != SystemStatus.DESTROYED:
            return s.id
    return None


def attack_run_strike(b: Builder, attack: Attack, killed: int) -> RunHit | None:
    """The run of a group at its ship with what the defences left; None if it is gone."""
    m = find_marker(b.state, attack.marker)
    if m is None or attack.target is None or not b.state.has_ship(attack.target):
        return None
    target = b.state.ship(attack.target)
    killed = min(killed, m.strength)
    fighters = m.strength - killed
    mark = b.roller.mark()
    screen = screen_level(b.state, target)
    result = attack_run(group_type(m), fighters, screen, b.roller.d6, attack.mode)
    data: dict[str, Any] = {
        "marker": m.id,
        "side": m.side,
        "kind": m.kind,
        "target": target.id,
        "group": m.group,
        "killed": killed,
        **result.to_dict(),
    }
    needle = None
    if result.how == NEEDLE_RUN:
        data["system"] = attack.system
        system = _named(target, attack.system)
        if system is not None:
            data["needle_system"] = system
            needle = (system, result.sixes) if result.sixes else None
    if fighters == 0:
        data["destroyed"] = True
    elif exhausted(m, paid=True):
        data["exhausted"] = True
    data["rolls"] = b.roller.since(mark)
    b.emit("fighters_attack", data)
    return RunHit(target.id, result.armour_damage, result.hull_damage, needle)


def dogfight_strike(b: Builder, attack: Attack, killed: int) -> None:
    """A group at an enemy group: both roll their PD notation at once (a group with no CEF
    left cannot fight back, F4); each hit kills one."""
    m = find_marker(b.state, attack.marker)
    other = find_marker(b.state, attack.target or "")
    if m is None or other is None:
        return
    killed = min(killed, m.strength)
    fighters = m.strength - killed
    back = other.strength if fighters and (other.cef or 0) > 0 else 0
    mine, theirs = group_type(m), group_type(other)
    mark = b.roller.mark()
    notation = run_notation(mine, False, attack.mode)
    hit = fire_at(notation, fighters, theirs.drm, other.strength, b.roller.d6)
    hit_back = fire_at(theirs.pd, back, mine.drm, fighters, b.roller.d6)
    gone = []
    if fighters - hit_back.kills <= 0 or exhausted(m, fighters > 0):
        gone.append(m.id)
    if other.strength - hit.kills <= 0 or exhausted(other, back > 0):
        gone.append(other.id)
    data: dict[str, Any] = {
        "marker": m.id,
        "side": m.side,
        "kind": m.kind,
        "group": m.group,
        "killed": killed,
        "fighters": fighters,
        "target": other.id,
        "target_kind": other.kind,
        "target_group": other.group,
        "target_fighters": back,
        "attacker": _dice(hit.to_dict()),
        "defender": _dice(hit_back.to_dict()),
        "gone": sorted(gone),
        "rolls": b.roller.since(mark),
    }
    b.emit("dogfight", data)


def _dice(fire: dict[str, Any]) -> dict[str, Any]:
    keys = ("notation", "fighters", "drm", "dice", "rolled", "hits", "kills")
    return {k: fire[k] for k in keys}
