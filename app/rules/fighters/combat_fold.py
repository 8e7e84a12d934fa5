"""How fighter combat changes the state (registered with the defence window's folds).

* ``fighters_attack``: the group has the fighters that rolled, pays 1 CEF, is live with its
  type shown (F11) and, if it survived, engaged with the ship, at its position (P5b); a drone
  group at 0 CEF is gone (F4, C5.2), as is a group the defences killed to the last;
* ``dogfight``: both groups lose what the other killed and pay 1 CEF if they rolled;
* an interception (a ``defence_resolved`` entry with a ``group``): the interceptor loses what
  the attacking group killed back, pays 1 CEF and is live where it fought; a group a defence
  rolled at has its type shown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from app.rules.events import Event, EventBody
from app.rules.events import defence as dev
from app.rules.events import fighters as fev
from app.rules.fighters.attack import TORPEDO_RUN
from app.rules.frozen import amend
from app.rules.geometry import Vec
from app.rules.state import DOGFIGHT, DRONES, FIGHTERS_ATTACK, Attack, GameState, MarkerState

GROUP_ATTACKS = frozenset({FIGHTERS_ATTACK, DOGFIGHT})
Fold = Callable[[GameState, Any, Event], GameState]


def _change(
    state: GameState, marker_id: str, f: Callable[[MarkerState], MarkerState | None]
) -> GameState:
    """Apply ``f`` to one marker (None: it is gone)."""
    out: list[MarkerState] = []
    for m in state.markers:
        changed = f(m) if m.id == marker_id else m
        if changed is not None:
            out.append(changed)
    return amend(state, markers=tuple(out))


def _after(m: MarkerState, strength: int, paid: bool) -> MarkerState | None:
    """A group after it fought: its fighters left, its CEF less one if it rolled; None: gone
    (none left, or a drone group out of endurance)."""
    cef = max((m.cef or 0) - (1 if paid else 0), 0)
    if strength <= 0 or (m.kind == DRONES and paid and cef <= 0):
        return None
    return amend(m, strength=strength, cef=cef, live=True, type_shown=True)


def exhausted(m: MarkerState, paid: bool) -> bool:
    """Whether paying for this fight leaves a drone group out of endurance (it is gone)."""
    return m.kind == DRONES and paid and (m.cef or 0) <= 1


def _attack(state: GameState, b: fev.FightersAttack, e: Event) -> GameState:
    at = state.ship(b.target).position

    def run(m: MarkerState) -> MarkerState | None:
        after = _after(m, b.fighters, paid=b.fighters > 0)
        if after is None:
            return None
        # engaged with the ship it attacked (P5b): it follows it from now on
        after = amend(after, engaged_with=b.target, position=at or after.position)
        if b.run == TORPEDO_RUN:  # one pulse torpedo a sortie (C5.0): none left until it lands
            after = amend(after, torpedo_fired=state.turn)
        return after

    return _change(state, b.marker, run)


def _dogfight(state: GameState, b: fev.Dogfight, e: Event) -> GameState:
    state = _change(
        state,
        b.marker,
        lambda m: _after(m, b.fighters - b.defender.kills, paid=b.fighters > 0),
    )
    return _change(
        state,
        b.target,
        lambda m: _after(m, m.strength - b.attacker.kills, paid=b.target_fighters > 0),
    )


def _point(state: GameState, attack: Attack) -> Vec | None:
    if attack.kind == DOGFIGHT:
        found = [m.position for m in state.markers if m.id == attack.target]
        return found[0] if found else None
    if attack.target is not None and state.has_ship(attack.target):
        return state.ship(attack.target).position
    return None


def intercepted(state: GameState, attacks: Sequence[Attack], d: dev.ResolvedDefence) -> GameState:
    """The interceptor flew to what it defended and fought there (F13)."""
    attack = next((a for a in attacks if a.marker == d.against), None)
    point = _point(state, attack) if attack is not None else None

    def fought(m: MarkerState) -> MarkerState | None:
        after = _after(m, m.strength - (d.losses or 0), paid=True)
        if after is None:
            return None
        after = amend(after, intercepted_turn=state.turn)  # it defends once a turn (§9.5)
        return after if point is None else amend(after, position=point)

    assert d.group is not None
    return _change(state, d.group, fought)


def rolled_at(state: GameState, attacks: Iterable[Attack], b: dev.DefenceResolved) -> GameState:
    """Every attacking group a defence rolled at has its type shown (F11)."""
    groups = {a.marker for a in attacks if a.kind in GROUP_ATTACKS}
    shot = {d.against for d in b.defences} & groups
    for marker_id in sorted(shot):
        state = _change(state, marker_id, lambda m: amend(m, type_shown=True))
    return state


def _groups_hit(state: GameState, b: fev.GroupsHit, e: Event) -> GameState:
    for g in b.groups:
        left = g.strength
        state = _change(state, g.marker, lambda m: _after(m, left, paid=False))  # noqa: B023
    return state


COMBAT_FOLDS: dict[type[EventBody], Fold] = {
    fev.FightersAttack: _attack,
    fev.Dogfight: _dogfight,
    fev.GroupsHit: _groups_hit,
}
