"""The clock's statements: its JSON and deadline on the game row, and the due deadlines."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store import driver
from app.store.queries import games

_SAVE = (
    sa.update(games)
    .where(games.c.id == sa.bindparam("game_id"))
    .values(clock=sa.bindparam("clock"), deadline=sa.bindparam("deadline"))
)
_DUE = (
    sa.select(games.c.id)
    .where(games.c.deadline <= sa.bindparam("now"))
    .order_by(games.c.deadline)
    .limit(sa.bindparam("limit"))
)
# PostgreSQL: a due game another worker is applying is skipped, not waited for
_LOCK_DUE = (
    sa.select(games.c.id)
    .where(games.c.id == sa.bindparam("game_id"), games.c.deadline <= sa.bindparam("now"))
    .with_for_update(skip_locked=True)
)


async def save_clock(
    conn: AsyncConnection, game_id: str, clock: dict[str, Any], deadline: datetime | None
) -> None:
    params = {"game_id": game_id, "clock": driver.json_param(conn, clock), "deadline": deadline}
    await driver.rows(conn, _SAVE, params)


async def due_games(conn: AsyncConnection, now: datetime, limit: int) -> list[str]:
    """The games whose deadline has come, the earliest first (not locked)."""
    return [row.id for row in await driver.rows(conn, _DUE, {"now": now, "limit": limit})]


async def lock_due(conn: AsyncConnection, game_id: str, now: datetime) -> bool:
    """PostgreSQL: lock the game if it is still due and no other worker holds it."""
    found = await driver.rows(conn, _LOCK_DUE, {"game_id": game_id, "now": now})
    return bool(found)
