"""Damage: hull rows, threshold checks, core systems (C8.1) and damage control (RULES §8).

These functions decide (they roll through a ``Roller``) and return event payloads; ``evolve``
applies the payloads without rolling again.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from app.rules.designs import Design
from app.rules.dice import Roller
from app.rules.state import GameState, ShipState, SystemState, SystemStatus
from app.rules.systems import EMP_MAX_HITS, EMP_VULNERABLE, STEALTH_LOST_AT, WEAPON_TYPES

CORE_GROUP = "core_systems"  # the three core systems roll as one system (C8.1)
CORE_IDS = ("core", "bridge", "life_support")
# core systems (C3.7 makes the command bridge one): no threshold roll of their own, and a
# needle beam may not name them (C1.6)
CORE_TYPES = frozenset({"power_core", "bridge", "life_support", "command_bridge"})
COMMAND_BRIDGE = "command_bridge"
# which bridge a bridge hit strikes when the ship has a working command bridge (C3.7's d2)
COMMAND_BRIDGE_ON = 4  # d6: 1-3 the bridge, 4-6 the command bridge
# the order in which a ship's EMP-vulnerable systems roll (C1.5's example: drive, FTL, screen,
# fire controls), each type in design order
EMP_ORDER = ("main_drive", "ftl", "screen", "fire_control", "adfc", "sensors", "ecm", "area_ecm")
assert frozenset(EMP_ORDER) == EMP_VULNERABLE, "EMP_ORDER must list every EMP-vulnerable type"
_DAMAGED = SystemStatus.DAMAGED  # read per system in every check
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


def stealth_level(design: Design, hull_lost: int) -> int:
    """Stealth left after hull damage (C8.2): level 1 is lost, level 2 drops to 1 and then is
    lost, once the rows of ``STEALTH_LOST_AT`` are finished. Never repaired."""
    if design.stealth <= 0:
        return 0
    done = rows_finished(design.hull, design.hull_rows, hull_lost)
    one_lost, two_to_one, two_lost = STEALTH_LOST_AT.get(design.hull_rows, STEALTH_LOST_AT[4])
    if design.stealth == 1:
        return 0 if done >= one_lost else 1
    if done >= two_lost:
        return 0
    return 1 if done >= two_to_one else 2


def threshold_number(row: int) -> int:
    """Row 1 finished checks on 6, row 2 on 5+, ... (C8.2: 6+, 5+, 4+, 3+, 2+)."""
    return 7 - row


def core_threshold_number(row: int) -> int:
    """The core systems fail only on one more than the row's number (RULES §8 as corrected,
    Fleet Book 1): 7+ at the first threshold (never), 6+ at the second, ..."""
    return threshold_number(row) + 1


def apply_hits(state: GameState, ship: ShipState, hits: int, hull_hits: int) -> dict[str, Any]:
    """One batch of damage: ordinary hits take armour first, ``hull_hits`` go past it."""
    design = state.design_of(ship)
    armour_left = design.armour - ship.armour_lost
    armour_lost = min(hits, armour_left)
    hull_left = design.hull - ship.hull_lost
    hull_lost = min(hull_left, hits - armour_lost + hull_hits)
    before = rows_finished(design.hull, design.hull_rows, ship.hull_lost)
    after = rows_finished(design.hull, design.hull_rows, ship.hull_lost + hull_lost)
    out: dict[str, Any] = {
        "ship": ship.id,
        "hits": hits,
        "hull_hits": hull_hits,
        "armour_lost": armour_lost,
        "hull_lost": hull_lost,
        "hull_lost_total": ship.hull_lost + hull_lost,
        "rows_finished": list(range(before + 1, after + 1)),
        "destroyed": ship.hull_lost + hull_lost >= design.hull,
    }
    if design.stealth:
        # stealth is public (the design is) and goes with hull rows (C8.2)
        out["stealth_before"] = stealth_level(design, ship.hull_lost)
        out["stealth"] = stealth_level(design, ship.hull_lost + hull_lost)
    return out


def _may_fail(s: SystemState) -> bool:
    """A working system, or a main drive hit once: a two-hit system (C8.1)."""
    return s.working or (s.type == "main_drive" and s.status == _DAMAGED)


def _drive_hit(status: str) -> SystemStatus:
    """The main drive's state after one more hit: the first halves it, the second destroys it."""
    return SystemStatus.DESTROYED if status == SystemStatus.DAMAGED else SystemStatus.DAMAGED


def threshold_candidates(ship: ShipState) -> list[str]:
    """Systems that still work roll; a half-damaged main drive rolls too; the core group once."""
    out = []
    for s in ship.systems:
        if s.id in CORE_IDS or s.type in CORE_TYPES:
            continue
        if _may_fail(s):
            out.append(s.id)
    out.append(CORE_GROUP)
    return out


