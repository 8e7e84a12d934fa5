"""Who is asking: the one way every room tells a caller from a token.

A game is read together with the live seat its token names (``app.store.queries``: one
statement), and ``Callers.identify`` says who that is — a seat of the game, the server's admin
(referee of every game) or a spectator — or refuses with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncConnection

from app.play import errors as E
from app.play import tokens
from app.rules.state import PLAYER_SEATS
from app.store import seats as S
from app.store.queries import GameRead


@dataclass(frozen=True)
class Caller:
    seat: str  # A | B | referee | spectator
    token_hash: str | None = None
    admin: bool = False

    @property
    def player(self) -> bool:
        return self.seat in PLAYER_SEATS


ADMIN = Caller("referee", admin=True)


def token_hash(token: str | None) -> str | None:
    """What the store holds of a token (its SHA-256), to read a game with the token's seat."""
    return tokens.digest(token) if token is not None else None


class Callers:
    def __init__(self, admin_token: str | None) -> None:
        self.admin_token = admin_token

    def is_admin(self, token: str | None) -> bool:
        admin = self.admin_token
        return bool(token and admin and tokens.same(token, admin))

    def identify(self, read: GameRead, token: str | None, write: bool = False) -> Caller:
        """The caller of a game read with the token's seat; ``write``: it is to change the
        game (a spectator may only read, where the game allows them)."""
        if token is None:
            # said first: true for a read and a write alike, and in either door's words
            if not read.head.spectators:
                raise E.MissingToken("this game has no spectators: send a seat's token")
            if write:
                raise E.MissingToken("send 'Authorization: Bearer <token>' to act in a game")
            return Caller("spectator")
        if self.is_admin(token):
            return ADMIN
        if read.seat is None:
            raise E.Unauthorized("this token is not valid (revoked, mistyped or never issued)")
        if read.seat.game_id != read.head.id:
            raise E.WrongGame("this token belongs to another game")
        return Caller(read.seat.side, token_hash=tokens.digest(token))

    def computer(self, read: GameRead, hashed: str) -> Caller:
        """The server's own computer, acting through the live seat whose token hash it holds
        (it never had the token itself): refused once that seat is replaced."""
        if read.seat is None or read.seat.game_id != read.head.id:
            raise E.Unauthorized("the computer's seat of this game was replaced")
        return Caller(read.seat.side, token_hash=hashed)

    def sender(self, read: GameRead, token: str | None) -> Caller:
        """The caller of a game command: a player's seat, or refused with the reason."""
        caller = self.identify(read, token, write=True)
        if not caller.player:
            raise E.Forbidden("the referee and spectators do not send game commands")
        return caller

    async def seat_named(self, conn: AsyncConnection, token: str) -> S.TokenSeat:
        """The live seat a seat token names, in whichever game (a seat link re-entered on
        another device)."""
        seat = await S.seat_of_token(conn, tokens.digest(token))
        if seat is None:
            raise E.Unauthorized("this seat link is not valid (revoked or mistyped)")
        return seat

    async def held_seat(self, conn: AsyncConnection, game_id: str, token: str | None) -> str | None:
        """The seat of this game a browser's token already holds (the admin's: the referee's),
        or None (no token, a replaced seat's, another game's)."""
        if token is None:
            return None
        if self.is_admin(token):
            return "referee"
        return await S.side_of_token(conn, game_id, tokens.digest(token))
