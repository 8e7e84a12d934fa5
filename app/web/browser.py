"""One signed browser id instead of a seat cookie per game (browsers drop cookies past a
couple of hundred per site).

``pd_browser`` (HttpOnly, SameSite=Lax, Secure over https) holds a random id and its HMAC
under the server's signing key; a cookie whose HMAC does not match is ignored. The store keeps
only a hash of the id, mapped per game to a seat row (``app.play.browsers``).
``BrowserSeats`` reads that mapping once per request, so ``app.deps.cookie_token`` stays a
plain lookup. An older per-game seat cookie (``pd_seat_{game}``) is still read, and the game
page moves it into the mapping and clears it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Any

from fastapi import Request, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from app.deps import seat_cookie
from app.play.browsers import Browsers
from app.play.tokens import Hashed

BROWSER_COOKIE = "pd_browser"
BROWSER_MAX_AGE = 60 * 60 * 24 * 400  # the longest a browser keeps a cookie
_SKIP = ("/static/", "/api/", "/metrics")
# a fragment, a form post or a stream of one game: it needs this browser's seat of that game
# only (these come on every live update; the whole list is for pages, which show the count)
_ONE_GAME = re.compile(r"/games/([A-Za-z0-9_-]+)(?:/|$)")


def _mac(key: bytes, browser_id: str) -> str:
    return hmac.new(key, b"browser:" + browser_id.encode(), hashlib.sha256).hexdigest()


def browser_hash(browser_id: str) -> str:
    """What the store keeps of a browser id."""
    return hashlib.sha256(b"browser-id:" + browser_id.encode()).hexdigest()


def signed(key: bytes, browser_id: str) -> str:
    return f"{browser_id}.{_mac(key, browser_id)}"


def verified(key: bytes, value: str | None) -> str | None:
    """The browser id a cookie value holds, or None when it is missing, malformed or forged."""
    if not value or len(value) > 200:
        return None
    browser_id, _, mac = value.rpartition(".")
    if not browser_id or not hmac.compare_digest(mac.encode(), _mac(key, browser_id).encode()):
        return None
    return browser_id


def _wants_page(scope: Scope) -> bool:
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept", b"")
    return (
        scope.get("method") == "GET"
        and b"text/html" in accept
        and headers.get(b"hx-request") != b"true"
    )


class BrowserSeats:
    """Reads the seats this browser holds into ``request.state`` (``browser_seats``: game id
    -> credential), and, for a page, the count of games awaiting it (``awaiting_me``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope["path"].startswith(_SKIP):
            request = Request(scope)
            key: bytes = request.app.state.settings.signing_key
            browser_id = verified(key, request.cookies.get(BROWSER_COOKIE))
            state: dict[str, Any] = scope.setdefault("state", {})
            state["browser_seats"] = {}
            state["awaiting_me"] = 0
            if browser_id is not None:
                browsers = Browsers(request.app.state.db)
                page = _wants_page(scope)
                one = None if page else _ONE_GAME.match(scope["path"])
                rows = await browsers.held(browser_hash(browser_id), one and one.group(1))
                state["browser_id"] = browser_id
                state["browser_rows"] = rows
                state["browser_seats"] = {r.game_id: Hashed(r.token_hash) for r in rows}
                if rows and page:
                    state["awaiting_me"] = await browsers.awaiting_me(rows)
        await self.app(scope, receive, send)


def _browser_id(request: Request) -> tuple[str, bool]:
    """This browser's id, and whether it is new in this request."""
    known = getattr(request.state, "browser_id", None)
    if known:
        return known, getattr(request.state, "browser_new", False)
    request.state.browser_id = secrets.token_urlsafe(32)
    request.state.browser_new = True
    return request.state.browser_id, True


async def set_seat(request: Request, response: Response, game_id: str, token: str) -> None:
    """Give this browser the seat of ``token`` (a seat of ``game_id``): the mapping gains it
    (in place of any other seat of that game), and the browser cookie is set or renewed."""
    browser_id, _ = _browser_id(request)
    await Browsers(request.app.state.db).remember(browser_hash(browser_id), token)
    key: bytes = request.app.state.settings.signing_key
    response.set_cookie(
        BROWSER_COOKIE,
        signed(key, browser_id),
        max_age=BROWSER_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    if seat_cookie(game_id) in request.cookies:
        response.delete_cookie(
            seat_cookie(game_id),
            path="/",
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )


async def move_legacy(request: Request, response: Response, game_id: str) -> None:
    """An older per-game seat cookie of a live seat goes into the mapping and is cleared."""
    token = request.cookies.get(seat_cookie(game_id))
    held = getattr(request.state, "browser_seats", {})
    if (
        token
        and game_id not in held
        and await Browsers(request.app.state.db).live_in(game_id, token)
    ):
        await set_seat(request, response, game_id, token)
