"""A magazine's loads go with it (decision 3; C2.3: "all the SM capability could be lost with one
bad threshold roll"). In this engine a failed threshold check damages a system (damage control
may repair it) and a needle's 6 destroys one: either way the loads it held are lost, and a
repaired magazine is empty."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.builder import Builder
from app.rules.fighters.bays import BAY_TYPES
from app.rules.state import SystemStatus


def system_damaged(b: Builder, payload: Mapping[str, Any]) -> None:
    """Emits ``system_damaged`` and, for a magazine it damages or destroys, ``loads_lost``: the
    owner's copy names what it held (maybe nothing). It comes for every failed magazine, so that
    the other side cannot tell an empty one from a full one."""
    b.emit("system_damaged", dict(payload))
    if payload.get("status") == SystemStatus.OK:
        return
    if payload.get("type") in BAY_TYPES:  # F8: the group aboard is lost with its bay
        ship = b.state.ship(payload["ship"])
        bay = ship.bays.get(payload["system"])
        held = {bay.group: bay.strength} if bay is not None else {}
        b.emit("loads_lost", {"ship": ship.id, "magazine": payload["system"], "loads": held})
        return
    if payload.get("type") != "magazine":
        return
    ship = b.state.ship(payload["ship"])
    held = {k: n for k, n in sorted(ship.loads.get(payload["system"], {}).items()) if n > 0}
    b.emit("loads_lost", {"ship": ship.id, "magazine": payload["system"], "loads": held})
