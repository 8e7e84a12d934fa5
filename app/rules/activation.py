"""A ship's activation: naming it, its ping, its move, its end, the drift of a ship out of
control, and a launcher's mode switch on the way (RULES §4, §5, §8; C1.16)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules import capabilities as cap
from app.rules import events as ev
from app.rules.builder import Builder
from app.rules.commands import Activate, EndActivation, Move, Ping, SetMode
from app.rules.errors import (
    IllegalOrders,
    InvalidCommand,
    RulesError,
    UnknownWeapon,
    WeaponNotWorking,
    WrongStep,
)
from app.rules.events import make, point
from app.rules.evolve import TURN_COUNTED_CONTROL
from app.rules.fighters import engage
from app.rules.fighters.sight import ping_groups
from app.rules.fire import awaited_sides
from app.rules.gates import check_activatable, gate, named, own_ship
from app.rules.movement import MoveResult, Orders, movement_system
from app.rules.ordnance.markers import run_step2, step2_due
from app.rules.sensors import detect
from app.rules.state import ACTIVATE, AFTER_MOVE, AFTER_PING, START, GameState, ShipState
from app.rules.systems import MODE_SWITCH_OFFLINE_TURNS, SYSTEMS


def activate(b: Builder, seat: str, cmd: Activate) -> None:
    gate(b.state, seat, Activate)
    ship = own_ship(b.state, seat, cmd.ship)
    check_activatable(b.state, ship)
    b.put(make(ev.ActivationStarted, side=str(seat), ship=ship.id))
    if ship.out_of_control:
        if step2_due(b.state, b.state.ship(ship.id)):  # its salvos and AMTs still resolve
            run_step2(b, b.state.ship(ship.id), {}, standing=True)
            if b.state.phase.step != START or not b.state.ship(ship.id).in_play:
                return  # advance() ends the activation (or a defence window is open)
        counted = b.state.rules_version not in TURN_COUNTED_CONTROL
        drift_out_of_control(b, b.state.ship(ship.id), counted=counted)


def ping(b: Builder, seat: str, cmd: Ping) -> None:
    gate(b.state, seat, Ping)
    ship = named(b.state, seat, cmd.ship)
    if b.state.phase.step2_done and not b.state.phase.moved:
        raise WrongStep(
            f"{ship.name}'s step 2 has run: its first ping is forfeit (RULES §4); move it, then "
            "it may ping after the move"
        )
    if b.state.phase.step == ACTIVATE:
        b.put(make(ev.ActivationStarted, side=str(seat), ship=ship.id))
    when = "after_move" if b.state.phase.moved else "before_move"
    found = detect(b.state, b.state.ship(ship.id), b.roller)
    b.put(found)
    pinged = b.state.ship(ship.id)
    assert pinged.position is not None
    b.put(
        make(
            ev.ShipRevealed,
            ship=ship.id,
            position=point(pinged.position),
            heading=found.heading,
            cause="ping",
        )
    )
    for item in found.detections:
        if item.revealed:
            target = b.state.ship(item.target)
            assert target.position is not None
            revealed = make(
                ev.ShipRevealed,
                ship=target.id,
                position=point(target.position),
                heading=target.heading,
                cause="ping",
                by=ship.id,
            )
            b.put(revealed)
    ping_groups(b, b.state.ship(ship.id))  # enemy groups in ping range: no dice
    awaiting = tuple([str(side) for side in awaited_sides(b.state, ship.id)])
    window = b.state.seq + 1
    b.put(make(ev.FireWindow, window=window, pinger=ship.id, when=when, awaiting=awaiting))


def _plot(state: GameState, ship: ShipState, orders: Orders) -> MoveResult:
    assert ship.position is not None
    thrust = cap.thrust(state, ship)
    system = movement_system(state.movement)
    motion = system.motion_of(ship)
    system.check(orders, motion, thrust)
    result = system.move(ship.position, ship.heading, motion, orders)
    if not state.table.contains(result.position) and not orders.leave:
        raise IllegalOrders(
            f"this move ends off the table at ({result.position.x:.1f}, {result.position.y:.1f}); "
            'add "leave": true to leave the battle'
        )
    return result


def _moved(
    ship: ShipState, result: MoveResult, orders: Mapping[str, Any], drifting: bool
) -> ev.ShipMoved:
    assert ship.position is not None
    motion: dict[str, Any] = (
        {"speed": result.speed} if result.velocity is None else {"velocity": point(result.velocity)}
    )
    return make(
        ev.ShipMoved,
        ship=ship.id,
        from_=point(ship.position),
        to=point(result.position),
        heading=result.heading,
        orders=dict(orders),
        path=tuple([p.to_dict() for p in result.path]),
        drift=drifting,
        **motion,
    )


def left_table(b: Builder, ship_id: str, result: MoveResult) -> bool:
    """Leaving the table; returns True when the ship has left."""
    if b.state.table.contains(result.position):
        return False
    b.emit("ship_left", {"ship": ship_id})
    return True


def move(b: Builder, seat: str, cmd: Move) -> None:
    state = b.state
    if state.phase.step == AFTER_MOVE and state.phase.side == seat:
        raise WrongStep("the activating ship has already moved: ping or end the activation")
    gate(state, seat, Move)
    ship = named(state, seat, cmd.ship)
    result = _plot(state, ship, cmd.orders)
    if state.phase.step == ACTIVATE:
        b.put(make(ev.ActivationStarted, side=str(seat), ship=ship.id))
    if not step2_due(b.state, b.state.ship(ship.id)):
        _make_move(b, ship, result, cmd.orders.to_dict())
        return
    # a move without markers orders: step 2 on standing orders first (RULES §4, §9.3); the
    # move is kept until its strike is over (a defence window may open) and made then
    run_step2(b, b.state.ship(ship.id), {}, standing=True, move=cmd.orders.to_dict())
    resume_pending_move(b)


def resume_pending_move(b: Builder) -> bool:
    """Makes the activating ship's kept move (``phase.pending_move``) once nothing stands in its
    way; whether it moved. It waits while a defence window is open; a ship lost or out of
    control meanwhile does not make it (``advance`` ends or drifts its activation, public);
    orders that no longer fit (its drive hit in the strike) wait for a new move, the owner's
    view saying why (``pending_move.refused``)."""
    phase = b.state.phase
    ship = b.state.active_ship
    if phase.pending_move is None or ship is None or phase.step not in (START, AFTER_PING):
        return False
    if not ship.in_play or not ship.in_control:
        return False
    refused = pending_move_problem(b.state)
    if refused is not None:
        return False
    orders = movement_system(b.state.movement).parse_orders(phase.pending_move)
    _make_move(b, ship, _plot(b.state, ship, orders), orders.to_dict())
    return True


def pending_move_problem(state: GameState) -> str | None:
    """Why the kept move cannot be made now, or None."""
    ship = state.active_ship
    assert ship is not None and state.phase.pending_move is not None
    try:
        orders = movement_system(state.movement).parse_orders(state.phase.pending_move)
        _plot(state, ship, orders)
    except RulesError as refusal:
        return refusal.detail
    return None


def _make_move(b: Builder, ship: ShipState, result: MoveResult, orders: Mapping[str, Any]) -> None:
    pinged_first = b.state.phase.pinged == "before_move"
    b.put(_moved(ship, result, orders, False))
    assert ship.position is not None
    engage.follow(b, ship.id, ship.position)
    if left_table(b, ship.id, result):
        b.put(make(ev.ActivationEnded, ship=ship.id, overwatch=False, reason="left"))
    elif pinged_first:
        # a ship that pinged before its move ends its activation with the move
        b.put(make(ev.ActivationEnded, ship=ship.id, overwatch=False, reason="pinged"))


def drift_move(b: Builder, ship: ShipState) -> MoveResult:
    """The ship keeps its course and speed (orders "no change"): a secret move like any other."""
    assert ship.position is not None
    system = movement_system(b.state.movement)
    result = system.drift(ship.position, ship.heading, system.motion_of(ship))
    b.put(_moved(ship, result, system.still.to_dict(), True))
    engage.follow(b, ship.id, ship.position)
    return result


def drift_out_of_control(b: Builder, ship: ShipState, counted: bool = False) -> None:
    """An out-of-control ship keeps its course and speed; its activation ends there.

    ``counted``: an activation that began out of control, one of the N it drifts through (RULES
    §8); control comes back when the last one ends. A ship that loses its bridge during its own
    activation drifts for the rest of it, and that activation is not one of the N.
    """
    result = drift_move(b, ship)
    reason = "left" if left_table(b, ship.id, result) else "out_of_control"
    ended: dict[str, Any] = {"ship": ship.id, "overwatch": False, "reason": reason}
    if counted and reason == "out_of_control":
        ended["out_of_control"] = ship.out_of_control - 1
        if ship.out_of_control == 1:
            ended["regained_control"] = True
    b.emit("activation_ended", ended)


def end_activation(b: Builder, seat: str, cmd: EndActivation) -> None:
    state = b.state
    if state.phase.step in (START, AFTER_PING) and state.phase.side == seat:
        raise WrongStep(f"move first: {cmd.type} comes after the move")
    gate(state, seat, EndActivation)
    ship = named(state, seat, cmd.ship)
    b.put(make(ev.ActivationEnded, ship=ship.id, overwatch=True, reason="overwatch"))


def set_mode(b: Builder, seat: str, cmd: SetMode) -> None:
    state = b.state
    ship = own_ship(state, seat, cmd.ship)
    gate(state, seat, SetMode)
    if cap.mode_switchable(state, seat) is not ship:
        active = state.active_ship
        raise InvalidCommand(
            f"{active.name if active else 'another ship'} is activating, not {ship.name}: "
            "switch a launcher's mode during its own ship's activation"
        )
    try:
        weapon = cap.spec_of(state.design_of(ship), cmd.weapon)
    except KeyError:
        raise UnknownWeapon(f"{ship.name} has no weapon {cmd.weapon!r}") from None
    modes = SYSTEMS[weapon.type].modes if weapon.type in SYSTEMS else ()
    if modes and ship.system(weapon.id).status == "destroyed":
        raise WeaponNotWorking(f"{ship.name}'s {weapon.id} is destroyed: it has no mode to switch")
    if not modes:
        raise InvalidCommand(f"{ship.name}'s {weapon.id} has only one mode")
    if cmd.mode not in modes:
        raise InvalidCommand(
            f"{weapon.id}'s mode must be one of {', '.join(modes)}, not {cmd.mode!r}"
        )
    if cap.weapon_mode(ship, weapon) == cmd.mode:
        raise InvalidCommand(f"{ship.name}'s {weapon.id} is already in {cmd.mode} mode")
    b.emit(
        "mode_set",
        {
            "side": seat,
            "ship": ship.id,
            "weapon": weapon.id,
            "mode": cmd.mode,
            # offline for 2 turns (C1.16): the turn of the switch and the next, or, when the
            # launcher already fired this turn, the next two (it must miss two turns of fire)
            "offline_until": state.turn
            + MODE_SWITCH_OFFLINE_TURNS
            - (0 if weapon.id in ship.fired else 1),
        },
    )
