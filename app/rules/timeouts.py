"""What the server plays for a side whose time ran out, and what one "decision" is.

A decision is what the game awaits a side for, named by ``decision_key`` from public facts
only (the step, the open window, the turn and how many of the side's ships have finished their
activation). ``default_commands`` gives, for the side's next command in that decision, the
candidates in order of preference: the caller plays the first the rules accept, and goes on
while the same decision still awaits the side. The defaults:

* deployment: every ship on its zone's centre line (spread evenly along it), facing the far
  edge, at speed 0 (a zero velocity in vector movement);
* a fire window: hold fire; a defence window: the default allocation;
* the fighters step: no attack for every group that must choose;
* an activation: the first ship that may still activate, then its move with the orders it
  already gave (a move kept while a defence window was open) or null orders (no speed
  change, no turn; with ``leave`` if only that is legal), step 2 on standing orders (a move
  without ``markers``), and the end of its activation on overwatch.
"""

from __future__ import annotations

from typing import Any

from app.rules.fighters.view import fighter_options
from app.rules.fog import awaiting
from app.rules.ordnance.defence import default_allocation
from app.rules.state import (
    ACTIVATE,
    AFTER_MOVE,
    AFTER_PING,
    DEFEND,
    DEPLOY,
    FIRE,
    START,
    GameState,
    Step,
)

Command = dict[str, Any]


def decision_key(state: GameState, side: str) -> str | None:
    """The decision the game awaits ``side`` for, or None when it does not await the side."""
    if side not in awaiting(state):
        return None
    phase = state.phase
    if phase.step == DEPLOY:
        return "deploy"
    if phase.step == FIRE:
        return f"fire:{phase.window}"
    if phase.step == DEFEND:
        window = phase.defence.window if phase.defence is not None else None
        return f"defend:{window}"
    done = sum(1 for ship in state.ships_of(side) if ship.activated)
    return f"activation:{state.turn}:{side}:{done}"


def default_commands(state: GameState, side: str) -> list[Command]:
    """The side's default next command, as candidates (most wanted first); none when the game
    does not await the side or nothing is to be played for it."""
    if side not in awaiting(state):
        return []
    phase = state.phase
    if phase.step == DEPLOY:
        return [_deploy(state, side)]
    if phase.step == FIRE:
        return [{"type": "fire", "window": phase.window, "shots": []}]
    if phase.step == DEFEND and phase.defence is not None:
        allocation = default_allocation(state, side, phase.defence.attacks)
        return [{"type": "defend", "window": phase.defence.window, "allocations": allocation}]
    if phase.side != side:
        return []
    if phase.step == Step.FIGHTERS:
        choices = [{"marker": g["marker"], "attack": None} for g in fighter_options(state)]
        return [{"type": "fighters", "choices": choices}]
    if phase.step == ACTIVATE:
        ready = [s for s in state.ships_of(side) if s.in_play and not s.activated]
        return [{"type": "activate", "ship": ready[0].id}] if ready else []
    if phase.step in (START, AFTER_PING) and phase.ship is not None:
        return _moves(state, phase.ship)
    if phase.step == AFTER_MOVE and phase.ship is not None:
        return [{"type": "end_activation", "ship": phase.ship}]
    return []


def null_orders(movement: str) -> dict[str, Any]:
    return {"rotate": 0, "thrust": 0} if movement == "vector" else {"speed_change": 0, "turn": 0}


def _moves(state: GameState, ship: str) -> list[Command]:
    null = null_orders(state.movement)
    options = [null, {**null, "leave": True}]
    kept = state.phase.pending_move
    if kept is not None:
        options.insert(0, dict(kept))
    return [{"type": "move", "ship": ship, "orders": orders} for orders in options]


def _deploy(state: GameState, side: str) -> Command:
    zone = state.zones[side]
    x0, x1 = sorted((zone.x0, zone.x1))
    y0, y1 = sorted((zone.y0, zone.y1))
    ships = state.ships_of(side)
    wide = (x1 - x0) >= (y1 - y0)
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    table = (state.table.width / 2, state.table.height / 2)
    # a strip along a long edge faces the other long edge
    facing = (0 if centre[1] <= table[1] else 6, 3 if centre[0] <= table[0] else 9)
    heading = facing[0] if wide else facing[1]
    placements = []
    for i, ship in enumerate(ships):
        along = (i + 1) / (len(ships) + 1)
        x, y = (x0 + along * (x1 - x0), centre[1]) if wide else (centre[0], y0 + along * (y1 - y0))
        placement: dict[str, Any] = {
            "ship": ship.id,
            "position": {"x": round(x, 3), "y": round(y, 3)},
            "heading": heading,
        }
        if state.movement == "vector":
            placement["velocity"] = {"x": 0.0, "y": 0.0}
        else:
            placement["speed"] = 0
        placements.append(placement)
    return {"type": "deploy", "ships": placements}
