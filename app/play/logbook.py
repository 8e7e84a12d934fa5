"""How the rooms write the log: an event's row, and who may read it in full."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rules import Event, GameState, evolve, visible
from app.rules.state import SIDES


def full_for(event: Event, state: GameState) -> str:
    """Who receives the event in full: 'all', one side, or only the 'referee' — read from the
    rules' own fog of war, so the stored visibility never disagrees with what is delivered."""
    sides = [side for side in SIDES if visible(event, side, state)]
    if len(sides) == len(SIDES):
        return "all"
    return sides[0] if sides else "referee"


def event_values(event: Event, state: GameState, ends: bool = True) -> dict[str, Any]:
    """An events row's columns (besides ``game_id``). ``state``: the game's state after the
    command that caused it — who receives an event in full depends only on which side owns
    which ship, and that never changes in a game (``fog.visible``)."""
    return {
        "seq": event.seq,
        "turn": event.turn,
        "type": event.type,
        "data": dict(event.data),
        "full_for": full_for(event, state),
        "ends_command": ends,
    }


def service_events(
    state: GameState, items: Sequence[tuple[str, dict[str, Any]]]
) -> tuple[GameState, list[dict[str, Any]]]:
    """Service-level events (seats, referee actions) after ``state``: the state they lead to
    (the rules fold them as no-ops) and their rows."""
    rows = []
    for kind, data in items:
        event = Event(state.seq + 1, state.turn, kind, data)
        state = evolve(state, event)
        rows.append(event_values(event, state))
    return state, rows
