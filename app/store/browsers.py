"""Browser seats: (hash of a browser id, game) -> the seat that browser holds in that game.

Only live seats count: a replaced (revoked) seat drops out of every read at once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store.models import BrowserSeat, Game, Seat, SeatLink

browser_seats = cast(sa.Table, BrowserSeat.__table__)
seats = cast(sa.Table, Seat.__table__)
games = cast(sa.Table, Game.__table__)


@dataclass(frozen=True, slots=True)
class Held:
    """A seat a browser holds, with the cheap facts of its game (no snapshot)."""

    game_id: str
    side: str
    token_hash: str
    status: str
    paused: bool
    seq: int
    updated_at: datetime


async def held(conn: AsyncConnection, browser_hash: str, game_id: str | None = None) -> list[Held]:
    """The live seats the browser holds, newest activity first (one indexed read); with
    ``game_id``, only its seat of that game."""
    query = (
        sa.select(
            browser_seats.c.game_id,
            seats.c.side,
            seats.c.token_hash,
            games.c.status,
            games.c.paused,
            games.c.seq,
            games.c.updated_at,
        )
        .join(seats, seats.c.id == browser_seats.c.seat_id)
        .join(games, games.c.id == browser_seats.c.game_id)
        .where(browser_seats.c.browser_hash == browser_hash, seats.c.revoked_at.is_(None))
        .order_by(games.c.updated_at.desc())
    )
    if game_id is not None:
        query = query.where(browser_seats.c.game_id == game_id)
    return [Held(*row) for row in await conn.execute(query)]


async def remember(conn: AsyncConnection, browser_hash: str, token_hash: str) -> str | None:
    """The browser now holds the live seat of this token (in its game, in place of any other
    it held there); returns the game id, None when the token names no live seat."""
    row = (
        await conn.execute(
            sa.select(seats.c.id, seats.c.game_id).where(
                seats.c.token_hash == token_hash, seats.c.revoked_at.is_(None)
            )
        )
    ).first()
    if row is None:
        return None
    # delete then insert: the same statements on SQLite and PostgreSQL
    await conn.execute(
        sa.delete(browser_seats).where(
            browser_seats.c.browser_hash == browser_hash, browser_seats.c.game_id == row.game_id
        )
    )
    await conn.execute(
        sa.insert(browser_seats),
        {"browser_hash": browser_hash, "game_id": row.game_id, "seat_id": row.id},
    )
    return str(row.game_id)


async def snapshots(conn: AsyncConnection, game_ids: list[str]) -> dict[str, tuple[int, Any]]:
    """(seq, snapshot) of each game named."""
    if not game_ids:
        return {}
    rows = await conn.execute(
        sa.select(games.c.id, games.c.seq, games.c.snapshot).where(games.c.id.in_(game_ids))
    )
    return {row.id: (row.seq, row.snapshot) for row in rows}


seat_links = cast(sa.Table, SeatLink.__table__)


async def add_link(conn: AsyncConnection, code_hash: str, token_hash: str) -> bool:
    """A new link code for the live seat of this token hash; False when there is none."""
    seat_id = await conn.scalar(
        sa.select(seats.c.id).where(seats.c.token_hash == token_hash, seats.c.revoked_at.is_(None))
    )
    if seat_id is None:
        return False
    await conn.execute(sa.insert(seat_links), {"code_hash": code_hash, "seat_id": seat_id})
    return True


async def link_seat(conn: AsyncConnection, code_hash: str) -> str | None:
    """The token hash of the live seat a link code opens, or None."""
    found = await conn.scalar(
        sa.select(seats.c.token_hash)
        .join(seat_links, seat_links.c.seat_id == seats.c.id)
        .where(seat_links.c.code_hash == code_hash, seats.c.revoked_at.is_(None))
    )
    return str(found) if found is not None else None
