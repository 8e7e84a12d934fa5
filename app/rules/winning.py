"""How a game is won: the score, the finish, a side with no ships left."""

from __future__ import annotations

from typing import Any

from app.rules import capabilities as cap
from app.rules.state import SIDES, GameState, ShipStatus, other_side


def score(state: GameState) -> dict[str, float]:
    """Enemy points each side destroyed; a ship off the table or out of play counts half."""
    out = {}
    for side in SIDES:
        total = 0.0
        for ship in state.ships_of(other_side(side)):
            if ship.status == ShipStatus.DESTROYED:
                total += cap.points(state, ship)
            elif ship.status in (ShipStatus.OUT_OF_PLAY, ShipStatus.LEFT):
                total += cap.points(state, ship) / 2
        out[side] = total
    return out


def finish(state: GameState, winner: str | None, reason: str, **extra: Any) -> dict[str, Any]:
    points = score(state)
    if winner is None:
        winner = (
            "draw" if points["A"] == points["B"] else ("A" if points["A"] > points["B"] else "B")
        )
    return {"winner": winner, "reason": reason, "score": points, **extra}


def game_over(state: GameState) -> dict[str, Any] | None:
    """A side with no ships in play loses; both at once is a draw."""
    out = [side for side in SIDES if not state.in_play(side)]
    if len(out) == 2:
        return finish(state, "draw", "no_ships_left")
    if len(out) == 1:
        return finish(state, other_side(out[0]), "no_ships_left")
    return None
