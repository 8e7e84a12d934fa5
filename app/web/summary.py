"""After the game: the result in words and the tally of what each side did, from the record.

Everything here reads a finished game's record (``Reading.record``: the whole log, every event
in full), folded event by event with the rules' own ``evolve``. Nothing is read from a page or
guessed: the numbers are counts of events, and the points are the designs' points as the rules'
score counts them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.rules import Event, GameState, evolve, start_state
from app.rules import capabilities as cap
from app.rules.state import GROUP_KINDS, SIDES, ShipStatus, other_side

# why a game ended, as the end screen says it (after "because")
REASONS = {
    "no_ships_left": "{loser} has no ships left in play",
    "turn_limit": "the turn limit was reached and {winner} destroyed more points",
    "resigned": "{loser} resigned",
    "referee": "the referee ended the game",
    "timeouts": "{loser} ran out of time too often",
}
DRAWS = {
    "no_ships_left": "neither side has a ship left in play",
    "turn_limit": "the turn limit was reached with the points destroyed level",
    "referee": "the referee ended the game",
}
# a group that vanishes in one of these was not shot down: it landed, or the game discarded it
_NOT_A_LOSS = frozenset({"ordnance_acted", "marker_removed"})


@dataclass(frozen=True)
class Folded:
    """A record folded: its events in force (a rewind's voided ones left out, as the server's
    own rebuild leaves them out) and the state after each."""

    events: list[Event]
    states: list[GameState]

    @property
    def final(self) -> GameState:
        return self.states[-1]


def fold(record: Mapping[str, Any]) -> Folded:
    rows = [e for e in record["events"] if not e.get("voided")]
    events = [Event(e["seq"], e["turn"], e["type"], e["data"]) for e in rows]
    state = start_state(events[0])
    states = [state]
    for event in events[1:]:
        state = evolve(state, event)
        states.append(state)
    return Folded(events, states)


def side_label(names: Mapping[str, str], side: str) -> str:
    name = names.get(side)
    return f"{name} (side {side})" if name and name != f"Side {side}" else f"side {side}"


def result_words(
    winner: str | None, reason: str | None, names: Mapping[str, str], note: str | None = None
) -> dict[str, str]:
    """The headline ("Raiders (side A) won") and the why ("because Wardens (side B) resigned")."""
    reason = reason or ""
    if winner in SIDES:
        loser = other_side(winner)
        head = f"{side_label(names, winner)} won"
        why = REASONS.get(reason, reason.replace("_", " "))
        why = why.format(winner=side_label(names, winner), loser=side_label(names, loser))
    else:
        head = "A draw"
        why = DRAWS.get(reason, reason.replace("_", " "))
    if note:
        why += f": “{note}”"
    return {"head": head[:1].upper() + head[1:], "why": why[:1].upper() + why[1:] + "."}


def _blank() -> dict[str, Any]:
    return {
        "points": 0.0,
        "ships_lost": [],
        "shots": 0,
        "hits": 0,
        "damage": 0,
        "pings": 0,
        "detected": 0,
        "launched": 0,
        "groups_launched": 0,
        "fighters_lost": 0,
    }


def _count_event(tally: dict[str, dict[str, Any]], e: Event, sides: Mapping[str, str]) -> None:
    """One event's part of the tally (``sides``: ship id -> side)."""
    d = e.data
    if e.type == "fire_resolved":
        for shot in d["shots"]:
            if shot.get("cancelled") or shot["ship"] not in sides:
                continue
            side = tally[sides[shot["ship"]]]
            side["shots"] += 1
            # a shot's "hits" are the damage points its dice scored: a shot hit if it scored any
            side["hits"] += (shot.get("hits") or 0) + (shot.get("reroll_hits") or 0) > 0
    elif e.type == "damage" and d["ship"] in sides:
        # damage is what the other side dealt: in a duel only the enemy's fire hurts a ship
        tally[other_side(sides[d["ship"]])]["damage"] += d["armour_lost"] + d["hull_lost"]
    elif e.type == "ping":
        tally[sides[d["ship"]]]["pings"] += 1
    elif e.type == "ship_revealed":
        tally[sides[d["ship"]]]["detected"] += 1
    elif e.type == "ordnance_launched":
        tally[sides[d["ship"]]]["launched"] += 1
    elif e.type == "ordnance_acted":
        items = d.get("markers") or ()
        launched = [m for m in items if m.get("result") == "launched"]
        tally[sides[d["ship"]]]["groups_launched"] += len(launched)


def _fighters_lost(tally: dict[str, dict[str, Any]], folded: Folded) -> None:
    """Fighters (and drones) shot down, from the groups' strength event by event: a group that
    weakens lost the difference; one that vanishes in combat lost what it had left."""
    for before, event, after in zip(
        folded.states, folded.events[1:], folded.states[1:], strict=False
    ):
        now = {m.id: m for m in after.markers}
        for m in before.markers:
            if m.kind not in GROUP_KINDS:
                continue
            later = now.get(m.id)
            if later is not None:
                tally[m.side]["fighters_lost"] += max(0, m.strength - later.strength)
            elif event.type not in _NOT_A_LOSS:
                tally[m.side]["fighters_lost"] += m.strength


def summary(record: Mapping[str, Any], folded: Folded) -> dict[str, Any]:
    """The end screen: the result in words, and per side what it did and what it lost."""
    final = folded.final
    sides = {s.id: s.side for s in final.ships}
    tally = {side: _blank() for side in SIDES}
    for event in folded.events:
        _count_event(tally, event, sides)
    _fighters_lost(tally, folded)
    for ship in final.ships:
        if ship.status == ShipStatus.ACTIVE:
            continue
        worth = cap.points(final, ship)
        # as the rules' score counts it: a ship off the table or out of play counts half
        counted = worth if ship.status == ShipStatus.DESTROYED else worth / 2
        tally[other_side(ship.side)]["points"] += counted
        tally[ship.side]["ships_lost"].append(
            {"name": ship.name, "status": str(ship.status).replace("_", " "), "points": worth}
        )
    finished = _finished(folded.events)
    note = finished.get("note") if finished else None
    words = result_words(final.winner, final.finish_reason, final.side_names, note)
    return {
        "winner": final.winner,
        "reason": final.finish_reason,
        "result": words,
        "turns": final.turn,
        "names": {side: side_label(final.side_names, side) for side in SIDES},
        "sides": tally,
        # the score the rules published at the end, to check the tally against
        "score": dict(finished["score"]) if finished else None,
    }


def _finished(events: Sequence[Event]) -> Mapping[str, Any] | None:
    for event in reversed(events):
        if event.type == "game_finished":
            return event.data
    return None


# the rows of the summary table: (key, what it counts)
ROWS = (
    ("points", "Points destroyed (enemy ships' design points; half for one that left)"),
    ("shots", "Shots fired"),
    ("hits", "Shots that hit"),
    ("damage", "Damage dealt (armour and hull boxes)"),
    ("pings", "Pings"),
    ("detected", "Times revealed to the enemy"),
    ("launched", "Ordnance launched"),
    ("groups_launched", "Fighter and drone groups launched"),
    ("fighters_lost", "Fighters and drones lost"),
)
