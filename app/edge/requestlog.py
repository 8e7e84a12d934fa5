"""Every request's id, its count in the metrics, and (in JSON mode) its access-log line.

The outermost middleware. Each HTTP request gets an id: the client's ``X-Request-ID`` when it
is short and of safe characters (a proxy's or a load balancer's id, so that one id follows a
request through both logs), else a new random one. The id goes back in the ``X-Request-ID``
response header and into every log line written while the request is served (``REQUEST_ID``).
The body of an answer is never touched: a problem document stays as its schema says, and the
header carries the id.

With ``PINGDUEL_LOG_FORMAT=json`` the logs are one JSON object per line (``JsonFormatter``)
and each answered request writes one access line: method, route template, status, duration.
Never the raw path or query string: they hold game ids and invite codes, and sometimes a token.

Pure ASGI and cheap (the server's CPU per request is counted): no request object, one wrapped
``send``, one header scan.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID: ContextVar[str | None] = ContextVar("pingduel_request_id", default=None)
HEADER = b"x-request-id"
_SAFE_ID = re.compile(rb"[A-Za-z0-9._-]{1,64}")
UNMATCHED = "unmatched"  # the route of a request no route took (404s, slash redirects)
access_log = logging.getLogger("pingduel.access")

# (method, route template, status, seconds): the metrics' hook, called once per answer
Counting = Callable[[str, str, int, float], None]


def _not_counted(method: str, route: str, status: int, seconds: float) -> None:
    return None


def _incoming_id(scope: Scope) -> bytes | None:
    for name, value in scope["headers"]:
        if name == HEADER:
            return value if _SAFE_ID.fullmatch(value) else None
    return None


def route_template(scope: Scope, root_path: str = "") -> str:
    """The path template of what took the request, never its game id:
    ``/api/v1/games/{game_id}``. FastAPI (0.165, pinned) leaves the route of an included
    router with its prefixes in its own scope entry (``scope["route"]`` has the router's path
    without them); a plain route leaves ``scope["route"]``; a mount (``/static``) leaves only
    its prefix in ``root_path``; nothing at all → ``UNMATCHED``."""
    fastapi = scope.get("fastapi")
    if fastapi:
        path = getattr(fastapi.get("effective_route_context"), "path_format", None)
        if isinstance(path, str):
            return path
    path = getattr(scope.get("route"), "path", None)
    if isinstance(path, str):
        return path
    mounted: str = scope.get("root_path", "")
    if mounted != root_path and mounted.startswith(root_path):
        return mounted[len(root_path) :] + "/{path}"
    return UNMATCHED


class RequestLog:
    def __init__(self, app: ASGIApp, count: Counting = _not_counted, access: bool = False) -> None:
        self.app = app
        self.count = count
        self.access = access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        root_path = scope.get("root_path", "")
        raw_id = _incoming_id(scope) or os.urandom(8).hex().encode()
        # not reset afterwards: each request runs in its own task (its own context), and an
        # unhandled error is logged outside this middleware, where the id must still be set
        REQUEST_ID.set(raw_id.decode())
        status = 500  # what the client gets if the app raises before answering

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), (HEADER, raw_id)]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            seconds = time.perf_counter() - start
            route = route_template(scope, root_path)
            self.count(scope["method"], route, status, seconds)
            if self.access:
                _access_line(scope["method"], route, status, seconds)


def _access_line(method: str, route: str, status: int, seconds: float) -> None:
    fields = {
        "method": method,
        "route": route,
        "status": status,
        "duration_ms": round(seconds * 1000, 3),
    }
    access_log.info("%s %s %d", method, route, status, extra={"access": fields})


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, request id (null
    outside a request), the access fields on access lines, the traceback on errors."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": REQUEST_ID.get(),
        }
        fields = getattr(record, "access", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def log_config(log_format: str) -> dict[str, Any] | None:
    """uvicorn's ``log_config`` for the format: None (uvicorn's own text logs) or JSON lines
    on stderr for uvicorn and every logger of the app, at INFO."""
    if log_format != "json":
        return None
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
            # replaced by ours, which names the route template instead of the raw path
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            # every readiness check reads the migration state: not news at INFO
            "alembic": {"level": "WARNING"},
        },
        "root": {"handlers": ["stderr"], "level": "INFO"},
    }
