"""What a fire window offers a side (``phase.legal.fire_options``, API.md): each weapon that may
fire at each live target it reaches, and each launcher that may launch (RULES §7, §9.2)."""

from __future__ import annotations

from typing import Any

from app.rules.capabilities import firable_weapons, fire_controls
from app.rules.fighters.fire_at import options as group_options
from app.rules.fire import aim, live_enemies, may_fire_now, needle_targets
from app.rules.ordnance.launch import launch_options
from app.rules.state import GameState
from app.rules.weapons import targets_system


def fire_options(state: GameState, side: str) -> list[dict[str, Any]]:
    """For each of the side's ships allowed to fire: each weapon that may fire × live target it
    reaches, with what it would roll there (and, for needle beams, the systems it may name)."""
    out: list[dict[str, Any]] = []
    for ship in state.ships_of(side):
        if not may_fire_now(state, ship, state.phase.pinger):
            continue
        controls = fire_controls(ship)
        free = len(ship.locks) + len(ship.aim_locks) < controls
        for weapon in firable_weapons(state, ship):
            for target in live_enemies(state, side):
                if not free and target.id not in ship.locks:
                    continue
                hit = aim(state, ship, weapon, target)
                if hit is None:
                    continue
                option: dict[str, Any] = {
                    "ship": ship.id,
                    "weapon": weapon.id,
                    "target": target.id,
                    **hit.describe(),
                }
                if targets_system(weapon):
                    option["systems"] = needle_targets(state, target)
                out.append(option)
            out += group_options(state, ship, weapon, free)  # live enemy groups (F12)
        out += launch_options(state, ship, len(ship.locks) + len(ship.aim_locks) < controls)
    return out
