"""The captain's core choice (rules.md §8): a critical power core explodes on 5+ at the start of
every later turn unless damage control repairs it first, at the end of each turn. An explosion
gives the enemy the ship's full points, a dumped core half of them (§11), so the captain dumps
when the core would more likely explode before the game ends than not, and a hulk's at once
(it gives half either way, and an explosion would make it whole). It never abandons: that is
out of play too, and the core keeps rolling."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.bot.seat import Command, View, core_critical, own_ships
from app.rules.damage import EXPLOSION_NEEDED, REPAIR_NEEDED, parties_for

EXPLODES = (7 - EXPLOSION_NEEDED) / 6  # a crewed core's roll
# the chance of a repair by 0, 1, 2 or 3 parties on the core (one die each time)
REPAIR = (0.0, *((7 - REPAIR_NEEDED[n]) / 6 for n in (1, 2, 3)))
DUMP_ABOVE = 0.5  # the chance of an explosion above which half the points for sure is better


def parties(ship: Mapping[str, Any]) -> int:
    """Its damage-control parties, as the engine counts them, from the seat's view."""
    hull = ship["hull"]
    total, lost = int(hull["total"]), int(hull["lost"])
    return parties_for(int(ship["design"]["mass"]), total, max(total - lost, 0))


def explosion_chance(ship: Mapping[str, Any], rolls: int) -> float:
    """The chance the core explodes in the next ``rolls`` turn starts, damage control trying
    first at the end of each turn (the core comes first; three parties at most on it)."""
    repair = REPAIR[min(parties(ship), 3)]
    intact, chance = 1.0, 0.0
    for _ in range(rolls):
        intact *= 1.0 - repair
        chance += intact * EXPLODES
        intact *= 1.0 - EXPLODES
    return chance


def core_choice(view: View) -> Command | None:
    """``core_action`` dump for the first own ship whose critical core should be dumped."""
    rolls = max(0, int(view["turn_limit"]) - int(view["turn"]))
    for s in own_ships(view):
        if not core_critical(s) or s["status"] not in ("active", "out_of_play"):
            continue
        chance = explosion_chance(s, rolls)
        hulk = s["status"] == "out_of_play"
        if (hulk and chance > 0.0) or chance > DUMP_ABOVE:
            return {"type": "core_action", "ship": s["id"], "action": "dump"}
    return None
