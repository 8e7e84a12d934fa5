"""``evolve(state, event) -> state``: fold one event into the state. No dice, no choices.

Everything an event decided (dice, hits, which system failed) is in its payload, so folding the
log again always rebuilds the same state (``replay``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from app.rules.designs import Design
from app.rules.events import Event
from app.rules.geometry import Table, Vec, Zone
from app.rules.rewind import keep_reveals
from app.rules.state import (
    ACTIVATE,
    AFTER_MOVE,
    AFTER_PING,
    DEPLOY,
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
    Phase,
    ShipState,
    Shot,
    Step,
    SystemState,
    SystemStatus,
    other_side,
)

NEW_TURN = Step.NEW_TURN  # transient: the turn has ended, the next one (or the finish) is due


def start_state(event: Event) -> GameState:
    """The state a ``game_started`` event sets up: roster, designs, table; deployment next."""
    if event.type != "game_started":
        raise ValueError(f"a game's log starts with game_started, not {event.type}")
    d = event.data
    designs = {k: Design.from_dict(v) for k, v in d["designs"].items()}
    ships = []
    for s in d["ships"]:
        design = designs[s["design"]]
        systems = tuple(SystemState(spec.id, spec.type) for spec in design.all_systems())
        ships.append(ShipState(s["id"], s["name"], s["side"], s["design"], systems))
    return GameState(
        game_id=d["game_id"],
        rules_version=d["rules_version"],
        movement=d["movement"],
        table=Table.from_dict(d["table"]),
        zones={side: Zone.from_dict(z) for side, z in d["zones"].items()},
        turn_limit=d["turn_limit"],
        ping_range=d.get("ping_range"),
        side_names=dict(d["side_names"]),
        designs=designs,
        ships=tuple(ships),
        seq=event.seq,
        phase=Phase(step=DEPLOY),
    )


def evolve(state: GameState, event: Event) -> GameState:
    handler = _HANDLERS.get(event.type)
    new = handler(state, event.data, event) if handler else state
    rolls = event.data.get("rolls") or []
    next_roll = max(new.next_roll, max(rolls) + 1) if rolls else new.next_roll
    return replace(new, seq=event.seq, next_roll=next_roll)


def replay(events: list[Event]) -> GameState:
    state = start_state(events[0])
    for event in events[1:]:
        state = evolve(state, event)
    return state


# -- helpers -------------------------------------------------------------------------------------
def _ship(
    state: GameState, data: Mapping[str, Any], f: Callable[[ShipState], ShipState]
) -> GameState:
    return state.with_ship(f(state.ship(data["ship"])))


def _set_system(ship: ShipState, system_id: str, status: str) -> ShipState:
    return replace(
        ship,
        systems=tuple(
            replace(s, status=SystemStatus(status)) if s.id == system_id else s
            for s in ship.systems
        ),
    )


def _mark_last_move_pinged(ship: ShipState) -> ShipState:
    if not ship.orders_log or ship.orders_log[-1].pinged:
        return ship
    last = replace(ship.orders_log[-1], pinged=True)
    return replace(ship, orders_log=(*ship.orders_log[:-1], last))


# -- handlers ------------------------------------------------------------------------------------
def _deployed(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    for p in d["ships"]:
        velocity = Vec.from_dict(p["velocity"]) if "velocity" in p else Vec(0.0, 0.0)

        def place(s: ShipState, p: Mapping[str, Any] = p, velocity: Vec = velocity) -> ShipState:
            return replace(
                s,
                deployed=True,
                position=Vec.from_dict(p["position"]),
                heading=p["heading"],
                speed=p.get("speed", 0),
                velocity=velocity,
            )

        state = _ship(state, p, place)
    return replace(state, deployed=state.deployed | {d["side"]})


def _turn_started(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    ships = tuple(replace(s, activated=False) for s in state.ships)
    return replace(
        state,
        ships=ships,
        turn=d["turn"],
        first_side=d["first_side"],
        phase=Phase(step=ACTIVATE, side=d["first_side"]),
    )


def _core_roll(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    return _ship(
        state,
        d,
        lambda s: replace(s, explosion_rolls=s.explosion_rolls + (1 if s.abandoned else 0)),
    )


def _activation_started(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    if "command_bridge_out" in d:  # one of the activations it is knocked out for (C3.7)
        state = _ship(state, d, lambda s: replace(s, command_bridge_out=d["command_bridge_out"]))
    return replace(state, phase=Phase(step=START, side=d["side"], ship=d["ship"]))


def _ping(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    state = _ship(state, d, lambda s: replace(s, overwatch=False))
    when = "after_move" if state.phase.moved else "before_move"
    return replace(state, phase=replace(state.phase, pinged=when))


def _ship_revealed(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    pos = d["position"]
    known = LastKnown(pos["x"], pos["y"], d["heading"], e.turn, e.seq)
    return _ship(
        state, d, lambda s: _mark_last_move_pinged(replace(s, revealed="live", last_known=known))
    )


def _ship_moved(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    def move(s: ShipState) -> ShipState:
        record = MoveRecord(e.turn, e.seq, dict(d["orders"]), drift=d.get("drift", False))
        return replace(
            s,
            position=Vec.from_dict(d["to"]),
            heading=d["heading"],
            speed=d.get("speed", s.speed),
            velocity=Vec.from_dict(d["velocity"]) if "velocity" in d else s.velocity,
            # a live marker goes stale the moment the ship moves
            revealed="stale" if s.revealed == "live" else s.revealed,
            orders_log=(*s.orders_log, record),
            trail=(*s.trail, *d["path"]),
        )

    state = _ship(state, d, move)
    if state.phase.ship == d["ship"] and state.phase.step in (START, AFTER_PING):
        state = replace(state, phase=replace(state.phase, moved=True, step=AFTER_MOVE))
    return state


def _ship_left(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    return _ship(state, d, lambda s: replace(s, status=LEFT, out_reason="left"))


def _activation_ended(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    def end(s: ShipState) -> ShipState:
        s = replace(s, activated=True, overwatch=d["overwatch"])
        if "out_of_control" in d:  # a drifting activation counted (RULES §8)
            s = replace(s, out_of_control=d["out_of_control"])
        if d.get("regained_control"):
            s = _set_system(s, "bridge", "ok")
        if d.get("command_bridge_restored"):
            for cb in s.systems_of("command_bridge"):
                if cb.status == "damaged":
                    s = _set_system(s, cb.id, "ok")
        return s

    state = _ship(state, d, end)
    last = state.phase.side or state.ship(d["ship"]).side
    # sides alternate; when one has no unactivated ship left the other goes on alone
    return _hand_on(state, (other_side(last), last))


def _hand_on(state: GameState, order: tuple[str, str]) -> GameState:
    """The first side in ``order`` with an unactivated ship in play names the next; if
    neither has one, the turn is over."""
    for side in order:
        if any(s.in_play and not s.activated for s in state.ships_of(side)):
            return replace(state, phase=Phase(step=ACTIVATE, side=side))
    return replace(state, phase=Phase(step=TURN_END))


def _fire_window(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    phase = replace(
        state.phase,
        step=FIRE,
        window=e.seq,
        pinger=d["pinger"],
        awaiting=tuple(d["awaiting"]),
        declared={},
    )
    return replace(state, phase=phase)


def _fire_declared(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    shots = tuple(Shot.from_dict(s) for s in d["shots"])
    phase = state.phase
    phase = replace(
        phase,
        declared={**phase.declared, d["side"]: shots},
        awaiting=tuple(s for s in phase.awaiting if s != d["side"]),
    )
    return replace(state, phase=phase)


def _fire_resolved(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    for shot in d["shots"]:
        if shot.get("cancelled"):
            continue

        def fired(s: ShipState, shot: Mapping[str, Any] = shot) -> ShipState:
            locks = s.locks if shot["target"] in s.locks else (*s.locks, shot["target"])
            return replace(s, fired=s.fired | {shot["weapon"]}, locks=locks)

        state = _ship(state, shot, fired)
    step = AFTER_PING if state.phase.pinged == "before_move" else VOLLEY_DONE
    phase = replace(state.phase, step=step, window=None, awaiting=(), declared={})
    return replace(state, phase=phase)


def _damage(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    return _ship(
        state,
        d,
        lambda s: replace(
            s, armour_lost=s.armour_lost + d["armour_lost"], hull_lost=s.hull_lost + d["hull_lost"]
        ),
    )


def _system_damaged(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    def hit(s: ShipState) -> ShipState:
        s = _set_system(s, d["system"], d["status"])
        if d.get("beyond_repair"):
            s = replace(
                s,
                systems=tuple(
                    replace(x, beyond_repair=True) if x.id == d["system"] else x for x in s.systems
                ),
            )
        if d.get("permanent"):
            # a hulk hit again keeps the reason it first went out of play (a dumped core, say)
            reason = "permanently_out_of_control" if s.status == "active" else s.out_reason
            return replace(s, status=OUT_OF_PLAY, out_of_control=0, out_reason=reason)
        if "out_of_control" in d:
            s = replace(s, out_of_control=d["out_of_control"])
        if "life_support_turns" in d:
            s = replace(s, life_support_turns=d["life_support_turns"])
        if "command_bridge_out" in d:
            s = replace(s, command_bridge_out=d["command_bridge_out"])
        elif d.get("type") == "command_bridge":
            s = replace(s, command_bridge_out=0)  # destroyed: no countdown left
        return s

    return _ship(state, d, hit)


def _ship_destroyed(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    return _ship(state, d, lambda s: replace(s, status=DESTROYED, out_reason=d["cause"]))


def _core_action(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    if d["action"] == "dump":
        # no power for anything but emergency life support: drifting, out of the battle
        state = _ship(
            state,
            d,
            lambda s: replace(
                _set_system(s, "core", "destroyed"), status=OUT_OF_PLAY, out_reason="core_dumped"
            ),
        )
    else:
        state = _ship(
            state,
            d,
            lambda s: replace(
                s,
                status=OUT_OF_PLAY,
                abandoned=True,
                # nobody aboard: no countdown runs any more; a hulk keeps its first reason
                life_support_turns=None,
                command_bridge_out=0,
                out_reason="abandoned" if s.status == "active" else s.out_reason,
            ),
        )
    # the side due to name a ship may have just lost its last unactivated one: hand on
    phase = state.phase
    if phase.step == ACTIVATE and phase.side is not None:
        return _hand_on(state, (phase.side, other_side(phase.side)))
    return state


def _emp(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    # the firer counts its hits on this target for the turn (C1.5's cap of 3); the systems lost
    # follow as system_damaged events
    def count(s: ShipState) -> ShipState:
        hits = dict(s.emp_hits)
        hits[d["ship"]] = hits.get(d["ship"], 0) + d["hits"]
        return replace(s, emp_hits=hits)

    return _ship(state, {"ship": d["by"]}, count)


def _mode_set(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    return _ship(
        state,
        d,
        lambda s: replace(
            s,
            modes={**s.modes, d["weapon"]: d["mode"]},
            offline={**s.offline, d["weapon"]: d["offline_until"]},
        ),
    )


def _damage_control(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    def repair(s: ShipState) -> ShipState:
        for attempt in d["attempts"]:
            if not attempt["repaired"]:
                continue
            system_id = attempt["system"]
            s = _set_system(s, system_id, "ok")
            if system_id == "bridge":
                s = replace(s, out_of_control=0)
            elif system_id == "life_support":
                s = replace(s, life_support_turns=None)
            elif s.system(system_id).type == "command_bridge":
                s = replace(s, command_bridge_out=0)
        return s

    return _ship(state, d, repair)


# Games started under these rules versions counted "out of control for N turns" (and a
# knocked-out command bridge) at the end of each turn; their logs replay as they were played.
TURN_COUNTED_CONTROL = frozenset({"2026.11-1"})


def _turn_ended(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    failed = set(d["life_support_failed"])
    legacy = state.rules_version in TURN_COUNTED_CONTROL

    def tick(s: ShipState) -> ShipState:
        s = replace(s, fired=frozenset(), locks=(), trail=(), emp_hits={})
        if s.status != "active":
            return _hulk_life_support(s, failed) if s.crew_aboard else s
        if legacy:
            s = _legacy_control_tick(s, d)
        if s.life_support_turns is not None:
            s = replace(s, life_support_turns=s.life_support_turns - 1)
            if s.id in failed:
                # the crew must abandon ship: a drifting hulk
                s = replace(
                    s,
                    status=OUT_OF_PLAY,
                    abandoned=True,
                    life_support_turns=None,
                    out_reason="life_support_failed",
                )
        return s

    ships = tuple(tick(s) for s in state.ships)
    return replace(state, ships=ships, phase=Phase(step=NEW_TURN))


def _legacy_control_tick(s: ShipState, d: Mapping[str, Any]) -> ShipState:
    """The per-turn countdowns of the rules before 2026.12 (see ``TURN_COUNTED_CONTROL``)."""
    if s.out_of_control:
        s = replace(s, out_of_control=s.out_of_control - 1)
        if s.id in d.get("regained_control", ()):
            s = _set_system(s, "bridge", "ok")
    if s.command_bridge_out:
        s = replace(s, command_bridge_out=s.command_bridge_out - 1)
        if s.id in d.get("command_bridge_restored", ()):
            for cb in s.systems_of("command_bridge"):
                if cb.status == "damaged":
                    s = _set_system(s, cb.id, "ok")
    return s


def _hulk_life_support(s: ShipState, failed: set[str]) -> ShipState:
    """A hulk's crew still aboard lives on its life support: the countdown goes on, and at 0
    the crew abandons the hulk (it keeps the reason it went out of play)."""
    if s.life_support_turns is None:
        return s
    if s.id in failed:
        return replace(s, abandoned=True, life_support_turns=None)
    return replace(s, life_support_turns=s.life_support_turns - 1)


def _game_finished(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    return replace(
        state,
        status=GameStatus.FINISHED,
        winner=d["winner"],
        finish_reason=d["reason"],
        phase=Phase(step=FINISHED),
    )


def _rewound(state: GameState, d: Mapping[str, Any], e: Event) -> GameState:
    # the state was rebuilt without the voided events; the dice counter is never rewound, and
    # what the voided events revealed stays known (``app.rules.rewind``)
    state = keep_reveals(state, d.get("last_known", {}))
    return replace(state, next_roll=max(state.next_roll, d["next_roll"]))


_HANDLERS: dict[str, Callable[[GameState, Mapping[str, Any], Event], GameState]] = {
    "rewound": _rewound,
    "deployed": _deployed,
    "turn_started": _turn_started,
    "core_roll": _core_roll,
    "activation_started": _activation_started,
    "ping": _ping,
    "ship_revealed": _ship_revealed,
    "ship_moved": _ship_moved,
    "ship_left": _ship_left,
    "activation_ended": _activation_ended,
    "fire_window": _fire_window,
    "fire_declared": _fire_declared,
    "fire_resolved": _fire_resolved,
    "damage": _damage,
    "system_damaged": _system_damaged,
    "ship_destroyed": _ship_destroyed,
    "core_action": _core_action,
    "mode_set": _mode_set,
    "emp": _emp,
    "damage_control": _damage_control,
    "turn_ended": _turn_ended,
    "game_finished": _game_finished,
}

__all__ = ["FIRE", "NEW_TURN", "TURN_END", "evolve", "replay", "start_state"]
