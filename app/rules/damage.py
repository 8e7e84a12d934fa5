"""Damage: hull rows, threshold checks, core systems (C8.1) and damage control (RULES §8).

These functions decide (they roll through a ``Roller``) and return event payloads; ``evolve``
applies the payloads without rolling again.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from app.rules.dice import Roller
from app.rules.state import GameState, ShipState

CORE_GROUP = "core_systems"  # the three core systems roll as one system (C8.1)
CORE_IDS = ("core", "bridge", "life_support")
MAX_PARTIES_PER_SYSTEM = 3
REPAIR_NEEDED = {1: 6, 2: 5, 3: 4}  # parties on one system -> repair roll needed


def hull_rows(total: int, rows: int) -> list[int]:
    """Boxes per row, as equal as possible, the extra boxes in the first rows to be lost."""
    base, extra = divmod(total, rows)
    return [base + (1 if i < extra else 0) for i in range(rows)]


def rows_finished(total: int, rows: int, lost: int) -> int:
    done, cumulative = 0, 0
    for boxes in hull_rows(total, rows):
        cumulative += boxes
        if lost >= cumulative:
            done += 1
    return done


def row_view(total: int, rows: int, lost: int) -> list[list[int]]:
    """[[boxes, lost], ...] per row for the record sheet."""
    out = []
    left = lost
    for boxes in hull_rows(total, rows):
        taken = min(boxes, left)
        left -= taken
        out.append([boxes, taken])
    return out


def threshold_number(row: int) -> int:
    """Row 1 finished checks on 6, row 2 on 5+, ... (C8.2: 6+, 5+, 4+, 3+, 2+)."""
    return 7 - row


def apply_hits(state: GameState, ship: ShipState, hits: int, hull_hits: int) -> dict[str, Any]:
    """One batch of damage: ordinary hits take armour first, ``hull_hits`` go past it."""
    design = state.design_of(ship)
    armour_left = design.armour - ship.armour_lost
    armour_lost = min(hits, armour_left)
    hull_left = design.hull - ship.hull_lost
    hull_lost = min(hull_left, hits - armour_lost + hull_hits)
    before = rows_finished(design.hull, design.hull_rows, ship.hull_lost)
    after = rows_finished(design.hull, design.hull_rows, ship.hull_lost + hull_lost)
    return {
        "ship": ship.id,
        "hits": hits,
        "hull_hits": hull_hits,
        "armour_lost": armour_lost,
        "hull_lost": hull_lost,
        "hull_lost_total": ship.hull_lost + hull_lost,
        "rows_finished": list(range(before + 1, after + 1)),
        "destroyed": ship.hull_lost + hull_lost >= design.hull,
    }


def threshold_candidates(ship: ShipState) -> list[str]:
    """Systems that still work roll; a half-damaged main drive rolls too; the core group once."""
    out = []
    for s in ship.systems:
        if s.id in CORE_IDS:
            continue
        if s.status == "ok" or (s.type == "main_drive" and s.status == "damaged"):
            out.append(s.id)
    out.append(CORE_GROUP)
    return out


def threshold_check(
    ship: ShipState, rows: list[int], roller: Roller
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One check for the last row finished, +1 per further row of the same batch.

    Returns the ``threshold_check`` payload and one ``system_damaged`` payload per failure.
    """
    row = rows[-1]
    number = threshold_number(row)
    bonus = len(rows) - 1
    mark = roller.mark()
    results = []
    failed: list[str] = []
    for system_id in threshold_candidates(ship):
        die = roller.d6()
        # core systems add +1 to their die (RULES §8)
        modified = die + bonus + (1 if system_id == CORE_GROUP else 0)
        fail = modified >= number
        results.append({"system": system_id, "die": die, "modified": modified, "failed": fail})
        if fail:
            failed.append(system_id)
    check = {
        "ship": ship.id,
        "row": row,
        "number": number,
        "bonus": bonus,
        "results": results,
        "rolls": roller.since(mark),
    }
    return check, [system_hit(ship, s, "threshold", roller) for s in failed]


