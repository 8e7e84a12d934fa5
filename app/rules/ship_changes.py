"""What an event does to one ship, where more than one fold does it or it takes a few steps:
a system's new status, a reveal, a dumped core, an abandoned ship, a hulk's life support."""

from __future__ import annotations

from app.rules.frozen import amend
from app.rules.state import OUT_OF_PLAY, LastKnown, ShipState, SystemStatus


def set_system(ship: ShipState, system_id: str, status: str) -> ShipState:
    return amend(
        ship,
        systems=tuple(
            amend(s, status=SystemStatus(status)) if s.id == system_id else s for s in ship.systems
        ),
    )


def revealed(ship: ShipState, known: LastKnown) -> ShipState:
    """Live where it was seen; its last move is marked pinged (one copy of the ship)."""
    log = ship.orders_log
    if not log or log[-1].pinged:
        return amend(ship, revealed="live", last_known=known)
    last = amend(log[-1], pinged=True)
    return amend(ship, revealed="live", last_known=known, orders_log=(*log[:-1], last))


def restore_command_bridges(s: ShipState) -> ShipState:
    for cb in s.systems_of("command_bridge"):
        if cb.status == "damaged":
            s = set_system(s, cb.id, "ok")
    return s


def dumped(s: ShipState) -> ShipState:
    # no power for anything but emergency life support: drifting, out of the battle
    return amend(set_system(s, "core", "destroyed"), status=OUT_OF_PLAY, out_reason="core_dumped")


def abandoned(s: ShipState) -> ShipState:
    return amend(
        s,
        status=OUT_OF_PLAY,
        abandoned=True,
        # nobody aboard: no countdown runs any more; a hulk keeps its first reason
        life_support_turns=None,
        command_bridge_out=0,
        out_reason="abandoned" if s.status == "active" else s.out_reason,
    )


def hulk_life_support(s: ShipState, failed: set[str]) -> ShipState:
    """A hulk's crew still aboard lives on its life support: the countdown goes on, and at 0
    the crew abandons the hulk (it keeps the reason it went out of play)."""
    if s.life_support_turns is None:
        return s
    if s.id in failed:
        return amend(s, abandoned=True, life_support_turns=None)
    return amend(s, life_support_turns=s.life_support_turns - 1)
