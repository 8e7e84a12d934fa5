"""``Annotated`` dependency aliases shared by the routes."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from app.play.callers import Callers
from app.play.commands import Commands
from app.play.errors import Unauthorized
from app.play.lobby import Lobby
from app.play.reading import Reading
from app.play.referee import Referee
from app.play.service import GameService
from app.store.db import Database

# The dependencies are coroutines: FastAPI would run plain functions in a worker thread (a
# thread hop per dependency per request, for a few attribute reads).


def _play(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


# one dependency per room of the game master (``app.play.service``)
async def get_lobby(request: Request) -> Lobby:
    return _play(request).lobby


async def get_commands(request: Request) -> Commands:
    return _play(request).commands


async def get_reading(request: Request) -> Reading:
    return _play(request).reading


async def get_referee(request: Request) -> Referee:
    return _play(request).referee


async def get_callers(request: Request) -> Callers:
    return _play(request).callers


async def get_db(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


async def bearer(
    authorization: Annotated[
        str | None, Header(description="Bearer <token>: a seat's token or the admin token")
    ] = None,
) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("the Authorization header must be 'Bearer <token>'")
    return token.strip()


LobbyDep = Annotated[Lobby, Depends(get_lobby)]
CommandsDep = Annotated[Commands, Depends(get_commands)]
ReadingDep = Annotated[Reading, Depends(get_reading)]
RefereeDep = Annotated[Referee, Depends(get_referee)]
CallersDep = Annotated[Callers, Depends(get_callers)]
DbDep = Annotated[Database, Depends(get_db)]
TokenDep = Annotated[str | None, Depends(bearer)]


def seat_cookie(game_id: str) -> str:
    """One cookie per game, so one browser can hold seats in several games."""
    return f"pd_seat_{game_id}"


ADMIN_COOKIE = "pd_admin"


def cookie_token(request: Request, game_id: str) -> str | None:
    """The page's credential for a game: the seat this browser's id holds there (read by
    ``app.web.browser.BrowserSeats``), else an older per-game seat cookie, else the admin's
    (referee of all)."""
    held: dict[str, str] = getattr(request.state, "browser_seats", None) or {}
    return (
        held.get(game_id)
        or request.cookies.get(seat_cookie(game_id))
        or request.cookies.get(ADMIN_COOKIE)
        or None
    )
