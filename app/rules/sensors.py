"""PING detection (P6, RULES §5): sensor dice against ECM dice, highest single die each.

The pinger rolls for every enemy ship on the table (in play or a hulk, RULES §3), in roster
order, and exactly two ECM dice are drawn for every target whatever its ECM, so the count of
dice depends only on public facts (the roster and who is destroyed or gone).
"""

from __future__ import annotations

from typing import Any

from app.rules import events as ev
from app.rules.capabilities import SENSOR_DICE, has_area_ecm, has_ecm, sensors
from app.rules.dice import Roller
from app.rules.events import make, point
from app.rules.geometry import distance
from app.rules.state import GameState, ShipState, other_side

AREA_ECM_RANGE = 12.0
ECM_DICE_DRAWN = 2


def ecm_dice_count(state: GameState, target: ShipState) -> int:
    """0 without ECM; 1 with it; 2 within 12 mu of another friendly ship with area ECM."""
    if not has_ecm(target):
        return 0
    assert target.position is not None
    # a hulk's area ECM works like any other while the system does
    for friend in state.ships_of(target.side):
        if (
            not friend.on_table
            or friend.id == target.id
            or not has_area_ecm(friend)
            or friend.position is None
        ):
            continue
        if distance(friend.position, target.position) <= AREA_ECM_RANGE + 1e-9:
            return 2
    return 1


def detect(state: GameState, pinger: ShipState, roller: Roller) -> ev.Ping:
    """The ``ping`` event (full form; ``redact`` strips the ECM dice per seat)."""
    assert pinger.position is not None
    grade = sensors(state, pinger)
    n = SENSOR_DICE[grade]
    mark = roller.mark()
    detections = []
    for target in (s for s in state.ships_of(other_side(pinger.side)) if s.on_table):
        ping_dice = roller.pool(n)
        drawn = roller.pool(ECM_DICE_DRAWN)
        ecm = drawn[: ecm_dice_count(state, target)]
        # a tie hides; no ECM means always revealed
        revealed = max(ping_dice) > max(ecm, default=0)
        # "ecm_drawn" keeps both drawn dice so that a finished record verifies every roll
        item: dict[str, Any] = {"target": target.id, "ping_dice": ping_dice, "ecm_dice": ecm}
        item["ecm_drawn"] = drawn
        if state.ping_range is not None:
            assert target.position is not None
            in_range = distance(pinger.position, target.position) <= state.ping_range + 1e-9
            item["in_range"] = in_range
            revealed = revealed and in_range
        item["revealed"] = revealed
        detections.append(make(ev.Detection, **item))
    return make(
        ev.Ping,
        ship=pinger.id,
        position=point(pinger.position),
        heading=pinger.heading,
        sensors=str(grade),
        detections=tuple(detections),
        rolls=tuple(roller.since(mark)),
    )
