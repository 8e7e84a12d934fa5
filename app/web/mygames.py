"""``/games``: the games this browser holds a seat in, newest activity first."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.deps import DbDep, ReadingDep
from app.play.browsers import Browsers
from app.web import routes

router = APIRouter(include_in_schema=False)


@router.get("/games", response_model=None, name="my_games")
async def my_games(request: Request, reading: ReadingDep, db: DbDep) -> Response:
    rows = getattr(request.state, "browser_rows", [])
    games = await Browsers(db).my_games(reading, rows)
    return routes._page(request, "my_games.html", {"games": games})
