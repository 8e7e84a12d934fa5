"""After the groups acted in step 2: engagements at 0 CEF end, the groups look, and the
fighters step opens (from public facts only) or the step's attacks go to the defence window;
the ``fighters`` command's checks and its attacks."""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.attacks import DOGFIGHT, FIGHTERS_ATTACK, Attack
from app.rules.builder import Builder
from app.rules.damage import CORE_IDS, CORE_TYPES
from app.rules.errors import BadTargetSystem, InvalidCommand, UnknownMarker, WrongStep
from app.rules.fighters.attack import ANTI_SHIP, PD_MODE, ship_attack_left
from app.rules.fighters.commands import FighterChoice, Fighters
from app.rules.fighters.groups import group_type, groups_of, targets
from app.rules.fighters.sight import look
from app.rules.gates import gate
from app.rules.ordnance.defence import entries
from app.rules.ordnance.window import open_or_strike
from app.rules.state import GameState, MarkerState, ShipState


def after_step2(
    b: Builder, ship: ShipState, attacks: Sequence[Attack], engaged: Sequence[Attack], choose: bool
) -> None:
    """``attacks``: the markers'; ``engaged``: the engaged groups' on standing orders. With
    ``choose`` (the side gave the step 2's orders), the fighters step opens when the groups
    revealed something or are engaged — public facts, never a secret position; else every
    attack goes to the one window now."""
    for m in groups_of(b.state, ship.id):
        if m.engaged_with is None:
            continue
        if not b.state.ship(m.engaged_with).on_table:  # destroyed or left: nothing to follow
            b.emit("contact_lost", {"marker": m.id, "ship": m.engaged_with, "reason": "gone"})
        elif not m.cef or not ship_attack_left(group_type(m), m.torpedo_fired):
            # nothing left to attack its ship with (F4; a torpedo group's one torpedo, C5.0)
            lost = {"marker": m.id, "ship": m.engaged_with, "reason": "exhausted"}
            b.emit("contact_lost", lost)
    revealed = look(b, b.state.ship(ship.id)) if groups_of(b.state, ship.id) else False
    still = any(m.engaged_with is not None for m in groups_of(b.state, ship.id))
    if choose and (revealed or still):
        held = [e.public() for e in entries(attacks)]
        b.emit("fighters_step", {"ship": ship.id, "held": held})
        return
    open_or_strike(b, sorted([*attacks, *engaged], key=_id))


def _id(a: Attack) -> str:
    return a.marker


def fighters(b: Builder, seat: str, cmd: Fighters) -> None:
    gate(b.state, seat, Fighters)
    step = b.state.phase.fighters
    if step is None:
        raise WrongStep("no fighters step is open: your groups choose after their step 2")
    chosen = check_choices(b.state, seat, step.groups, cmd.choices)
    b.emit("fighters_chosen", {"ship": step.ship, "choices": [c.to_dict() for c in cmd.choices]})
    attacks = list(step.held)
    for choice in chosen:
        m = b.state.marker(choice.marker)
        if choice.attack is None:
            if m.engaged_with is not None:
                lost = {"marker": m.id, "ship": m.engaged_with, "reason": "broke_off"}
                b.emit("contact_lost", lost)
            continue
        kind = DOGFIGHT if _is_marker(b.state, choice.attack) else FIGHTERS_ATTACK
        attacks.append(
            Attack(m.id, m.side, kind, choice.attack, system=choice.system, mode=choice.mode)
        )
    open_or_strike(b, sorted(attacks, key=_id))


def _is_marker(state: GameState, target: str) -> bool:
    return any(m.id == target for m in state.markers)


def check_choices(
    state: GameState, seat: str, groups: Sequence[str], choices: Sequence[FighterChoice]
) -> list[FighterChoice]:
    """One choice per group that must choose, each a legal one; in the groups' order."""
    by_marker: dict[str, FighterChoice] = {}
    for c in choices:
        if c.marker not in groups:
            if any(m.id == c.marker and m.side == seat for m in state.markers):
                raise InvalidCommand(f"group {c.marker} has nothing to attack: leave it out")
            raise UnknownMarker(f"there is no group {c.marker!r} of yours choosing now")
        if c.marker in by_marker:
            raise InvalidCommand(f"group {c.marker} is given two choices")
        by_marker[c.marker] = c
    missing = [g for g in groups if g not in by_marker]
    if missing:
        raise InvalidCommand(
            f"choose for every group (attack: null for none): missing {', '.join(missing)}"
        )
    for c in by_marker.values():
        _check_choice(state, state.marker(c.marker), c)
    return [by_marker[g] for g in groups]


def _check_choice(state: GameState, m: MarkerState, c: FighterChoice) -> None:
    base = group_type(m).name.removeprefix("super_stealth_").removeprefix("stealth_")
    if c.attack is None:
        if c.system is not None or c.mode is not None:
            raise InvalidCommand(f"group {m.id} attacks nothing: it takes no system or mode")
        return
    legal = targets(state, m)
    if c.attack not in legal:
        raise InvalidCommand(
            f"group {m.id} cannot attack {c.attack!r}: its targets now are {', '.join(legal)}"
        )
    _check_mode(state, m, c, base)
    _check_system(state, m, c, base)


def _check_mode(state: GameState, m: MarkerState, c: FighterChoice, base: str) -> None:
    """A multi-role group's mode is its role in this attack (C5.0): anti-ship at a ship, point
    defence in a dogfight."""
    fits = ANTI_SHIP if state.has_ship(c.attack or "") else PD_MODE
    if base == "multi" and c.mode is None:
        raise InvalidCommand(
            f'group {m.id} is multi-role: choose a mode; send "mode": "{fits}" to attack {c.attack}'
        )
    if base != "multi" and c.mode is not None:
        raise InvalidCommand(f'group {m.id} is not multi-role: leave "mode" out')
    if c.mode is not None and c.mode != fits:
        what = "a ship" if fits == ANTI_SHIP else "a group (a dogfight)"
        raise InvalidCommand(
            f'group {m.id} attacks {what}: its mode is "{fits}", not "{c.mode}"; '
            f'send "mode": "{fits}"'
        )


def _check_system(state: GameState, m: MarkerState, c: FighterChoice, base: str) -> None:
    ship_target = state.has_ship(c.attack or "")
    if base != "needle" or not ship_target:
        if c.system is not None:
            raise BadTargetSystem(
                f"group {m.id} names a system: only needle groups attacking a ship do; "
                f'leave "system" out'
            )
        return
    target = state.ship(c.attack or "")
    types = sorted(
        {
            s.type
            for s in target.systems
            if s.type not in CORE_TYPES and s.id not in CORE_IDS and s.status != "destroyed"
        }
    )
    if c.system is None and types:
        raise BadTargetSystem(
            f'group {m.id} is a needle group: send "system": a system type of {target.name} '
            f"(one of {', '.join(types)})"
        )
    if c.system is not None and c.system not in types:
        send = f'send "system": one of {", ".join(types)}' if types else 'leave "system" out'
        raise BadTargetSystem(
            f"{target.name} has no system of type {c.system!r} a needle group may attack: {send}"
        )
