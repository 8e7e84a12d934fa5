"""The client's address and scheme behind a reverse proxy.

Only the proxies named in ``PINGDUEL_TRUSTED_PROXIES`` are believed: uvicorn's
``ProxyHeadersMiddleware`` then takes the client from their ``X-Forwarded-For`` (the first
address from the right that is not itself a trusted proxy) and the scheme from
``X-Forwarded-Proto`` (so that cookies are ``Secure`` behind TLS). With none named, the socket's
peer is the client and the headers are ignored: anyone could write them. ``pingduel serve``
turns uvicorn's own copy of this off (``app.cli``), so it runs once, here, where tests see it.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.types import Scope
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app.config import Settings

UNKNOWN = "-"  # a peer without an address (a Unix socket): one shared key


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else UNKNOWN


def install(app: FastAPI, settings: Settings) -> None:
    trusted = settings.trusted_proxy_list
    if trusted:  # nothing to rewrite otherwise: no middleware, no cost
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=trusted)
