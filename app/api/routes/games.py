"""Games: create, list, view, events, commands, record."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import JSONResponse

from app.api.schemas import (
    CommandIn,
    CommandOut,
    CreateGameIn,
    CreateGameOut,
    EventsOut,
    GameListOut,
    RecordOut,
    ReissueOut,
    ViewOut,
    command_dict,
)
from app.deps import CommandsDep, LobbyDep, ReadingDep, TokenDep
from app.play.lobby import NewGame, NewShip, NewSide
from app.problems import documented

router = APIRouter(tags=["games"])


def _new_game(body: CreateGameIn) -> NewGame:
    sides = None
    if body.sides is not None:
        sides = {
            side: NewSide(entry.name, [NewShip(s.name, s.design) for s in entry.ships])
            for side, entry in (("A", body.sides.A), ("B", body.sides.B))
        }
    return NewGame(
        scenario=body.scenario,
        sides=sides,
        movement=body.movement,
        table=body.table.model_dump() if body.table else None,
        turn_limit=body.turn_limit,
        ping_range=body.ping_range,
        spectators=body.spectators,
        creator=body.creator,
        creator_name=body.creator_name,
        seed=body.seed,
    )


@router.post(
    "/games",
    status_code=201,
    response_model=CreateGameOut,
    responses=documented(400, 401, 404, 413, 422),
    summary="Create a game and take a seat",
)
async def create_game(body: CreateGameIn, lobby: LobbyDep, token: TokenDep) -> dict[str, Any]:
    # the token matters only for a chosen seed (admin only); any caller may create a game
    return await lobby.create_game(_new_game(body), token)


@router.get(
    "/games",
    response_model=GameListOut,
    responses=documented(401, 403, 422),
    summary="List games (admin)",
)
async def list_games(lobby: LobbyDep, token: TokenDep) -> dict[str, Any]:
    return await lobby.list_games(token)


@router.get(
    "/games/{game_id}",
    response_model=ViewOut,
    responses=documented(401, 403, 404, 422),
    summary="The caller's view of the game",
)
async def get_view(game_id: str, reading: ReadingDep, token: TokenDep) -> JSONResponse:
    # the room builds exactly the documented shape; skip re-validating it on the hot path
    return JSONResponse(await reading.view(game_id, token))


@router.get(
    "/games/{game_id}/events",
    response_model=EventsOut,
    responses=documented(401, 403, 404, 422),
    summary="Events after seq N, each in the form the caller may see",
)
async def get_events(
    game_id: str,
    reading: ReadingDep,
    token: TokenDep,
    after: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0,
) -> JSONResponse:
    return JSONResponse(await reading.events(game_id, token, after))


@router.post(
    "/games/{game_id}/commands",
    response_model=CommandOut,
    responses=documented(400, 401, 403, 404, 409, 413, 422),
    summary="Submit one command",
)
async def post_command(
    game_id: str,
    body: CommandIn,
    commands: CommandsDep,
    token: TokenDep,
    # optional but never null (a header has no null: the document offers none); None if absent
    idempotency_key: str = Header(None, min_length=1, max_length=200, alias="Idempotency-Key"),
) -> JSONResponse:
    result = await commands.command(game_id, token, command_dict(body), idempotency_key)
    return JSONResponse(result.body, status_code=result.status)


@router.get(
    "/games/{game_id}/record",
    response_model=RecordOut,
    responses=documented(401, 403, 404, 422),
    summary="The whole record: every event unredacted, the designs, the seed (after the end)",
)
async def get_record(game_id: str, reading: ReadingDep, token: TokenDep) -> dict[str, Any]:
    return await reading.record(game_id, token)


@router.post(
    "/games/{game_id}/invites/{side}/reissue",
    response_model=ReissueOut,
    responses=documented(401, 403, 404, 409, 422),
    summary="A new invite code for an unclaimed seat (the old one stops working)",
)
async def reissue(game_id: str, side: str, lobby: LobbyDep, token: TokenDep) -> dict[str, Any]:
    return await lobby.reissue(game_id, side, token)
