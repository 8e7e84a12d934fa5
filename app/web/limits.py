"""A ship's order limits as its owner's page shows them, from the first moment the ship can be
named (the record sheet, each choice of the orders form), not only once it is activating.

The numbers are the movement system's own (``movement_system(...).limits``) for the thrust the
owner's view gives (the drive's damage already counted): the same the rules check a move with.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.movement import Movement, movement_system


def ship_limits(ship: Mapping[str, Any], movement: str) -> dict[str, Any] | None:
    """``{thrust, max_speed_change, max_turn, max_rotate, speed}`` of an own ship (its view has
    its thrust); None for a ship whose thrust the seat does not know."""
    thrust = ship.get("thrust")
    if not isinstance(thrust, int) or thrust < 0:
        return None
    out: dict[str, Any] = movement_system(movement).limits(thrust).to_dict()
    out["ship"] = ship.get("id")
    if movement == Movement.CINEMATIC and isinstance(ship.get("velocity"), int):
        out["speed"] = ship["velocity"]
    return out


def limits_words(limits: Mapping[str, Any] | None, movement: str) -> str:
    """``speed 4; turn ≤ 2; |speed change| + |turn| ≤ 4 (thrust 4)`` or, for vector movement,
    ``rotate ≤ 6 clock points; burn ≤ 4 (thrust 4)``."""
    if not limits:
        return ""
    thrust = limits["thrust"]
    if movement == Movement.VECTOR:
        return f"rotate ≤ {limits['max_rotate']} clock points; burn ≤ {thrust} (thrust {thrust})"
    speed = f"speed {limits['speed']}; " if "speed" in limits else ""
    if thrust == 0:
        return f"{speed}no thrust: no speed change and no turn"
    return (
        f"{speed}turn ≤ {limits['max_turn']}; |speed change| + |turn| ≤ {thrust} (thrust {thrust})"
    )
