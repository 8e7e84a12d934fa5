"""Fog of war: what each seat may know (RULES §6, API.md "The view" and "Events").

``view(state, seat)`` builds the caller's view from scratch for that seat; ``redact(event, seat)``
turns a logged event into the form that seat receives. Secrets are stripped here, at the edge:
a spectator gets public facts only, a player public facts plus their own ships' truth, the
referee everything.
"""

from __future__ import annotations

from typing import Any

from app.rules import capabilities as cap
from app.rules.activation import pending_move_problem
from app.rules.commands import (
    Deploy,
    SetMode,
    allowed_in,
)
from app.rules.damage import row_view
from app.rules.events import EVENT_TYPES, Event
from app.rules.events.secrecy import OwnerShip, OwnerSide, ShotsHiddenWhen, TargetOnly
from app.rules.fighters.groups import bay_ids
from app.rules.fighters.view import bays_view, fighter_options, step2_details
from app.rules.fire_options import fire_options
from app.rules.movement import movement_system
from app.rules.ordnance.defence_view import defence_awaiting, defence_view, legal_defend
from app.rules.ordnance.markers import step2_due
from app.rules.ordnance.view import (
    has_secret_loads,
    markers_view,
    public_designs,
)
from app.rules.state import (
    ACTIVATE,
    AFTER_PING,
    DEFEND,
    DEPLOY,
    FIRE,
    PLAYER_SEATS,
    SEATS,
    SIDES,
    START,
    GameState,
    GameStatus,
    ShipState,
    ShipStatus,
    Step,
    SystemStatus,
)
from app.rules.systems import SYSTEMS
from app.rules.weapons import bands, damage_path, passive_fire_control, screens_apply

# what the event types declare (``app.rules.events.secrecy``), gathered once: the keys of an item
# that only its target ship's side receives, and the flags that keep a shot its own side's (named
# here so that the leak oracle's own tests can break the fog on purpose, tests/rules)
_TARGET_ONLY = frozenset().union(
    *(t.secrecy.secret for t in EVENT_TYPES.values() if isinstance(t.secrecy, TargetOnly))
)
_HIDDEN_WHEN = frozenset(
    t.secrecy.flag for t in EVENT_TYPES.values() if isinstance(t.secrecy, ShotsHiddenWhen)
)


def _check_seat(seat: str) -> None:
    if seat not in SEATS:
        raise ValueError(f"unknown seat {seat!r}")


def knows_truth(state: GameState, seat: str, ship: ShipState) -> bool:
    return seat == "referee" or seat == ship.side


# -- events --------------------------------------------------------------------------------------
def visible(event: Event, seat: str, state: GameState | None = None) -> bool:
    """Whether ``seat`` receives this event in full (every seat gets every event in some form)."""
    _check_seat(seat)
    if seat == "referee":
        return True
    policy, d = event.body.secrecy, event.data
    match policy:
        case OwnerSide():
            return bool(d.get(policy.owner) == seat)
        case OwnerShip():
            if state is None:
                raise ValueError(f"{event.type} needs the state to know the ship's side")
            return state.ship(d[policy.owner]).side == seat and not policy.withholds(d)
        case TargetOnly():
            return state is not None and all(
                state.ship(item[policy.owner]).side == seat for item in d[policy.items]
            )
        case ShotsHiddenWhen():
            shots = d[policy.items]
            if not any(shot.get(policy.flag) for shot in shots):
                return True
            if state is None:
                raise ValueError(f"{event.type}: a {policy.flag} shot needs the state")
            return not any(_hidden_shot(shot, seat, state) for shot in shots)
    return True


def _hidden_shot(shot: Any, seat: str, state: GameState) -> bool:
    """A shot the event's declaration keeps from ``seat``: one of the other side's that did not
    fire (its crew dumped the core or abandoned ship since), which would tell that a hidden ship
    had the target in arc and range (RULES §7)."""
    hidden = any(shot.get(flag) for flag in _HIDDEN_WHEN)
    return hidden and state.ship(shot["ship"]).side != seat


