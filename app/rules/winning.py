"""How a game is won: the score, the finish, a side with no ships left."""

from __future__ import annotations

from typing import Any

from app.rules import capabilities as cap
from app.rules.state import GROUP_KINDS, SIDES, GameState, MarkerState, ShipStatus, other_side


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
    # one pass over the ships: this runs after every event a command causes
    playing = {s.side for s in state.ships if s.status == ShipStatus.ACTIVE}
    if len(playing) == len(SIDES):
        return None
    out = [side for side in SIDES if side not in playing]
    if len(out) == 2:
        return finish(state, "draw", "no_ships_left")
    if len(out) == 1:
        return finish(state, other_side(out[0]), "no_ships_left")
    return None


def removed_marker(m: MarkerState) -> dict[str, Any]:
    """A marker in ``marker_removed``: one that is not live is gone for its own side only."""
    item: dict[str, Any] = {"marker": m.id, "ship": m.mother, "kind": m.kind}
    if m.kind in GROUP_KINDS and m.live:
        del item["ship"]  # a live group's mother stays secret (issue 13)
    if not m.live:
        item["secret"] = True  # only its side learns it is gone (RULES §9.3)
    return item


def discarded_at_finish(state: GameState) -> dict[str, Any] | None:
    """``marker_removed``'s data for the markers still in flight when the game finishes (any
    finish but the turn limit, which discards its own): None when none is (decision, RULES
    §9.3)."""
    if not state.markers:
        return None
    return {"reason": "game_over", "markers": [removed_marker(m) for m in state.markers]}
