"""How the ordnance events change the state (``app.rules.evolve`` registers these folds)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rules import events as ev
from app.rules.capabilities import spec_of
from app.rules.events import Event, EventBody
from app.rules.fighters.fold import FOLDS as GROUP_FOLDS
from app.rules.fighters.fold import acted_groups
from app.rules.frozen import amend
from app.rules.state import GameState, MarkerState, ShipState
from app.rules.systems import SYSTEMS

Fold = Callable[[GameState, Any, Event], GameState]


def _ship(state: GameState, ship_id: str, f: Callable[[ShipState], ShipState]) -> GameState:
    return state.with_ship(f(state.ship(ship_id)))


def _without(state: GameState, marker_ids: set[str]) -> GameState:
    return amend(state, markers=tuple(m for m in state.markers if m.id not in marker_ids))


def _launched(state: GameState, b: ev.OrdnanceLaunched, e: Event) -> GameState:
    ship = state.ship(b.ship)
    spec = spec_of(state.design_of(ship), b.launcher)
    loads = dict(ship.loads)
    store = b.magazine or b.launcher
    if b.load is not None and b.load in loads.get(store, {}):
        left = {**loads[store]}
        left[b.load] -= 1
        loads[store] = left
    aim = b.aim.vec()
    locks = ship.aim_locks if aim in ship.aim_locks else (*ship.aim_locks, aim)
    kinds = dict(ship.launched_kinds)
    kinds[b.launcher] = (*kinds.get(b.launcher, ()), b.marker_kind)
    ship = amend(
        ship,
        fired=ship.fired | {b.launcher},
        spent=ship.spent | {b.launcher} if SYSTEMS[spec.type].once_per_game else ship.spent,
        loads=loads,
        aim_locks=locks,
        launched_kinds=kinds,
    )
    marker = MarkerState(
        id=b.marker,
        side=ship.side,
        mother=ship.id,
        kind=b.marker_kind,
        position=aim,
        aim=aim,
        launched_turn=e.turn,
        launched_seq=e.seq,
        missile=b.missile,
        endurance=b.endurance,
        strength=b.strength,
        system=b.system,
        acts_turn=b.acts_turn,
        counters=tuple(b.counters or ()),
    )
    markers = tuple(sorted((*state.markers, marker), key=lambda m: m.id))
    return amend(state.with_ship(ship), markers=markers, marker_count=state.marker_count + 1)


def _acted(state: GameState, b: ev.OrdnanceActed, e: Event) -> GameState:
    state = acted_groups(state, b, e)  # launches and landings of fighter groups
    acted = {item.marker: item for item in b.markers}
    gone = {item.marker for item in b.markers if item.result == "burnt_out"}
    markers = []
    for m in state.markers:
        if m.id in gone:
            continue
        if m.mother == b.ship:
            item = acted.get(m.id)
            # a live marker is forgotten at its mother's next step 2 (RULES §9.1), unless it
            # is a group engaged with a ship (public while engaged)
            m = amend(m, live=m.engaged_with is not None)
            if item is not None:
                m = amend(
                    m,
                    position=item.to.vec(),
                    endurance=item.endurance if item.endurance is not None else m.endurance,
                    acts_turn=e.turn + 1,
                )
        markers.append(m)
    phase = amend(state.phase, step2_done=True)
    if b.move is not None:  # the move that ran it waits for the step's strike (decision 16)
        phase = amend(phase, pending_move=dict(b.move))
    return amend(state, markers=tuple(markers), phase=phase)


def _gone(state: GameState, b: Any, e: Event) -> GameState:
    return _without(state, {b.marker})


def _heavy_missile_attack(state: GameState, b: ev.HeavyMissileAttack, e: Event) -> GameState:
    state = _without(state, {b.marker})
    if b.emp_hits:
        hits = b.emp_hits
        state = _ship(state, b.target, lambda s: amend(s, hm_emp_hits=s.hm_emp_hits + hits))
    return state


def _removed(state: GameState, b: ev.MarkerRemoved, e: Event) -> GameState:
    state = _without(state, {m.marker for m in b.markers})
    if b.ship is not None:
        state = _ship(state, b.ship, lambda s: amend(s, ordnance_cleared=True))
    return state


def _loads_lost(state: GameState, b: ev.LoadsLost, e: Event) -> GameState:
    def lose(s: ShipState) -> ShipState:
        loads = dict(s.loads)
        if b.magazine in loads:
            loads[b.magazine] = {k: 0 for k in loads[b.magazine]}
        bays = {k: v for k, v in s.bays.items() if k != b.magazine}  # a bay's group (F8)
        return amend(s, loads=loads, bays=bays)

    return _ship(state, b.ship, lose)


FOLDS: dict[type[EventBody], Fold] = {
    ev.OrdnanceLaunched: _launched,
    ev.OrdnanceActed: _acted,
    ev.SalvoWasted: _gone,
    ev.SalvoAttack: _gone,
    ev.AmtDetonated: _gone,
    ev.HeavyMissileAttack: _heavy_missile_attack,
    ev.MarkerRemoved: _removed,
    ev.LoadsLost: _loads_lost,
    **GROUP_FOLDS,  # fighter and drone groups are markers too (issue 13)
}


def attacking_live(state: GameState) -> GameState:
    """The markers attacking in the open defence window are live (RULES §9.1: public while they
    attack); the strike removes them, and a mother's next step 2 forgets any still live."""
    window = state.phase.defence
    if window is None:
        return state
    ids = {a.marker for a in window.attacks}
    markers = tuple(amend(m, live=True) if m.id in ids else m for m in state.markers)
    return amend(state, markers=markers)


def starting_loads(design: Any) -> dict[str, dict[str, int]]:
    """What a ship carries at the start of a battle (secret): each magazine's loads, and each
    rack's one load (``{load: 1}``) — the counts launches take from."""
    out: dict[str, dict[str, int]] = {}
    for spec in design.all_systems():
        if spec.type == "magazine" and spec.loads:
            out[spec.id] = dict(spec.loads)
        elif spec.type in RACKS and spec.load is not None:
            out[spec.id] = {spec.load: 1}
    return out


RACKS = frozenset(t for t, r in SYSTEMS.items() if r.rack)
