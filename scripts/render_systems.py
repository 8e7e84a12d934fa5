"""Write docs/systems.md from the systems table (app/rules/systems).

``render_markdown()`` is the document; a test keeps docs/systems.md equal to it.
Usage: .venv/bin/python scripts/render_systems.py
"""

from __future__ import annotations

from pathlib import Path

from app.rules import systems as T

TARGET = Path(__file__).resolve().parent.parent / "docs" / "systems.md"


def _profile_text(r: T.SystemType) -> list[str]:
    """One line per class (or mode) of the firing profile: ``0–12: 3BD*; 12–24: 2BD*; …``."""
    variants: list[tuple[str, int | None, str | None]] = []
    if r.modes:
        variants = [(f"{m}: ", None, m) for m in r.modes]
    elif r.classes:
        variants = [(f"class {c}: ", c, None) for c in r.classes]
    else:
        variants = [("", None, None)]
    lines = []
    for prefix, cls, mode in variants:
        start = 0.0
        parts = []
        for band in r.bands(cls, mode):
            parts.append(f"{start:g}–{band.to:g} {band.describe()}")
            start = band.to
        lines.append(prefix + "; ".join(parts))
    return lines


def render_markdown() -> str:
    """``docs/systems.md``: the table for readers (a test keeps the file equal to this)."""
    out = [
        "# The systems table",
        "",
        "Generated from `app/rules/systems/` by `scripts/render_systems.py`; do not edit by "
        "hand (a test fails when this file and the table differ). Ranges are in mu; "
        "*decision* marks a value the compendium does not give, chosen by the project.",
        "",
        "## Weapons (compendium C1; the direct-fire submunition rack of C2.1)",
        "",
        "| system | § | classes | mass | cost | arcs | range bands and dice | damage | screens "
        "| project decisions |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in T.SYSTEMS.values():
        if not r.is_weapon:
            continue
        classes = ", ".join(str(c) for c in r.classes) or "—"
        if r.modes:
            classes = "modes " + " / ".join(r.modes)
        weak_rule = "; weak arcs (C1.3): half a full extra arc's mass each, rounded up in all"
        arcs = r.arcs_rule + (weak_rule if r.weak_arcs else "")
        bands = "<br>".join(_profile_text(r))
        target = " Names a target system." if r.targets_system else ""
        target += " Fires once per game, then is spent." if r.once_per_game else ""
        screens = "reduce hits" if r.screens else "ignored"
        out.append(
            f"| {r.label} (`{r.type}`) | {r.section} | {classes} | {r.mass_rule} | {r.cost_rule} "
            f"| {arcs} | {bands} | {T.DAMAGE_PATHS[r.damage or T.STANDARD]}.{target} | {screens} "
            f"| {_decided(r)} |"
        )
    out += [
        "",
        "## Defences, electronics and hull systems (C3, C6)",
        "",
        "| system | § | mass | cost | at most | in battle | project decisions |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in T.SYSTEMS.values():
        if r.is_weapon:
            continue
        effect = r.summary + (f" — *not yet:* {r.pending}" if r.pending else "")
        most = str(r.max_per_ship) if r.max_per_ship else "any"
        out.append(
            f"| {r.label} (`{r.type}`) | {r.section} | {r.mass_rule} | {r.cost_rule} | {most} "
            f"| {effect} | {_decided(r)} |"
        )
    out += [
        "",
        "## Hull options (C6.0, C8.2)",
        "",
        "- Hull integrity: 10–50% of the design's mass (TMF), 1 mass per box.",
        "- Armour: 1 mass and 2 points per box; ordinary hits take armour first.",
        "",
        "| hull rows | points per hull box | threshold checks | core systems fail on |",
        "| --- | --- | --- | --- |",
    ]
    for rows, (num, den) in T.HULL_ROW_COST.items():
        cost = f"{num / den:g}"
        checks = ", ".join(f"{n}+" for n in T.threshold_numbers(rows))
        core = ", ".join(f"{n}+" for n in T.core_threshold_numbers(rows))
        out.append(f"| {rows} | {cost} (halves up) | {checks} | {core} |")
    out += [
        "",
        "- The core systems (power core, bridge, life support) roll as one system and fail on "
        "one more than the row's number; the +1 per further row finished in the same batch "
        "is added to every die, theirs too.",
        "",
        f"- Stealth hull level 1–{T.MAX_STEALTH}: +{T.STEALTH_COST_PER_BOX} points per hull or "
        "armour box per level, no mass. Weapons aimed at the ship use range bands × 5/6 "
        "(level 1) or × 2/3 (level 2); the ship's own fire reaches at most "
        f"{T.PASSIVE_FIRE_CONTROL_RANGE:g} mu (passive fire control). Stealth does not change "
        "ping detection.",
        "",
        "| hull rows | level 1 lost after row | level 2 drops to 1 after row "
        "| level 2 lost after row |",
        "| --- | --- | --- | --- |",
    ]
    for rows, (one, two_down, two_lost) in T.STEALTH_LOST_AT.items():
        out.append(f"| {rows} | {one} | {two_down} | {two_lost} |")
    out += [
        "",
        "- EMP-vulnerable systems ([rules.md](rules.md) §8): "
        + ", ".join(f"`{t}`" for t in sorted(T.EMP_VULNERABLE))
        + f"; at most {T.EMP_MAX_HITS} EMP hits per firing ship and target.",
    ]
    return "\n".join(out) + "\n"


def _decided(r: T.SystemType) -> str:
    return "<br>".join(f"*decision:* {d}" for d in r.decisions) or "—"


if __name__ == "__main__":
    TARGET.write_text(render_markdown(), encoding="utf-8")
    print(f"wrote {TARGET}")
