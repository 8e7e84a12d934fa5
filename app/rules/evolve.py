"""``evolve(state, event) -> state``: fold one event into the state. No dice, no choices.

Everything an event decided (dice, hits, which system failed) is in its body, so folding the
log again always rebuilds the same state (``replay``). Each event type has one handler here,
found by its body's class; a type without one raises ``UnknownEventType``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from app.rules import events as ev
from app.rules.capabilities import spec_of
from app.rules.events import Event, EventBody, UnknownEventType
from app.rules.events.defence import DefenceWindowOpened
from app.rules.fighters.fold import follow
from app.rules.frozen import amend
from app.rules.game import start_state
from app.rules.geometry import Vec
from app.rules.ordnance.defence_fold import DEFENCE_FOLDS
from app.rules.ordnance.fold import FOLDS as ORDNANCE_FOLDS
from app.rules.ordnance.fold import attacking_live
from app.rules.rewind import keep_reveals
from app.rules.ship_changes import (
    abandoned,
    dumped,
    hulk_life_support,
    restore_command_bridges,
    revealed,
    set_system,
)
from app.rules.state import (
    ACTIVATE,
    AFTER_MOVE,
    AFTER_PING,
    DESTROYED,
    FINISHED,
    FIRE,
    LEFT,
    OUT_OF_PLAY,
    START,
    TURN_END,
    VOLLEY_DONE,
    GameState,
    GameStatus,
    LastKnown,
    MoveRecord,
    ShipState,
    ShipStatus,
    Shot,
    Step,
    new_phase,
    other_side,
)
from app.rules.weapons import once_per_game

NEW_TURN = Step.NEW_TURN  # transient: the turn has ended, the next one (or the finish) is due

B = TypeVar("B", bound=EventBody)
Handler = Callable[[GameState, Any, Event], GameState]
Ships = tuple[ShipState, ...]
_HANDLERS: dict[type[EventBody], Handler] = {**ORDNANCE_FOLDS, **DEFENCE_FOLDS}
_open_window = DEFENCE_FOLDS[DefenceWindowOpened]
# the window's attackers are live while it is open (RULES §9.1)
_HANDLERS[DefenceWindowOpened] = lambda state, b, e: attacking_live(_open_window(state, b, e))


def _folds(kind: type[B]) -> Callable[[Callable[[GameState, B, Event], GameState]], Handler]:
    """Registers the handler of one event type (its body class)."""

    def register(handler: Callable[[GameState, B, Event], GameState]) -> Handler:
        _HANDLERS[kind] = handler
        return handler

    return register


def evolve(state: GameState, event: Event) -> GameState:
    body = event.body
    handler = _HANDLERS.get(type(body))
    if handler is None:
        raise UnknownEventType(f"evolve has no rule for a {event.type} event")
    new = handler(state, body, event)
    rolls = body.roll_numbers()
    next_roll = max(new.next_roll, max(rolls) + 1) if rolls else new.next_roll
    if new is state:  # nothing changed: a copy, the input stays as it was
        new = object.__new__(GameState)
        object.__setattr__(new, "__dict__", state.__dict__.copy())  # a block copy (``frozen``)
    # stamped in place: every handler returns its input or a state it has just built, which
    # nobody else holds yet (one copy of the state less per event)
    fields = new.__dict__
    fields["seq"], fields["next_roll"] = event.seq, next_roll
    return new


def replay(events: list[Event]) -> GameState:
    state = start_state(events[0])
    for event in events[1:]:
        state = evolve(state, event)
    return state


# -- helpers -------------------------------------------------------------------------------------
def _ship(state: GameState, ship_id: str, f: Callable[[ShipState], ShipState]) -> GameState:
    return amend(state, ships=_ships(state, ship_id, f))


def _ships(state: GameState, ship_id: str, f: Callable[[ShipState], ShipState]) -> Ships:
    # the ships with one changed: a handler that changes the phase too copies the state once
    ship = f(state.ship(ship_id))
    return tuple([ship if s.id == ship_id else s for s in state.ships])


# -- handlers ------------------------------------------------------------------------------------
@_folds(ev.SeatClaimed)
@_folds(ev.SeatReplaced)
@_folds(ev.Paused)
@_folds(ev.Resumed)
@_folds(ev.TimedOut)  # the clock's facts: the commands it played follow as events
@_folds(ev.TimeAdded)
@_folds(ev.ThresholdCheck)
def _no_change(state: GameState, b: EventBody, e: Event) -> GameState:
    # the server's facts (seats, pauses), and a threshold check: its failures follow as events
    return state


@_folds(ev.Deployed)
def _deployed(state: GameState, b: ev.Deployed, e: Event) -> GameState:
    for p in b.ships:

        def place(s: ShipState, p: Any = p) -> ShipState:
            return amend(
                s,
                deployed=True,
                position=p.position.vec(),
                heading=p.heading,
                speed=0 if p.speed is None else p.speed,
                velocity=Vec(0.0, 0.0) if p.velocity is None else p.velocity.vec(),
            )

        state = _ship(state, p.ship, place)
    return amend(state, deployed=state.deployed | {b.side})


@_folds(ev.TurnStarted)
def _turn_started(state: GameState, b: ev.TurnStarted, e: Event) -> GameState:
    ships = tuple(amend(s, activated=False) for s in state.ships)
    return amend(
        state,
        ships=ships,
        turn=b.turn,
        first_side=b.first_side,
        phase=new_phase(step=ACTIVATE, side=b.first_side),
    )


@_folds(ev.CoreRoll)
def _core_roll(state: GameState, b: ev.CoreRoll, e: Event) -> GameState:
    return _ship(
        state,
        b.ship,
        lambda s: amend(s, explosion_rolls=s.explosion_rolls + (1 if s.abandoned else 0)),
    )


@_folds(ev.ActivationStarted)
def _activation_started(state: GameState, b: ev.ActivationStarted, e: Event) -> GameState:
    out = b.command_bridge_out
    if out is not None:  # one of the activations it is knocked out for (C3.7)
        state = _ship(state, b.ship, lambda s: amend(s, command_bridge_out=out))
    return amend(state, phase=new_phase(step=START, side=b.side, ship=b.ship))


@_folds(ev.Ping)
def _ping(state: GameState, b: ev.Ping, e: Event) -> GameState:
    ships = _ships(state, b.ship, lambda s: amend(s, overwatch=False))
    when = "after_move" if state.phase.moved else "before_move"
    return amend(state, ships=ships, phase=amend(state.phase, pinged=when))


@_folds(ev.ShipRevealed)
def _ship_revealed(state: GameState, b: ev.ShipRevealed, e: Event) -> GameState:
    known = LastKnown(b.position.x, b.position.y, b.heading, e.turn, e.seq)
    state = follow(state, b)
    return _ship(state, b.ship, lambda s: revealed(s, known))


@_folds(ev.ShipMoved)
def _ship_moved(state: GameState, b: ev.ShipMoved, e: Event) -> GameState:
    def move(s: ShipState) -> ShipState:
        record = MoveRecord(e.turn, e.seq, dict(b.orders), drift=b.drift)
        return amend(
            s,
            position=b.to.vec(),
            heading=b.heading,
            speed=s.speed if b.speed is None else b.speed,
            velocity=s.velocity if b.velocity is None else b.velocity.vec(),
            # a live marker goes stale the moment the ship moves
            revealed="stale" if s.revealed == "live" else s.revealed,
            orders_log=(*s.orders_log, record),
            trail=(*s.trail, *b.path),
        )

    ships = _ships(state, b.ship, move)
    if state.phase.ship == b.ship and state.phase.step in (START, AFTER_PING):
        phase = amend(state.phase, moved=True, step=AFTER_MOVE, pending_move=None)
        return amend(state, ships=ships, phase=phase)
    return amend(state, ships=ships)


@_folds(ev.ShipLeft)
def _ship_left(state: GameState, b: ev.ShipLeft, e: Event) -> GameState:
    return _ship(state, b.ship, lambda s: amend(s, status=LEFT, out_reason="left"))


@_folds(ev.ActivationEnded)
def _activation_ended(state: GameState, b: ev.ActivationEnded, e: Event) -> GameState:
    def end(s: ShipState) -> ShipState:
        s = amend(s, activated=True, overwatch=b.overwatch)
        if b.out_of_control is not None:  # a drifting activation counted (RULES §8)
            s = amend(s, out_of_control=b.out_of_control)
        if b.regained_control:
            s = set_system(s, "bridge", "ok")
        if b.command_bridge_restored:
            s = restore_command_bridges(s)
        return s

    ships = _ships(state, b.ship, end)
    last = state.phase.side or state.ship(b.ship).side
    # sides alternate; when one has no unactivated ship left the other goes on alone
    return _hand_on(state, ships, (other_side(last), last))


def _hand_on(state: GameState, ships: Ships, order: tuple[str, str]) -> GameState:
    """The state with ``ships``, where the first side in ``order`` with an unactivated ship in
    play names the next; if neither has one, the turn is over."""
    for side in order:
        if any(s.side == side and s.in_play and not s.activated for s in ships):
            return amend(state, ships=ships, phase=new_phase(step=ACTIVATE, side=side))
    return amend(state, ships=ships, phase=new_phase(step=TURN_END))


@_folds(ev.FireWindow)
def _fire_window(state: GameState, b: ev.FireWindow, e: Event) -> GameState:
    phase = amend(
        state.phase,
        step=FIRE,
        window=e.seq,
        pinger=b.pinger,
        awaiting=b.awaiting,
        declared={},
    )
    return amend(state, phase=phase)


@_folds(ev.FireDeclared)
def _fire_declared(state: GameState, b: ev.FireDeclared, e: Event) -> GameState:
    shots = tuple(
        Shot(s.ship, s.weapon, s.target, s.system, s.aim.vec() if s.aim else None, s.load)
        for s in b.shots
    )
    phase = state.phase
    phase = amend(
        phase,
        declared={**phase.declared, b.side: shots},
        awaiting=tuple(s for s in phase.awaiting if s != b.side),
    )
    return amend(state, phase=phase)


@_folds(ev.FireResolved)
def _fire_resolved(state: GameState, b: ev.FireResolved, e: Event) -> GameState:
    for shot in b.shots:
        if shot.cancelled:
            continue

        # a rack fires once a game (C2.1): spent from this volley on, for all to see
        firer = state.ship(shot.ship)
        once = once_per_game(spec_of(state.design_of(firer), shot.weapon))

        def fired(
            s: ShipState, weapon: str = shot.weapon, target: str = shot.target, once: bool = once
        ) -> ShipState:
            locks = s.locks if target in s.locks else (*s.locks, target)
            spent = s.spent | {weapon} if once else s.spent
            return amend(s, fired=s.fired | {weapon}, locks=locks, spent=spent)

        state = _ship(state, shot.ship, fired)
    step = AFTER_PING if state.phase.pinged == "before_move" else VOLLEY_DONE
    phase = amend(state.phase, step=step, window=None, awaiting=(), declared={})
    return amend(state, phase=phase)


@_folds(ev.Damage)
def _damage(state: GameState, b: ev.Damage, e: Event) -> GameState:
    return _ship(
        state,
        b.ship,
        lambda s: amend(
            s, armour_lost=s.armour_lost + b.armour_lost, hull_lost=s.hull_lost + b.hull_lost
        ),
    )


@_folds(ev.SystemDamaged)
def _system_damaged(state: GameState, b: ev.SystemDamaged, e: Event) -> GameState:
    def hit(s: ShipState) -> ShipState:
        s = set_system(s, b.system, b.status)
        if b.beyond_repair:
            s = amend(
                s,
                systems=tuple(
                    amend(x, beyond_repair=True) if x.id == b.system else x for x in s.systems
                ),
            )
        if b.permanent:
            # a hulk hit again keeps the reason it first went out of play (a dumped core, say)
            reason = "permanently_out_of_control" if s.status == "active" else s.out_reason
            return amend(s, status=OUT_OF_PLAY, out_of_control=0, out_reason=reason)
        if b.out_of_control is not None:
            s = amend(s, out_of_control=b.out_of_control)
        if b.life_support_turns is not None:
            s = amend(s, life_support_turns=b.life_support_turns)
        if b.command_bridge_out is not None:
            s = amend(s, command_bridge_out=b.command_bridge_out)
        elif b.system_type == "command_bridge":
            s = amend(s, command_bridge_out=0)  # destroyed: no countdown left
        return s

    return _ship(state, b.ship, hit)


@_folds(ev.ShipDestroyed)
def _ship_destroyed(state: GameState, b: ev.ShipDestroyed, e: Event) -> GameState:
    return _ship(state, b.ship, lambda s: amend(s, status=DESTROYED, out_reason=b.cause))


@_folds(ev.CoreAction)
def _core_action(state: GameState, b: ev.CoreAction, e: Event) -> GameState:
    ships = _ships(state, b.ship, dumped if b.action == "dump" else abandoned)
    # the side due to name a ship may have just lost its last unactivated one: hand on
    phase = state.phase
    if phase.step == ACTIVATE and phase.side is not None:
        return _hand_on(state, ships, (phase.side, other_side(phase.side)))
    return amend(state, ships=ships)


@_folds(ev.Emp)
def _emp(state: GameState, b: ev.Emp, e: Event) -> GameState:
    # the firer counts its hits on this target for the turn (C1.5's cap of 3); the systems lost
    # follow as system_damaged events
    def count(s: ShipState) -> ShipState:
        hits = dict(s.emp_hits)
        hits[b.ship] = hits.get(b.ship, 0) + b.hits
        return amend(s, emp_hits=hits)

    if not state.has_ship(b.by):
        return state  # a heavy missile's EMP: its own cap, counted at its attack
    return _ship(state, b.by, count)


@_folds(ev.ModeSet)
def _mode_set(state: GameState, b: ev.ModeSet, e: Event) -> GameState:
    return _ship(
        state,
        b.ship,
        lambda s: amend(
            s,
            modes={**s.modes, b.weapon: b.mode},
            offline={**s.offline, b.weapon: b.offline_until},
        ),
    )


@_folds(ev.DamageControl)
def _damage_control(state: GameState, b: ev.DamageControl, e: Event) -> GameState:
    def repair(s: ShipState) -> ShipState:
        for attempt in b.attempts:
            if not attempt.repaired:
                continue
            system_id = attempt.system
            s = set_system(s, system_id, "ok")
            if system_id == "bridge":
                s = amend(s, out_of_control=0)
            elif system_id == "life_support":
                s = amend(s, life_support_turns=None)
            elif s.system(system_id).type == "command_bridge":
                s = amend(s, command_bridge_out=0)
        return s

    return _ship(state, b.ship, repair)


# Games started under these rules versions counted "out of control for N turns" (and a
# knocked-out command bridge) at the end of each turn; their logs replay as they were played.
TURN_COUNTED_CONTROL = frozenset({"2026.11-1"})


@_folds(ev.TurnEnded)
def _turn_ended(state: GameState, b: ev.TurnEnded, e: Event) -> GameState:
    failed = set(b.life_support_failed)
    legacy = state.rules_version in TURN_COUNTED_CONTROL

    def tick(s: ShipState) -> ShipState:
        s = amend(
            s, fired=frozenset(), locks=(), trail=(), emp_hits={}, aim_locks=(), hm_emp_hits=0
        )
        if s.status != ShipStatus.ACTIVE:
            return hulk_life_support(s, failed) if s.crew_aboard else s
        if legacy:
            s = _legacy_control_tick(s, b)
        if s.life_support_turns is not None:
            s = amend(s, life_support_turns=s.life_support_turns - 1)
            if s.id in failed:
                # the crew must abandon ship: a drifting hulk
                s = amend(
                    s,
                    status=OUT_OF_PLAY,
                    abandoned=True,
                    life_support_turns=None,
                    out_reason="life_support_failed",
                )
        return s

    ships = tuple(tick(s) for s in state.ships)
    return amend(state, ships=ships, phase=new_phase(step=NEW_TURN))


def _legacy_control_tick(s: ShipState, b: ev.TurnEnded) -> ShipState:
    """The per-turn countdowns of the rules before 2026.12 (see ``TURN_COUNTED_CONTROL``)."""
    if s.out_of_control:
        s = amend(s, out_of_control=s.out_of_control - 1)
        if s.id in b.regained_control:
            s = set_system(s, "bridge", "ok")
    if s.command_bridge_out:
        s = amend(s, command_bridge_out=s.command_bridge_out - 1)
        if s.id in (b.command_bridge_restored or ()):
            s = restore_command_bridges(s)
    return s


@_folds(ev.GameFinished)
def _game_finished(state: GameState, b: ev.GameFinished, e: Event) -> GameState:
    return amend(
        state,
        status=GameStatus.FINISHED,
        winner=b.winner,
        finish_reason=b.reason,
        phase=new_phase(step=FINISHED),
    )


@_folds(ev.Rewound)
def _rewound(state: GameState, b: ev.Rewound, e: Event) -> GameState:
    # the state was rebuilt without the voided events; the dice counter is never rewound, and
    # what the voided events revealed stays known (``app.rules.rewind``)
    reveals = {ship: r.to_data() for ship, r in (b.last_known or {}).items()}
    state = keep_reveals(state, reveals)
    return amend(state, next_roll=max(state.next_roll, b.next_roll))


__all__ = ["NEW_TURN", "TURN_COUNTED_CONTROL", "evolve", "replay", "start_state"]
