"""The bays of a design and the groups they hold at the start of a battle (C4.3, C5.0)."""

from __future__ import annotations

from app.rules.designs import Design
from app.rules.fighters.state import BayState
from app.rules.systems.bay_rows import BAY_GROUPS, DRONE_BAY, FIGHTER_BAY, GROUP_SIZE, GroupType

BAY_TYPES = frozenset(BAY_GROUPS)


def starting_bays(design: Design) -> dict[str, BayState]:
    """Each bay's group, full strength and CEF, ready from the first turn (secret)."""
    out: dict[str, BayState] = {}
    for spec in design.all_systems():
        group = BAY_GROUPS.get(spec.type, {}).get(spec.load or "")
        if group is not None and spec.load is not None:
            out[spec.id] = BayState(spec.load, GROUP_SIZE, group.cef, 0)
    return out


def group_type(bay_type: str, group: str) -> GroupType:
    return BAY_GROUPS[bay_type][group]


def kind_of_bay(bay_type: str) -> str:
    """The marker kind a bay launches."""
    return "drones" if bay_type == DRONE_BAY else "fighters"


def has_bays(design: Design) -> bool:
    """Public: a design's hardware (the other side sees the bays, never what they hold)."""
    return any(s.type in BAY_TYPES for s in design.all_systems())


__all__ = ["BAY_TYPES", "DRONE_BAY", "FIGHTER_BAY", "group_type", "has_bays", "starting_bays"]
