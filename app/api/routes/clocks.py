"""The referee's clock action: add time to a side (referee or admin; issue 15)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from app.api.schemas import AddTimeIn, ViewOut
from app.deps import TokenDep
from app.play.clocks import Clocks
from app.problems import documented

router = APIRouter(prefix="/games/{game_id}/referee", tags=["referee"])


def get_clocks(request: Request) -> Clocks:
    clocks: Clocks = request.app.state.service.clocks
    return clocks


ClocksDep = Annotated[Clocks, Depends(get_clocks)]


@router.post(
    "/add-time",
    response_model=ViewOut,
    responses=documented(400, 401, 403, 404, 409, 413, 422),
    summary="Add time to a side's clock (a public event with the reason)",
)
async def add_time(game_id: str, body: AddTimeIn, clocks: ClocksDep, token: TokenDep) -> Any:
    return await clocks.add_time(game_id, token, body.side, body.seconds, body.reason)
