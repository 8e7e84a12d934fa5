"""The event log a command is writing: each event folded into a working state as it is emitted,
so that later checks see its effect."""

from __future__ import annotations

from typing import Any

from app.rules import damage as dmg
from app.rules.dice import DiceSource, Roller
from app.rules.events import Event, read_body
from app.rules.evolve import TURN_COUNTED_CONTROL, evolve
from app.rules.state import GameState
from app.rules.winning import discarded_at_finish

_ACTIVATION_KINDS = frozenset({"activation_started", "activation_ended"})


class Builder:
    """Collects events, folding each into a working state as it is emitted.

    ``seed``: the game's dice seed, published in the ``game_finished`` event (RULES §12); None
    where the caller has none to give (a test, a replay of a finished log)."""

    def __init__(self, state: GameState, dice: DiceSource, seed: str | None = None) -> None:
        self.state = state
        self.roller = Roller(dice, state.next_roll)
        self.seed = seed
        self.events: list[Event] = []

    def emit(self, kind: str, data: dict[str, Any], turn: int | None = None) -> Event:
        if kind in _ACTIVATION_KINDS and self.state.rules_version not in TURN_COUNTED_CONTROL:
            data = _command_bridge_count(self.state, kind, data)
        body = read_body(kind, data)  # checked: BadEvent
        event = Event.of(self.state.seq + 1, self.state.turn if turn is None else turn, body)
        self.state = evolve(self.state, event)
        self.events.append(event)
        return event

    def finish_game(self, data: dict[str, Any], turn: int | None = None) -> Event:
        """The last event of the game; it publishes the seed, now that no roll is to come. The
        markers still in flight are discarded first (one ``marker_removed``, decision)."""
        removed = discarded_at_finish(self.state)
        if removed is not None:
            self.emit("marker_removed", removed, turn)
        if self.seed is not None:
            data = {**data, "seed": self.seed}
        return self.emit("game_finished", data, turn)


def _command_bridge_count(state: GameState, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """A knocked-out command bridge counts the ship's own activations, like the bridge (RULES §8,
    C3.7): each activation that starts with it out is one of them (``command_bridge_out`` then
    says how many are left after this one), and it is back when the last one ends."""
    ship = state.ship(data["ship"])
    if kind == "activation_started" and ship.command_bridge_out > 0:
        return {**data, "command_bridge_out": ship.command_bridge_out - 1}
    # a damaged command bridge always has a count, so 0 here means its last activation ended
    damaged = any(s.status == "damaged" for s in ship.systems_of(dmg.COMMAND_BRIDGE))
    if kind == "activation_ended" and ship.command_bridge_out == 0 and damaged:
        return {**data, "command_bridge_restored": True}
    return data