def redact(event: Event, seat: str, state: GameState) -> dict[str, Any]:
    """The event as ``seat`` receives it: in full, or with ``"redacted": true`` and public data
    (a stub), or without the parts that are not the seat's (not marked)."""
    _check_seat(seat)
    out = event.to_dict()
    if seat == "referee":
        return out
    policy, d = event.body.secrecy, event.data
    if event.type == "game_started":
        # loads are secret (RULES §9.1): the other side's designs as their public copies
        return {**out, "data": {**d, "designs": public_designs(d, seat)}}
    match policy:
        case OwnerSide() if d.get(policy.owner) != seat:
            return {**out, "data": {k: d[k] for k in policy.stub if k in d}, "redacted": True}
        case OwnerShip() if state.ship(d[policy.owner]).side != seat:
            stub = {k: d.get(k, absent) for k, absent in policy.stub}
            return {**out, "data": stub, "redacted": True}
        case OwnerShip(withheld=w) if w is not None and policy.withholds(d):
            items = [
                {k: v for k, v in item.items() if k not in w.keys} if item.get(w.flag) else item
                for item in d[w.items]
            ]
            return {**out, "data": {**d, w.items: items}}
        case TargetOnly():
            items = [
                dict(item)
                if state.ship(item[policy.owner]).side == seat
                else {k: v for k, v in item.items() if k not in _TARGET_ONLY}
                for item in d[policy.items]
            ]
            return {**out, "data": {**d, policy.items: items}}
        case ShotsHiddenWhen() if any(_hidden_shot(x, seat, state) for x in d[policy.items]):
            shots = [dict(x) for x in d[policy.items] if not _hidden_shot(x, seat, state)]
            return {**out, "data": {**d, policy.items: shots}}
    return out


# -- the view ------------------------------------------------------------------------------------
def view(
    state: GameState, seat: str, *, waiting: bool = False, paused: bool = False
) -> dict[str, Any]:
    """The seat's view. ``waiting`` (a seat still to be taken) and ``paused`` (by the referee):
    the game is held, so nobody is awaited and nobody may act."""
    _check_seat(seat)
    phase = state.phase
    held = waiting or paused
    return {
        "game_id": state.game_id,
        "status": state.status,
        "you": seat,
        "turn": state.turn,
        "turn_limit": state.turn_limit,
        "seq": state.seq,
        "movement": state.movement,
        "rules_version": state.rules_version,
        "table": state.table.to_dict(),
        "deployment_zones": {side: z.to_dict() for side, z in state.zones.items()},
        "ping_range": state.ping_range,
        "side_names": dict(state.side_names),
        "phase": {
            "step": phase.step,
            "side": phase.side,
            "ship": phase.ship,
            "awaiting": awaiting(state, held=held),
            "deployed": sorted(state.deployed),
            "fire": _fire_view(state),
            "defence": defence_view(state),
            "legal": legal(state, seat, waiting=waiting, paused=paused),
        },
        "ships": [ship_view(state, s, seat) for s in state.ships],
        "markers": markers_view(state, seat),
        "auto_defend": sorted(state.auto_defend),  # the sides' standing orders (public)
        "winner": state.winner,
        "finish_reason": state.finish_reason,
    }


def awaiting(state: GameState, *, held: bool = False) -> list[str]:
    """The sides the game waits for; none while it is ``held`` (waiting for a seat, paused)."""
    step = state.phase.step
    if state.status == GameStatus.FINISHED or held:
        return []
    if step == DEPLOY:
        return [s for s in SIDES if s not in state.deployed]
    if step == FIRE:
        return list(state.phase.awaiting)
    if step == DEFEND:
        return defence_awaiting(state)
    return [state.phase.side] if state.phase.side else []


def _fire_view(state: GameState) -> dict[str, Any] | None:
    phase = state.phase
    if phase.step != FIRE:
        return None
    return {
        "window": phase.window,
        "pinger": phase.pinger,
        "when": "after_move" if phase.moved else "before_move",
        "declared": sorted(phase.declared),
    }


def legal(
    state: GameState, seat: str, *, waiting: bool = False, paused: bool = False
) -> dict[str, Any]:
    """What the caller may send now, from the caller's own knowledge only: the commands whose
    steps hold the current one and that are open to this seat, with what each needs to know."""
    out: dict[str, Any] = {"commands": []}
    if seat not in PLAYER_SEATS or state.status == GameStatus.FINISHED or waiting or paused:
        return out
    out.update(_details(state, seat))
    out["commands"] = [
        cls.type for cls in allowed_in(state.phase.step) if cls.open_to(state, seat, out)
    ]
    return out


