"""One attack of a step 2 (RULES §9.5): a marker's, or a fighter group's (issue 13).

Kept apart from ``app.rules.state`` (which re-exports it) so that the fighters' step can hold
attacks without importing the whole state module.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.rules.geometry import Vec

FIGHTERS_ATTACK = "fighters"  # an attack run of a group on a ship (``target`` = the ship id)
DOGFIGHT = "dogfight"  # a group on an enemy group (``target`` = that group's marker id)


@dataclass(frozen=True)
class Attack:
    """One marker attacking in a step 2 (public once announced, RULES §9.5)."""

    marker: str
    side: str  # the attacker's side
    kind: str  # a marker kind, or fighters | dogfight
    target: str | None  # a ship id (a group id for a dogfight); None: an AMT that found none
    counters: tuple[str, ...] = ()  # an ECM missile's three counters, shown as heavy missiles
    point: Vec | None = None  # an AMT's detonation point (public only if it damaged a ship)
    system: str | None = None  # a needle group's named system type
    mode: str | None = None  # a multi-role group's choice: anti_ship | pd

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "marker": self.marker,
            "side": self.side,
            "kind": self.kind,
            "target": self.target,
        }
        if self.counters:
            out["counters"] = list(self.counters)
        if self.point is not None:
            out["point"] = self.point.to_dict()
        if self.system is not None:
            out["system"] = self.system
        if self.mode is not None:
            out["mode"] = self.mode
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Attack:
        point = d.get("point")
        return cls(
            d["marker"],
            d["side"],
            d["kind"],
            d.get("target"),
            tuple(d.get("counters", ())),
            Vec.from_dict(point) if point is not None else None,
            d.get("system"),
            d.get("mode"),
        )
