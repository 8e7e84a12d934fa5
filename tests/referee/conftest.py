"""Fixtures and helpers for the referee's tests.

- ``twin``: a second app over a second fresh database of the selected backend. A game created
  there with the same game id and seed as a game of ``client`` rolls exactly the same dice
  (roll k is HMAC(seed, "game_id:k")), so it is the game "that never had" the commands a rewind
  voids in the other: same id, same seed, same setup, only the kept commands.
- ``play(...)``: a small deterministic captain for both seats (deploy, move, ping after the
  move, fire every weapon that can at the first target it can reach, or hold fire), so that a
  game's commands can be recorded in one database and replayed in the other.
- ``stored_state(...)``: the snapshot the server keeps beside the log (``state_from_dict``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.main import create_app
from app.rules.snapshot import state_from_dict
from app.rules.state import GameState
from app.store.db import Database
from app.store.models import Game as GameRow
from tests.conftest import ADMIN, fresh_database, make_settings
from tests.web import Game, api_events, api_view, claim_seat, create_game, first_shots

SEED = "7e57" * 16
ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}
# distinctive deployments: the ships close head-on, a little apart, and meet in turn 2 or 3
DEPLOY = {"A": ((33.25, 5.5), 0, 5), "B": ((38.75, 42.5), 6, 5)}


# -- a second database --------------------------------------------------------------------------
@pytest.fixture
def twin_db_url(tmp_path: Path, backend: str) -> Iterator[str]:
    """Another fresh, migrated database of the selected backend."""
    with fresh_database(tmp_path, backend, "twin") as url:
        yield url


@pytest.fixture
async def twin(twin_db_url: str, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    """The app over the second database (its own data directory), like ``client``."""
    app = create_app(make_settings(twin_db_url, tmp_path / "twin", allow_client_seed=True))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            yield c


async def stored_state(db_url: str, game_id: str) -> GameState:
    """The game's stored snapshot, read straight from the database."""
    db = Database(db_url)
    try:
        async with db.session() as session:
            row = await session.get(GameRow, game_id)
            assert row is not None, game_id
            return state_from_dict(row.snapshot)
    finally:
        await db.engine.dispose()


def assert_same_state(got: GameState, expected: GameState, ignore: tuple[str, ...]) -> None:
    """Field by field (ships one by one, for a readable failure), except ``ignore``."""
    for f in dataclasses.fields(GameState):
        if f.name in ignore:
            continue
        if f.name == "ships":
            assert [s.id for s in got.ships] == [s.id for s in expected.ships]
            for mine, theirs in zip(got.ships, expected.ships, strict=True):
                for sf in dataclasses.fields(mine):
                    assert getattr(mine, sf.name) == getattr(theirs, sf.name), (
                        f"ship {mine.id}.{sf.name}"
                    )
        assert getattr(got, f.name) == getattr(expected, f.name), f.name


def without_seq(view: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != "seq"}


# -- games -----------------------------------------------------------------------------------------
async def referee_game(
    client: httpx.AsyncClient, game_id: str | None = None, seed: str = SEED
) -> Game:
    """A duel created by a referee (its own seat token), both player seats claimed."""
    return await create_game(
        client, {"scenario": "duel", "creator": "referee", "seed": seed}, game_id=game_id
    )


async def player_game(client: httpx.AsyncClient, seed: str = SEED) -> Game:
    """A duel created by side A (no referee but the admin), B claimed."""
    game = await create_game(client, {"scenario": "duel", "creator": "A", "seed": seed}, claim=[])
    await claim_seat(client, game, "B")
    return game


def auth(game: Game, seat: str) -> dict[str, str]:
    """Headers for a seat of ``game``: A, B, referee (its seat token, else the admin), admin,
    spectator (none)."""
    return game.auth(seat)


@dataclass
class Played:
    seat: str
    body: dict[str, Any]
    key: str | None
    first_seq: int
    last_seq: int  # the end of the command: a rewind target
    answer: dict[str, Any]


