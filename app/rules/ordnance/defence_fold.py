"""How the defence window's events change the state (``app.rules.evolve`` registers these).

The window's event is public, so it names the shown entries only; the real attacks behind them
(an ECM missile's marker for its counters, an AMT's point) are rebuilt from the markers in
flight, which the state holds in full.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from app.rules.events import Event, EventBody
from app.rules.events import defence as dev
from app.rules.fighters.combat_fold import COMBAT_FOLDS, GROUP_ATTACKS, intercepted, rolled_at
from app.rules.frozen import amend
from app.rules.state import (
    AFTER_PING,
    START,
    Attack,
    DefenceWindow,
    GameState,
    ShipState,
    Step,
)

Fold = Callable[[GameState, Any, Event], GameState]
AF_LOAD = "af_salvo"


def attacks_from(state: GameState, shown: Sequence[dev.WindowAttack]) -> tuple[Attack, ...]:
    """The real attacks behind the shown entries, in marker-id order as step 2 made them (the
    entries are in shown-id order, an ECM missile's counters among the rest)."""
    by_counter = {c: m for m in state.markers for c in m.counters}
    out: dict[str, Attack] = {}
    for w in shown:
        ecm = by_counter.get(w.marker)
        if ecm is not None:
            out.setdefault(ecm.id, Attack(ecm.id, w.side, ecm.kind, w.target, ecm.counters))
            continue
        marker = state.marker(w.marker)
        if w.kind in GROUP_ATTACKS:  # a group's attack run or dogfight, as chosen
            out[w.marker] = Attack(w.marker, w.side, w.kind, w.target, system=w.system, mode=w.mode)
            continue
        point = marker.position if marker.kind == "amt" else None
        out[w.marker] = Attack(w.marker, w.side, marker.kind, w.target, (), point)
    return tuple(out[marker_id] for marker_id in sorted(out))


def _window(state: GameState, b: dev.DefenceWindowOpened, e: Event) -> GameState:
    window = DefenceWindow(e.seq, attacks_from(state, b.attacks), tuple(b.awaiting), {})
    return amend(state, phase=amend(state.phase, step=Step.DEFEND, defence=window))


def _declared(state: GameState, b: dev.DefenceDeclared, e: Event) -> GameState:
    window = state.phase.defence
    assert window is not None
    items = tuple(
        {k: v for k, v in (("ship", a.ship), ("system", a.system), ("group", a.group)) if v}
        | {"against": a.against}
        for a in b.allocations
    )
    window = amend(
        window,
        declared={**window.declared, b.side: items},
        awaiting=tuple(s for s in window.awaiting if s != b.side),
    )
    return amend(state, phase=amend(state.phase, defence=window))


def _fired(ship: ShipState, d: dev.ResolvedDefence) -> ShipState:
    assert d.system is not None
    ship = amend(ship, fired=ship.fired | {d.system})
    if d.role != AF_LOAD or d.magazine is None:
        return ship
    loads = {k: dict(v) for k, v in ship.loads.items()}
    store = loads.get(d.magazine, {})
    store[AF_LOAD] = store.get(AF_LOAD, 0) - 1
    loads[d.magazine] = store
    kinds = dict(ship.launched_kinds)
    if AF_LOAD not in kinds.get(d.system, ()):
        kinds[d.system] = (*kinds.get(d.system, ()), AF_LOAD)
    return amend(ship, loads=loads, launched_kinds=kinds)


def _resolved(state: GameState, b: dev.DefenceResolved, e: Event) -> GameState:
    window = state.phase.defence
    for d in b.defences:
        if d.group is not None:
            assert window is not None
            state = intercepted(state, window.attacks, d)
            continue
        assert d.ship is not None and d.system is not None
        state = state.with_ship(_fired(state.ship(d.ship), d))
    if window is not None:
        state = rolled_at(state, window.attacks, b)
    # the window opened in the activating ship's step 2, before its move
    step = AFTER_PING if state.phase.pinged == "before_move" else START
    return amend(state, phase=amend(state.phase, step=step, defence=None))


def _standing(state: GameState, b: dev.StandingOrdersSet, e: Event) -> GameState:
    auto = state.auto_defend | {b.side} if b.auto_defend else state.auto_defend - {b.side}
    return amend(state, auto_defend=frozenset(auto))


DEFENCE_FOLDS: dict[type[EventBody], Fold] = {
    dev.DefenceWindowOpened: _window,
    dev.DefenceDeclared: _declared,
    dev.DefenceResolved: _resolved,
    dev.StandingOrdersSet: _standing,
    **COMBAT_FOLDS,  # what fighter combat does (issue 13)
}
