"""What a referee's rewind keeps and where it may land (API.md "Referee").

A rewind rebuilds the state from the events still in force, but what every seat has already
read cannot be taken back: a ship that a voided event revealed keeps that reveal as its stale
``last_known``. The ``rewound`` event carries those reveals (``last_known``), so folding the log
in force — ``rewound`` events included — rebuilds the same state every time.

A rewind never lands inside an open fire window (from its ``fire_window`` event to its volley):
the voided volley showed each side the other's shots, and the side that had not declared yet
could declare again knowing them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.rules.events import Event
from app.rules.frozen import amend
from app.rules.state import GameState, LastKnown

OPENS_WINDOW = "fire_window"
CLOSES_WINDOW = frozenset({"fire_resolved", "game_finished"})


def voided_reveals(voided: Iterable[Event]) -> dict[str, dict[str, Any]]:
    """Each ship's last reveal among the voided events, as a ``last_known`` (public: every seat
    received ``ship_revealed`` in full)."""
    out: dict[str, dict[str, Any]] = {}
    for event in voided:
        if event.type == "ship_revealed":
            d = event.data
            known = LastKnown(
                d["position"]["x"], d["position"]["y"], d["heading"], event.turn, event.seq
            )
            out[d["ship"]] = known.to_dict()
    return out


def keep_reveals(state: GameState, reveals: Mapping[str, Mapping[str, Any]]) -> GameState:
    """The rebuilt state with the voided reveals kept as stale markers. A ship the rebuilt state
    shows live keeps its live marker (everyone knows where it is now), and an older voided reveal
    never replaces a newer marker."""
    for ship_id, d in reveals.items():
        ship = state.ship(ship_id)
        if ship.revealed == "live":
            continue
        if ship.last_known is not None and ship.last_known.seq >= d["seq"]:
            continue
        known = LastKnown(d["x"], d["y"], d["heading"], d["turn"], d["seq"])
        state = state.with_ship(amend(ship, revealed="stale", last_known=known))
    return state


def open_windows(events: Iterable[tuple[int, str]]) -> dict[int, int | None]:
    """For each ``(seq, type)`` of the log in force, in order: the fire window still open right
    after it (the window's seq), or None."""
    out: dict[int, int | None] = {}
    window: int | None = None
    for seq, kind in events:
        if kind == OPENS_WINDOW:
            window = seq
        elif kind in CLOSES_WINDOW:
            window = None
        out[seq] = window
    return out
