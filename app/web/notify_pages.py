"""The pages' side of notifications (issue 15): the "Notify me" panel's posts (the seat
cookie, CSRF checked) and the e-mail confirmation page (a GET only shows a button, so that a
mail client's link preview confirms nothing)."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from app import problems
from app.deps import cookie_token
from app.play import errors as E
from app.play.service import GameService
from app.web.routes import templates
from app.web.security import check_csrf, csrf_token, issue_cookies

router = APIRouter(include_in_schema=False)
NO_STORE = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


@router.post("/games/{game_id}/notify", response_model=None)
async def set_from_page(game_id: str, request: Request) -> Response:
    """The panel's fetch: JSON in, JSON out (problem+json on a refusal, shown inline)."""
    check_csrf(request, request.headers.get("x-csrf-token"))
    try:
        body = orjson.loads(await request.body())
        if not isinstance(body, dict):
            raise E.Invalid("send a JSON object")
        shown = await _service(request).notify.set(game_id, cookie_token(request, game_id), body)
    except orjson.JSONDecodeError:
        error: E.Problem = E.Invalid("send a JSON object")
        return JSONResponse(error.body(), error.status, media_type=problems.PROBLEM)
    except E.Problem as error:
        return JSONResponse(error.body(), error.status, media_type=problems.PROBLEM)
    return JSONResponse(shown, headers=NO_STORE)


@router.get("/games/{game_id}/notify", response_model=None)
async def shown_to_page(game_id: str, request: Request) -> Response:
    """The seat's own settings for the panel, and whether this server mails at all."""
    notify = _service(request).notify
    try:
        shown = await notify.shown(game_id, cookie_token(request, game_id))
    except E.Problem as error:
        return JSONResponse(error.body(), error.status, media_type=problems.PROBLEM)
    return JSONResponse(
        {**shown, "email_available": notify.options.smtp is not None}, headers=NO_STORE
    )


def _render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
    context = {"request": request, "csrf": csrf_token(request), **context}
    response = templates.TemplateResponse(request, name, context, status_code=status)
    response.headers.update(NO_STORE)
    issue_cookies(request, response)
    return response


@router.get("/notify/confirm/{token}", response_model=None)
async def confirm_page(token: str, request: Request) -> Response:
    return _render(request, "notify_confirm.html", {})


@router.post("/notify/confirm/{token}", response_model=None)
async def confirm(token: str, request: Request) -> Response:
    form = await request.form()
    submitted = form.get("csrf")
    check_csrf(request, submitted if isinstance(submitted, str) else None)
    game_id = await _service(request).notify.confirm(token)
    if game_id is None:
        text = "This link is unknown, already used or expired: ask for a new one on the game page."
        context = {"title": "Link not valid", "text": text, "back": None}
        return _render(request, "message.html", context, 404)
    text = "This address now gets a mail when it is your move, while no page of yours is open."
    context = {"title": "Address confirmed", "text": text, "back": game_id}
    return _render(request, "message.html", context)
