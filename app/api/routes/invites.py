"""Invites: claim a seat with a single-use code."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.schemas import ClaimIn, ClaimOut
from app.deps import LobbyDep
from app.problems import documented

router = APIRouter(tags=["invites"])


@router.post(
    "/invites/{code}/claim",
    response_model=ClaimOut,
    responses=documented(400, 404, 409, 410, 413, 422),
    summary="Take the seat an invite code offers (a code works once)",
)
async def claim(code: str, lobby: LobbyDep, body: ClaimIn | None = None) -> dict[str, Any]:
    return await lobby.claim(code, body.name if body else None)