def deploy_command(side: str) -> dict[str, Any]:
    (x, y), heading, speed = DEPLOY[side]
    return {
        "type": "deploy",
        "ships": [
            {
                "ship": f"{side.lower()}1",
                "position": {"x": x, "y": y},
                "heading": heading,
                "speed": speed,
            }
        ],
    }


async def next_command(client: httpx.AsyncClient, game: Game) -> tuple[str, dict[str, Any]]:
    """What the captain of the seat the game waits for sends now."""
    truth = await api_view(client, game, "admin")
    phase = truth["phase"]
    assert truth["status"] == "active" and not truth["paused"], truth["status"]
    seat = sorted(phase["awaiting"])[0]
    mine = await api_view(client, game, seat)
    legal = mine["phase"]["legal"]
    commands = legal["commands"]
    ship = phase["ship"] or f"{seat.lower()}1"
    if "deploy" in commands:
        return seat, deploy_command(seat)
    if "fire" in commands:
        return seat, {"type": "fire", "window": legal["window"], "shots": first_shots(mine)}
    if phase["step"] == "after_move" and "ping" in commands:
        return seat, {"type": "ping", "ship": ship}
    if "move" in commands:
        return seat, {"type": "move", "ship": ship, "orders": {"speed_change": 0, "turn": 0}}
    if "activate" in commands:
        return seat, {"type": "activate", "ship": ship}
    assert "end_activation" in commands, mine["phase"]
    return seat, {"type": "end_activation", "ship": ship}


async def send(
    client: httpx.AsyncClient, game: Game, seat: str, body: Mapping[str, Any], key: str | None
) -> Played:
    headers = dict(game.auth(seat))
    if key is not None:
        headers["Idempotency-Key"] = key
    r = await client.post(f"{game.path}/commands", json=dict(body), headers=headers)
    assert r.status_code == 200, r.text
    answer = r.json()
    events = answer["events"]
    assert events, body
    return Played(seat, dict(body), key, events[0]["seq"], events[-1]["seq"], answer)


async def play(
    client: httpx.AsyncClient, game: Game, count: int, keys: str | None = None
) -> list[Played]:
    """``count`` commands of the captain (fewer only if the game ends); with ``keys``, each
    command carries the Idempotency-Key ``f"{keys}-{i}"``."""
    out: list[Played] = []
    for i in range(count):
        if (await api_view(client, game, "admin"))["status"] != "active":
            break
        seat, body = await next_command(client, game)
        out.append(await send(client, game, seat, body, f"{keys}-{i}" if keys else None))
    return out


async def replay_commands(client: httpx.AsyncClient, game: Game, commands: list[Played]) -> None:
    """The same commands, in order, by the same seats (another game with the same dice)."""
    for c in commands:
        await send(client, game, c.seat, c.body, None)


async def referee_post(
    client: httpx.AsyncClient, game: Game, action: str, body: Mapping[str, Any], seat: str
) -> httpx.Response:
    return await client.post(
        f"{game.path}/referee/{action}", json=dict(body), headers=game.auth(seat)
    )


async def referee_ok(
    client: httpx.AsyncClient,
    game: Game,
    action: str,
    body: Mapping[str, Any],
    seat: str = "referee",
) -> dict[str, Any]:
    r = await referee_post(client, game, action, body, seat)
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


async def record(client: httpx.AsyncClient, game: Game) -> list[dict[str, Any]]:
    r = await client.get(f"{game.path}/record", headers=ADMIN_AUTH)
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


def rolls(events: list[dict[str, Any]]) -> list[int]:
    """Every roll number the events used."""
    return [k for e in events for k in e["data"].get("rolls", [])]


__all__ = [
    "ADMIN_AUTH",
    "SEED",
    "Game",
    "Played",
    "api_events",
    "api_view",
    "assert_same_state",
    "auth",
    "next_command",
    "play",
    "player_game",
    "record",
    "referee_game",
    "referee_ok",
    "referee_post",
    "replay_commands",
    "rolls",
    "send",
    "stored_state",
    "without_seq",
]
