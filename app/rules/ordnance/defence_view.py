"""What the defence window tells a seat (API.md ``phase.legal.defend``), from the seat's own
knowledge: its own ships' systems and positions and the window's public entries."""

from __future__ import annotations

from typing import Any

from app.rules.ordnance.defence import default_allocation, entries, pairings
from app.rules.state import DEFEND, GameState


def legal_defend(state: GameState, seat: str) -> dict[str, Any]:
    """``{"defend": {"window", "pairings", "default"}}`` for a seat the open window awaits,
    else nothing."""
    window = state.phase.defence
    if state.phase.step != DEFEND or window is None or seat not in window.awaiting:
        return {}
    return {
        "defend": {
            "window": window.window,
            "pairings": pairings(state, seat, window.attacks),
            "default": default_allocation(state, seat, window.attacks),
        }
    }


def defence_awaiting(state: GameState) -> list[str]:
    window = state.phase.defence
    return list(window.awaiting) if window is not None else []


def defence_view(state: GameState) -> dict[str, Any] | None:
    """The open window as every seat sees it (public): seq, entries, awaited and declared."""
    window = state.phase.defence
    if state.phase.step != DEFEND or window is None:
        return None
    return {
        "window": window.window,
        "attacks": [e.public() for e in entries(window.attacks)],
        "awaiting": list(window.awaiting),
        "declared": sorted(window.declared),
    }
