"""A per-process cache of parsed game states, keyed by ``(game_id, seq)``.

The game row's ``seq`` is its version: every write of the snapshot writes a higher seq in the
same statement (commands, service events, a referee's rewind all append an event). So a state
cached for ``(game_id, seq)`` is exactly the snapshot stored with that seq, and a reader that
finds the row at that seq — read under the game's lock for a command — may use it instead of
loading and parsing the JSONB. A row at any other seq (another worker moved the game on) is a
miss, and the snapshot is read from the row. Only committed states are put here: a command's
new state goes in after its commit returns, never before.

States are frozen values (``app.rules``), so one instance may serve any number of requests.
"""

from __future__ import annotations

from collections import OrderedDict

from app.rules import GameState

NO_SEQ = -1  # "nothing cached": no row has this seq


class StateCache:
    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._states: OrderedDict[str, GameState] = OrderedDict()

    def seq(self, game_id: str) -> int:
        """The seq of the cached state (to ask the database for the snapshot only if it moved)."""
        state = self._states.get(game_id)
        return NO_SEQ if state is None else state.seq

    def get(self, game_id: str, seq: int) -> GameState | None:
        """The state at exactly ``seq``, if cached."""
        state = self._states.get(game_id)
        if state is None or state.seq != seq:
            return None
        self._states.move_to_end(game_id)
        return state

    def put(self, game_id: str, state: GameState) -> None:
        """A committed state (its ``seq`` is the row's)."""
        current = self._states.get(game_id)
        if current is not None and current.seq > state.seq:
            return  # never go back: a slower reader may bring an older row
        self._states[game_id] = state
        self._states.move_to_end(game_id)
        while len(self._states) > self.size:
            self._states.popitem(last=False)

    def forget(self, game_id: str) -> None:
        self._states.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._states)
