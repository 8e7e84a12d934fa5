"""Security headers on every answer (pages, API, static files, errors), as pure ASGI.

- ``Content-Security-Policy``: scripts, styles and everything else only from this origin; a
  script without a ``src`` runs only with this answer's nonce (a fresh one per answer, put in
  ``scope["state"]["csp_nonce"]`` so that templates read it as ``request.state.csp_nonce``);
  no plugins, no ``<base>``, forms post only here, and no site may frame the pages
  (``frame-ancestors 'none'``, the clickjacking defence). Styles carry no nonce and no
  ``'unsafe-inline'``: the templates have no ``style`` attribute or ``<style>`` element, and
  htmx's own indicator ``<style>`` is turned off by the pages' ``htmx-config`` meta tag.
  ``data:`` images are allowed: the pages' empty favicon and Swagger UI's icons are ``data:``.
- ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer`` (a page URL may name
  a game, and ``/seat/{token}`` holds a token: no other site hears either).
- ``Strict-Transport-Security`` only on an answer to a request that came over https: the
  scheme is read when the answer starts, after the proxy-headers middleware (inside this one)
  has set it from a trusted proxy's ``X-Forwarded-Proto``.

A header the app set itself is left as it is. The cost per answer is one ``os.urandom`` nonce
and a few list appends: no parsing of the body, no per-route lookup.

A crash (an exception no handler turned into an answer) is answered here, with the headers: the
app's own 500 answer comes from Starlette's outermost middleware, which sends it past this one.
It gets the same problem+json body; that middleware still runs the app's handler, which logs.
"""

from __future__ import annotations

import secrets

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.play.errors import problem_body
from app.problems import problem_response

NONCE = "csp_nonce"
HSTS_MAX_AGE = 60 * 60 * 24 * 365  # one year: the usual value for a site that serves only TLS
_POLICY = (
    "default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
_HEAD, _TAIL = (part.encode() for part in _POLICY.split("{nonce}"))
_CSP = b"content-security-policy"
_FIXED = ((b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"))
_HSTS = b"strict-transport-security"


def policy(nonce: str) -> str:
    """The Content-Security-Policy an answer with this nonce carries."""
    return _POLICY.format(nonce=nonce)


class SecurityHeaders:
    """Adds the headers above to every HTTP answer of ``app``; ``hsts_max_age`` 0 sends no
    ``Strict-Transport-Security`` even over https."""

    def __init__(self, app: ASGIApp, hsts_max_age: int = HSTS_MAX_AGE) -> None:
        self.app = app
        self.hsts = f"max-age={hsts_max_age}".encode() if hsts_max_age > 0 else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        nonce = secrets.token_hex(16)  # 128 bits; hex is the cheapest encoding here (~1 µs)
        scope.setdefault("state", {})[NONCE] = nonce
        csp = _HEAD + nonce.encode() + _TAIL
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                if _CSP not in present:
                    headers.append((_CSP, csp))
                headers.extend(item for item in _FIXED if item[0] not in present)
                # the scheme as the proxy-headers middleware left it, read now, not at the start
                if self.hsts and scope.get("scheme") == "https" and _HSTS not in present:
                    headers.append((_HSTS, self.hsts))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception:
            if not started:
                body = problem_body(
                    500, "internal_error", "Internal error", "something broke on our side"
                )
                await problem_response(body)(scope, receive, send_with_headers)
            raise