def _details(state: GameState, seat: str) -> dict[str, Any]:
    """What the open commands need: placements' limits, the fire options, the ships that can be
    named and their order limits, the modes a launcher can switch to."""
    phase = state.phase
    out: dict[str, Any] = {}
    if phase.step == DEPLOY and seat not in state.deployed:
        out[Deploy.type] = {
            ship.id: {"max_speed": 2 * state.design_of(ship).thrust}
            for ship in state.ships_of(seat)
        }
    elif phase.step == FIRE and seat in phase.awaiting:
        out["window"] = phase.window
        out["fire_options"] = fire_options(state, seat)
    elif phase.step == DEFEND:
        out.update(legal_defend(state, seat))
    elif phase.side == seat:
        switchable = cap.mode_switchable(state, seat)
        modes = mode_options(state, switchable) if switchable is not None else {}
        if modes:
            out[SetMode.type] = modes
        if phase.step == ACTIVATE:
            ready = _ready(state, seat)
            out["activatable"] = [s.id for s in ready]
            # what each could be ordered once named (move and ping name the ship themselves)
            out["ship_limits"] = {s.id: order_limits(state, s) for s in ready}
        if phase.step == Step.FIGHTERS:
            out["fighters"] = fighter_options(state)
        ship = state.active_ship
        if ship is not None and phase.step in (START, AFTER_PING):
            out["order_limits"] = order_limits(state, ship)
            if step2_due(state, ship):  # its step 2 comes before its move (RULES §4)
                out.update(step2_details(state, ship))
    if phase.pending_move is not None and phase.side == seat:
        out["pending_move"] = _pending_move(state)
    return out


def _pending_move(state: GameState) -> dict[str, Any]:
    """The mover's kept move (decision 16) and, once it can be made but no longer fits, why."""
    assert state.phase.pending_move is not None
    out: dict[str, Any] = {"ship": state.phase.ship, "orders": dict(state.phase.pending_move)}
    if state.phase.step in (START, AFTER_PING):
        refused = pending_move_problem(state)
        if refused is not None:
            out["refused"] = refused
    return out


def _ready(state: GameState, seat: str) -> list[ShipState]:
    return [s for s in state.ships_of(seat) if s.in_play and not s.activated]


def mode_options(state: GameState, ship: ShipState) -> dict[str, Any]:
    """The ship's multi-mode weapons: {weapon id: {ship, mode, modes, offline_until}}."""
    out: dict[str, Any] = {}
    for spec in cap.weapon_specs(state, ship):
        modes = SYSTEMS[spec.type].modes
        if modes and ship.system(spec.id).status != SystemStatus.DESTROYED:
            out[spec.id] = {
                "ship": ship.id,
                "mode": cap.weapon_mode(ship, spec),
                "modes": list(modes),
                "offline_until": ship.offline.get(spec.id),
            }
    return out


def order_limits(state: GameState, ship: ShipState) -> dict[str, Any]:
    thrust = cap.thrust(state, ship)
    limits = movement_system(state.movement).limits(thrust)
    return {"ship": ship.id, "speed": ship.speed, **limits.to_dict()}


def ship_view(state: GameState, ship: ShipState, seat: str) -> dict[str, Any]:
    design = state.design_of(ship)
    truth = knows_truth(state, seat, ship)
    shown = design if truth or not has_secret_loads(design) else design.public()
    out: dict[str, Any] = {
        "id": ship.id,
        "name": ship.name,
        "side": ship.side,
        "design": {
            "id": design.id,
            "name": design.name,
            "class": design.hull_class,
            "mass": design.mass,
            "thrust": design.thrust,
            # the other side's copy: a bay's group (a secret load) adds points of its own type
            "points": shown.points(),
            "hull_rows": design.hull_rows,
            "broadside": design.broadside,
            "systems": [spec.to_dict() for spec in shown.all_systems()],
        },
        "status": ship.status,
        "activated": ship.activated,
        "overwatch": ship.overwatch,
        "revealed": ship.revealed,
        "last_known": ship.last_known.to_dict() if ship.last_known else None,
        "hull": {
            "total": design.hull,
            "lost": ship.hull_lost,
            "rows": row_view(design.hull, design.hull_rows, ship.hull_lost),
        },
        "armour": {"total": design.armour, "lost": ship.armour_lost},
        # stealth is public with the design and the hull damage it goes with (C8.2)
        "stealth": {"design": design.stealth, "now": cap.stealth(state, ship)},
        "systems": [
            {"id": s.id, "type": s.type, "status": s.status}
            | ({"beyond_repair": True} if s.beyond_repair else {})
            # a fired rack is spent for the game; firing is public, so is this (C2.1)
            | ({"spent": True} if s.id in ship.spent else {})
            for s in ship.systems
        ],
        # a multi-mode weapon's mode and offline turns are ship condition, public (RULES §6)
        "modes": {
            spec.id: {
                "mode": cap.weapon_mode(ship, spec),
                "offline_until": ship.offline.get(spec.id)
                if cap.offline(state, ship, spec.id)
                else None,
            }
            for spec in design.systems
            if spec.fire_mode() is not None
        },
        "conditions": conditions(ship),
        "fired": sorted(ship.fired),
    }
    if truth:
        out.update(_truth(state, ship))
    elif ship.revealed == "live" and ship.last_known is not None:
        out["position"] = {"x": ship.last_known.x, "y": ship.last_known.y}
        out["heading"] = ship.last_known.heading
    return out


