"""Ship fire at live enemy groups in a fire window (RULES §9.5 "fire at groups"; C1.iv; F12).

A live enemy group is a target like a ship (it takes one fire control for the turn): any
direct-fire weapon that has it in arc and range may fire at it, rolling only its to-hit dice
in the band the range gives, each die modified by the group's DRM; each hit kills one fighter.
No screens, no damage track, no damage dice; a weapon with no to-hit dice of its own cannot.
The kills are folded by the public ``groups_hit`` event that follows the volley's dice (as
``damage`` follows them for ships).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rules.builder import Builder
from app.rules.capabilities import weapon_mode
from app.rules.designs import SystemSpec
from app.rules.dice import Roller
from app.rules.errors import BadTargetSystem, InvalidCommand, OutOfArc, OutOfRange, UnknownShip
from app.rules.fighters.dogfight import weapon_at_group
from app.rules.fighters.groups import group_type, is_group
from app.rules.fighters.intercept import find_marker, shown_drm
from app.rules.geometry import distance, target_in_arcs, weak_arc
from app.rules.state import GameState, MarkerState, ShipState, Shot, other_side
from app.rules.systems import FireBand
from app.rules.weapons import dice_at, passive_fire_control

GROUP_PATH = "group"  # a shot's damage path when it is fired at a group


def live_groups(state: GameState, side: str) -> tuple[MarkerState, ...]:
    """The enemy groups the side may fire at now (live: public)."""
    enemy = other_side(side)
    return tuple(m for m in state.markers if m.side == enemy and is_group(m) and m.live)


def is_group_target(state: GameState, target: str | None) -> bool:
    m = find_marker(state, target or "")
    return m is not None and is_group(m)


def _band(
    state: GameState, ship: ShipState, weapon: SystemSpec, m: MarkerState
) -> tuple[float, int, FireBand] | None:
    """(range, band, what it rolls) from the firer's true position; None: out of arc or range
    (groups have no stealth of their own for range: theirs is a DRM, C5.0)."""
    assert ship.position is not None
    weak = weak_arc(ship.position, ship.heading, m.position, weapon.arcs, weapon.weak_arcs)
    if weak is None:
        return None
    rng = distance(ship.position, m.position)
    firer = passive_fire_control(state.design_of(ship))
    at = dice_at(weapon, rng, weak=weak, mode=weapon_mode(ship, weapon), firer_stealth=firer)
    if at is None or at[1].dice <= 0:
        return None
    return rng, at[0], at[1]


def options(state: GameState, ship: ShipState, weapon: SystemSpec, free: bool) -> list[Any]:
    """``fire_options`` entries of one weapon at each live enemy group it reaches."""
    out = []
    for m in live_groups(state, ship.side):
        if not free and m.id not in ship.locks:
            continue
        found = _band(state, ship, weapon, m)
        if found is None:
            continue
        rng, band, fire = found
        out.append(
            {
                "ship": ship.id,
                "weapon": weapon.id,
                "target": m.id,
                "range": round(rng, 2),
                "band": band,
                "dice": fire.describe(),
                "drm": shown_drm(m),
            }
        )
    return out


def check_shot(
    state: GameState, side: str, ship: ShipState, weapon: SystemSpec, shot: Shot
) -> None:
    """A declared shot at a group, or why it is refused."""
    m = find_marker(state, shot.target or "")
    assert m is not None
    if m.side == side:
        raise InvalidCommand(f"group {m.id} is on your own side")
    if m not in live_groups(state, side):
        # an enemy group not live is refused exactly like an id that does not exist (RULES
        # §9.1): else one shot tells whether a group once seen still flies (landing is secret)
        raise UnknownShip(f"there is no ship {shot.target!r} in this game")
    if shot.system is not None:
        raise BadTargetSystem(f"group {m.id} has no systems: fire at it without naming one")
    if _band(state, ship, weapon, m) is not None:
        return
    assert ship.position is not None
    if not target_in_arcs(
        ship.position, ship.heading, m.position, (*weapon.arcs, *weapon.weak_arcs)
    ):
        raise OutOfArc(f"group {m.id} is outside the arcs of {ship.name}'s {weapon.id}")
    gap = distance(ship.position, m.position)
    raise OutOfRange(f"group {m.id} is {gap:.1f} mu away, beyond {weapon.id}'s reach")


def roll_shot(
    state: GameState, ship: ShipState, weapon: SystemSpec, shot: Shot, roller: Roller
) -> dict[str, Any]:
    """One shot at a group: its to-hit dice with the group's DRM, a kill per hit."""
    m = find_marker(state, shot.target or "")
    found = _band(state, ship, weapon, m) if m is not None else None
    if m is None or found is None or not ship.in_control:
        return {**shot.to_dict(), "cancelled": True}
    rng, band, fire = found
    result = weapon_at_group(fire, group_type(m).drm, m.strength, roller.d6)
    return {
        **shot.to_dict(),
        "range": rng,
        "band": band,
        "dice": fire.describe(),
        "weapon_type": weapon.type,
        "path": GROUP_PATH,
        "drm": result.drm,
        "rolled": [d["natural"] for d in result.dice],
        "rerolled": [d["further"] for d in result.dice],
        "hits": result.hits,
        "kills": result.kills,
        "armour_damage": 0,
        "hull_damage": 0,
    }


def groups_hit(b: Builder, window: int, shots: Sequence[dict[str, Any]]) -> None:
    """After the volley's dice: the fighters each group lost, in one public event."""
    kills: dict[str, int] = {}
    for shot in shots:
        if shot.get("path") == GROUP_PATH and not shot.get("cancelled"):
            kills[shot["target"]] = kills.get(shot["target"], 0) + shot["kills"]
    hit = []
    for marker_id in sorted(kills):
        m = find_marker(b.state, marker_id)
        if m is not None and kills[marker_id] > 0:
            left = max(m.strength - kills[marker_id], 0)
            hit.append({"marker": m.id, "killed": m.strength - left, "strength": left})
    if hit:
        b.emit("groups_hit", {"window": window, "groups": hit})
