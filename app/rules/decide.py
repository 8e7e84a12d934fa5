"""``decide(state, seat, command, dice) -> events``: the game's master.

The pipeline: over? → parse → a player's seat? → your turn? → allowed now? → check → events.
Each event is folded into a working state as it is emitted, so later checks see its effect;
after the command's own events the game advances by itself (volleys, end of activation, end of
turn, the finish) until it waits for somebody again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules import capabilities as cap
from app.rules import damage as dmg
from app.rules.commands import (
    Activate,
    Command,
    CoreAction,
    Deploy,
    EndActivation,
    Fire,
    Move,
    Ping,
    Resign,
    SetMode,
    parse_command,
)
from app.rules.dice import DiceSource, Roller
from app.rules.errors import (
    AlreadyActivated,
    GameFinished,
    IllegalOrders,
    InvalidCommand,
    NoCriticalCore,
    NotYourShip,
    NotYourTurn,
    OutOfControl,
    OutOfZone,
    ShipNotInPlay,
    StaleState,
    UnknownShip,
    UnknownWeapon,
    WrongStep,
)
from app.rules.events import Event
from app.rules.evolve import NEW_TURN, TURN_COUNTED_CONTROL, evolve
from app.rules.fire import awaited_sides, check_declaration, resolve_volley
from app.rules.movement import (
    CinematicOrders,
    MoveResult,
    VectorOrders,
    check_cinematic,
    check_vector,
    drift,
    move_cinematic,
    move_vector,
)
from app.rules.sensors import detect
from app.rules.state import (
    ACTIVATE,
    AFTER_MOVE,
    AFTER_PING,
    DEPLOY,
    FIRE,
    OUT_OF_PLAY,
    PLAYER_SEATS,
    SIDES,
    START,
    TURN_END,
    VOLLEY_DONE,
    GameState,
    ShipState,
    other_side,
)
from app.rules.systems import EMP, EMP_MAX_HITS, MODE_SWITCH_OFFLINE_TURNS, NEEDLE, SYSTEMS

_COMMAND_CLASSES = (
    Deploy,
    Activate,
    Ping,
    Move,
    EndActivation,
    Fire,
    CoreAction,
    SetMode,
    Resign,
)


class _Builder:
    """Collects events, folding each into a working state as it is emitted."""

    def __init__(self, state: GameState, dice: DiceSource) -> None:
        self.state = state
        self.roller = Roller(dice, state.next_roll)
        self.events: list[Event] = []

    def emit(self, kind: str, data: dict[str, Any], turn: int | None = None) -> Event:
        legacy = self.state.rules_version in TURN_COUNTED_CONTROL
        if kind in ("activation_started", "activation_ended") and not legacy:
            data = _command_bridge_count(self.state, kind, data)
        event = Event(self.state.seq + 1, self.state.turn if turn is None else turn, kind, data)
        self.state = evolve(self.state, event)
        self.events.append(event)
        return event


def _command_bridge_count(state: GameState, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """A knocked-out command bridge counts the ship's own activations, like the bridge (RULES §8,
    C3.7): each activation that starts with it out is one of them (``command_bridge_out`` then
    says how many are left after this one), and it is back when the last one ends."""
    ship = state.ship(data["ship"])
    if kind == "activation_started" and ship.command_bridge_out > 0:
        return {**data, "command_bridge_out": ship.command_bridge_out - 1}
    # a damaged command bridge always has a count, so 0 here means its last activation ended
    damaged = any(s.status == "damaged" for s in ship.systems_of(dmg.COMMAND_BRIDGE))
    if kind == "activation_ended" and ship.command_bridge_out == 0 and damaged:
        return {**data, "command_bridge_restored": True}
    return data


def decide(
    state: GameState,
    seat: str,
    command: Command | Mapping[str, Any],
    dice: DiceSource,
) -> list[Event]:
    """The events a command causes, or a ``RulesError`` saying why it is refused."""
    if state.status == "finished":
        raise GameFinished("the game is over")
    if seat not in PLAYER_SEATS:
        raise NotYourShip("only the players' seats A and B send game commands")
    cmd = (
        command if isinstance(command, _COMMAND_CLASSES) else parse_command(command, state.movement)
    )
    b = _Builder(state, dice)
    if isinstance(cmd, Deploy):
        _deploy(b, seat, cmd)
    elif isinstance(cmd, Activate):
        _activate(b, seat, cmd)
    elif isinstance(cmd, Ping):
        _ping(b, seat, cmd)
    elif isinstance(cmd, Move):
        _move(b, seat, cmd)
    elif isinstance(cmd, EndActivation):
        _end_activation(b, seat, cmd)
    elif isinstance(cmd, Fire):
        _fire(b, seat, cmd)
    elif isinstance(cmd, CoreAction):
        _core_action(b, seat, cmd)
    elif isinstance(cmd, SetMode):
        _set_mode(b, seat, cmd)
    else:
        b.emit("game_finished", finish(b.state, other_side(seat), "resigned", resigned=seat))
    advance(b)
    # every roll drawn is listed by some event, so a replay's dice counter matches
    assert b.state.next_roll == b.roller.next, "a roll was drawn but not recorded"
    return b.events


def check_at_seq(state: GameState, at_seq: int | None) -> None:
    if at_seq is not None and at_seq != state.seq:
        raise StaleState(f"the game has moved on to seq {state.seq} since seq {at_seq}; re-fetch")


# -- gates ---------------------------------------------------------------------------------------
def _own_ship(state: GameState, seat: str, ship_id: str) -> ShipState:
    if not state.has_ship(ship_id):
        raise UnknownShip(f"there is no ship {ship_id!r} in this game")
    ship = state.ship(ship_id)
    if ship.side != seat:
        raise NotYourShip(f"{ship.name} belongs to side {ship.side}")
    return ship


def _gate(state: GameState, seat: str, command: str, steps: tuple[str, ...]) -> None:
    """Your turn? Allowed now? A refusal names what the game waits for instead."""
    phase = state.phase
    if phase.step == DEPLOY:
        raise WrongStep(f"the game is in deployment: {command} comes after both sides deploy")
    if phase.step == FIRE:
        if seat in phase.awaiting:
            raise WrongStep(f"fire window {phase.window} is open: send your fire declaration")
        raise NotYourTurn(f"fire window {phase.window} waits for side {', '.join(phase.awaiting)}")
    if phase.side != seat:
        raise NotYourTurn(f"it is side {phase.side}'s activation")
    if phase.step not in steps:
        ship = state.active_ship
        doing = f"{ship.name} is activating ({phase.step.replace('_', ' ')})" if ship else ""
        raise WrongStep(
            f"{command} is not allowed now: {doing or phase.step}; " + _next_hint(state)
        )


def _next_hint(state: GameState) -> str:
    step = state.phase.step
    return {
        ACTIVATE: "name a ship with activate, ping or move",
        START: "ping or move the activating ship",
        AFTER_PING: "the activating ship must move now",
        AFTER_MOVE: "ping, or end the activation to go on overwatch",
    }.get(step, "wait")


def _check_activatable(state: GameState, ship: ShipState) -> None:
    if not ship.in_play:
        raise ShipNotInPlay(f"{ship.name} is {ship.status.replace('_', ' ')}")
    if ship.activated:
        raise AlreadyActivated(f"{ship.name} has already activated this turn")


def _named(state: GameState, seat: str, ship_id: str, command: str) -> ShipState:
    """The activating ship, naming it first if none is named yet (ping and move do that)."""
    ship = _own_ship(state, seat, ship_id)
    if state.phase.step == ACTIVATE:
        _check_activatable(state, ship)
        if ship.out_of_control:
            raise OutOfControl(f"{ship.name} is out of control: name it with activate to drift it")
        return ship
    if state.phase.ship != ship.id:
        active = state.active_ship
        raise InvalidCommand(
            f"{active.name if active else 'another ship'} is activating, not {ship.name}"
        )
    if ship.out_of_control:
        raise OutOfControl(f"{ship.name} is out of control and can only drift")
    return ship


# -- commands ------------------------------------------------------------------------------------
def _deploy(b: _Builder, seat: str, cmd: Deploy) -> None:
    state = b.state
    if state.phase.step != DEPLOY:
        raise WrongStep("deployment is over")
    if seat in state.deployed:
        raise WrongStep(f"side {seat} has already deployed")
    zone = state.zones[seat]
    seen: set[str] = set()
    placed = []
    for p in cmd.ships:
        ship = _own_ship(state, seat, p.ship)
        if ship.id in seen:
            raise InvalidCommand(f"{ship.name} is placed twice")
        seen.add(ship.id)
        if not zone.contains(p.position):
            raise OutOfZone(
                f"{ship.name} at ({p.position.x:g}, {p.position.y:g}) is outside your deployment "
                f"zone x {zone.x0:g}–{zone.x1:g}, y {zone.y0:g}–{zone.y1:g}"
            )
        if not 0 <= p.heading <= 11:
            raise InvalidCommand(
                f"{ship.name}: heading must be a clock point 0..11, not {p.heading}"
            )
        limit = 2 * state.design_of(ship).thrust
        if p.velocity is not None:
            if p.velocity.length() > limit + 1e-9:
                raise IllegalOrders(
                    f"{ship.name}: starting velocity {p.velocity.length():.2f} exceeds twice "
                    f"its thrust ({limit})"
                )
        elif p.speed is None or not 0 <= p.speed <= limit:
            raise IllegalOrders(
                f"{ship.name}: starting speed {p.speed} must be 0..{limit} (twice its thrust)"
            )
        placed.append(p.to_dict())
    missing = [s.name for s in state.ships_of(seat) if s.id not in seen]
    if missing:
        raise InvalidCommand(f"deploy every ship of your side: missing {', '.join(missing)}")
    b.emit("deployed", {"side": seat, "ships": placed})


def _activate(b: _Builder, seat: str, cmd: Activate) -> None:
    _gate(b.state, seat, "activate", (ACTIVATE,))
    ship = _own_ship(b.state, seat, cmd.ship)
    _check_activatable(b.state, ship)
    b.emit("activation_started", {"side": seat, "ship": ship.id})
    if ship.out_of_control:
        counted = b.state.rules_version not in TURN_COUNTED_CONTROL
        _drift(b, b.state.ship(ship.id), counted=counted)


def _ping(b: _Builder, seat: str, cmd: Ping) -> None:
    _gate(b.state, seat, "ping", (ACTIVATE, START, AFTER_MOVE))
    ship = _named(b.state, seat, cmd.ship, "ping")
    if b.state.phase.step == ACTIVATE:
        b.emit("activation_started", {"side": seat, "ship": ship.id})
    when = "after_move" if b.state.phase.moved else "before_move"
    data = detect(b.state, b.state.ship(ship.id), b.roller)
    b.emit("ping", data)
    b.emit(
        "ship_revealed",
        {
            "ship": ship.id,
            "position": data["position"],
            "heading": data["heading"],
            "cause": "ping",
        },
    )
    for item in data["detections"]:
        if item["revealed"]:
            target = b.state.ship(item["target"])
            assert target.position is not None
            b.emit(
                "ship_revealed",
                {
                    "ship": target.id,
                    "position": target.position.to_dict(),
                    "heading": target.heading,
                    "cause": "ping",
                    "by": ship.id,
                },
            )
    awaiting = awaited_sides(b.state, ship.id)
    b.emit(
        "fire_window",
        {"window": b.state.seq + 1, "pinger": ship.id, "when": when, "awaiting": list(awaiting)},
    )


def _plot(state: GameState, ship: ShipState, cmd: Move) -> MoveResult:
    assert ship.position is not None
    thrust = cap.thrust(state, ship)
    orders = cmd.orders
    if isinstance(orders, CinematicOrders):
        check_cinematic(orders, ship.speed, thrust)
        result = move_cinematic(ship.position, ship.heading, ship.speed, orders)
    else:
        assert isinstance(orders, VectorOrders)
        check_vector(orders, thrust)
        result = move_vector(ship.position, ship.heading, ship.velocity, orders)
    if not state.table.contains(result.position) and not orders.leave:
        raise IllegalOrders(
            f"this move ends off the table at ({result.position.x:.1f}, {result.position.y:.1f}); "
            'add "leave": true to leave the battle'
        )
    return result


def _moved_payload(
    ship: ShipState, result: MoveResult, orders: Mapping[str, Any], drifting: bool
) -> dict[str, Any]:
    assert ship.position is not None
    data: dict[str, Any] = {
        "ship": ship.id,
        "from": ship.position.to_dict(),
        "to": result.position.to_dict(),
        "heading": result.heading,
        "orders": dict(orders),
        "path": [p.to_dict() for p in result.path],
        "drift": drifting,
    }
    if result.velocity is not None:
        data["velocity"] = result.velocity.to_dict()
    else:
        data["speed"] = result.speed
    return data


def _after_move(b: _Builder, ship_id: str, result: MoveResult) -> bool:
    """Leaving the table; returns True when the ship has left."""
    if b.state.table.contains(result.position):
        return False
    b.emit("ship_left", {"ship": ship_id})
    return True


def _move(b: _Builder, seat: str, cmd: Move) -> None:
    state = b.state
    if state.phase.step == AFTER_MOVE and state.phase.side == seat:
        raise WrongStep("the activating ship has already moved: ping or end the activation")
    _gate(state, seat, "move", (ACTIVATE, START, AFTER_PING))
    ship = _named(state, seat, cmd.ship, "move")
    result = _plot(state, ship, cmd)
    if state.phase.step == ACTIVATE:
        b.emit("activation_started", {"side": seat, "ship": ship.id})
    pinged_first = b.state.phase.pinged == "before_move"
    b.emit("ship_moved", _moved_payload(ship, result, cmd.orders.to_dict(), False))
    if _after_move(b, ship.id, result):
        b.emit("activation_ended", {"ship": ship.id, "overwatch": False, "reason": "left"})
    elif pinged_first:
        # a ship that pinged before its move ends its activation with the move
        b.emit("activation_ended", {"ship": ship.id, "overwatch": False, "reason": "pinged"})


def _drift_move(b: _Builder, ship: ShipState) -> MoveResult:
    """The ship keeps its course and speed (orders "no change"): a secret move like any other."""
    assert ship.position is not None
    motion: int | Any = ship.velocity if b.state.movement == "vector" else ship.speed
    result = drift(ship.position, ship.heading, motion, b.state.movement)
    orders = (
        {"rotate": 0, "thrust": 0}
        if b.state.movement == "vector"
        else {"speed_change": 0, "turn": 0}
    )
    b.emit("ship_moved", _moved_payload(ship, result, orders, True))
    return result


def _drift(b: _Builder, ship: ShipState, counted: bool = False) -> None:
    """An out-of-control ship keeps its course and speed; its activation ends there.

    ``counted``: an activation that began out of control, one of the N it drifts through (RULES
    §8); control comes back when the last one ends. A ship that loses its bridge during its own
    activation drifts for the rest of it, and that activation is not one of the N.
    """
    result = _drift_move(b, ship)
    reason = "left" if _after_move(b, ship.id, result) else "out_of_control"
    ended: dict[str, Any] = {"ship": ship.id, "overwatch": False, "reason": reason}
    if counted and reason == "out_of_control":
        ended["out_of_control"] = ship.out_of_control - 1
        if ship.out_of_control == 1:
            ended["regained_control"] = True
    b.emit("activation_ended", ended)


def _end_activation(b: _Builder, seat: str, cmd: EndActivation) -> None:
    state = b.state
    if state.phase.step in (START, AFTER_PING) and state.phase.side == seat:
        raise WrongStep("move first: end_activation comes after the move")
    _gate(state, seat, "end_activation", (AFTER_MOVE,))
    ship = _named(state, seat, cmd.ship, "end_activation")
    b.emit("activation_ended", {"ship": ship.id, "overwatch": True, "reason": "overwatch"})


def _fire(b: _Builder, seat: str, cmd: Fire) -> None:
    phase = b.state.phase
    if phase.step != FIRE:
        # RULES §7: a declaration for a closed window is refused as stale
        raise StaleState(f"fire window {cmd.window} is closed: no fire window is open now")
    if cmd.window != phase.window:
        raise StaleState(f"fire window {cmd.window} is closed; the open window is {phase.window}")
    if seat not in phase.awaiting:
        if seat in phase.declared:
            raise WrongStep(f"side {seat} has already declared its fire for this window")
        raise WrongStep(f"side {seat} has no ship allowed to fire in this window")
    check_declaration(b.state, seat, cmd.shots)
    b.emit(
        "fire_declared",
        {"side": seat, "window": cmd.window, "shots": [s.to_dict() for s in cmd.shots]},
    )


def _core_action(b: _Builder, seat: str, cmd: CoreAction) -> None:
    state = b.state
    if state.phase.step == DEPLOY:
        raise WrongStep("no power core is critical during deployment")
    ship = _own_ship(state, seat, cmd.ship)
    # any time, in play or a hulk, as long as someone is aboard to choose (RULES §8)
    if ship.on_table and ship.abandoned:
        raise NoCriticalCore(f"{ship.name}'s crew has abandoned ship: nobody is aboard to choose")
    if not ship.crew_aboard or not ship.core_critical:
        raise NoCriticalCore(f"{ship.name}'s power core is not critical")
    b.emit("core_action", {"ship": ship.id, "action": cmd.action})


def _set_mode(b: _Builder, seat: str, cmd: SetMode) -> None:
    state = b.state
    ship = _own_ship(state, seat, cmd.ship)
    _gate(state, seat, "set_mode", (START, AFTER_PING, AFTER_MOVE))
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


# -- the game moving on by itself ----------------------------------------------------------------
def advance(b: _Builder) -> None:
    while b.state.status != "finished":
        state = b.state
        step = state.phase.step
        if step == DEPLOY:
            if state.deployed != set(SIDES):
                return
            _start_turn(b)
            continue
        over = game_over(state)
        if over is not None:
            b.emit("game_finished", over)
            return
        ship = state.active_ship
        if step in (START, AFTER_PING, AFTER_MOVE) and ship is not None:
            if not ship.in_play:
                b.emit(
                    "activation_ended", {"ship": ship.id, "overwatch": False, "reason": ship.status}
                )
                continue
            if ship.out_of_control:
                # lost the bridge in a volley: it can only drift now
                if step == AFTER_MOVE:
                    b.emit(
                        "activation_ended",
                        {"ship": ship.id, "overwatch": False, "reason": "out_of_control"},
                    )
                else:
                    _drift(b, ship)
                continue
            return
        if step == VOLLEY_DONE and ship is not None:
            b.emit("activation_ended", {"ship": ship.id, "overwatch": False, "reason": "pinged"})
            continue
        if step == FIRE and not state.phase.awaiting:
            _volley(b)
            continue
        if step == TURN_END:
            _end_turn(b)
            continue
        if step == NEW_TURN:
            _start_turn(b)
            continue
        return


def _volley(b: _Builder) -> None:
    """All shots at once: dice, then all damage, then threshold checks, then the destroyed."""
    state = b.state
    shooters: list[str] = []
    for side in SIDES:
        for shot in state.phase.declared.get(side, ()):
            if shot.ship not in shooters:
                shooters.append(shot.ship)
    for ship in state.ships:
        if ship.id in shooters and ship.in_control:
            assert ship.position is not None
            b.emit(
                "ship_revealed",
                {
                    "ship": ship.id,
                    "position": ship.position.to_dict(),
                    "heading": ship.heading,
                    "cause": "fire",
                },
            )
    resolved = resolve_volley(b.state, b.roller)
    b.emit("fire_resolved", resolved)
    shots = [shot for shot in resolved["shots"] if not shot.get("cancelled")]
    damage: dict[str, list[int]] = {}
    for shot in shots:
        tally = damage.setdefault(shot["target"], [0, 0])
        tally[0] += shot["armour_damage"]
        tally[1] += shot["hull_damage"]
    batches = []
    for ship in b.state.ships:
        if ship.id in damage and sum(damage[ship.id]) > 0:
            batch = dmg.apply_hits(b.state, ship, damage[ship.id][0], damage[ship.id][1])
            b.emit("damage", batch)
            batches.append(batch)
    destroyed = {batch["ship"] for batch in batches if batch["destroyed"]}
    # needle 6s: the named system (C1.6, C1.8)
    for shot in shots:
        if shot["path"] == NEEDLE and shot["sixes"] and shot["target"] not in destroyed:
            effect = dmg.needle_effect(
                b.state.ship(shot["target"]), shot["system"], shot["sixes"], shot["pair"]
            )
            if effect is not None:
                b.emit("system_damaged", {**effect, "by": shot["ship"], "weapon": shot["weapon"]})
    # EMP: at most 3 hits per firing ship and target, after all of its weapons (C1.5)
    emp_hits: dict[tuple[str, str], int] = {}
    for shot in shots:
        if shot["path"] == EMP:
            key = (shot["ship"], shot["target"])
            emp_hits[key] = emp_hits.get(key, 0) + shot["emp_hits"]
    for (firer, target_id), n in emp_hits.items():
        if n <= 0 or target_id in destroyed:
            continue
        # C1.5's cap holds for the turn: hits counted in an earlier window of it come off
        room = EMP_MAX_HITS - b.state.ship(firer).emp_hits.get(target_id, 0)
        effect, failures = dmg.emp_effect(
            b.state.ship(target_id), firer, n, b.roller, cap=max(room, 0)
        )
        b.emit("emp", effect)
        for failure in failures:
            b.emit("system_damaged", failure)
    for batch in batches:
        if batch["rows_finished"] and not batch["destroyed"]:
            check, failures = dmg.threshold_check(
                b.state.ship(batch["ship"]), batch["rows_finished"], b.roller
            )
            b.emit("threshold_check", check)
            for failure in failures:
                b.emit("system_damaged", failure)
    for batch in batches:
        if batch["destroyed"]:
            b.emit("ship_destroyed", {"ship": batch["ship"], "cause": "volley"})


def _drift_hulks(b: _Builder) -> None:
    """Every hulk drifts on its last course and speed (vector: velocity), C8.1, in roster order:
    a secret move like any other (a live marker goes stale), and one drifting off the table has
    left it. A ship that already moved this turn, before it became a hulk, drifts from the next
    turn on, so that no ship moves twice in a turn. Whether a hulk drifts depends only on public
    facts (its status and whether it moved), never on where it is."""
    for ship in b.state.ships:
        if ship.status != OUT_OF_PLAY or ship.position is None or ship.moved_in(b.state.turn):
            continue
        _after_move(b, ship.id, _drift_move(b, ship))


def _end_turn(b: _Builder) -> None:
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
        and (s.status == "active" or (s.status == OUT_OF_PLAY and s.crew_aboard))
    ]
    # out of control and a knocked-out command bridge count activations, not turns (RULES §8):
    # control comes back in ``activation_ended``; the list stays, empty, for older readers
    payload: dict[str, Any] = {
        "turn": b.state.turn,
        "regained_control": [],
        "life_support_failed": failed,
    }
    if b.state.rules_version in TURN_COUNTED_CONTROL:  # a game begun before 2026.12
        active = [s for s in b.state.ships if s.status == "active"]
        payload["regained_control"] = [s.id for s in active if s.out_of_control == 1]
        restored = [s.id for s in active if s.command_bridge_out == 1]
        if restored:
            payload["command_bridge_restored"] = restored
    b.emit("turn_ended", payload)


def _start_turn(b: _Builder) -> None:
    state = b.state
    if state.turn >= state.turn_limit and state.turn > 0:
        b.emit("game_finished", finish(state, None, "turn_limit"))
        return
    for ship in state.ships:
        if ship.status in ("destroyed", "left") or ship.system("core").status != "damaged":
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
    if game_over(b.state) is not None:
        return  # advance() finishes it
    counts = {side: len(b.state.in_play(side)) for side in SIDES}
    mark = b.roller.mark()
    rolloff: list[list[int]] = []
    if counts["A"] != counts["B"]:
        first = "A" if counts["A"] > counts["B"] else "B"
    else:
        while True:  # each side rolls 1D6, ties reroll
            a, bb = b.roller.d6(), b.roller.d6()
            rolloff.append([a, bb])
            if a != bb:
                first = "A" if a > bb else "B"
                break
    b.emit(
        "turn_started",
        {
            "turn": state.turn + 1,
            "first_side": first,
            "ships_in_play": counts,
            "rolloff": rolloff,
            "rolls": b.roller.since(mark),
        },
        turn=state.turn + 1,
    )


# -- winning -------------------------------------------------------------------------------------
def score(state: GameState) -> dict[str, float]:
    """Enemy points each side destroyed; a ship off the table or out of play counts half."""
    out = {}
    for side in SIDES:
        total = 0.0
        for ship in state.ships_of(other_side(side)):
            if ship.status == "destroyed":
                total += cap.points(state, ship)
            elif ship.status in ("out_of_play", "left"):
                total += cap.points(state, ship) / 2
        out[side] = total
    return out


def finish(state: GameState, winner: str | None, reason: str, **extra: Any) -> dict[str, Any]:
    points = score(state)
    if winner is None:
        winner = (
            "draw" if points["A"] == points["B"] else ("A" if points["A"] > points["B"] else "B")
        )
    return {"winner": winner, "reason": reason, "score": points, **extra}


def game_over(state: GameState) -> dict[str, Any] | None:
    """A side with no ships in play loses; both at once is a draw."""
    out = [side for side in SIDES if not state.in_play(side)]
    if len(out) == 2:
        return finish(state, "draw", "no_ships_left")
    if len(out) == 1:
        return finish(state, other_side(out[0]), "no_ships_left")
    return None
