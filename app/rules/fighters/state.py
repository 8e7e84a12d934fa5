"""What a bay holds, and the fighters step (issue 13): frozen values, re-exported by
``app.rules.state``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.rules.attacks import Attack

FIGHTERS = "fighters"
DRONES = "drones"
GROUP_KINDS = frozenset({FIGHTERS, DRONES})


@dataclass(frozen=True)
class BayState:
    """The group aboard a bay (secret to the owner and the referee, RULES §9.1)."""

    group: str  # the group type, a key of ``BAY_GROUPS[bay type]``
    strength: int  # fighters (drones) alive
    cef: int  # combat endurance left
    ready_turn: int = 0  # it may launch from this turn on (a landed group: the next turn)

    def to_dict(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "strength": self.strength,
            "cef": self.cef,
            "ready_turn": self.ready_turn,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> BayState:
        return cls(d["group"], d["strength"], d["cef"], d.get("ready_turn", 0))


def bays_to_dict(bays: Mapping[str, BayState]) -> dict[str, Any]:
    return {k: v.to_dict() for k, v in bays.items()}


def bays_from_dict(d: Mapping[str, Any]) -> dict[str, BayState]:
    return {k: BayState.from_dict(v) for k, v in d.items()}


@dataclass(frozen=True)
class FightersStep:
    """The fighters step (``Step.FIGHTERS``): the mother ship whose step 2 ran, its groups that
    must choose (id order), and the step 2's ordnance attacks held for the one defence window
    they share with the groups' attacks."""

    ship: str
    groups: tuple[str, ...]
    held: tuple[Attack, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "ship": self.ship,
            "groups": list(self.groups),
            "held": [a.to_dict() for a in self.held],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> FightersStep:
        return cls(
            d["ship"], tuple(d["groups"]), tuple(Attack.from_dict(a) for a in d.get("held", ()))
        )
