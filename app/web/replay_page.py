"""After the game: the summary and the replay with each side's knowledge, on the game page and
on a page of their own that a player can share (``/games/{id}/replay``).

Who may open them is who may read the record (``Reading.record``): after the end, the game's
seats, its referee and the admin; anyone else only if the game admits spectators. Before the
end nobody, the referee included: the replay shows every hidden position. The link carries no
token: a seat opens it with the browser that holds the seat.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from app.deps import ReadingDep, cookie_token
from app.play import errors as E
from app.play.reading import Reading
from app.rules.state import GameStatus
from app.web import replay_frames, routes
from app.web.summary import ROWS, fold, summary

router = APIRouter(include_in_schema=False)
NO_STORE = routes.NO_STORE

PRIVATE = (
    "This game was played without spectators, so its summary and replay are open to its two "
    "players and its referee only. If you played in it, open this link in the browser you "
    "played it in (or open your seat link there first)."
)
NOT_OVER = (
    "The game is not over yet. Its summary and replay open when it ends: until then they would "
    "give away where the hidden ships are."
)
REVOKED = "The seat this browser held in the game has been replaced, so it cannot open the replay."

# a finished game's replay never changes: kept per (game, seq) for the next viewer
_CACHE: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
_CACHE_SIZE = 8


class Refused(Exception):
    def __init__(self, status: int, title: str, text: str) -> None:
        super().__init__(text)
        self.status, self.title, self.text = status, title, text


def _build(record: dict[str, Any]) -> dict[str, Any]:
    folded = fold(record)
    final = folded.final
    return {
        "game_id": record["game_id"],
        "seq": folded.events[-1].seq,
        "table": final.table.to_dict(),
        "movement": final.movement,
        "names": dict(final.side_names),
        "ships": replay_frames.roster(final),
        "summary": summary(record, folded),
        "frames": replay_frames.frames(folded),
    }


async def after_game(reading: Reading, request: Request, game_id: str) -> dict[str, Any]:
    """The finished game's summary and frames for this browser, or ``Refused`` saying why."""
    try:
        record = await reading.record(game_id, cookie_token(request, game_id))
    except E.MissingToken as error:
        raise Refused(403, "This replay is private", PRIVATE) from error
    except (E.Unauthorized, E.WrongGame) as error:
        raise Refused(403, "This replay is private", REVOKED) from error
    except E.UnknownGame as error:
        raise Refused(404, "No such game", f"There is no game {game_id!r}.") from error
    except E.Forbidden as error:
        raise Refused(403, "Not over yet", NOT_OVER) from error
    if record["status"] != GameStatus.FINISHED:  # the referee may read a record mid-game
        raise Refused(403, "Not over yet", NOT_OVER)
    key = (record["game_id"], max((e["seq"] for e in record["events"]), default=0))
    built = _CACHE.get(key)
    if built is None:
        built = await run_in_threadpool(_build, record)
        _CACHE[key] = built
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return built


def _refused_page(request: Request, refused: Refused) -> Response:
    context = {"title": refused.title, "text": refused.text}
    return routes._page(request, "message.html", context, refused.status)


@router.get("/games/{game_id}/replay", response_model=None, name="replay_page")
async def replay_page(game_id: str, request: Request, reading: ReadingDep) -> Response:
    try:
        built = await after_game(reading, request, game_id)
        seen = await reading.view(game_id, cookie_token(request, game_id))
    except Refused as refused:
        return _refused_page(request, refused)
    context = {
        "gid": game_id,
        "after": built,
        "s": built["summary"],
        "rows": ROWS,
        "seat": seen["you"],
        "spectators": seen["spectators"],
        "share": str(request.url_for("replay_page", game_id=game_id)),
        "v": seen,
    }
    return routes._page(request, "replay_page.html", context)


@router.get("/games/{game_id}/summary", response_model=None)
async def summary_part(game_id: str, request: Request, reading: ReadingDep) -> Response:
    """The summary block the game page loads into its ``#replay`` section."""
    try:
        built = await after_game(reading, request, game_id)
        seen = await reading.view(game_id, cookie_token(request, game_id))
    except Refused as refused:
        return routes._page(request, "after_refused.html", {"r": refused}, refused.status)
    context = {
        "gid": game_id,
        "s": built["summary"],
        "rows": ROWS,
        "seat": seen["you"],
        "spectators": seen["spectators"],
        "share": str(request.url_for("replay_page", game_id=game_id)),
    }
    return routes._page(request, "after_summary.html", context)


@router.get("/games/{game_id}/replay.json", response_model=None)
async def replay_data(game_id: str, request: Request, reading: ReadingDep) -> Response:
    try:
        built = await after_game(reading, request, game_id)
    except Refused as refused:
        body = {"title": refused.title, "detail": refused.text, "status": refused.status}
        return JSONResponse(body, status_code=refused.status, headers=NO_STORE)
    return JSONResponse(built, headers=NO_STORE)
