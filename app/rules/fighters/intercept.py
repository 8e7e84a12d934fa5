"""Interception in the defence window (RULES §9.5; decisions F13, H2-I1..I4): an own group
within its secondary move (12 mu) of the attacked ship (or group) flies at one attacking group
or salvo. Against a group it is a dogfight resolved before the attack (both roll their PD
notation at once); against a salvo its PD notation per fighter kills missiles. It costs the
interceptor 1 CEF and shows it (live, its type shown, F11), where it fought: at the attacked
ship (or group).

Pure: the dice come from the ``roll`` callable.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from app.rules.errors import DuplicateWeapon, InvalidCommand, NotYourShip, OutOfRange, RulesError
from app.rules.fighters.attack import run_notation
from app.rules.fighters.dogfight import expected_kills, fire_at
from app.rules.fighters.groups import group_type, is_group
from app.rules.geometry import Vec, distance
from app.rules.ordnance import pd
from app.rules.state import DOGFIGHT, FIGHTERS_ATTACK, Attack, GameState, MarkerState

ROLE_INTERCEPT = "intercept"
GROUP_ATTACKS = frozenset({FIGHTERS_ATTACK, DOGFIGHT})
_EPS = 1e-9


class CannotIntercept(RulesError):
    code = "illegal_pairing"  # an interception is a pairing of the defence window


def find_marker(state: GameState, marker_id: str) -> MarkerState | None:
    return next((m for m in state.markers if m.id == marker_id), None)


def attack_point(state: GameState, attack: Attack) -> Vec | None:
    """Where an attack strikes: its target ship, or the group a dogfight is aimed at."""
    if attack.kind == DOGFIGHT:
        target = find_marker(state, attack.target or "")
        return target.position if target is not None else None
    if attack.target is not None and state.has_ship(attack.target):
        return state.ship(attack.target).position
    return attack.point


def _defended_side(state: GameState, attack: Attack) -> str | None:
    if attack.kind == DOGFIGHT:
        target = find_marker(state, attack.target or "")
        return target.side if target is not None else None
    if attack.target is not None and state.has_ship(attack.target):
        return state.ship(attack.target).side
    return None


def problem(
    state: GameState, m: MarkerState, attack: Attack, busy: Collection[str]
) -> RulesError | None:
    """Why group ``m`` may not intercept ``attack``, or None. ``busy``: the groups attacking in
    this window (they are flying their own attack)."""
    name = f"group {m.id}"
    if attack.kind not in GROUP_ATTACKS | pd.SALVO_KINDS:
        return CannotIntercept(f"{name} can intercept a group or a salvo, not a {attack.kind}")
    if _defended_side(state, attack) != m.side:
        return CannotIntercept(f"{attack.marker} attacks none of your ships or groups")
    if (m.cef or 0) < 1:
        return CannotIntercept(f"{name} has no combat endurance left: it can only move and land")
    if m.engaged_with is not None:
        return CannotIntercept(f"{name} is engaged with {m.engaged_with}: it cannot intercept")
    if m.id in busy:
        return CannotIntercept(f"{name} attacks in this window: it cannot intercept as well")
    if attack.kind == DOGFIGHT and attack.target == m.id:  # decision: it is in that dogfight
        return CannotIntercept(f"{name} is the group {attack.marker} attacks: it fights it there")
    if m.intercepted_turn == state.turn:  # each defence fires once a turn (RULES §9.5)
        return CannotIntercept(f"{name} has intercepted this turn: a group intercepts once a turn")
    if group_type(m).pd is None:
        return CannotIntercept(f"{name} has no point-defence fire (C5.0): it cannot intercept")
    point = attack_point(state, attack)
    reach = group_type(m).secondary_move
    if point is None or distance(m.position, point) > reach + _EPS:
        gap = distance(m.position, point) if point is not None else float("inf")
        return OutOfRange(
            f"{name} is {gap:.1f} mu from what {attack.marker} attacks; a group intercepts "
            f"within its secondary move ({reach} mu)"
        )
    return None


def _odds(state: GameState, m: MarkerState, attack: Attack) -> float:
    notation = run_notation(group_type(m), False)
    if attack.kind in pd.SALVO_KINDS:
        return pd.odds_number(expected_kills(notation, m.strength, 0, pd.SALVO_MISSILES))
    target = find_marker(state, attack.marker)
    strength = target.strength if target is not None else 0
    drm = shown_drm(target) if target is not None else 0
    return pd.odds_number(expected_kills(notation, m.strength, drm, strength))


def shown_drm(m: MarkerState) -> int:
    """The DRM to fire at a group as the other side may know it (F11): its type's once shown,
    else the kind's own (drones +1, C5.2), so odds never tell a hidden type apart."""
    if m.type_shown:
        return group_type(m).drm
    return 1 if group_type(m).drone else 0