def conditions(ship: ShipState) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if ship.out_of_control and ship.status == ShipStatus.ACTIVE:  # a hulk never activates: no count
        out.append({"type": "out_of_control", "turns_left": ship.out_of_control})
    # a lost bridge (never repaired) is what makes it permanent, whatever the hulk did since
    if (
        ship.status == ShipStatus.OUT_OF_PLAY
        and ship.system("bridge").status == SystemStatus.DESTROYED
    ):
        out.append({"type": "out_of_control", "permanent": True})
    if ship.core_critical:
        out.append({"type": "core_critical"})
    if ship.out_reason == "core_dumped":
        out.append({"type": "core_dumped"})
    if ship.abandoned:
        out.append({"type": "abandoned"})
    if ship.life_support_turns is not None:
        out.append({"type": "life_support_failing", "turns_left": ship.life_support_turns})
    return out


def _truth(state: GameState, ship: ShipState) -> dict[str, Any]:
    """The owner's (and referee's) knowledge of their ship: position, motion, orders, weapons."""
    design = state.design_of(ship)
    weapons = []
    firer_stealth = passive_fire_control(design)  # kept after its stealth is lost (C8.2)
    for spec in cap.weapon_specs(state, ship):
        mode = cap.weapon_mode(ship, spec)
        entry: dict[str, Any] = {
            "id": spec.id,
            "type": spec.type,
            "class": spec.cls,
            "arcs": list(spec.arcs),
            "bands": [b.to_dict() for b in bands(spec, mode=mode, firer_stealth=firer_stealth)],
            "status": ship.system(spec.id).status,
            "fired": spec.id in ship.fired,
            "path": damage_path(spec),
            "screens": screens_apply(spec),
        }
        if spec.weak_arcs:
            entry["weak_arcs"] = list(spec.weak_arcs)
            entry["weak_bands"] = [
                b.to_dict() for b in bands(spec, weak=True, mode=mode, firer_stealth=firer_stealth)
            ]
        if SYSTEMS[spec.type].modes:
            entry["mode"] = mode
            entry["offline"] = cap.offline(state, ship, spec.id)
            entry["offline_until"] = ship.offline.get(spec.id)
        if SYSTEMS[spec.type].targets_system:
            entry["targets_system"] = True
        if SYSTEMS[spec.type].once_per_game:
            entry["once_per_game"] = True
            entry["spent"] = spec.id in ship.spent
        weapons.append(entry)
    return {
        "position": ship.position.to_dict() if ship.position else None,
        "heading": ship.heading,
        # the field is "velocity" in both systems (a cinematic ship's speed stands in it)
        "velocity": movement_system(state.movement).motion_json(ship),
        "thrust": cap.thrust(state, ship),
        "sensors": cap.sensors(state, ship),
        "screen": cap.screen_level(state, ship),
        "fire_controls": cap.fire_controls(ship),
        "locks": list(ship.locks),
        "orders": [r.to_dict() for r in ship.orders_log if r.turn == state.turn],
        "orders_log": [r.to_dict() for r in ship.orders_log],
        "trail": [dict(p) for p in ship.trail],
        "weapons": weapons,
        "max_speed": 2 * design.thrust,
        # loads left in each magazine and rack (secret, RULES §9.1)
        **({"magazines": {k: dict(v) for k, v in ship.loads.items()}} if ship.loads else {}),
        **({"bays": bays_view(state, ship)} if bay_ids(ship) else {}),  # secret, like loads
    }
