"""Rate limits: pure ASGI, in front of every route, for HTTP requests only.

What is limited (each a setting, ``docs/operations.md``), keyed by the client's address
(``addresses``) or by a hash of the seat token (never the token itself):

- per address: games created, designs saved, invites claimed (API and pages alike);
- per seat token: game commands (``/api/v1/games/{id}/commands`` and the page's ``/act``);
- per seat token (a spectator: per address): chat lines (``…/chat``, API and page);
- per address, after the fact: requests whose token was refused (401, or 403 on the admin's
  game list): once a window is full, every request of that address that carries a token is
  refused until it empties — windows of a minute, an hour and a day make the wait grow;
- per address: failed admin sign-ins (a wrong token in ``/referee/login``, or a wrong admin
  cookie on ``/referee``), the same way;
- open streams (API and page) per address and per game, counted while they are open.

The real admin token is never limited. The server's own work (whatever a room does without a
request) never passes here. Over a limit: 429 with ``Retry-After`` (``refusals``), counted in
``pingduel_rate_limited_total{limit}``.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any
from urllib.parse import parse_qs

from fastapi import FastAPI
from limits import RateLimitItem, parse_many
from prometheus_client import Counter
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings
from app.edge.addresses import client_address
from app.edge.counters import Counters, Open, Recent
from app.edge.refusals import refuse

RATE_LIMITED = Counter(
    "pingduel_rate_limited_total", "Requests refused with 429 by a rate limit", ["limit"]
)
API = "/api/v1"
STREAM_RETRY = 5  # seconds: a stream's place frees when another closes, not at a known time
LOGIN_BODY_MAX = 16 * 1024  # a sign-in form is a few hundred bytes
ADMIN_COOKIE = "pd_admin"


class Rule:
    """One limit: its windows and the words of its refusal."""

    def __init__(self, name: str, rate: str, what: str) -> None:
        self.name = name
        self.items: list[RateLimitItem] = sorted(parse_many(rate), key=lambda i: i.get_expiry())
        self.detail = f"too many {what} (at most {rate.replace(';', ', ')})"


class Rules:
    def __init__(self, s: Settings) -> None:
        self.games = Rule("games", s.limit_games, "games created from this address")
        self.designs = Rule("designs", s.limit_designs, "designs saved from this address")
        self.claims = Rule("claims", s.limit_claims, "invite claims from this address")
        self.commands = Rule("commands", s.limit_commands, "commands with this seat's token")
        self.address_commands = Rule(
            "commands_per_address", s.limit_commands_per_address, "commands from this address"
        )
        self.failures = Rule(
            "token_failures",
            s.limit_token_failures,
            "requests with a wrong token from this address; check the token",
        )
        self.login = Rule(
            "admin_login", s.limit_admin_login, "failed admin sign-ins from this address"
        )
        self.chat = Rule("chat", s.limit_chat, "chat messages from this seat or address")
        self.per_address = s.limit_streams_per_address
        self.per_game = s.limit_streams_per_game


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:32]


def _bearer(value: bytes) -> str | None:
    scheme, _, token = value.decode("latin-1").partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def _segment(path: str, prefix: str, suffix: str) -> str | None:
    """The one path segment between ``prefix`` and ``suffix`` (a game id, a code), or None."""
    if path.startswith(prefix) and path.endswith(suffix) and len(path) > len(prefix + suffix):
        middle = path[len(prefix) : len(path) - len(suffix)]
        if "/" not in middle:
            return middle
    return None


class Request:
    """What the limits read of a request: a few headers, found in one pass."""

    __slots__ = ("address", "auth", "cookie", "htmx", "method", "path", "token")

    def __init__(self, scope: Scope) -> None:
        self.method: str = scope["method"]
        self.path: str = scope["path"]
        self.address = client_address(scope)
        self.auth: bytes | None = None
        self.cookie: bytes = b""
        self.htmx = False
        for name, value in scope["headers"]:
            if name == b"authorization":
                self.auth = value
            elif name == b"cookie":
                self.cookie = value
            elif name == b"hx-request":
                self.htmx = value == b"true"
        self.token = _bearer(self.auth) if self.auth is not None else None

    def cookies(self) -> dict[str, str]:
        return cookie_parser(self.cookie.decode("latin-1")) if self.cookie else {}


class RateLimits:
    """The middleware. Most requests (reads) cost a header scan and a few string tests."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.on = settings.rate_limits
        admin = settings.admin_token
        self.admin = admin.get_secret_value().encode() if admin is not None else None
        self.rules = Rules(settings)
        self.counters = Counters(settings.rate_limit_storage) if self.on else None
        self.open = Open()
        longest = max(item.get_expiry() for item in self.rules.failures.items)
        self.recent = Recent(longest) if self.counters and self.counters.local else None

    def is_admin(self, token: str | None) -> bool:
        return bool(token and self.admin and hmac.compare_digest(token.encode(), self.admin))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.on or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        if self.is_admin(request.token):
            await self.app(scope, receive, send)
            return
        if request.auth is not None and (
            self.recent is None or self.recent.suspect(request.address)
        ):
            wait = await self.counters_().full(self.rules.failures.items, "fail", request.address)
            if wait:
                await self._refuse(scope, send, request, self.rules.failures, wait)
                return
        route = _route(request)
        if route is None:
            await self._pass(request, scope, receive, send)
            return
        kind, game = route
        if kind == "games":
            await self.per_address(self.rules.games, request, scope, receive, send)
        elif kind == "designs":
            await self.per_address(self.rules.designs, request, scope, receive, send)
        elif kind == "claims":
            await self.per_address(self.rules.claims, request, scope, receive, send)
        elif kind == "command":
            await self.command(request.token, request, scope, receive, send)
        elif kind == "page_command":
            await self.command(_page_token(request, game), request, scope, receive, send)
        elif kind in ("chat", "page_chat"):
            token = request.token if kind == "chat" else _page_token(request, game)
            await self.chat(token, request, scope, receive, send)
        elif kind == "stream":
            await self.stream(game, request, scope, receive, send)
        elif kind == "sign_in":
            await self.sign_in(request, scope, receive, send)
        else:
            await self.dashboard(request, scope, receive, send)

    def counters_(self) -> Counters:
        assert self.counters is not None  # built whenever the limits are on
        return self.counters

    async def _refuse(
        self, scope: Scope, send: Send, request: Request, rule: Rule | str, wait: int
    ) -> None:
        name, detail = (rule.name, rule.detail) if isinstance(rule, Rule) else (rule, rule)
        if name == "streams_per_address":
            detail = f"too many open streams from this address (at most {self.rules.per_address})"
        elif name == "streams_per_game":
            detail = f"too many open streams on this game (at most {self.rules.per_game})"
        RATE_LIMITED.labels(limit=name).inc()
        await refuse(scope, send, wait, detail, name, request.htmx)

    async def _pass(self, request: Request, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the request; with a token, count it as a failure if the token was refused."""
        if request.auth is None:
            await self.app(scope, receive, send)
            return
        status = 0

        async def watched(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        await self.app(scope, receive, watched)
        admin_list = request.path == f"{API}/games" and request.method == "GET"
        if status == 401 or (status == 403 and admin_list):
            if self.recent is not None:
                self.recent.failed(request.address)
            await self.counters_().hit(self.rules.failures.items, "fail", request.address)

    async def per_address(
        self, rule: Rule, request: Request, scope: Scope, receive: Receive, send: Send
    ) -> None:
        wait = await self.counters_().hit(rule.items, rule.name, request.address)
        if wait:
            await self._refuse(scope, send, request, rule, wait)
        else:
            await self._pass(request, scope, receive, send)

    async def command(
        self, token: str | None, request: Request, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Counted per token and per address, independently: many seats behind one address
        (a bot playing many games) and one seat from many addresses are both bounded."""
        if token is not None and self.is_admin(token):
            await self._pass(request, scope, receive, send)
            return
        counters, seat, address = self.counters_(), self.rules.commands, self.rules.address_commands
        if token is not None:
            wait = await counters.hit(seat.items, seat.name, _digest(token))
            if wait:
                await self._refuse(scope, send, request, seat, wait)
                return
        wait = await counters.hit(address.items, address.name, request.address)
        if wait:
            await self._refuse(scope, send, request, address, wait)
            return
        await self._pass(request, scope, receive, send)

    async def chat(
        self, token: str | None, request: Request, scope: Scope, receive: Receive, send: Send
    ) -> None:
        """Chat lines: per seat token, else (spectators) per address."""
        key = _digest(token) if token is not None else f"a:{request.address}"
        wait = await self.counters_().hit(self.rules.chat.items, self.rules.chat.name, key)
        if wait:
            await self._refuse(scope, send, request, self.rules.chat, wait)
        else:
            await self._pass(request, scope, receive, send)

    async def stream(
        self, game_id: str, request: Request, scope: Scope, receive: Receive, send: Send
    ) -> None:
        if self.is_admin(request.cookies().get(ADMIN_COOKIE)):
            await self._pass(request, scope, receive, send)
            return
        address, game = f"a:{request.address}", f"g:{game_id}"
        if not self.open.take(address, self.rules.per_address):
            await self._refuse(scope, send, request, "streams_per_address", STREAM_RETRY)
            return
        if not self.open.take(game, self.rules.per_game):
            self.open.give(address)
            await self._refuse(scope, send, request, "streams_per_game", STREAM_RETRY)
            return
        try:
            await self._pass(request, scope, receive, send)
        finally:  # the client left, the stream ended or failed: its place is free again
            self.open.give(address)
            self.open.give(game)

    async def failed_sign_in(
        self, request: Request, scope: Scope, receive: Receive, send: Send
    ) -> None:
        rule = self.rules.login
        wait = await self.counters_().hit(rule.items, rule.name, request.address)
        if wait:
            await self._refuse(scope, send, request, rule, wait)
        else:
            await self._pass(request, scope, receive, send)

    async def sign_in(self, request: Request, scope: Scope, receive: Receive, send: Send) -> None:
        """``POST /referee/login``: the token is in the form; the real one passes uncounted."""
        body, replay = await _read_body(receive)
        fields = parse_qs(body.decode("latin-1")) if body is not None else {}
        token = (fields.get("token") or [""])[0].strip()
        if self.is_admin(token):
            await self.app(scope, replay, send)
        else:
            await self.failed_sign_in(request, scope, replay, send)

    async def dashboard(self, request: Request, scope: Scope, receive: Receive, send: Send) -> None:
        """``GET /referee`` shows whether an admin cookie is the token: a wrong one is a
        failed sign-in (no cookie at all is just the sign-in page)."""
        cookie = request.cookies().get(ADMIN_COOKIE)
        if cookie and not self.is_admin(cookie):
            await self.failed_sign_in(request, scope, receive, send)
        else:
            await self._pass(request, scope, receive, send)


async def _read_body(receive: Receive) -> tuple[bytes | None, Receive]:
    """The whole body (None past ``LOGIN_BODY_MAX``) and a ``receive`` that hands it on."""
    messages: list[Message] = []
    size = 0
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        size += len(message.get("body", b""))
        if size > LOGIN_BODY_MAX or not message.get("more_body", False):
            break
    complete = size <= LOGIN_BODY_MAX and messages[-1]["type"] == "http.request"
    body = b"".join(m.get("body", b"") for m in messages) if complete else None

    async def replay() -> Message:
        return messages.pop(0) if messages else await receive()

    return body, replay


def _route(request: Request) -> tuple[str, str] | None:
    """Which limit a request meets, by method and path (the routes' own paths): the kind and
    what it names (a game id), or None for the many requests that meet none."""
    method, path = request.method, request.path
    if method == "POST":
        if path in (f"{API}/games", "/games"):
            return "games", ""
        if path in (f"{API}/designs", "/designer/save"):
            return "designs", ""
        if _segment(path, f"{API}/games/", "/commands") is not None:
            return "command", ""
        game = _segment(path, "/games/", "/act")
        if game is not None:
            return "page_command", game
        if _segment(path, f"{API}/games/", "/chat") is not None:
            return "chat", ""
        game = _segment(path, "/games/", "/chat")
        if game is not None:
            return "page_chat", game
        if _segment(path, f"{API}/invites/", "/claim") is not None or _segment(path, "/join/", ""):
            return "claims", ""
        if path == "/referee/login":
            return "sign_in", ""
    elif method == "GET":
        game = _segment(path, f"{API}/games/", "/stream") or _segment(path, "/games/", "/live")
        if game is not None:
            return "stream", game
        if path == "/referee":
            return "dashboard", ""
    return None


def _page_token(request: Request, game_id: str) -> str | None:
    """The page's credential, as ``app.deps.cookie_token`` reads it."""
    cookies = request.cookies()
    # the browser id's seat in this game (app.web.browser): counted per browser and game
    browser = cookies.get("pd_browser")
    return (
        cookies.get(f"pd_seat_{game_id}")
        or (f"browser:{browser}:{game_id}" if browser else None)
        or cookies.get(ADMIN_COOKIE)
        or None
    )


def install(app: FastAPI, settings: Settings) -> None:
    app.add_middleware(RateLimits, settings=settings)
    document(app)


def document(app: FastAPI) -> None:
    """Add the 429 answer to the OpenAPI document of every operation a limit can refuse: the
    limited routes, and any that takes a token (a full failure window refuses those)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        schema = build()
        for path, operations in schema.get("paths", {}).items():
            for method, operation in operations.items():
                if _limited(method.upper(), path, operation):
                    operation.setdefault("responses", {}).setdefault("429", TOO_MANY)
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _limited(method: str, path: str, operation: dict[str, Any]) -> bool:
    takes_token = any(
        p.get("in") == "header" and p.get("name", "").lower() == "authorization"
        for p in operation.get("parameters", [])
    )
    probe = Request({"method": method, "path": path, "headers": [], "client": None})
    return takes_token or _route(probe) is not None


TOO_MANY: dict[str, Any] = {
    "description": "Over a rate limit: wait the seconds of Retry-After (code rate_limited)",
    "headers": {
        "Retry-After": {
            "description": "seconds to wait before sending it again",
            "schema": {"type": "integer", "minimum": 1},
        }
    },
    "content": {
        "application/problem+json": {"schema": {"$ref": "#/components/schemas/ProblemModel"}}
    },
}