def own_groups(state: GameState, side: str) -> tuple[MarkerState, ...]:
    return tuple(m for m in state.markers if m.side == side and is_group(m))


def pairings(
    state: GameState, side: str, shown: Sequence[tuple[str, Attack]]
) -> list[dict[str, Any]]:
    """Every legal interception of the side's groups: (shown id, attack) pairs in shown order."""
    busy = {a.marker for _, a in shown}
    out = []
    for m in own_groups(state, side):
        for shown_id, attack in shown:
            if problem(state, m, attack, busy) is None:
                out.append({"group": m.id, "against": shown_id, "odds": _odds(state, m, attack)})
    return out


def check(
    state: GameState,
    side: str,
    shown: Mapping[str, Attack],
    alloc: Mapping[str, Any],
    used: set[str],
    where: str,
) -> dict[str, str]:
    """One interception allocation in its stored form, or its refusal."""
    if "ship" in alloc or "system" in alloc:
        raise InvalidCommand(f"{where}: an interception names a 'group' only, no ship or system")
    m = find_marker(state, alloc["group"])
    if m is None or (m.side != side and not m.live):
        raise InvalidCommand(f"{where}: there is no group {alloc['group']!r} of yours in flight")
    if m.side != side or not is_group(m):
        raise NotYourShip(f"{where}: {m.id} is not one of your groups")
    attack = shown.get(alloc["against"])
    if attack is None:
        raise InvalidCommand(f"{where}: no attacking marker {alloc['against']!r} in this window")
    if m.id in used:
        raise DuplicateWeapon(f"{where}: group {m.id} intercepts once a window")
    found = problem(state, m, attack, {a.marker for a in shown.values()})
    if found is not None:
        raise type(found)(f"{where}: {found.detail}")
    used.add(m.id)
    return {"group": m.id, "against": alloc["against"]}


def roll(
    state: GameState, side: str, alloc: Mapping[str, Any], attack: Attack, roll: Callable[[], int]
) -> tuple[dict[str, Any], int]:
    """An interception's dice (and the attacking group's back): its defence entry and the
    kills it scored on the attacking marker."""
    m = find_marker(state, alloc["group"])
    assert m is not None
    notation = run_notation(group_type(m), False)
    out: dict[str, Any] = {"group": m.id, "against": alloc["against"], "side": side}
    out["role"] = ROLE_INTERCEPT
    if attack.kind in pd.SALVO_KINDS:
        fire = fire_at(notation, m.strength, 0, pd.SALVO_MISSILES, roll)
        out.update(dice=list(fire.dice), kills=fire.kills, destroyed=False)
        return out, fire.kills
    target = find_marker(state, attack.marker)
    assert target is not None
    fire = fire_at(notation, m.strength, group_type(target).drm, target.strength, roll)
    back_notation = run_notation(group_type(target), False, None)
    back = fire_at(back_notation, target.strength, group_type(m).drm, m.strength, roll)
    out.update(
        dice=list(fire.dice),
        kills=fire.kills,
        destroyed=fire.kills >= target.strength,
        back=list(back.dice),
        losses=back.kills,
    )
    return out, fire.kills
