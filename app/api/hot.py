"""The hot routes' short way through FastAPI: a command and a view, called without FastAPI's
general dependency solving when the request is the common, valid kind.

FastAPI solves each route's dependencies and validates each parameter with the general
machinery on every request: about a tenth of a millisecond of CPU for a command, more than its
own work at the door. ``HotRoute`` keeps the route as it is declared (its parameters, the
``Annotated`` dependencies, the OpenAPI document) and first offers the request to the route's
``shortcut``: a function that reads the same headers, the same body and the same dependencies
the declaration names, validates the body with the route's own body field, and calls the
endpoint with those values — or returns ``None`` for anything else (a header sent twice, a
body that is not a JSON object, one the field refuses, telemetry on, …), and FastAPI then
handles the request the general way, errors and all. So an answer, refusal or error is the
same either way; the shortcut only skips work for requests that would pass.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import orjson
from fastapi.routing import APIRoute
from fastapi.telemetry import get_telemetry_data
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

# (the route, the request) -> the endpoint's answer, or None: let FastAPI handle it
Shortcut = Callable[["HotRoute", Request], Awaitable[Response | None]]
_SHORTCUTS: dict[Callable[..., Any], Shortcut] = {}


def shortcut(endpoint: Callable[..., Any]) -> Callable[[Shortcut], Shortcut]:
    """Register the short way to call ``endpoint`` (a route of a ``HotRoute`` router)."""

    def register(function: Shortcut) -> Shortcut:
        _SHORTCUTS[endpoint] = function
        return function

    return register


class HotRoute(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        general = super().get_route_handler()
        endpoint = self.endpoint

        async def handler(request: Request) -> Response:
            fast = _SHORTCUTS.get(endpoint)
            if fast is not None and get_telemetry_data() is None:
                response = await fast(self, request)
                if response is not None:
                    return response
            return await general(request)

        return handler


def single_headers(request: Request, *names: bytes) -> dict[bytes, str] | None:
    """The named headers (lower-case) sent at most once each; None if one came twice."""
    found: dict[bytes, str] = {}
    for name, value in request.scope["headers"]:
        if name in names:
            if name in found:
                return None
            found[name] = value.decode("latin-1")
    return found


async def json_object(route: HotRoute, request: Request, content_type: str | None) -> Any:
    """The body validated by the route's body field, as FastAPI would pass it; None where
    FastAPI's own reading is to decide (not JSON, not an object, refused by the field)."""
    if content_type is None:
        return None
    kind = content_type.lower()
    if kind != "application/json" and not kind.startswith("application/json;"):
        return None
    try:
        raw = await request.body()
    except HTTPException:
        raise  # as FastAPI does (e.g. the body limit's 413)
    except Exception:
        return None  # FastAPI reads again and says what is wrong
    try:
        data = orjson.loads(raw) if raw else None
    except ValueError:  # orjson.JSONDecodeError, and what orjson reads stricter than json
        return None
    if not isinstance(data, dict):
        return None
    field = route.dependant.body_params[0]
    value, errors = field.validate(data, {}, loc=("body",))
    return None if errors else value
