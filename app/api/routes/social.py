"""Chat and rematch (issue 15): ``/games/{id}/chat`` and ``/games/{id}/rematch``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from app.api.schemas import Open, Strict
from app.deps import TokenDep
from app.play.social import MAX_TEXT, TEXT_PATTERN, Social
from app.problems import documented

router = APIRouter(tags=["network play"])


def _social(request: Request) -> Social:
    social: Social = request.app.state.service.social
    return social


class ChatIn(Strict):
    # said in the document, checked by ``clean_text`` (one problem code for every refusal)
    text: Annotated[
        str,
        Field(
            json_schema_extra={"minLength": 1, "maxLength": MAX_TEXT, "pattern": TEXT_PATTERN},
            description="one line: at most 500 characters, no control character, not blank",
        ),
    ]


class ChatOut(Open):
    channel: str
    messages: list[dict[str, Any]]


class ChatPosted(Open):
    channel: str
    message: dict[str, Any]


class RematchOut(Open):
    offered: bool | None = None
    game_id: str | None = None
    token: str | None = None


class RematchStateOut(Open):
    offered_by: str | None
    game_id: str | None
    token_waiting: bool


@router.get(
    "/games/{game_id}/chat",
    response_model=ChatOut,
    responses=documented(401, 403, 404, 422),
    summary="The caller's chat channel: lines numbered after N",
)
async def read_chat(
    game_id: str,
    request: Request,
    token: TokenDep,
    after: int = Query(0, ge=0, le=2**31 - 1),
) -> dict[str, Any]:
    return await _social(request).read_chat(game_id, token, after)


@router.post(
    "/games/{game_id}/chat",
    status_code=201,
    response_model=ChatPosted,
    responses=documented(400, 401, 403, 404, 413, 422),
    summary="Say something in the caller's chat channel",
)
async def post_chat(
    game_id: str, body: ChatIn, request: Request, token: TokenDep
) -> dict[str, Any]:
    return await _social(request).post_chat(game_id, token, body.text)


@router.get(
    "/games/{game_id}/rematch",
    response_model=RematchStateOut,
    responses=documented(401, 403, 404),
    summary="Whether a rematch was offered, and its game once accepted",
)
async def rematch_state(game_id: str, request: Request, token: TokenDep) -> dict[str, Any]:
    return await _social(request).rematch_state(game_id, token)


@router.post(
    "/games/{game_id}/rematch",
    response_model=RematchOut,
    status_code=200,
    responses={
        202: {"description": "Offered; the other seat accepts"},
        **documented(401, 403, 404, 409),
    },
    summary="Offer a rematch, accept it, or take one's seat of the new game",
)
async def rematch(game_id: str, request: Request, token: TokenDep) -> JSONResponse:
    status, body = await _social(request).rematch(game_id, token)
    return JSONResponse(body, status_code=status)
