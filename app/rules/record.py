"""Checking a finished game's dice (RULES §12): anyone holding the record and the seed can
recompute every roll. Each event that rolled lists its roll numbers under ``"rolls"``; this
module knows where each event type keeps the values, in the order they were drawn.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from app.rules.dice import SeededDice


def dice_values(event: Mapping[str, Any]) -> list[int]:
    """The dice an unredacted event rolled, in draw order (parallel to its ``rolls``)."""
    kind, d = event["type"], event["data"]
    if kind == "turn_started":
        return [die for pair in d.get("rolloff", []) for die in pair]
    if kind == "core_roll":
        return [d["die"]]
    if kind == "ping":
        return [v for item in d["detections"] for v in (*item["ping_dice"], *item["ecm_drawn"])]
    if kind == "fire_resolved":
        # per shot: its to-hit dice, then its damage dice
        return [
            v
            for shot in d["shots"]
            if not shot.get("cancelled")
            for v in (*shot["rolled"], *shot.get("damage_rolled", ()))
        ]
    if kind == "emp":
        return [r["die"] for r in d["results"]]
    if kind == "threshold_check":
        return [r["die"] for r in d["results"]]
    if kind == "system_damaged":
        return [d[k] for k in ("core_roll", "bridge_roll", "effect_roll") if k in d]
    if kind == "damage_control":
        return [a["die"] for a in d["attempts"]]
    return _ordnance_values(kind, d)


def _ordnance_values(kind: str, d: Mapping[str, Any]) -> list[int]:
    """The dice of ordnance and its defences (RULES §9.3, §9.5), in draw order."""
    if kind == "salvo_attack":  # the missiles' 1D6, then each missile's die
        return [d["missiles_die"], *d["rolled"]]
    if kind == "amt_detonated":
        return [v for blast in d.get("blasts", ()) for v in blast["rolled"]]
    if kind == "heavy_missile_attack":  # a needle's count die first
        return [*([d["needles"]] if "needles" in d else []), *d.get("rolled", ())]
    if kind == "defence_resolved":  # an interception's dice, then the attacked group's back
        return [
            die["natural"]
            for item in d["defences"]
            for die in (*item["dice"], *item.get("back", ()))
        ]
    # fighters (RULES §9.8; added by the content helper, H4, for the dice-verifiable property):
    # an attack run's dice, then a torpedo hit's damage dice; a dogfight's attacker, then defender
    if kind == "fighters_attack":
        return [*d["rolled"], *d.get("damage_rolled", ())]
    if kind == "dogfight":
        return [*d["attacker"]["rolled"], *d["defender"]["rolled"]]
    return []


def verify_dice(
    events: Iterable[Mapping[str, Any]], seed_hex: str, game_id: str, commitment: str
) -> list[str]:
    """Every disagreement between the record and the seed; an empty list means all verify."""
    problems = []
    seed = bytes.fromhex(seed_hex)
    if hashlib.sha256(seed).hexdigest() != commitment:
        problems.append("the seed does not match the commitment published at creation")
    dice = SeededDice(seed, game_id)
    for event in events:
        rolls = event["data"].get("rolls") or []
        values = dice_values(event)
        if len(values) != len(rolls):
            problems.append(f"event {event['seq']}: {len(rolls)} roll numbers, {len(values)} dice")
            continue
        for k, value in zip(rolls, values, strict=True):
            if dice.d6(k) != value:
                problems.append(
                    f"event {event['seq']}: roll {k} is {dice.d6(k)}, record says {value}"
                )
    return problems
