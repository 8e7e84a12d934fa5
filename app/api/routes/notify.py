"""Notifications: where a seat is told "your turn" (``…/notify``) and the Web Push key."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from app.deps import TokenDep
from app.play.notify import Notify
from app.play.push import PushKeys
from app.play.service import GameService
from app.problems import documented
from app.store.migrate import ROOT


class _One(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WebhookIn(_One):
    webhook: str | None = Field(description="an http(s) URL to POST to; null removes it")


class PushKeysIn(_One):
    p256dh: str = Field(max_length=200)
    auth: str = Field(max_length=100)


class PushSubscriptionIn(_One):
    """The browser's ``PushSubscription.toJSON()``: exactly its members, so that the document
    says all a body may hold (an unknown member is refused with its name, not ignored)."""

    endpoint: str = Field(max_length=2000)
    expirationTime: float | None = Field(  # the browser's own member name
        default=None, description="when the browser says the subscription ends (not used)"
    )
    keys: PushKeysIn


class PushIn(_One):
    push: PushSubscriptionIn | None = Field(description="a subscription; null removes it")


class EmailIn(_One):
    email: str | None = Field(description="an address to confirm; null removes it")


NotifyIn = WebhookIn | PushIn | EmailIn

router = APIRouter(tags=["notify"])
pages = APIRouter(include_in_schema=False)
ERRORS = documented(400, 401, 403, 404, 413, 422)


def _notify(request: Request) -> Notify:
    service: GameService = request.app.state.service
    return service.notify


@router.get(
    "/games/{game_id}/notify",
    responses=ERRORS,
    summary="Where this seat is told it is its move (its own settings)",
)
async def get_notify(game_id: str, request: Request, token: TokenDep) -> dict[str, Any]:
    return await _notify(request).shown(game_id, token)


@router.post(
    "/games/{game_id}/notify",
    responses=ERRORS,
    summary="Set (or with null remove) this seat's webhook, push subscription or e-mail",
)
async def set_notify(
    game_id: str,
    request: Request,
    token: TokenDep,
    body: Annotated[NotifyIn, Body()],
) -> dict[str, Any]:
    return await _notify(request).set(game_id, token, body.model_dump())


@router.get("/push/key", summary="The server's Web Push (VAPID) public key")
async def push_key(request: Request) -> dict[str, str]:
    keys: PushKeys = request.app.state.push_keys
    return {"public_key": keys.public_key}


@pages.get("/sw.js")
async def service_worker() -> Response:
    """The service worker at the site's root, so that its scope covers every game page."""
    body = (ROOT / "static" / "js" / "sw.js").read_bytes()
    return Response(
        body,
        media_type="text/javascript",
        headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"},
    )
