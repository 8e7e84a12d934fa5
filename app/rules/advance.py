"""The game moving on by itself after a command: volleys, ends of activations and turns, the
next turn's start, the finish — until it waits for somebody again."""

from __future__ import annotations

from typing import Any

from app.rules import damage as dmg
from app.rules import events as ev
from app.rules.activation import (
    drift_move,
    drift_out_of_control,
    left_table,
    resume_pending_move,
)
from app.rules.builder import Builder
from app.rules.events import make
from app.rules.evolve import NEW_TURN, TURN_COUNTED_CONTROL
from app.rules.fighters.engage import lose_gone
from app.rules.ordnance import window
from app.rules.ordnance.markers import (
    discard_at_turn_limit,
    remove_orphans,
    run_step2,
    step2_due,
)
from app.rules.state import (
    AFTER_MOVE,
    AFTER_PING,
    DEFEND,
    DEPLOY,
    FIRE,
    OUT_OF_PLAY,
    SIDES,
    START,
    TURN_END,
    VOLLEY_DONE,
    GameStatus,
    ShipStatus,
)
from app.rules.volley import volley
from app.rules.winning import finish, game_over


def advance(b: Builder) -> None:
    while b.state.status != GameStatus.FINISHED:
        state = b.state
        step = state.phase.step
        if step == DEPLOY:
            if state.deployed != set(SIDES):
                return
            _start_turn(b)
            continue
        if state.marker_count and remove_orphans(b):
            continue
        if state.marker_count and lose_gone(b):  # engaged with a ship now off the table
            continue
        over = game_over(state)
        if over is not None:
            b.finish_game(over)
            return
        if step in (START, AFTER_PING, AFTER_MOVE) and state.active_ship is not None:
            if _activating_ship_waits(b):
                return
            continue
        if step == VOLLEY_DONE and state.active_ship is not None:
            ship_id = state.active_ship.id
            b.put(make(ev.ActivationEnded, ship=ship_id, overwatch=False, reason="pinged"))
            continue
        if step == DEFEND:
            if window.advance_window(b):
                continue
            return
        if step == FIRE and not state.phase.awaiting:
            volley(b)
            continue
        if step == TURN_END:
            _end_turn(b)
            continue
        if step == NEW_TURN:
            _start_turn(b)
            continue
        return


def _activating_ship_waits(b: Builder) -> bool:
    """Whether the activating ship's owner is to act; else its activation moves on by itself."""
    ship = b.state.active_ship
    assert ship is not None
    if not ship.in_play:
        reason = str(ship.status)  # the log holds the status's value
        b.put(make(ev.ActivationEnded, ship=ship.id, overwatch=False, reason=reason))
        return False
    if ship.out_of_control:
        # lost the bridge in a volley: it can only drift now
        if b.state.phase.step == AFTER_MOVE:
            ended = make(ev.ActivationEnded, ship=ship.id, overwatch=False, reason="out_of_control")
            b.put(ended)
        elif step2_due(b.state, ship):  # its salvos and AMTs still resolve (RULES §9.3)
            run_step2(b, ship, {}, standing=True)
        else:
            drift_out_of_control(b, ship)
        return False
    # a move kept while its step 2's defence window was open is made now (decision 16)
    return not resume_pending_move(b)


def _drift_hulks(b: Builder) -> None:
    """Every hulk drifts on its last course and speed (vector: velocity), C8.1, in roster order:
    a secret move like any other (a live marker goes stale), and one drifting off the table has
    left it. A ship that already moved this turn, before it became a hulk, drifts from the next
    turn on, so that no ship moves twice in a turn. Whether a hulk drifts depends only on public
    facts (its status and whether it moved), never on where it is."""
    for ship in b.state.ships:
        if ship.status != OUT_OF_PLAY or ship.position is None or ship.moved_in(b.state.turn):
            continue
        left_table(b, ship.id, drift_move(b, ship))


def _end_turn(b: Builder) -> None:
    """Hulks drift, then damage control, then the life-support countdown; locks and weapons
    fired reset (in evolve)."""
    _drift_hulks(b)
    for ship in b.state.ships:
        repairs = dmg.damage_control(b.state, ship, b.roller)
        if repairs is not None:
            b.emit("damage_control", repairs)
    failed = [
        s.id
        for s in b.state.ships
        if s.life_support_turns == 1
        # a hulk's crew still breathes on its life support
        and (s.status == ShipStatus.ACTIVE or (s.status == OUT_OF_PLAY and s.crew_aboard))
    ]
    # out of control and a knocked-out command bridge count activations, not turns (RULES §8):
    # control comes back in ``activation_ended``; the list stays, empty, for older readers
    payload: dict[str, Any] = {
        "turn": b.state.turn,
        "regained_control": (),
        "life_support_failed": tuple(failed),
    }
    if b.state.rules_version in TURN_COUNTED_CONTROL:  # a game begun before 2026.12
        active = [s for s in b.state.ships if s.status == ShipStatus.ACTIVE]
        payload["regained_control"] = tuple([s.id for s in active if s.out_of_control == 1])
        restored = tuple([s.id for s in active if s.command_bridge_out == 1])
        if restored:
            payload["command_bridge_restored"] = restored
    b.put(make(ev.TurnEnded, **payload))


def _start_turn(b: Builder) -> None:
    state = b.state
    if state.turn >= state.turn_limit and state.turn > 0:
        if state.marker_count:
            discard_at_turn_limit(b)
        b.finish_game(finish(state, None, "turn_limit"))
        return
    _core_rolls(b)
    if game_over(b.state) is not None:
        return  # advance() finishes it
    counts = {side: len(b.state.in_play(side)) for side in SIDES}
    mark = b.roller.mark()
    rolloff: list[tuple[int, int]] = []
    if counts["A"] != counts["B"]:
        first = "A" if counts["A"] > counts["B"] else "B"
    else:
        while True:  # each side rolls 1D6, ties reroll
            a, bb = b.roller.d6(), b.roller.d6()
            rolloff.append((a, bb))
            if a != bb:
                first = "A" if a > bb else "B"
                break
    started = make(
        ev.TurnStarted,
        turn=state.turn + 1,
        first_side=first,
        ships_in_play=counts,
        rolloff=tuple(rolloff),
        rolls=tuple(b.roller.since(mark)),
    )
    b.put(started, turn=state.turn + 1)


def _core_rolls(b: Builder) -> None:
    """A critical power core rolls at the start of each turn (it may explode)."""
    state = b.state
    for ship in state.ships:
        if ship.status in (ShipStatus.DESTROYED, ShipStatus.LEFT) or not ship.core_critical:
            continue
        mark = b.roller.mark()
        die, needed, exploded = dmg.core_roll(ship, b.roller.d6)
        b.emit(
            "core_roll",
            {
                "ship": ship.id,
                "die": die,
                "needed": needed,
                "exploded": exploded,
                "rolls": b.roller.since(mark),
            },
            turn=state.turn + 1,
        )
        if exploded:
            b.emit(
                "ship_destroyed", {"ship": ship.id, "cause": "core_explosion"}, turn=state.turn + 1
            )
