"""The referee's powers (API.md "Referee"): pause, resume, rewind, end, replace a seat, and
who is connected. Referee seat or admin token only; every action takes a written reason that
becomes a public event — players see the reason, never a hidden fact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.play import errors as E
from app.play import tokens
from app.play.callers import ADMIN, Callers, token_hash
from app.play.logbook import event_values, service_events
from app.play.presence import presence_of
from app.play.reading import Reading, seat_names
from app.play.watch import Change, Watchers
from app.rules import Event, GameState, evolve, replay
from app.rules.rewind import open_windows, voided_reveals
from app.rules.snapshot import state_from_dict, state_to_dict
from app.rules.state import PLAYER_SEATS, GameStatus
from app.rules.winning import discarded_at_finish, finish
from app.store import games as G
from app.store import log as L
from app.store import queries as Q
from app.store import seats as S
from app.store.db import Database

# referee actions and seat changes are never voided by a rewind (API.md "Referee")
NEVER_VOIDED = {"paused", "resumed", "rewound", "seat_replaced", "seat_claimed", "time_added"}


class NotACommandBoundary(E.Invalid):
    code = "not_a_command_boundary"
    title = "Not the end of a command"


def inside_window(seq: int, window: int) -> str:
    return (
        f"seq {seq} lies inside fire window {window}, which its volley has not resolved yet: "
        "a rewind there would let a side declare again after reading the other's shots; "
        f"choose the end of a command before seq {window} or after the volley"
    )


class AlreadyPaused(E.Conflict):
    code = "already_paused"
    title = "Already paused"


class NotPaused(E.Conflict):
    code = "not_paused"
    title = "Not paused"


def rewound(
    rows: Sequence[L.Logged], to_seq: int, before: GameState, reason: str, seq: int
) -> tuple[list[int], Event, GameState]:
    """A rewind to ``to_seq`` of the log ``rows`` (the state ``before`` it, the game at
    ``seq``): the seqs it voids, its ``rewound`` event and the state after that."""
    voided = [r for r in rows if r.seq > to_seq and not r.voided and r.type not in NEVER_VOIDED]
    gone = {r.seq for r in voided}
    keep = [
        Event(r.seq, r.turn, r.type, r.data) for r in rows if not r.voided and r.seq not in gone
    ]
    data = {
        "to_seq": to_seq,
        "voided": [voided[0].seq, voided[-1].seq] if voided else None,
        "reason": reason,
        "next_roll": before.next_roll,
        # what the voided events revealed stays public (API.md "Referee")
        "last_known": voided_reveals(Event(r.seq, r.turn, r.type, r.data) for r in voided),
    }
    rebuilt = replay(keep)
    event = Event(seq + 1, rebuilt.turn, "rewound", data)
    return [r.seq for r in voided], event, evolve(rebuilt, event)


class Referee:
    """Each action locks the game, checks the referee, writes its event and answers with the
    referee's view; the hint goes out after the commit."""

    def __init__(
        self, db: Database, callers: Callers, reading: Reading, watchers: Watchers | None = None
    ) -> None:
        self.db = db
        self.callers = callers
        self.reading = reading
        self.watchers = watchers or Watchers()

    async def _referee(self, conn: AsyncConnection, game_id: str, token: str | None) -> Q.GameRead:
        read = await Q.read_for_change(conn, game_id, token_hash(token), self.db.postgres)
        if read is None or read.snapshot is None:
            raise E.UnknownGame(f"there is no game {game_id!r}")
        caller = self.callers.identify(read, token, write=True)
        if caller.seat != "referee":
            raise E.Forbidden("only the referee (or the server's admin) may do this")
        return read

    async def _done(
        self, conn: AsyncConnection, game: Q.GameHead, state: GameState
    ) -> dict[str, Any]:
        referee = await self.reading.referee_of(conn, game.id, game.creator)
        seen = self.reading.view_of(game, state, ADMIN, referee)
        seen["seats"] = seat_names(await S.live_seats(conn, game.id))
        return seen

    async def _append(
        self,
        conn: AsyncConnection,
        read: Q.GameRead,
        items: Sequence[tuple[str, dict[str, Any]]],
        status: str | None = None,
        paused: bool | None = None,
    ) -> tuple[dict[str, Any], int]:
        """Append service-level events; the referee's view after them, and their last seq."""
        assert read.snapshot is not None  # read for a change: the snapshot comes with it
        before = state_from_dict(read.snapshot)
        state, rows = service_events(before, items)
        game = read.head
        game = replace(
            game,
            seq=state.seq,
            status=status or game.status,
            paused=game.paused if paused is None else paused,
        )
        await self.watchers.written(conn, Change(game, before, state))
        await G.save_game(conn, game.id, rows, state_to_dict(state), state.seq, status, paused)
        return await self._done(conn, game, state), state.seq

    async def pause(self, game_id: str, token: str | None, reason: str) -> dict[str, Any]:
        async with self.db.unit() as conn:
            read = await self._referee(conn, game_id, token)
            if read.head.status == GameStatus.FINISHED:
                raise E.GameOver("the game is over")
            if read.head.paused:
                raise AlreadyPaused("the game is already paused")
            seen, seq = await self._append(
                conn, read, [("paused", {"reason": reason})], paused=True
            )
        await self.db.hint(game_id, seq)
        return seen

    async def resume(self, game_id: str, token: str | None, reason: str) -> dict[str, Any]:
        async with self.db.unit() as conn:
            read = await self._referee(conn, game_id, token)
            if not read.head.paused:
                raise NotPaused("the game is not paused")
            items = [("resumed", {"reason": reason})]
            seen, seq = await self._append(conn, read, items, paused=False)
        await self.db.hint(game_id, seq)
        return seen

    async def end(
        self, game_id: str, token: str | None, winner: str, reason: str
    ) -> dict[str, Any]:
        if winner not in ("A", "B", "draw"):
            raise E.Invalid("the winner must be A, B or draw")
        async with self.db.unit() as conn:
            read = await self._referee(conn, game_id, token)
            game = read.head
            if game.status == GameStatus.FINISHED:
                raise E.GameOver("the game is already over")
            assert read.snapshot is not None
            state = state_from_dict(read.snapshot)
            data = finish(state, winner, "referee", note=reason, seed=game.seed)
            removed = discarded_at_finish(state)  # markers in flight go first (decision)
            items = [("marker_removed", removed)] if removed is not None else []
            items.append(("game_finished", data))
            seen, seq = await self._append(
                conn, read, items, status=GameStatus.FINISHED, paused=False
            )
        await self.db.hint(game_id, seq)
        return seen

    async def rewind(
        self, game_id: str, token: str | None, to_seq: int, reason: str
    ) -> dict[str, Any]:
        async with self.db.unit() as conn:
            read = await self._referee(conn, game_id, token)
            game = read.head
            if game.status == GameStatus.FINISHED:
                raise E.GameOver("a finished game cannot be rewound")
            target = await L.logged(conn, game.id, to_seq)
            if target is None or target.voided or not target.ends_command:
                raise NotACommandBoundary(
                    f"seq {to_seq} does not end a command: choose the last event of a command"
                )
            if to_seq >= game.seq:
                raise NotACommandBoundary(f"seq {to_seq} is the present: nothing to rewind")
            rows = await L.whole_log(conn, game.id)
            window = open_windows((r.seq, r.type) for r in rows if not r.voided)[to_seq]
            if window is not None:
                raise NotACommandBoundary(inside_window(to_seq, window))
            assert read.snapshot is not None
            before = state_from_dict(read.snapshot)
            voided, event, state = rewound(rows, to_seq, before, reason, game.seq)
            await L.void(conn, game.id, voided)
            row = event_values(event, state)
            await self.watchers.written(conn, Change(replace(game, seq=state.seq), before, state))
            await G.save_game(conn, game.id, [row], state_to_dict(state), state.seq)
            seen = await self._done(conn, replace(game, seq=state.seq), state)
        await self.db.hint(game_id, state.seq)
        return seen

    async def replace_seat(
        self, game_id: str, token: str | None, side: str, reason: str
    ) -> dict[str, Any]:
        if side not in PLAYER_SEATS:
            raise E.Invalid("side must be A or B")
        async with self.db.unit() as conn:
            read = await self._referee(conn, game_id, token)
            # the seat keeps its player's name; only the key to it changes
            name = await S.seat_name(conn, game_id, side)
            await S.revoke_seat(conn, game_id, side)
            new_token = tokens.new_token()
            await S.add_seat(conn, game_id, side, name, tokens.digest(new_token))
            items = [("seat_replaced", {"side": side, "reason": reason})]
            seen, seq = await self._append(conn, read, items)
        await self.db.hint(game_id, seq)
        return {"token": new_token, "view": seen}

    async def presence(self, game_id: str, token: str | None) -> dict[str, Any]:
        async with self.db.unit() as conn:
            await self._referee(conn, game_id, token)
            return await presence_of(conn, game_id)
