"""What a seat sees of groups (issue 13): its own in full, the other side's live ones with the
public fields only; its own ships' bays; and what ``legal`` offers in step 2 and the fighters
step."""

from __future__ import annotations

from typing import Any

from app.rules.fighters.groups import (
    bay_group,
    bay_ids,
    groups_of,
    is_group,
    landing_problem,
    launch_reach,
    move_reach,
    ready_bays,
    targets,
)
from app.rules.fighters.shown import own_group_fields, public_group
from app.rules.ordnance.markers import due_markers
from app.rules.ordnance.view import marker_orders
from app.rules.state import GameState, ShipState

__all__ = ["bays_view", "fighter_options", "own_group_fields", "public_group", "step2_details"]


def bays_view(state: GameState, ship: ShipState) -> dict[str, Any]:
    """The owner's bays: what each holds (None: empty) and from which turn it may launch."""
    out: dict[str, Any] = {}
    for bay_id in bay_ids(ship):
        bay = ship.bays.get(bay_id)
        out[bay_id] = None if bay is None else bay.to_dict()
    return out


def group_orders(state: GameState, ship: ShipState) -> list[dict[str, Any]]:
    """``legal.markers`` items of the ship's groups: how far each moves, whether it may land;
    an engaged group takes no order (reach 0)."""
    out = []
    for m in groups_of(state, ship.id):
        if m.acts_turn > state.turn:
            continue
        engaged = m.engaged_with is not None
        item: dict[str, Any] = {"marker": m.id, "kind": m.kind, "from": m.position.to_dict()}
        item["reach"] = 0.0 if engaged else move_reach(m)
        item["can_land"] = not engaged and landing_problem(state, m) is None
        out.append(item)
    return out


def launch_options(state: GameState, ship: ShipState) -> list[dict[str, Any]]:
    """``legal.launch``: the bays that may launch now, their group type and reach (F1, F2)."""
    out = []
    for bay_id in ready_bays(state, ship):
        bay = ship.bays[bay_id]
        group = bay_group(state, ship, bay_id, bay)
        out.append({"bay": bay_id, "group": bay.group, "reach": launch_reach(group)})
    return out


def fighter_options(state: GameState) -> list[dict[str, Any]]:
    """``legal.fighters`` in the fighters step: each group that must choose and its targets."""
    step = state.phase.fighters
    if step is None:
        return []
    return [{"marker": g, "targets": targets(state, state.marker(g))} for g in step.groups]


def step2_details(state: GameState, ship: ShipState) -> dict[str, Any]:
    """``legal.markers`` (the ordnance's and the groups' orders) and ``legal.launch``."""
    due = [m for m in due_markers(state, ship) if not is_group(m)]
    return {
        "markers": marker_orders(state, due) + group_orders(state, ship),
        "launch": launch_options(state, ship),
    }
