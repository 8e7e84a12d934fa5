"""Game rows besides the hot paths of ``app.store.queries``: a new game, a service action's
write (seats, referee actions) and the admin's list."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store.models import EventRow, Game, utcnow
from app.store.queries import HEAD_COLUMNS, GameHead, head_of

games = cast(sa.Table, Game.__table__)
events = cast(sa.Table, EventRow.__table__)


@dataclass(frozen=True, slots=True)
class ListedGame:
    head: GameHead
    snapshot: dict[str, Any]
    created_at: datetime
    updated_at: datetime


def head_values(head: GameHead) -> dict[str, Any]:
    """A new game's row, its id and snapshot aside (both ways of inserting one use it)."""
    return {
        "status": head.status,
        "paused": head.paused,
        "spectators": head.spectators,
        "creator": head.creator,
        "seed": head.seed,
        "seed_commitment": head.seed_commitment,
        "seq": head.seq,
        "clock": head.clock,
    }


async def insert_game(
    conn: AsyncConnection,
    head: GameHead,
    snapshot: dict[str, Any],
    first: dict[str, Any],
    settings: dict[str, Any] | None = None,
) -> None:
    """A new game's row and its first event (``first``: the events row's columns)."""
    row = {"id": head.id, "snapshot": snapshot, "settings": settings, **head_values(head)}
    await conn.execute(sa.insert(games), row)
    await conn.execute(sa.insert(events), {**first, "game_id": head.id})


async def save_game(
    conn: AsyncConnection,
    game_id: str,
    rows: Sequence[dict[str, Any]],
    snapshot: dict[str, Any],
    seq: int,
    status: str | None = None,
    paused: bool | None = None,
) -> None:
    """Append events (the rows' columns) and save the snapshot at ``seq``; ``status`` and
    ``paused`` change only when given."""
    if rows:
        await conn.execute(sa.insert(events), [{**row, "game_id": game_id} for row in rows])
    values: dict[str, Any] = {"snapshot": snapshot, "seq": seq, "updated_at": utcnow()}
    if status is not None:
        values["status"] = status
    if paused is not None:
        values["paused"] = paused
    await conn.execute(sa.update(games).where(games.c.id == game_id).values(**values))


async def every_game(conn: AsyncConnection) -> list[ListedGame]:
    """Every game, newest first."""
    rows = await conn.execute(
        sa.select(*HEAD_COLUMNS, games.c.snapshot, games.c.created_at, games.c.updated_at).order_by(
            games.c.created_at.desc()
        )
    )
    return [ListedGame(head_of(row), row.snapshot, row.created_at, row.updated_at) for row in rows]
