"""Who receives an event in full, and what the others receive (RULES §6, API.md "Events").

Each event type declares one of these as its ``secrecy``; ``fog.visible`` and ``fog.redact``
read the declaration (and only it) to decide. The referee always receives everything. The
keys named here are keys of the event's JSON ``data``, as delivered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Public:
    """Everyone receives it in full."""


@dataclass(frozen=True)
class OwnerSide:
    """The side the ``owner`` key names receives it in full; the others a stub of the ``stub``
    keys (those present), marked redacted."""

    owner: str
    stub: tuple[str, ...]


@dataclass(frozen=True)
class Withheld:
    """Keys of the items of ``items`` with the ``flag`` key set that even the owner does not
    receive (only the referee and the finished record): an AMT's homed point, say."""

    items: str
    flag: str
    keys: frozenset[str]


@dataclass(frozen=True)
class OwnerShip:
    """The side of the ship the ``owner`` key names receives it in full (less what ``withheld``
    names, not marked); the others a stub of the ``stub`` keys (each with its value when
    absent), marked redacted."""

    owner: str
    stub: tuple[tuple[str, Any], ...]
    withheld: Withheld | None = None

    def withholds(self, data: Any) -> bool:
        w = self.withheld
        return w is not None and any(item.get(w.flag) for item in data.get(w.items, ()))


@dataclass(frozen=True)
class TargetOnly:
    """Public, except the ``secret`` keys of each item of ``items``: those are for the side of
    the ship the item's ``owner`` key names. In full only for a seat owning every such ship."""

    items: str
    owner: str
    secret: frozenset[str]


@dataclass(frozen=True)
class ShotsHiddenWhen:
    """Public, except a shot of ``items`` with the ``flag`` key set: that one is for the firing
    ship's side only (the others receive the event without it, not marked)."""

    items: str
    flag: str


Secrecy = Public | OwnerSide | OwnerShip | TargetOnly | ShotsHiddenWhen
PUBLIC = Public()
