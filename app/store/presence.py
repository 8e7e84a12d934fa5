"""Presence rows: one per open page or stream, with its heartbeat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store.models import Presence, utcnow

presence = cast(sa.Table, Presence.__table__)


@dataclass(frozen=True, slots=True)
class Contact:
    """One open (or last closed) page or stream of a seat."""

    seat: str
    kind: str  # page | stream
    last_seen: datetime
    closed: bool


async def contacts(conn: AsyncConnection, game_id: str) -> list[Contact]:
    rows = await conn.execute(
        sa.select(
            presence.c.seat, presence.c.kind, presence.c.last_seen, presence.c.closed_at
        ).where(presence.c.game_id == game_id)
    )
    return [Contact(seat, kind, seen, closed is not None) for seat, kind, seen, closed in rows]


async def open_contacts(conn: AsyncConnection, game_id: str) -> list[tuple[str, datetime]]:
    """(seat, last_seen) of the game's pages and streams still open."""
    rows = await conn.execute(
        sa.select(presence.c.seat, presence.c.last_seen).where(
            presence.c.game_id == game_id, presence.c.closed_at.is_(None)
        )
    )
    return [(seat, seen) for seat, seen in rows]


async def opened(conn: AsyncConnection, conn_id: str, game_id: str, seat: str, kind: str) -> None:
    await conn.execute(
        sa.insert(presence), {"id": conn_id, "game_id": game_id, "seat": seat, "kind": kind}
    )


async def beat(conn: AsyncConnection, conn_id: str) -> None:
    await conn.execute(
        sa.update(presence).where(presence.c.id == conn_id).values(last_seen=utcnow())
    )


async def closed(conn: AsyncConnection, conn_id: str) -> None:
    """The row stays as "last seen"; older closed rows of the same seat are dropped."""
    row = (
        await conn.execute(
            sa.select(presence.c.game_id, presence.c.seat).where(presence.c.id == conn_id)
        )
    ).first()
    if row is None:
        return
    now = utcnow()
    await conn.execute(
        sa.update(presence).where(presence.c.id == conn_id).values(closed_at=now, last_seen=now)
    )
    await conn.execute(
        sa.delete(presence).where(
            presence.c.game_id == row.game_id,
            presence.c.seat == row.seat,
            presence.c.id != conn_id,
            presence.c.closed_at.is_not(None),
        )
    )
