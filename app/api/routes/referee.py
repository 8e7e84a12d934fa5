"""Referee actions: pause, resume, rewind, end, replace a seat, presence (referee or admin)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.schemas import (
    EndIn,
    PresenceOut,
    ReasonIn,
    ReplaceSeatIn,
    ReplaceSeatOut,
    RewindIn,
    ViewOut,
)
from app.deps import RefereeDep, TokenDep
from app.problems import documented

router = APIRouter(prefix="/games/{game_id}/referee", tags=["referee"])
ERRORS = documented(400, 401, 403, 404, 409, 413, 422)


@router.post("/pause", response_model=ViewOut, responses=ERRORS, summary="Pause the game")
async def pause(game_id: str, body: ReasonIn, referee: RefereeDep, token: TokenDep) -> Any:
    return await referee.pause(game_id, token, body.reason)


@router.post("/resume", response_model=ViewOut, responses=ERRORS, summary="Resume the game")
async def resume(game_id: str, body: ReasonIn, referee: RefereeDep, token: TokenDep) -> Any:
    return await referee.resume(game_id, token, body.reason)


@router.post(
    "/rewind",
    response_model=ViewOut,
    responses=ERRORS,
    summary="Return to the state right after event N (the end of a command)",
)
async def rewind(game_id: str, body: RewindIn, referee: RefereeDep, token: TokenDep) -> Any:
    return await referee.rewind(game_id, token, body.to_seq, body.reason)


@router.post("/end", response_model=ViewOut, responses=ERRORS, summary="End with a result")
async def end(game_id: str, body: EndIn, referee: RefereeDep, token: TokenDep) -> Any:
    return await referee.end(game_id, token, body.winner, body.reason)


@router.post(
    "/replace-seat",
    response_model=ReplaceSeatOut,
    responses=ERRORS,
    summary="A new token for a seat; the old one stops working at once, streams included",
)
async def replace_seat(
    game_id: str, body: ReplaceSeatIn, referee: RefereeDep, token: TokenDep
) -> Any:
    return await referee.replace_seat(game_id, token, body.side, body.reason)


@router.get(
    "/presence",
    response_model=PresenceOut,
    responses=documented(401, 403, 404, 422),
    summary="Which seats have a page or stream open, and when each was last seen",
)
async def presence(game_id: str, referee: RefereeDep, token: TokenDep) -> dict[str, Any]:
    return await referee.presence(game_id, token)
