"""The game page's chat panel and rematch panel (issue 15), each an htmx block of its own,
refreshed by the page stream's ``chat`` and ``rematch`` hints. Forms are CSRF-checked and
work without JavaScript (they post and redirect back)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.deps import cookie_token
from app.play import errors as E
from app.play.social import MAX_TEXT, Social
from app.web.routes import _field, _page
from app.web.security import check_csrf, set_seat

router = APIRouter(include_in_schema=False)


def _social(request: Request) -> Social:
    social: Social = request.app.state.service.social
    return social


async def give_seat(request: Request, response: Response, game_id: str, token: str) -> None:
    """This browser takes a seat of a game: the one place the rematch hands a seat to a page
    (the browser id's mapping, as every other way into a seat)."""
    await set_seat(request, response, game_id, token)


async def _chat_panel(
    request: Request, game_id: str, error: str | None = None, status: int = 200, text: str = ""
) -> Response:
    token = cookie_token(request, game_id)
    try:
        got = await _social(request).read_chat(game_id, token, 0)
    except E.Problem as problem:
        return _page(request, "chat.html", {"gid": game_id, "closed": problem.detail}, 200)
    context = {"gid": game_id, "chat": got, "error": error, "text": text, "max_text": MAX_TEXT}
    return _page(request, "chat.html", context, status)


@router.get("/games/{game_id}/chat/panel", response_model=None)
async def chat_panel(game_id: str, request: Request) -> Response:
    return await _chat_panel(request, game_id)


@router.post("/games/{game_id}/chat", response_model=None)
async def chat_post(game_id: str, request: Request) -> Response:
    form = await request.form()
    check_csrf(request, _field(form, "csrf"))
    text = form.get("text")
    try:
        await _social(request).post_chat(game_id, cookie_token(request, game_id), text)
    except E.Problem as problem:
        typed = text if isinstance(text, str) else ""
        return await _chat_panel(request, game_id, problem.detail, problem.status, typed[:2000])
    if request.headers.get("hx-request") != "true":
        return RedirectResponse(f"/games/{game_id}#chat", status_code=303)
    return await _chat_panel(request, game_id)


async def _rematch_panel(
    request: Request, game_id: str, error: str | None = None, status: int = 200
) -> Response:
    token = cookie_token(request, game_id)
    try:
        state = await _social(request).rematch_state(game_id, token)
        seat = (await request.app.state.service.reading.caller(game_id, token)).seat
    except E.Problem:
        state, seat = None, "spectator"
    context = {"gid": game_id, "rematch": state, "seat": seat, "error": error}
    return _page(request, "rematch.html", context, status)


@router.get("/games/{game_id}/rematch/panel", response_model=None)
async def rematch_panel(game_id: str, request: Request) -> Response:
    return await _rematch_panel(request, game_id)


@router.post("/games/{game_id}/rematch", response_model=None)
async def rematch_post(game_id: str, request: Request) -> Response:
    form = await request.form()
    check_csrf(request, _field(form, "csrf"))
    try:
        _, body = await _social(request).rematch(game_id, cookie_token(request, game_id))
    except E.Problem as problem:
        return await _rematch_panel(request, game_id, problem.detail, problem.status)
    target = f"/games/{body['game_id']}" if body.get("game_id") else f"/games/{game_id}"
    response: Response = RedirectResponse(target, status_code=303)
    if request.headers.get("hx-request") == "true":
        response = Response(status_code=200, headers={"HX-Redirect": target})
    if body.get("token"):
        await give_seat(request, response, body["game_id"], body["token"])
    return response
