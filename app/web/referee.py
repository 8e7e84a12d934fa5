"""The referee's pages: the admin home (every game), login, and the dashboard's actions.

The game page itself serves the referee seat (and the admin, referee of every game) with the
omniscient map, both record sheets and the unredacted log (``routes.game_page``); the forms here
carry out the referee's actions through the same room as ``/api/v1/.../referee``.
"""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData

from app.deps import ADMIN_COOKIE, CallersDep, LobbyDep, ReadingDep, RefereeDep, cookie_token
from app.play import errors as E
from app.play.referee import Referee
from app.rules.state import GameStatus
from app.web import forms
from app.web.routes import NO_STORE, _context, _field, _page
from app.web.security import check_csrf, secure

router = APIRouter(include_in_schema=False)
FILTERS = {"all", "active", "waiting", "finished", "your_call"}


def _ago(stamp: str) -> str:
    then = datetime.fromisoformat(stamp)
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    seconds = int((datetime.now(UTC) - then).total_seconds())
    if seconds < 90:
        return f"{seconds} s"
    if seconds < 90 * 60:
        return f"{seconds // 60} min"
    if seconds < 48 * 3600:
        return f"{seconds // 3600} h"
    return f"{seconds // 86400} days"


# the setting that names the admin token (``Settings.admin_token``, read from the environment)
ADMIN_SETTING = "PINGDUEL_ADMIN_TOKEN"
# actions that cannot be taken back: their page forms need the confirm box ticked
CONFIRMED = {"end": "ending the game", "rewind": "the rewind"}


def _no_admin(request: Request, status: int = 200) -> Response:
    """The sign-in page of a server with no admin token: it says so and how to set one, and
    offers no form (no token could pass it)."""
    context = {"error": None, "unset": True, "setting": ADMIN_SETTING}
    return _page(request, "referee_login.html", context, status)


@router.get("/referee", response_model=None)
async def home(request: Request, callers: CallersDep, lobby: LobbyDep) -> Response:
    if not callers.admin_token:
        return _no_admin(request)
    token = request.cookies.get(ADMIN_COOKIE)
    if not token or not callers.is_admin(token):
        return _page(request, "referee_login.html", {"error": None})
    wanted = request.query_params.get("filter", "all")
    wanted = wanted if wanted in FILTERS else "all"
    games = (await lobby.list_games(token))["games"]
    rows = []
    for g in games:
        waiting_on_player = g["status"] == GameStatus.ACTIVE and not g["paused"] and g["awaiting"]
        if wanted == "active" and g["status"] != GameStatus.ACTIVE:
            continue
        if wanted == "waiting" and not waiting_on_player:
            continue
        if wanted == "finished" and g["status"] != GameStatus.FINISHED:
            continue
        if wanted == "your_call" and not g["paused"]:
            continue
        rows.append({**g, "since": _ago(g["updated_at"]), "waiting_on_player": waiting_on_player})
    return _page(request, "referee_home.html", {"games": rows, "filter": wanted})


@router.post("/referee/login", response_model=None)
async def login(request: Request, callers: CallersDep) -> Response:
    form = await request.form()
    check_csrf(request, _field(form, "csrf"))
    token = (_field(form, "token") or "").strip()
    if not callers.admin_token:
        return _no_admin(request, 401)
    if not callers.is_admin(token):
        return _page(request, "referee_login.html", {"error": "That is not the admin token."}, 401)
    response = RedirectResponse("/referee", status_code=303, headers=NO_STORE)
    response.set_cookie(
        ADMIN_COOKIE,
        token,
        httponly=True,
        samesite="strict",
        secure=secure(request),
        path="/",
        max_age=60 * 60 * 12,
    )
    return response


@router.post("/referee/logout", response_model=None)
async def logout(request: Request) -> Response:
    form = await request.form()
    check_csrf(request, _field(form, "csrf"))
    response = RedirectResponse("/referee", status_code=303, headers=NO_STORE)
    response.delete_cookie(
        ADMIN_COOKIE, path="/", httponly=True, samesite="strict", secure=secure(request)
    )
    return response


async def _action(
    referee: Referee, request: Request, form: FormData, action: str, game_id: str, reason: str
) -> dict[str, str]:
    """Carry out one referee action; what the answer page shows (a replaced seat's link)."""
    token = cookie_token(request, game_id)
    if action == "pause":
        await referee.pause(game_id, token, reason)
    elif action == "resume":
        await referee.resume(game_id, token, reason)
    elif action == "end":
        await referee.end(game_id, token, _field(form, "winner") or "", reason)
    elif action == "rewind":
        to_seq = forms.seq(_field(form, "to_seq"))
        if to_seq is None:
            raise E.Invalid("choose the command to rewind to")
        await referee.rewind(game_id, token, to_seq, reason)
    elif action == "replace-seat":
        side = _field(form, "side") or ""
        result = await referee.replace_seat(game_id, token, side, reason)
        return {"side": side, "link": str(request.url_for("seat", token=result["token"]))}
    else:
        raise E.NotFound(f"no referee action {action!r}")
    return {}


@router.post("/games/{game_id}/referee/{action}", response_model=None)
async def act(
    game_id: str, action: str, request: Request, referee: RefereeDep, reading: ReadingDep
) -> Response:
    form = await request.form()
    check_csrf(request, _field(form, "csrf"))
    reason = (_field(form, "reason") or "").strip()[:500]
    try:
        if not reason:
            raise E.Invalid("write the reason: the players will read it")
        if action in CONFIRMED and _field(form, "confirm") != "yes":
            # who may act is said first (a player learns nothing from a form it cannot use);
            # the presence read checks the caller as the action would, and changes nothing
            await referee.presence(game_id, cookie_token(request, game_id))
            raise E.Invalid(f"tick the confirm box: {CONFIRMED[action]} cannot be undone")
        shown = await _action(referee, request, form, action, game_id, reason)
    except E.Problem as error:
        if isinstance(error, E.Unauthorized | E.Forbidden | E.UnknownGame):
            return _page(
                request, "message.html", {"title": error.title, "text": error.detail}, error.status
            )
        context = await _context(request, reading, game_id, error=error.detail)
        return _page(request, "game.html", context, error.status)
    if shown:
        return _page(request, "seat_replaced.html", {"game_id": game_id, **shown})
    return RedirectResponse(f"/games/{game_id}", status_code=303, headers=NO_STORE)
