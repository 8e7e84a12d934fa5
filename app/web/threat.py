"""A live enemy's fire arcs, from what the seat's view shows of it: its design's public copy
(weapons, their arcs and classes), its systems' condition, its weapons' modes, its stealth, and
where it stands now. Nothing else is read; an enemy that is not live has no arcs drawn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.designs import SystemSpec
from app.rules.errors import RulesError
from app.rules.weapons import bands, is_weapon
from app.web.geometry_svg import arc_edge, wedge


def _weapons(ship: Mapping[str, Any]) -> list[tuple[SystemSpec, list[dict[str, Any]]]]:
    """The enemy's working direct-fire weapons with their bands as the rules give them."""
    status = {s["id"]: s["status"] for s in ship.get("systems", ())}
    modes = ship.get("modes", {})
    stealth = int((ship.get("stealth") or {}).get("design") or 0)
    out = []
    for raw in ship["design"].get("systems", ()):
        try:
            spec = SystemSpec.from_dict(raw)
        except (RulesError, ValueError, KeyError, TypeError):
            continue  # a copy the rules cannot read draws nothing rather than failing the page
        if not is_weapon(spec) or status.get(spec.id) == "destroyed":
            continue
        mode = (modes.get(spec.id) or {}).get("mode")
        found = [b.to_dict() for b in bands(spec, mode=mode, firer_stealth=stealth)]
        if found:
            out.append((spec, found))
    return out


def enemy_arcs(ship: Mapping[str, Any], cx: float, cy: float) -> list[dict[str, Any]]:
    """One wedge per arc any of its weapons covers, out to the longest reach through it, with
    an edge at every band limit of the weapons there and their dice in the wedge's title."""
    by_arc: dict[str, list[tuple[SystemSpec, list[dict[str, Any]]]]] = {}
    for spec, found in _weapons(ship):
        for arc in spec.arcs:
            by_arc.setdefault(arc, []).append((spec, found))
    heading = int(ship.get("heading") or 0)
    out = []
    for arc, weapons in by_arc.items():
        reach = max(b["to"] for _, found in weapons for b in found)
        edges = sorted({float(b["to"]) for _, found in weapons for b in found} - {float(reach)})
        words = "; ".join(
            f"{spec.id}: " + ", ".join(f"≤{b['to']:g} {b['dice']}" for b in found)
            for spec, found in weapons
        )
        out.append(
            {
                "arc": arc,
                "reach": float(reach),
                "path": wedge(cx, cy, heading, arc, float(reach)),
                "bands": [arc_edge(cx, cy, heading, arc, r) for r in edges],
                "title": f"{ship['name']} {arc} arc, to {float(reach):g} mu — {words}",
            }
        )
    return out
