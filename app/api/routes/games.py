"""Games: create, list, view, events, commands, record."""

from __future__ import annotations

from typing import Annotated, Any, Literal, cast

from fastapi import APIRouter, Header, Query, Request

from app.api import hot
from app.api.hot import HotRoute
from app.api.responses import FastJSON
from app.api.schemas import (
    CommandIn,
    CommandOut,
    ComputerOpponentIn,
    CreateGameIn,
    CreateGameOut,
    EventsOut,
    GameListOut,
    RecordOut,
    ReissueOut,
    ViewOut,
    command_dict,
)
from app.deps import CommandsDep, LobbyDep, ReadingDep, TokenDep, bearer, get_commands, get_reading
from app.play.lobby import NewGame, NewShip, NewSide
from app.problems import documented

# the view and the command take the short way through FastAPI when they can (``app.api.hot``)
router = APIRouter(tags=["games"], route_class=HotRoute)


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
        clock=body.clock.model_dump() if body.clock else None,
        opponent=_level(body.opponent),
    )


def _level(opponent: Literal["computer"] | ComputerOpponentIn | None) -> str | None:
    if opponent is None:
        return None
    return "captain" if opponent == "computer" else opponent.computer


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
async def get_view(game_id: str, reading: ReadingDep, token: TokenDep) -> FastJSON:
    # the room builds exactly the documented shape; skip re-validating it on the hot path
    return FastJSON(await reading.view(game_id, token))


@hot.shortcut(get_view)
async def _view_shortcut(_: HotRoute, request: Request) -> FastJSON | None:
    headers = hot.single_headers(request, b"authorization")
    if headers is None:
        return None
    return await get_view(
        game_id=request.path_params["game_id"],
        reading=await get_reading(request),
        token=await bearer(headers.get(b"authorization")),
    )


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
) -> FastJSON:
    return FastJSON(await reading.events(game_id, token, after))


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
) -> FastJSON:
    result = await commands.command(game_id, token, command_dict(body), idempotency_key)
    return FastJSON(result.body, status_code=result.status)


@hot.shortcut(post_command)
async def _command_shortcut(route: HotRoute, request: Request) -> FastJSON | None:
    headers = hot.single_headers(request, b"authorization", b"idempotency-key", b"content-type")
    if headers is None:
        return None
    key = headers.get(b"idempotency-key")
    if key is not None and not 1 <= len(key) <= 200:
        return None
    # FastAPI reads the body before it solves the dependencies, and so does this
    body = await hot.json_object(route, request, headers.get(b"content-type"))
    if body is None:
        return None
    return await post_command(
        game_id=request.path_params["game_id"],
        body=body,
        commands=await get_commands(request),
        token=await bearer(headers.get(b"authorization")),
        idempotency_key=cast(str, key),  # None if absent, as FastAPI passes it
    )


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
