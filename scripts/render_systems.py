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
    out += _ordnance_section()
    out += _bay_section()
    out += [
        "",
        "## Defences, electronics and hull systems (C3, C6)",
        "",
        "| system | § | mass | cost | at most | in battle | project decisions |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in T.SYSTEMS.values():
        if r.is_weapon or r.family in ("ordnance", "bay"):
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


def _fires_text(r: T.SystemType) -> str:
    if r.rack:
        return "its load, one of " + ", ".join(f"`{n}`" for n in r.fires)
    if r.fed:
        return "from its magazine: " + ", ".join(f"`{n}`" for n in r.fires)
    if r.stores:
        return "holds loads for its launchers"
    return ", ".join(f"`{n}`" for n in r.fires)


def _ordnance_section() -> list[str]:
    """The launchers, racks and magazines (C2.2–C2.5), then their loads."""
    out = [
        "",
        "## Ordnance: missiles and torpedoes (C2.2–C2.5)",
        "",
        "These launch markers that act at the mother ship's next activation (rules §9); "
        "they have no range bands.",
        "",
        "| system | § | mass | cost | arcs | launches | in battle | project decisions |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in T.SYSTEMS.values():
        if r.family != "ordnance":
            continue
        once = " Once per game, then spent." if r.once_per_game else ""
        out.append(
            f"| {r.label} (`{r.type}`) | {r.section} | {r.mass_rule} | {r.cost_rule} "
            f"| {r.arcs_rule} | {_fires_text(r)} | {r.summary}.{once} | {_decided(r)} |"
        )
    out += [
        "",
        "| load | kind shown at launch | mass in a magazine | points | reach (mu) "
        "| heavy-missile endurance |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for load, mass in T.LOAD_MASS.items():
        kind = T.launch_kind(load)
        endurance = T.HEAVY_MISSILE_TYPES.get(load)
        out.append(
            f"| `{load}` | {kind} | {mass} | {3 * mass} | {T.REACH[kind]:g} "
            f"| {endurance if endurance is not None else '—'} |"
        )
    out += [
        f"| (AMT launcher) | {T.AMT} | — | — | {T.REACH[T.AMT]:g} | — |",
        "",
        "- *decision:* reach is measured from the launcher's true position to the aim point, "
        "which must be on the table and inside the launcher's arc; an anti-fighter salvo "
        f"reaches {T.REACH['af_salvo']:g} mu in its arc (6 mu in any arc) and is launched only "
        "in a defence window.",
    ]
    return out


def _bay_section() -> list[str]:
    """The bays (C4.3, C5) and the C5.0 fighter and drone tables."""
    out = [
        "",
        "## Fighter and drone bays (C4.3, C5)",
        "",
        "A bay launches its group in its ship's step 2; the group is then a marker in flight.",
        "",
        "| system | § | mass | cost | holds | project decisions |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in T.SYSTEMS.values():
        if r.family == "bay":
            out.append(
                f"| {r.label} (`{r.type}`) | {r.section} | {r.mass_rule} | {r.cost_rule} "
                f"| {r.summary} | {_decided(r)} |"
            )
    for title, types in (("Fighters", T.FIGHTER_TYPES), ("Drones", T.DRONE_TYPES)):
        out += [
            "",
            f"| {title} (C5.0) | points per fighter (group of {T.GROUP_SIZE}) | CEF | primary "
            "move | secondary move | anti-ship | PD | DRM to fire at them | notes |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for g in types.values():
            fast = " Fast." if g.fast else ""
            out.append(
                f"| {g.label} (`{g.name}`) | {g.points} ({g.group_points}) | {g.cef} "
                f"| {g.primary_move} mu | {g.secondary_move} mu | {g.anti_ship or 'n/a'} "
                f"| {g.pd or 'n/a'} | {g.drm:+d} | {(g.note or '—') + fast} |"
            )
    out += ["", "| stealth | extra points per fighter | DRM added | |", "| --- | --- | --- | --- |"]
    for st in T.STEALTH_GRADES.values():
        out.append(f"| {st.label} (`{st.name}_<type>`) | +{st.points} | {st.drm:+d} | {st.note} |")
    out += [
        "",
        "- A drone's CEF is 3 less than the fighter of its type and fire at drones has +1 DRM "
        "(C5.2): the DRMs above are net. There are no boarding-pod drones.",
    ]
    return out


def _decided(r: T.SystemType) -> str:
    return "<br>".join(f"*decision:* {d}" for d in r.decisions) or "—"


if __name__ == "__main__":
    TARGET.write_text(render_markdown(), encoding="utf-8")
    print(f"wrote {TARGET}")