def threshold_check(
    ship: ShipState, rows: list[int], roller: Roller
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One check for the last row finished, +1 per further row of the same batch (to every
    die, the core systems' too). Each result carries the number it ``needed``.

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
        modified = die + bonus
        needed = core_threshold_number(row) if system_id == CORE_GROUP else number
        fail = modified >= needed
        results.append(
            {
                "system": system_id,
                "die": die,
                "modified": modified,
                "needed": needed,
                "failed": fail,
            }
        )
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
        command = next((s for s in ship.systems_of(COMMAND_BRIDGE) if s.working), None)
        if system_id == "bridge" and command is not None:
            # two bridges: a d2 (a d6, 1-3 / 4-6) picks which is hit (C3.7)
            which = roller.d6()
            data["bridge_roll"] = which
            if which >= COMMAND_BRIDGE_ON:
                system_id = command.id
    system = ship.system(system_id)
    data["system"] = system_id
    data["type"] = system.type
    if system.type == COMMAND_BRIDGE:
        # knocked out for 1d6 turns; a 6 destroys it (C3.7); the ship stays in control
        duration = roller.d6()
        data["effect_roll"] = duration
        if duration == 6 or system.status == SystemStatus.DESTROYED:
            data["status"] = SystemStatus.DESTROYED
        else:
            data["status"] = SystemStatus.DAMAGED
            data["command_bridge_out"] = max(duration, ship.command_bridge_out)
    elif system.type == "main_drive":
        data["status"] = _drive_hit(system.status)
    elif system_id == "bridge":
        duration = roller.d6()
        data["effect_roll"] = duration
        if duration == 6 or system.status == SystemStatus.DESTROYED:  # a lost bridge stays lost
            data["status"] = SystemStatus.DESTROYED
            data["permanent"] = True
        else:
            data["status"] = SystemStatus.DAMAGED
            data["out_of_control"] = max(duration, ship.out_of_control)
    elif system_id == "life_support":
        turns = roller.d6()
        data["effect_roll"] = turns
        data["status"] = SystemStatus.DAMAGED
        current = ship.life_support_turns
        data["life_support_turns"] = turns if current is None else min(turns, current)
    else:
        lost = system.status == SystemStatus.DESTROYED
        data["status"] = SystemStatus.DESTROYED if lost else SystemStatus.DAMAGED
    data["rolls"] = roller.since(mark)
    return data


def needle_effect(
    ship: ShipState, system_id: str, sixes: int, heavy_pair: bool
) -> dict[str, Any] | None:
    """What needle 6s do to the named system (C1.6, C1.8), as a ``system_damaged`` payload.

    One 6 destroys a system beyond repair; against the main drive, a two-hit system (C1.8), it
    counts as one drive hit (ok -> damaged -> destroyed) that damage control can never repair
    (RULES §8: needle 6s are never repaired). Two 6s of a heavy needle destroy any system
    outright. None when the system is already destroyed or no 6 was rolled.
    """
    system = ship.system(system_id)
    if sixes <= 0 or system.status == SystemStatus.DESTROYED:
        return None
    data: dict[str, Any] = {"ship": ship.id, "cause": "needle", "system": system_id}
    data["type"] = system.type
    if system.type == "main_drive" and not heavy_pair:
        data["status"] = _drive_hit(system.status)
    else:
        data["status"] = SystemStatus.DESTROYED
    data["beyond_repair"] = True
    return data


def emp_effect(
    ship: ShipState, firer: str, hits: int, roller: Roller, cap: int = EMP_MAX_HITS
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """C1.5: each EMP-vulnerable system that still works rolls 1D6; at or below the hits (at most
    3 per firing ship and target in a turn: ``cap`` is what is left of them) it is damaged as if
    it failed a threshold check. Returns the ``emp`` payload and one ``system_damaged`` payload
    per system lost; nothing rolls when the cap is used up."""
    capped = max(0, min(hits, cap, EMP_MAX_HITS))
    mark = roller.mark()
    results = []
    lost: list[str] = []
    for kind in EMP_ORDER if capped else ():
        for s in ship.systems_of(kind):
            if not _may_fail(s):
                continue
            die = roller.d6()
            damaged = die <= capped
            results.append({"system": s.id, "type": s.type, "die": die, "damaged": damaged})
            if damaged:
                lost.append(s.id)
    payload = {
        "ship": ship.id,
        "by": firer,
        "hits": capped,
        "hits_scored": hits,
        "results": results,
        "rolls": roller.since(mark),
    }
    return payload, [system_hit(ship, s, "emp", roller) for s in lost]


def damage_control_parties(state: GameState, ship: ShipState) -> int:
    design = state.design_of(ship)
    return parties_for(design.mass, design.hull, design.hull - ship.hull_lost)


def parties_for(mass: int, hull: int, hull_left: int) -> int:
    """One party per 20 mass, scaled by the hull boxes left (rounded up): what a ship's own
    view tells is enough to count them."""
    full = math.ceil(mass / 20)
    # parties × hull left / hull total, rounded up, in integers
    return -(-full * hull_left // hull) if hull else 0


def repair_priority(state: GameState, ship: ShipState) -> list[str]:
    """Damaged systems in the published order: power core, bridge, life support, main drive,
    fire control, screens, weapons in design order, the rest in design order."""
    damaged = [s for s in ship.systems if s.status == _DAMAGED and not s.beyond_repair]
    if not damaged:  # most ships, most turns: nothing to sort
        return []
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
    return kind in WEAPON_TYPES


def damage_control(state: GameState, ship: ShipState, roller: Roller) -> dict[str, Any] | None:
    """Automatic end-of-turn repairs; None when the ship has nothing to repair or no parties.
    A hulk whose crew is still aboard keeps its parties (RULES §3)."""
    if not ship.crew_aboard:
        return None
    targets = repair_priority(state, ship)
    if not targets:
        return None
    parties = damage_control_parties(state, ship)
    if parties <= 0:
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


EXPLOSION_NEEDED = 5  # a critical core explodes on 5 or 6 (C8.1)


def explosion_needed(ship: ShipState) -> int:
    """5+ while crewed. Decision (C8.1): once the crew has abandoned ship nobody damps the core,
    so the number has dropped by one at the very first roll without them: 4+, then 3+, 2+ and
    1+ (it will go)."""
    if not ship.abandoned:
        return EXPLOSION_NEEDED
    return max(1, EXPLOSION_NEEDED - 1 - ship.explosion_rolls)


def core_roll(ship: ShipState, d6: Callable[[], int]) -> tuple[int, int, bool]:
    needed = explosion_needed(ship)
    die = d6()
    return die, needed, die >= needed
