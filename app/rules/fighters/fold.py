"""How the groups' events change the state (``app.rules.evolve`` registers ``FOLDS``; the
ordnance fold calls ``acted_groups`` for the group items of ``ordnance_acted``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rules.events import Event, EventBody
from app.rules.events import fighters as fev
from app.rules.events import ordnance as oev
from app.rules.fighters.groups import choosers, group_type
from app.rules.fighters.state import BayState, FightersStep
from app.rules.frozen import amend
from app.rules.ordnance.defence_fold import attacks_from
from app.rules.state import AFTER_PING, START, GameState, MarkerState, Step

Fold = Callable[[GameState, Any, Event], GameState]


def _markers(state: GameState, f: Callable[[MarkerState], MarkerState]) -> GameState:
    return amend(state, markers=tuple(f(m) for m in state.markers))


def acted_groups(state: GameState, b: oev.OrdnanceActed, e: Event) -> GameState:
    """Launches make markers (their bay empties), landings remove them (their bay fills, its
    CEF back next turn, F3); the items' moves are folded with the rest of ``ordnance_acted``."""
    ship = state.ship(b.ship)
    bays = dict(ship.bays)
    made: list[MarkerState] = []
    landed: set[str] = set()
    for item in b.markers:
        if item.result == "launched":
            assert item.bay is not None and item.group is not None
            bays.pop(item.bay, None)
            made.append(_launched(ship.side, b.ship, item, e))
        elif item.result == "landed":
            assert item.bay is not None
            m = state.marker(item.marker)
            full = group_type(m).cef
            bays[item.bay] = BayState(m.group or "", m.strength, full, e.turn + 1)
            landed.add(m.id)
    if not made and not landed:
        return state
    kept = [m for m in state.markers if m.id not in landed]
    markers = tuple(sorted((*kept, *made), key=lambda m: m.id))
    state = state.with_ship(amend(ship, bays=bays))
    return amend(state, markers=markers, marker_count=state.marker_count + len(made))


def _launched(side: str, mother: str, item: oev.ActedMarker, e: Event) -> MarkerState:
    return MarkerState(
        id=item.marker,
        side=side,
        mother=mother,
        kind=item.marker_kind,
        position=item.to.vec(),
        aim=item.start.vec(),  # the launch point: the mother's true position
        launched_turn=e.turn,
        launched_seq=e.seq,
        strength=item.strength or 0,
        acts_turn=e.turn + 1,
        group=item.group,
        bay=item.bay,
        cef=item.cef,
    )


def _sighted(state: GameState, b: fev.FightersSighted, e: Event) -> GameState:
    seen = {g.marker for g in b.groups}
    return _markers(state, lambda m: amend(m, live=True) if m.id in seen else m)


def _step_opened(state: GameState, b: fev.FightersStepOpened, e: Event) -> GameState:
    # who must choose is read from the truth: the groups' targets (public facts, see step.py)
    step = FightersStep(b.ship, choosers(state, b.ship), attacks_from(state, b.held))
    return amend(state, phase=amend(state.phase, step=Step.FIGHTERS, fighters=step))


def _chosen(state: GameState, b: fev.FightersChosen, e: Event) -> GameState:
    # back to where step 2 ran: before the move, after the first ping or without it
    step = AFTER_PING if state.phase.pinged == "before_move" else START
    return amend(state, phase=amend(state.phase, step=step, fighters=None))


def _contact_lost(state: GameState, b: fev.ContactLost, e: Event) -> GameState:
    def lose(m: MarkerState) -> MarkerState:
        if m.id != b.marker:
            return m
        at = b.at.vec() if b.at is not None else m.position
        return amend(m, engaged_with=None, position=at, live=True)

    return _markers(state, lose)


def follow(state: GameState, b: Any) -> GameState:
    """A ``ship_revealed`` of cause ``engaged``: its engaged groups are where it is (F7)."""
    if b.cause != "engaged":
        return state
    at = b.position.vec()
    return _markers(state, lambda m: amend(m, position=at) if m.engaged_with == b.ship else m)


def engage(state: GameState, marker_id: str, ship_id: str) -> GameState:
    """A group that made an attack run on a ship and survived is engaged with it: at its
    position and live (for the attack's fold, H2's ``fighters_attack``)."""
    ship = state.ship(ship_id)
    at = ship.position

    def join(m: MarkerState) -> MarkerState:
        if m.id != marker_id:
            return m
        return amend(m, engaged_with=ship_id, position=at or m.position, live=True)

    return _markers(state, join)


FOLDS: dict[type[EventBody], Fold] = {
    fev.FightersSighted: _sighted,
    fev.FightersStepOpened: _step_opened,
    fev.FightersChosen: _chosen,
    fev.ContactLost: _contact_lost,
}
