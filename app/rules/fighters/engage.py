"""Engagement (decision F7): a group engaged with a ship follows it while the ship is slow
enough, revealing it; else contact is lost where the ship started its move."""

from __future__ import annotations

from app.rules.builder import Builder
from app.rules.fighters.groups import keeps_contact_below
from app.rules.geometry import Vec


def follow(b: Builder, ship_id: str, start: Vec) -> None:
    """After the ship's move (its own, a drift, an out-of-control one) is folded: its engaged
    groups keep contact under 12 mu speed (fast groups: under 18; vector: |velocity|), and the
    ship is revealed where it is now; the others lose contact and stay at ``start``."""
    engaged = [m for m in b.state.markers if m.engaged_with == ship_id]
    if not engaged:
        return
    ship = b.state.ship(ship_id)
    speed = ship.velocity.length() if b.state.movement == "vector" else float(ship.speed)
    # a move off the table: the ship leaves it (``ship_left`` may follow this)
    here = ship.on_table and ship.position is not None and b.state.table.contains(ship.position)
    kept = False
    for m in engaged:
        if here and speed < keeps_contact_below(m):
            kept = True
            continue
        reason = "speed" if here else "left"
        lost = {"marker": m.id, "ship": ship_id, "reason": reason, "at": start.to_dict()}
        b.emit("contact_lost", lost)
    if kept and ship.position is not None:
        reveal = {"ship": ship.id, "position": ship.position.to_dict(), "heading": ship.heading}
        b.emit("ship_revealed", {**reveal, "cause": "engaged"})


def lose_gone(b: Builder) -> bool:
    """A group engaged with a ship that has left the table (destroyed, or gone off it) is no
    longer engaged: one public ``contact_lost`` (reason ``gone``) at once, where it is. A hulk
    stays on the table and may still be attacked (F6): its groups stay engaged. Returns whether
    it emitted one."""
    for m in b.state.markers:
        if m.engaged_with is not None and not b.state.ship(m.engaged_with).on_table:
            b.emit("contact_lost", {"marker": m.id, "ship": m.engaged_with, "reason": "gone"})
            return True
    return False
