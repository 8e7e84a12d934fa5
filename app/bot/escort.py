"""The captain's point defence and escorts (rules.md §9.5, §9.8).

The engine's default allocation fires only the PDS of each attacked ship. A class-1 beam may
fire as a PDS for its own ship too, and a group of its side within 12 mu of the attacked ship
may intercept; both are among the window's offered pairings, so the captain adds them. An ADFC
pairing (a PDS firing for another ship) is left out: it reveals the ship that fires.

Interceptor groups have no attack on ships (C5.0), so the captain keeps them with its own ships
rather than sending them after the enemy: at the ship most exposed to the enemy, where an attack
on it is within their interception reach.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.bot.moves import coasting
from app.bot.seat import Command, View, legal, own_ships
from app.rules.geometry import Vec

# a salvo's missiles are many and each kill counts little; a group's craft each strike a ship
_GROUP_FIRST = 1.0


def defend(view: View) -> Command:
    """The default allocation, then every offered class-1 beam or PDS of an attacked ship not
    yet allocated (at the attack on it that has the fewest defenders so far), then each own
    group that may intercept, at the attack it should kill most of (groups before salvos)."""
    offer = legal(view)["defend"]
    allocations = [dict(a) for a in offer["default"]]
    used = {(a["ship"], a["system"]) for a in allocations}
    attacks = _attacks(view)
    defenders: dict[str, int] = {}
    for a in allocations:
        defenders[a["against"]] = defenders.get(a["against"], 0) + 1
    by_system: dict[tuple[str, str], list[str]] = {}
    for p in offer["pairings"]:
        if "group" in p:
            continue
        if attacks.get(p["against"], {}).get("target") != p["ship"]:
            continue  # a PDS firing for a friend through an ADFC: it would be revealed
        by_system.setdefault((p["ship"], p["system"]), []).append(p["against"])
    for key, against in sorted(by_system.items()):
        if key in used:
            continue
        chosen = min(against, key=lambda m: (defenders.get(m, 0), m))
        allocations.append({"ship": key[0], "system": key[1], "against": chosen})
        defenders[chosen] = defenders.get(chosen, 0) + 1
        used.add(key)
    allocations.extend(_interceptions(offer["pairings"], attacks))
    return {"type": "defend", "window": offer["window"], "allocations": allocations}


def _interceptions(
    pairings: Sequence[Mapping[str, Any]], attacks: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, str]]:
    best: dict[str, tuple[float, str]] = {}
    for p in pairings:
        if "group" not in p:
            continue
        worth = float(p.get("odds") or 0.0)
        if attacks.get(p["against"], {}).get("kind") == "fighters":
            worth += _GROUP_FIRST
        key = (worth, p["against"])
        if p["group"] not in best or key > best[p["group"]]:
            best[p["group"]] = key
    return [{"group": g, "against": best[g][1]} for g in sorted(best)]


def _attacks(view: View) -> dict[str, Mapping[str, Any]]:
    """The open window's attacks by shown id: each with its ``kind`` and ``target`` ship."""
    window = view["phase"].get("defence") or {}
    return {str(a["marker"]): a for a in window.get("attacks") or []}


def guarded(view: View, threats: Sequence[Vec]) -> Vec | None:
    """Where interceptors should be: by the own ship in play nearest a threat (where it would
    be half a turn on), or None when there is no ship or no threat to guard against."""
    ships = [s for s in own_ships(view) if s["status"] == "active" and s.get("position")]
    if not ships or not threats:
        return None

    def exposure(s: Mapping[str, Any]) -> float:
        here = Vec.from_dict(s["position"])
        return min((t - here).length() for t in threats)

    chosen = min(ships, key=lambda s: (exposure(s), s["id"]))
    here = Vec.from_dict(chosen["position"])
    return here + (coasting(view, chosen) - here) * 0.5
