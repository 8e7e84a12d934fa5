"""Cookies and CSRF for the pages.

A browser's seats are kept under one signed browser id (``app.web.browser``), given only by
claiming an invite, creating a game or confirming a ``/seat/{token}`` page (a POST back to
that same address: the page never writes the token, and no further URL holds it), and never
over a live seat of the same game. Every cookie is ``Secure`` when the request came over https
(``secure``). Every form carries a CSRF token: an HMAC of a random, HttpOnly ``pd_csrf``
cookie under the server's signing key (a signed double submit), and a POST from another
origin is refused outright.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from fastapi import Request, Response

from app.play.errors import Forbidden
from app.web.browser import set_seat

__all__ = ["set_seat"]  # one way to give a browser a seat: ``app.web.browser``

CSRF_COOKIE = "pd_csrf"
SEAT_MAX_AGE = 60 * 60 * 24 * 90


class CsrfFailed(Forbidden):
    code = "csrf_failed"
    title = "Form expired or forged"


def secure(request: Request) -> bool:
    """Whether a cookie set in answer to this request gets ``Secure``: when the request came over
    https — directly, or through a trusted proxy whose ``X-Forwarded-Proto`` set the scheme (the
    proxy-headers middleware). Every cookie the pages set or clear asks this."""
    return request.url.scheme == "https"


def csrf_secret(request: Request) -> str:
    """The browser's CSRF cookie value, minted for this request if it has none yet."""
    value = request.cookies.get(CSRF_COOKIE)
    if not value:
        value = getattr(request.state, "new_csrf", None) or secrets.token_urlsafe(24)
        request.state.new_csrf = value
    return value


def csrf_token(request: Request) -> str:
    key: bytes = request.app.state.settings.signing_key
    return hmac.new(key, b"csrf:" + csrf_secret(request).encode(), hashlib.sha256).hexdigest()


def issue_cookies(request: Request, response: Response) -> None:
    """Set the CSRF cookie when this request minted it."""
    new = getattr(request.state, "new_csrf", None)
    if new:
        response.set_cookie(
            CSRF_COOKIE, new, httponly=True, samesite="strict", secure=secure(request), path="/"
        )


def check_csrf(request: Request, submitted: str | None) -> None:
    # pages send no referrer, so a same-origin form may arrive with "Origin: null"
    origin = request.headers.get("origin")
    if origin and origin != "null" and origin != f"{request.url.scheme}://{request.url.netloc}":
        raise CsrfFailed("this form was sent from another site")
    cookie = request.cookies.get(CSRF_COOKIE)
    if not cookie or not submitted:
        raise CsrfFailed("the form's security token is missing: reload the page and try again")
    key: bytes = request.app.state.settings.signing_key
    expected = hmac.new(key, b"csrf:" + cookie.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, submitted):
        raise CsrfFailed("the form's security token does not match: reload and try again")
