"""A game state as plain JSON and back, so that a server can keep a snapshot beside the log.

``state_from_dict(state_to_dict(s)) == s`` for every state; the log stays the truth (a replay
rebuilds the same snapshot), the snapshot only saves replaying it for every command.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.designs import Design
from app.rules.fighters.state import FightersStep, bays_from_dict, bays_to_dict
from app.rules.geometry import Table, Vec, Zone
from app.rules.state import (
    DefenceWindow,
    GameState,
    GameStatus,
    LastKnown,
    MarkerState,
    MoveRecord,
    Phase,
    ShipState,
    ShipStatus,
    Shot,
    Step,
    SystemState,
    SystemStatus,
)

SNAPSHOT_FORMAT = 1
# a snapshot is read for every command: a dict finds a system's status faster than the enum's call
_SYSTEM_STATUS = {status.value: status for status in SystemStatus}


def _ship_to_dict(s: ShipState) -> dict[str, Any]:
    return {
        "id": s.id,
        "name": s.name,
        "side": s.side,
        "design_id": s.design_id,
        # [id, type, status] (+ true when beyond repair; older snapshots have three items)
        "systems": [
            [x.id, x.type, x.status] + ([True] if x.beyond_repair else []) for x in s.systems
        ],
        "status": s.status,
        "deployed": s.deployed,
        "position": s.position.to_dict() if s.position else None,
        "heading": s.heading,
        "speed": s.speed,
        "velocity": s.velocity.to_dict(),
        "activated": s.activated,
        "overwatch": s.overwatch,
        "revealed": s.revealed,
        "last_known": s.last_known.to_dict() if s.last_known else None,
        "hull_lost": s.hull_lost,
        "armour_lost": s.armour_lost,
        "fired": sorted(s.fired),
        "spent": sorted(s.spent),
        "locks": list(s.locks),
        "out_of_control": s.out_of_control,
        "life_support_turns": s.life_support_turns,
        "abandoned": s.abandoned,
        "explosion_rolls": s.explosion_rolls,
        "out_reason": s.out_reason,
        "orders_log": [r.to_dict() for r in s.orders_log],
        "trail": [dict(p) for p in s.trail],
        "modes": dict(s.modes),
        "offline": dict(s.offline),
        "emp_hits": dict(s.emp_hits),
        "command_bridge_out": s.command_bridge_out,
        "loads": {k: dict(v) for k, v in s.loads.items()},
        "launched_kinds": {k: list(v) for k, v in s.launched_kinds.items()},
        "aim_locks": [v.to_dict() for v in s.aim_locks],
        "hm_emp_hits": s.hm_emp_hits,
        "ordnance_cleared": s.ordnance_cleared,
        "bays": bays_to_dict(s.bays),
    }


def _ship_from_dict(d: Mapping[str, Any]) -> ShipState:
    lk = d["last_known"]
    return ShipState(
        id=d["id"],
        name=d["name"],
        side=d["side"],
        design_id=d["design_id"],
        systems=tuple(
            SystemState(x[0], x[1], _SYSTEM_STATUS[x[2]], beyond_repair=len(x) > 3 and bool(x[3]))
            for x in d["systems"]
        ),
        status=ShipStatus(d["status"]),
        deployed=d["deployed"],
        position=Vec.from_dict(d["position"]) if d["position"] else None,
        heading=d["heading"],
        speed=d["speed"],
        velocity=Vec.from_dict(d["velocity"]),
        activated=d["activated"],
        overwatch=d["overwatch"],
        revealed=d["revealed"],
        last_known=LastKnown(lk["x"], lk["y"], lk["heading"], lk["turn"], lk["seq"])
        if lk
        else None,
        hull_lost=d["hull_lost"],
        armour_lost=d["armour_lost"],
        fired=frozenset(d["fired"]),
        # absent from snapshots written before submunition racks
        spent=frozenset(d.get("spent", ())),
        locks=tuple(d["locks"]),
        out_of_control=d["out_of_control"],
        life_support_turns=d["life_support_turns"],
        abandoned=d["abandoned"],
        explosion_rolls=d["explosion_rolls"],
        out_reason=d["out_reason"],
        orders_log=tuple(
            MoveRecord(r["turn"], r["seq"], dict(r["orders"]), r["pinged"], r["drift"])
            for r in d["orders_log"]
        ),
        trail=tuple(dict(p) for p in d["trail"]),
        # absent from snapshots written before multi-mode weapons and command bridges
        modes=dict(d.get("modes", {})),
        offline=dict(d.get("offline", {})),
        emp_hits=dict(d.get("emp_hits", {})),
        command_bridge_out=d.get("command_bridge_out", 0),
        # absent from snapshots written before ordnance
        loads={k: dict(v) for k, v in d.get("loads", {}).items()},
        launched_kinds={k: tuple(v) for k, v in d.get("launched_kinds", {}).items()},
        aim_locks=tuple(Vec.from_dict(v) for v in d.get("aim_locks", ())),
        hm_emp_hits=d.get("hm_emp_hits", 0),
        ordnance_cleared=d.get("ordnance_cleared", False),
        bays=bays_from_dict(d.get("bays", {})),  # absent before fighters
    )


def _phase_to_dict(p: Phase) -> dict[str, Any]:
    return {
        "step": p.step,
        "side": p.side,
        "ship": p.ship,
        "pinged": p.pinged,
        "moved": p.moved,
        "window": p.window,
        "pinger": p.pinger,
        "awaiting": list(p.awaiting),
        "declared": {side: [s.to_dict() for s in shots] for side, shots in p.declared.items()},
        "defence": p.defence.to_dict() if p.defence is not None else None,
        "step2_done": p.step2_done,
        "pending_move": dict(p.pending_move) if p.pending_move is not None else None,
        "fighters": p.fighters.to_dict() if p.fighters is not None else None,
    }


def _phase_from_dict(d: Mapping[str, Any]) -> Phase:
    return Phase(
        step=Step(d["step"]),
        side=d["side"],
        ship=d["ship"],
        pinged=d["pinged"],
        moved=d["moved"],
        window=d["window"],
        pinger=d["pinger"],
        awaiting=tuple(d["awaiting"]),
        declared={
            side: tuple(Shot.from_dict(s) for s in shots) for side, shots in d["declared"].items()
        },
        # absent from snapshots written before ordnance
        defence=DefenceWindow.from_dict(d["defence"]) if d.get("defence") else None,
        step2_done=d.get("step2_done", False),
        pending_move=d.get("pending_move"),
        fighters=FightersStep.from_dict(d["fighters"]) if d.get("fighters") else None,
    )


def state_to_dict(state: GameState) -> dict[str, Any]:
    return {
        "format": SNAPSHOT_FORMAT,
        "game_id": state.game_id,
        "rules_version": state.rules_version,
        "movement": state.movement,
        "table": state.table.to_dict(),
        "zones": {k: z.to_dict() for k, z in state.zones.items()},
        "turn_limit": state.turn_limit,
        "ping_range": state.ping_range,
        "side_names": dict(state.side_names),
        "designs": {k: d.to_dict() for k, d in state.designs.items()},
        "ships": [_ship_to_dict(s) for s in state.ships],
        "turn": state.turn,
        "seq": state.seq,
        "next_roll": state.next_roll,
        "phase": _phase_to_dict(state.phase),
        "deployed": sorted(state.deployed),
        "status": state.status,
        "winner": state.winner,
        "finish_reason": state.finish_reason,
        "first_side": state.first_side,
        "markers": [m.to_dict() for m in state.markers],
        "marker_count": state.marker_count,
        "auto_defend": sorted(state.auto_defend),
    }


def state_from_dict(d: Mapping[str, Any]) -> GameState:
    if d.get("format") != SNAPSHOT_FORMAT:
        raise ValueError(f"unknown snapshot format {d.get('format')!r}")
    return GameState(
        game_id=d["game_id"],
        rules_version=d["rules_version"],
        movement=d["movement"],
        table=Table.from_dict(d["table"]),
        zones={k: Zone.from_dict(z) for k, z in d["zones"].items()},
        turn_limit=d["turn_limit"],
        ping_range=d["ping_range"],
        side_names=dict(d["side_names"]),
        designs={k: Design.from_dict(v) for k, v in d["designs"].items()},
        ships=tuple(_ship_from_dict(s) for s in d["ships"]),
        turn=d["turn"],
        seq=d["seq"],
        next_roll=d["next_roll"],
        phase=_phase_from_dict(d["phase"]),
        deployed=frozenset(d["deployed"]),
        status=GameStatus(d["status"]),
        winner=d["winner"],
        finish_reason=d["finish_reason"],
        first_side=d["first_side"],
        # absent from snapshots written before ordnance
        markers=tuple(MarkerState.from_dict(m) for m in d.get("markers", ())),
        marker_count=d.get("marker_count", 0),
        auto_defend=frozenset(d.get("auto_defend", ())),
    )
