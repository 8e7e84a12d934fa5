"""The referee's powers (API.md "Referee"): pause, resume, rewind, end, replace a seat, and
who is connected. Referee seat or admin token only; every action takes a written reason that
becomes a public event — players see the reason, never a hidden fact.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.play import errors as E
from app.play import tokens
from app.play.presence import presence_of
from app.play.service import Caller, GameService, event_row
from app.rules import Event, evolve, replay
from app.rules.rewind import open_windows, voided_reveals
from app.rules.snapshot import state_from_dict, state_to_dict
from app.rules.state import PLAYER_SEATS
from app.rules.winning import finish
from app.store.models import EventRow, Game, Seat, utcnow

# referee actions and seat changes are never voided by a rewind (API.md "Referee")
NEVER_VOIDED = {"paused", "resumed", "rewound", "seat_replaced", "seat_claimed"}


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


class Referee:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.db = service.db

    async def _referee(self, session: AsyncSession, game_id: str, token: str | None) -> Game:
        game = await self.service._game(session, game_id, lock=True)
        caller = await self.service.caller(session, game, token, write=True)
        if caller.seat != "referee":
            raise E.Forbidden("only the referee (or the server's admin) may do this")
        return game

    async def _done(self, session: AsyncSession, game: Game) -> dict[str, Any]:
        state = state_from_dict(game.snapshot)
        referee = await self.service._referee_of(await session.connection(), game.id, game.creator)
        seen = self.service._view(game, state, Caller("referee", admin=True), referee)
        seen["seats"] = await self.service._seats(session, game)
        return seen

    async def pause(
        self, game_id: str, token: str | None, reason: str
    ) -> tuple[dict[str, Any], int]:
        async with self.db.session() as session, session.begin():
            game = await self._referee(session, game_id, token)
            if game.status == "finished":
                raise E.GameOver("the game is over")
            if game.paused:
                raise AlreadyPaused("the game is already paused")
            state = await self.service._append(
                session, game, state_from_dict(game.snapshot), [("paused", {"reason": reason})]
            )
            game.paused = True
            return await self._done(session, game), state.seq

    async def resume(
        self, game_id: str, token: str | None, reason: str
    ) -> tuple[dict[str, Any], int]:
        async with self.db.session() as session, session.begin():
            game = await self._referee(session, game_id, token)
            if not game.paused:
                raise NotPaused("the game is not paused")
            state = await self.service._append(
                session, game, state_from_dict(game.snapshot), [("resumed", {"reason": reason})]
            )
            game.paused = False
            return await self._done(session, game), state.seq

    async def end(
        self, game_id: str, token: str | None, winner: str, reason: str
    ) -> tuple[dict[str, Any], int]:
        if winner not in ("A", "B", "draw"):
            raise E.Invalid("the winner must be A, B or draw")
        async with self.db.session() as session, session.begin():
            game = await self._referee(session, game_id, token)
            if game.status == "finished":
                raise E.GameOver("the game is already over")
            state = state_from_dict(game.snapshot)
            data = finish(state, winner, "referee", note=reason, seed=game.seed)
            state = await self.service._append(session, game, state, [("game_finished", data)])
            game.status = "finished"
            game.paused = False
            return await self._done(session, game), state.seq

    async def rewind(
        self, game_id: str, token: str | None, to_seq: int, reason: str
    ) -> tuple[dict[str, Any], int]:
        async with self.db.session() as session, session.begin():
            game = await self._referee(session, game_id, token)
            if game.status == "finished":
                raise E.GameOver("a finished game cannot be rewound")
            target = await session.get(EventRow, (game.id, to_seq))
            if target is None or target.voided or not target.ends_command:
                raise NotACommandBoundary(
                    f"seq {to_seq} does not end a command: choose the last event of a command"
                )
            if to_seq >= game.seq:
                raise NotACommandBoundary(f"seq {to_seq} is the present: nothing to rewind")
            rows = list(
                await session.scalars(
                    select(EventRow).where(EventRow.game_id == game.id).order_by(EventRow.seq)
                )
            )
            window = open_windows((r.seq, r.type) for r in rows if not r.voided)[to_seq]
            if window is not None:
                raise NotACommandBoundary(inside_window(to_seq, window))
            voided = [
                r for r in rows if r.seq > to_seq and not r.voided and r.type not in NEVER_VOIDED
            ]
            keep = [
                Event(r.seq, r.turn, r.type, r.data)
                for r in rows
                if not r.voided and r not in voided
            ]
            before = state_from_dict(game.snapshot)
            for r in voided:
                r.voided = True
            data = {
                "to_seq": to_seq,
                "voided": [voided[0].seq, voided[-1].seq] if voided else None,
                "reason": reason,
                "next_roll": before.next_roll,
                # what the voided events revealed stays public (API.md "Referee")
                "last_known": voided_reveals(Event(r.seq, r.turn, r.type, r.data) for r in voided),
            }
            rebuilt = replay(keep)
            event = Event(game.seq + 1, rebuilt.turn, "rewound", data)
            state = evolve(rebuilt, event)
            session.add(event_row(game.id, event, state))
            game.snapshot = state_to_dict(state)
            game.seq = state.seq
            game.updated_at = utcnow()
            return await self._done(session, game), state.seq

    async def replace_seat(
        self, game_id: str, token: str | None, side: str, reason: str
    ) -> tuple[dict[str, Any], int]:
        if side not in PLAYER_SEATS:
            raise E.Invalid("side must be A or B")
        async with self.db.session() as session, session.begin():
            game = await self._referee(session, game_id, token)
            old = await session.scalar(
                select(Seat).where(
                    Seat.game_id == game.id, Seat.side == side, Seat.revoked_at.is_(None)
                )
            )
            await session.execute(
                update(Seat)
                .where(Seat.game_id == game.id, Seat.side == side, Seat.revoked_at.is_(None))
                .values(revoked_at=utcnow())
            )
            new_token = tokens.new_token()
            # the seat keeps its player's name; only the key to it changes
            session.add(
                Seat(
                    game_id=game.id,
                    side=side,
                    name=old.name if old else None,
                    token_hash=tokens.digest(new_token),
                )
            )
            state = await self.service._append(
                session,
                game,
                state_from_dict(game.snapshot),
                [("seat_replaced", {"side": side, "reason": reason})],
            )
            return {"token": new_token, "view": await self._done(session, game)}, state.seq

    async def presence(self, game_id: str, token: str | None) -> dict[str, Any]:
        async with self.db.session() as session, session.begin():
            game = await self._referee(session, game_id, token)
            return await presence_of(session, game.id)
