"""Events: the game's log. Each is a fact that happened; ``evolve`` folds it into the state.

``data`` is plain JSON (str, numbers, bools, lists, dicts) so that the log can be stored and
delivered as it is; an event that rolled dice lists its roll numbers under ``"rolls"``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    seq: int
    turn: int
    type: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "turn": self.turn, "type": self.type, "data": dict(self.data)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        return cls(int(d["seq"]), int(d["turn"]), str(d["type"]), dict(d.get("data", {})))
