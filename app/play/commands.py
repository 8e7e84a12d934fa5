"""The command room: one game command as one unit of work.

``Commands.command`` runs the pipeline: load the game (``SELECT … FOR UPDATE`` on PostgreSQL,
the ``BEGIN IMMEDIATE`` transaction on SQLite) with the token's seat and the idempotency
record, authenticate, replay a stored answer, refuse what is not allowed now, take the state,
refuse a stale form, apply the rules (``decide``), persist the events, the snapshot and the
idempotency record — one commit — and only then notify: the "game N is at seq S" hint.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.play import errors as E
from app.play import tokens
from app.play.callers import Caller, Callers, token_hash
from app.play.logbook import event_values
from app.play.reading import Reading
from app.play.watch import Change, Watchers
from app.rules import DiceSource, Event, GameState, decide, redact
from app.rules.decide import check_at_seq
from app.rules.snapshot import state_from_dict, state_to_dict
from app.rules.state import GameStatus
from app.store import queries as Q
from app.store.cache import StateCache
from app.store.db import Database

# a command the service answers without the rules: its events and state, None if not its own
ServiceCommand = Callable[
    [AsyncConnection, Q.GameHead, GameState, str, Mapping[str, Any]],
    Awaitable[tuple[list[Event], GameState] | None],
]


async def no_service_command(
    conn: AsyncConnection, game: Q.GameHead, state: GameState, seat: str, body: Mapping[str, Any]
) -> tuple[list[Event], GameState] | None:
    return None


@dataclass(frozen=True)
class CommandResult:
    status: int
    body: dict[str, Any]


def request_hash(body: Mapping[str, Any]) -> str:
    return hashlib.sha256(
        json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


class Commands:
    def __init__(
        self,
        db: Database,
        states: StateCache,
        callers: Callers,
        reading: Reading,
        dice_of: Callable[[Q.GameHead], DiceSource],
        watchers: Watchers | None = None,
    ) -> None:
        self.db = db
        self.watchers = watchers or Watchers()
        self.states = states
        self.callers = callers
        self.reading = reading
        self.dice_of = dice_of
        self.service_command: ServiceCommand = no_service_command

    async def command(
        self, game_id: str, token: str | None, body: Mapping[str, Any], key: str | None
    ) -> CommandResult:
        return await self._command(
            game_id, token_hash(token), lambda read: self._authenticate(read, token), body, key
        )

    async def computer_command(
        self, game_id: str, hashed: str, body: Mapping[str, Any], key: str | None
    ) -> CommandResult:
        """The server's computer player's command: the same pipeline, its seat named by the
        token hash it holds (``app.play.computer``)."""
        return await self._command(
            game_id, hashed, lambda read: self.callers.computer(read, hashed), body, key
        )

    async def _command(
        self,
        game_id: str,
        hashed: str | None,
        authenticate: Callable[[Q.GameRead], Caller],
        body: Mapping[str, Any],
        key: str | None,
    ) -> CommandResult:
        async with self.db.unit() as conn:
            read = await self._load(conn, game_id, hashed, key)
            game = read.head
            caller = authenticate(read)
            fingerprint = request_hash(body)
            if read.stored is not None:
                return await self._replayed(conn, game_id, read.stored, fingerprint)
            self._allowed_now(game)
            state = await self._state(conn, read, hashed, key)
            # a RulesError propagates: the transaction rolls back and nothing changes
            self._stale(state, body)
            events, new_state, rows = await self._apply(conn, game, state, caller, body)
            status = GameStatus.FINISHED if new_state.status == GameStatus.FINISHED else game.status
            referee = await self.reading.referee_of(conn, game_id, game.creator)
            game = replace(game, status=status, seq=new_state.seq)
            await self.watchers.written(conn, Change(game, state, new_state))
            body_out = await self._persist(
                conn, game, new_state, events, rows, caller, referee, key, fingerprint
            )
        # committed: from now on this state is the row's at its seq
        self.states.put(game_id, new_state)
        if body_out is None:  # built after the commit: the lock is held no longer than needed
            body_out = self._answer(game, new_state, events, caller, referee)
        self._notify(game_id, new_state.seq)
        return CommandResult(200, body_out)

    # -- the steps, in order -----------------------------------------------------------------
    async def _load(
        self, conn: AsyncConnection, game_id: str, hashed: str | None, key: str | None
    ) -> Q.GameRead:
        read = await Q.read_for_command(
            conn, game_id, hashed, key, self.states.seq(game_id), lock=self.db.postgres
        )
        if read is None:
            raise E.UnknownGame(f"there is no game {game_id!r}")
        return read

    def _authenticate(self, read: Q.GameRead, token: str | None) -> Caller:
        return self.callers.sender(read, token)

    def _allowed_now(self, game: Q.GameHead) -> None:
        if game.status == GameStatus.WAITING:
            raise E.GameNotStarted("the game starts when both seats are taken")
        if game.status == GameStatus.FINISHED:
            raise E.GameOver("the game is over")
        if game.paused:
            raise E.GamePaused("the referee has paused the game")

    async def _state(
        self, conn: AsyncConnection, read: Q.GameRead, hashed: str | None, key: str | None
    ) -> GameState:
        game = read.head
        state = self.states.get(game.id, game.seq)
        if state is None:
            snapshot = read.snapshot
            if snapshot is None:  # the cached state moved on while we asked
                again = await Q.read_for_command(
                    conn, game.id, hashed, key, -1, lock=self.db.postgres
                )
                assert again is not None and again.snapshot is not None  # locked: still there
                snapshot = again.snapshot
            state = state_from_dict(snapshot)
        return state

    def _stale(self, state: GameState, body: Mapping[str, Any]) -> None:
        check_at_seq(state, body.get("at_seq"))

    async def _apply(
        self,
        conn: AsyncConnection,
        game: Q.GameHead,
        state: GameState,
        caller: Caller,
        body: Mapping[str, Any],
    ) -> tuple[list[Event], GameState, list[dict[str, Any]]]:
        command = {k: v for k, v in body.items() if k != "at_seq"}
        # commands the service answers itself (``claim_win``, ``hand_to_computer``), else the
        # rules'
        handled = await self.service_command(conn, game, state, caller.seat, command)
        if handled is not None:
            events, new_state = handled
        else:  # the rules publish the seed in the finish event themselves
            decision = decide(state, caller.seat, command, self.dice_of(game), seed=game.seed)
            events, new_state = list(decision.events), decision.state
        # each row's visibility is read against the state after the command, as the answer
        # redacts them (``_answer``): what it reads, the ships' sides, never changes
        last = len(events) - 1
        rows = [event_values(e, new_state, ends=i == last) for i, e in enumerate(events)]
        return events, new_state, rows

    async def _persist(
        self,
        conn: AsyncConnection,
        game: Q.GameHead,
        new_state: GameState,
        events: list[Event],
        rows: list[dict[str, Any]],
        caller: Caller,
        referee: dict[str, Any] | None,
        key: str | None,
        fingerprint: str,
    ) -> dict[str, Any] | None:
        """Save the command; with an idempotency key, its answer too (which is returned)."""
        body_out = None
        reply = None
        if key is not None:
            body_out = self._answer(game, new_state, events, caller, referee)
            reply = {
                "token_hash": caller.token_hash or "admin",
                "key": key,
                "request_hash": fingerprint,
                "status_code": 200,
                "response": body_out,
                "first_seq": events[0].seq if events else None,
                "last_seq": events[-1].seq if events else None,
            }
        await Q.save_command(
            conn, game.id, rows, state_to_dict(new_state), new_state.seq, game.status, reply
        )
        return body_out

    def _notify(self, game_id: str, seq: int) -> None:
        # the caller need not wait for the NOTIFY: its answer goes out while the hint does
        self.db.hint_soon(game_id, seq)

    # -- answers -----------------------------------------------------------------------------
    def _answer(
        self,
        game: Q.GameHead,
        state: GameState,
        events: list[Event],
        caller: Caller,
        referee: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """A command's answer: its events as the caller may see them, and the caller's view."""
        return {
            "events": [redact(e, caller.seat, state) for e in events],
            "view": self.reading.view_of(game, state, caller, referee),
        }

    async def _replayed(
        self, conn: AsyncConnection, game_id: str, stored: Q.StoredReply, fingerprint: str
    ) -> CommandResult:
        if not tokens.same(stored.request_hash, fingerprint):
            raise E.IdempotencyKeyReused(
                "this Idempotency-Key was used with another body: use a new key for a new command"
            )
        if stored.first_seq is not None and await Q.voided(conn, game_id, stored.first_seq):
            raise E.CommandVoided("a referee rewind voided this command's effects")
        return CommandResult(stored.status_code, dict(stored.response))
