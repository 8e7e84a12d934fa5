"""After the damage of a volley or a strike: one threshold check per ship whose hull rows it
finished (the systems that fail it, a magazine's loads with them), then the destroyed go."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.rules import damage as dmg
from app.rules.builder import Builder
from app.rules.ordnance.loads import system_damaged


def settle(b: Builder, batches: Sequence[Mapping[str, Any]], cause: str) -> None:
    """One threshold batch per damaged ship still there, then ``ship_destroyed`` for each ship
    the damage destroyed (``cause``: what destroyed it, ``volley`` or ``ordnance``)."""
    for batch in batches:
        if batch["rows_finished"] and not batch["destroyed"]:
            check, failures = dmg.threshold_check(
                b.state.ship(batch["ship"]), batch["rows_finished"], b.roller
            )
            b.emit("threshold_check", check)
            for failure in failures:
                system_damaged(b, failure)
    for batch in batches:
        if batch["destroyed"]:
            b.emit("ship_destroyed", {"ship": batch["ship"], "cause": cause})
