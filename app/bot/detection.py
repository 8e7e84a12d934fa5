"""What a ship's public condition says of its pings and its drive, read from a seat's view.

The odds follow RULES §5: the pinger's highest of 1–3 sensor dice must beat the target's highest
ECM die (none without ECM; two beside a friend's working area ECM). Where that friend is, the
seat does not know: a target with ECM beside a friendly area-ECM ship in play is taken to roll
two dice half the time (a guess the captain makes, not a rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from app.bot.seat import View
from app.rules.capabilities import SENSOR_DICE
from app.rules.systems import types_doing

ECM_TYPES = frozenset(types_doing("ecm"))
BASIC = 1  # basic sensors: built in, never fail (RULES §5)


@lru_cache(maxsize=16)
def beats(ping_dice: int, ecm_dice: int) -> float:
    """P(highest of ``ping_dice`` d6 > highest of ``ecm_dice`` d6); 1 with no ECM die."""
    if ecm_dice <= 0:
        return 1.0
    total = 0.0
    for m in range(1, 7):  # the highest ECM die is m
        p_m = (m / 6) ** ecm_dice - ((m - 1) / 6) ** ecm_dice
        total += p_m * (1.0 - (m / 6) ** ping_dice)
    return total


def _working(ship: Mapping[str, Any], types: frozenset[str] | set[str]) -> list[str]:
    return [s["id"] for s in ship["systems"] if s["type"] in types and s["status"] == "ok"]


def sensor_dice(ship: Mapping[str, Any]) -> int:
    """The dice this ship's ping rolls: its working sensors' grade (damaged ones are basic)."""
    ok = set(_working(ship, {"sensors"}))
    best = BASIC
    for spec in ship["design"]["systems"]:
        if spec["id"] in ok and spec.get("grade") in SENSOR_DICE:
            best = max(best, int(SENSOR_DICE[spec["grade"]]))
    return best


def reveal_chance(ping_dice: int, view: View, target: Mapping[str, Any]) -> float:
    """The chance a ping of ``ping_dice`` dice reveals ``target`` (within any ping range)."""
    if not _working(target, ECM_TYPES):
        return 1.0
    friends = [
        s
        for s in view["ships"]
        if s["side"] == target["side"]
        and s["id"] != target["id"]
        and s["status"] in ("active", "out_of_play")
        and _working(s, {"area_ecm"})
    ]
    if not friends:
        return beats(ping_dice, 1)
    return 0.5 * beats(ping_dice, 1) + 0.5 * beats(ping_dice, 2)


def thrust_of(ship: Mapping[str, Any]) -> int:
    """The main drive's thrust now: halved when damaged, nothing when destroyed (RULES §8)."""
    rating = int(ship["design"]["thrust"])
    drive = next((s["status"] for s in ship["systems"] if s["type"] == "main_drive"), "ok")
    if drive == "destroyed" or ship["status"] != "active":
        return 0
    return rating // 2 if drive == "damaged" else rating