def system_hit(ship: ShipState, system_id: str, cause: str, roller: Roller) -> dict[str, Any]:
    """The effect of a failed check (or an EMP or needle hit later) on one system."""
    mark = roller.mark()
    data: dict[str, Any] = {"ship": ship.id, "cause": cause}
    if system_id == CORE_GROUP:
        pick = roller.d6()
        data["core_roll"] = pick
        system_id = "core" if pick == 1 else ("life_support" if pick == 6 else "bridge")
    system = ship.system(system_id)
    data["system"] = system_id
    data["type"] = system.type
    if system.type == "main_drive":
        data["status"] = "destroyed" if system.status == "damaged" else "damaged"
    elif system_id == "bridge":
        duration = roller.d6()
        data["effect_roll"] = duration
        if duration == 6 or system.status == "destroyed":  # a lost bridge stays lost
            data["status"] = "destroyed"
            data["permanent"] = True
        else:
            data["status"] = "damaged"
            data["out_of_control"] = max(duration, ship.out_of_control)
    elif system_id == "life_support":
        turns = roller.d6()
        data["effect_roll"] = turns
        data["status"] = "damaged"
        current = ship.life_support_turns
        data["life_support_turns"] = turns if current is None else min(turns, current)
    else:
        data["status"] = "destroyed" if system.status == "destroyed" else "damaged"
    data["rolls"] = roller.since(mark)
    return data


def damage_control_parties(state: GameState, ship: ShipState) -> int:
    design = state.design_of(ship)
    full = math.ceil(design.mass / 20)
    hull_left = design.hull - ship.hull_lost
    # parties × hull left / hull total, rounded up, in integers
    return -(-full * hull_left // design.hull) if design.hull else 0


def repair_priority(state: GameState, ship: ShipState) -> list[str]:
    """Damaged systems in the published order: power core, bridge, life support, main drive,
    fire control, screens, weapons in design order, the rest in design order."""
    damaged = [s for s in ship.systems if s.status == "damaged"]
    design_order = {spec.id: i for i, spec in enumerate(state.design_of(ship).all_systems())}

    def key(s: Any) -> tuple[int, int]:
        fixed = {"core": 0, "bridge": 1, "life_support": 2}
        if s.id in fixed:
            return fixed[s.id], 0
        rank = {"main_drive": 3, "fire_control": 4, "screen": 5}.get(s.type)
        if rank is None:
            rank = 6 if _is_weapon_type(s.type) else 7
        return rank, design_order.get(s.id, 0)

    return [s.id for s in sorted(damaged, key=key)]


def _is_weapon_type(kind: str) -> bool:
    from app.rules.weapons import WEAPON_TYPES

    return kind in WEAPON_TYPES


def damage_control(state: GameState, ship: ShipState, roller: Roller) -> dict[str, Any] | None:
    """Automatic end-of-turn repairs; None when the ship has nothing to repair or no parties."""
    if ship.status != "active":
        return None
    targets = repair_priority(state, ship)
    parties = damage_control_parties(state, ship)
    if not targets or parties <= 0:
        return None
    mark = roller.mark()
    attempts = []
    left = parties
    for system_id in targets:
        if left <= 0:
            break
        n = min(MAX_PARTIES_PER_SYSTEM, left)
        left -= n
        die = roller.d6()
        needed = REPAIR_NEEDED[n]
        attempts.append(
            {
                "system": system_id,
                "parties": n,
                "die": die,
                "needed": needed,
                "repaired": die >= needed,
            }
        )
    return {"ship": ship.id, "parties": parties, "attempts": attempts, "rolls": roller.since(mark)}


def explosion_needed(ship: ShipState) -> int:
    """5+ while crewed; after abandoning, one less for every roll already made (it WILL go)."""
    return 5 - ship.explosion_rolls if ship.abandoned else 5


def core_roll(ship: ShipState, d6: Callable[[], int]) -> tuple[int, int, bool]:
    needed = explosion_needed(ship)
    die = d6()
    return die, needed, die >= needed
