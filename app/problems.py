"""Every error as ``application/problem+json`` (RFC 9457) with a stable ``code``."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterator
from email.message import Message as MimeHeader
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict
from sqlalchemy.exc import DataError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import compile_path
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.play import inputs
from app.play.errors import Problem, problem_body, rules_problem
from app.rules.errors import RulesError

log = logging.getLogger(__name__)
PROBLEM = "application/problem+json"


class ProblemModel(BaseModel):
    """RFC 9457 problem details, with the stable ``code`` clients switch on."""

    model_config = ConfigDict(extra="allow", title="Problem")

    type: str
    title: str
    status: int
    detail: str
    code: str


_HTTP_CODES = {
    400: ("bad_request", "Bad request"),
    401: ("invalid_token", "Missing or invalid token"),
    403: ("forbidden", "Forbidden"),
    404: ("not_found", "Not found"),
    405: ("method_not_allowed", "Method not allowed"),
    406: ("not_acceptable", "Not acceptable"),
    413: ("body_too_large", "Request body too large"),
    415: ("unsupported_media_type", "Unsupported media type"),
}


def problem_response(body: dict[str, Any], headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(body, status_code=body["status"], media_type=PROBLEM, headers=headers)


def _where(loc: tuple[Any, ...] | list[Any]) -> str:
    # drop the body marker and pydantic's union-member model names (e.g. "CinematicOrdersIn")
    parts = [
        str(p) for p in loc if p != "body" and not (str(p)[:1].isupper() and str(p)[-2:] == "In")
    ]
    return ".".join(parts) or "body"


def _invalid_body(field: str, message: str) -> JSONResponse:
    return problem_response(
        problem_body(
            422,
            "invalid_request",
            "Invalid request",
            f"{field}: {message}",
            errors=[{"field": field, "message": message}],
        )
    )


def _json_body(scope: Scope) -> bool:
    """Whether FastAPI would read this request's body as JSON: no content type at all, or a
    ``json`` / ``+json`` one."""
    if scope.get("method") not in ("POST", "PUT", "PATCH", "DELETE"):
        return False
    raw = dict(scope.get("headers") or []).get(b"content-type")
    if not raw:
        return True
    header = MimeHeader()
    header["content-type"] = raw.decode("latin-1")
    subtype = header.get_content_subtype()
    return subtype == "json" or subtype.endswith("+json")


# JSON can only carry a NUL or a lone surrogate as a ``\u0000`` / ``\uD800``–``\uDFFF``
# escape (or a raw NUL, which is malformed): a body with neither is not parsed here at all, so
# the usual command body costs one byte scan, not a second parse and a walk
_MAYBE_UNSTORABLE = re.compile(rb"\x00|\\u(?:0000|[dD][89a-fA-F][0-9A-Fa-f]{2})")


def _text_faults(body: bytes) -> list[tuple[str, str]]:
    if _MAYBE_UNSTORABLE.search(body) is None:
        return []
    try:
        data = json.loads(body) if body else None
    except ValueError:  # malformed (or not UTF-8): the route's parser says so, as a 400
        return []
    return list(inputs.text_faults(data))


def _unstorable_text(faults: list[tuple[str, str]]) -> JSONResponse:
    field, message = faults[0]
    detail = f"{field}: {message}"
    if len(faults) > 1:
        detail += f" (and {len(faults) - 1} more)"
    errors = [{"field": f, "message": m} for f, m in faults]
    return problem_response(
        problem_body(422, "invalid_request", "Invalid request", detail, errors=errors)
    )


class JsonGuard:
    """Every JSON body is looked at before a route parses it, whatever the route and whatever
    its schema (design bodies are free-form objects): too deeply nested → 422 (the parser would
    fail with ``RecursionError``, a 500); any string or key holding a NUL or a lone surrogate →
    422 naming the field (``inputs.text_faults``). The body is then handed on unchanged. Runs
    inside ``BodyLimit``, so it never holds more than the body limit."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _json_body(scope):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before its body was in: nobody to answer
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if inputs.too_deep(body):
            await _invalid_body("body", inputs.TOO_DEEP)(scope, receive, send)
            return
        faults = _text_faults(body)
        if faults:
            await _unstorable_text(faults)(scope, receive, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def _invalid_request(exc: RequestValidationError) -> JSONResponse:
    """A body the schemas refuse: malformed JSON (400), or the first fields that do not fit."""
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        return problem_response(
            problem_body(400, "malformed_json", "Malformed JSON", "the body is not valid JSON")
        )
    items = [{"field": _where(e.get("loc", ())), "message": e.get("msg", "")} for e in errors]
    first = items[0] if items else {"field": "body", "message": "invalid"}
    detail = f"{first['field']}: {first['message']}"
    if len(items) > 1:
        detail += f" (and {len(items) - 1} more)"
    return problem_response(
        problem_body(422, "invalid_request", "Invalid request", detail, errors=items[:20])
    )


def _served(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, set[str]]]:
    """(path template, methods) of every route, through routers included with a prefix."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:  # FastAPI's included router
            yield from _served(inner.routes, prefix + route.include_context.prefix)
        elif getattr(route, "methods", None) and isinstance(getattr(route, "path", None), str):
            yield prefix + route.path, set(route.methods)


def allowed_methods(request: Request) -> list[str]:
    """Every method the request's path is served with. Starlette's own 405 names only the
    methods of the first route whose path matched, and ``GET /games`` and ``POST /games`` are
    two routes. A path of its own outranks a template that would also take it: ``/designs/
    validate`` is ``POST``, whatever ``GET /designs/{design_id}`` would make of it."""
    path, root = request.scope["path"], request.scope.get("root_path", "")
    if root and path.startswith(root):  # as routing saw it, behind a root path too
        path = path[len(root) :]
    fixed: set[str] = set()
    templated: set[str] = set()
    for template, methods in _served(request.app.router.routes):
        if template == path:
            fixed |= methods
        elif "{" in template and compile_path(template)[0].fullmatch(path):
            templated |= methods
    return sorted(fixed or templated)


# a refusal raised by a page's route outside its own handling, drawn for the browser:
# (request, status, title, detail) -> the page
PageOfProblem = Callable[[Request, int, str, str], Response]


def install(app: FastAPI, page: PageOfProblem | None = None, api: str = "/api/") -> None:
    """Problem+json for every refusal; with ``page``, a refusal on a path outside ``api`` (a
    page form, a fragment) is drawn as a page instead, which a browser can show."""
    app.add_middleware(JsonGuard)

    def for_pages(request: Request) -> PageOfProblem | None:
        return None if page is None or request.url.path.startswith(api) else page

    @app.exception_handler(Problem)
    async def _problem(request: Request, exc: Problem) -> Response:
        draw = for_pages(request)
        if draw is not None:
            return draw(request, exc.status, exc.title, exc.detail)
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return problem_response(exc.body(), headers)

    @app.exception_handler(RulesError)
    async def _rules(_: Request, exc: RulesError) -> JSONResponse:
        return problem_response(rules_problem(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return _invalid_request(exc)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code, title = _HTTP_CODES.get(exc.status_code, ("http_error", "HTTP error"))
        detail = exc.detail if isinstance(exc.detail, str) else title
        if exc.status_code == 404 and detail == "Not Found":
            detail = "no such resource: see /api/docs for the routes"
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            allowed = allowed_methods(request)
            headers["Allow"] = ", ".join(allowed)
            detail = f"{request.method} is not served here; this path takes {headers['Allow']}"
        return problem_response(problem_body(exc.status_code, code, title, detail), headers or None)

    @app.exception_handler(DataError)
    async def _unstorable(request: Request, exc: DataError) -> Response:
        # a value the database refuses (a NUL character in a free-form design or a path, a
        # number out of range): the client's input, and the transaction rolled back
        log.info("refused a value the database cannot store: %s", type(exc.orig).__name__)
        title = "Invalid value"
        detail = "a value in this request cannot be stored (NUL characters, numbers out of range)"
        draw = for_pages(request)
        if draw is not None:
            return draw(request, 422, title, detail)
        return problem_response(problem_body(422, "invalid_value", title, detail))

    @app.exception_handler(Exception)
    async def _crash(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error")
        return problem_response(
            problem_body(500, "internal_error", "Internal error", "something broke on our side")
        )


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI entries for the problem responses a route can give."""
    descriptions = {
        400: "Malformed JSON",
        401: "Missing or invalid token",
        403: "Not allowed for this seat, or a token of another game",
        404: "Unknown game, invite, design or route",
        409: "The game is not waiting for this",
        410: "Invite already used",
        413: "Request body too large",
        422: "Well-formed but invalid or illegal",
        503: "Not ready: the database is unreachable or not migrated",
    }
    return {
        status: {
            "model": ProblemModel,
            "description": descriptions[status],
            "content": {PROBLEM: {"schema": {"$ref": "#/components/schemas/ProblemModel"}}},
        }
        for status in statuses
    }
