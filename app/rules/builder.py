"""The event log a command is writing: each event folded into a working state as it is emitted,
so that later checks see its effect."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.rules import damage as dmg
from app.rules.dice import DiceSource, Roller
from app.rules.events import ActivationEnded, ActivationStarted, Event, EventBody, read_body
from app.rules.evolve import TURN_COUNTED_CONTROL, evolve
from app.rules.state import GameState
from app.rules.winning import discarded_at_finish

_ACTIVATIONS = (ActivationStarted, ActivationEnded)


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
        """The event of type ``kind`` from its JSON ``data`` (checked: ``BadEvent``)."""
        return self.put(read_body(kind, data), turn)

    def put(self, body: EventBody, turn: int | None = None) -> Event:
        """The event of a typed body (``make``): the same event ``emit`` makes of its JSON form."""
        if type(body) in _ACTIVATIONS and self.state.rules_version not in TURN_COUNTED_CONTROL:
            body = _command_bridge_count(self.state, body)
        state = self.state
        event = Event.of(state.seq + 1, state.turn if turn is None else turn, body)
        self.state = evolve(state, event)
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


def _command_bridge_count(state: GameState, body: EventBody) -> EventBody:
    """A knocked-out command bridge counts the ship's own activations, like the bridge (RULES §8,
    C3.7): each activation that starts with it out is one of them (``command_bridge_out`` then
    says how many are left after this one), and it is back when the last one ends."""
    assert isinstance(body, _ACTIVATIONS)
    ship = state.ship(body.ship)
    if type(body) is ActivationStarted:
        if ship.command_bridge_out > 0:
            return _with(body, command_bridge_out=ship.command_bridge_out - 1)
        return body
    # a damaged command bridge always has a count, so 0 here means its last activation ended
    if ship.command_bridge_out == 0 and any(
        s.type == dmg.COMMAND_BRIDGE and s.status == "damaged" for s in ship.systems
    ):
        return _with(body, command_bridge_restored=True)
    return body


def _with(body: EventBody, **changes: Any) -> EventBody:
    """The body with ``changes`` set, as ``{**data, key: value}`` writes its JSON form: a key it
    had stays where it was, a new one comes last."""
    if body.given is None:  # a body built by its class: no JSON order to keep
        return replace(body, **changes)
    given = body.given + tuple(k for k in changes if k not in body.given)
    new = object.__new__(type(body))
    object.__setattr__(new, "__dict__", {**body.__dict__, **changes, "given": given})
    return new
