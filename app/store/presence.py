"""Presence rows: one per open page or stream of a shown seat (spectators have none), and the
marks a worker's watcher of a game reads (its seq, its revoked seats, its presence rows).

A row's id starts with the id of the worker that holds the connection (``<worker>-<n>``): a
worker refreshes one row per seat and game, and a reader counts every open row of a worker
whose freshest row is fresh."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store.models import Game, Presence, Seat, utcnow

presence = cast(sa.Table, Presence.__table__)
games = cast(sa.Table, Game.__table__)
seats = cast(sa.Table, Seat.__table__)


@dataclass(frozen=True, slots=True)
class Contact:
    """One open (or last closed) page or stream of a seat."""

    seat: str
    kind: str  # page | stream
    last_seen: datetime
    closed: bool
    id: str = ""

    @property
    def worker(self) -> str:
        """The worker that holds (or held) it; a row written before ids named their worker
        stands alone."""
        head, dash, _ = self.id.partition("-")
        return head if dash else self.id


async def contacts(conn: AsyncConnection, game_id: str) -> list[Contact]:
    rows = await conn.execute(
        sa.select(
            presence.c.seat,
            presence.c.kind,
            presence.c.last_seen,
            presence.c.closed_at,
            presence.c.id,
        ).where(presence.c.game_id == game_id)
    )
    return [
        Contact(seat, kind, seen, closed is not None, id_) for seat, kind, seen, closed, id_ in rows
    ]


async def open_contacts(conn: AsyncConnection, game_id: str) -> list[Contact]:
    """The game's pages and streams still open."""
    rows = await conn.execute(
        sa.select(presence.c.seat, presence.c.kind, presence.c.last_seen, presence.c.id).where(
            presence.c.game_id == game_id, presence.c.closed_at.is_(None)
        )
    )
    return [Contact(seat, kind, seen, False, id_) for seat, kind, seen, id_ in rows]


@dataclass(frozen=True, slots=True)
class Marks:
    """What a game's watcher compares between two reads."""

    seq: int
    revoked: object  # the last revocation of a seat of the game (a time, or None)
    presence: tuple[object, ...]  # changes when any worker opens or closes a row


async def marks(conn: AsyncConnection, game_id: str) -> Marks | None:
    """One statement: the game's seq, its last seat revocation and its presence rows' shape."""
    revoked = (
        sa.select(sa.func.max(seats.c.revoked_at)).where(seats.c.game_id == game_id)
    ).scalar_subquery()
    rows = sa.select(
        sa.func.count(presence.c.id),
        sa.func.count(presence.c.closed_at),
        sa.func.max(presence.c.opened_at),
        sa.func.max(presence.c.closed_at),
    ).where(presence.c.game_id == game_id)
    shape = rows.subquery()
    row = (
        await conn.execute(
            sa.select(games.c.seq, revoked, *shape.c)
            .select_from(games.join(shape, sa.true()))
            .where(games.c.id == game_id)
        )
    ).first()
    if row is None:
        return None
    return Marks(row[0], row[1], tuple(row[2:]))


async def opened(conn: AsyncConnection, conn_id: str, game_id: str, seat: str, kind: str) -> None:
    await conn.execute(
        sa.insert(presence), {"id": conn_id, "game_id": game_id, "seat": seat, "kind": kind}
    )


async def lock(conn: AsyncConnection, conn_ids: list[str]) -> None:
    """Locks the rows a transaction will write, in id order (PostgreSQL; SQLite's one writer
    needs none): a heartbeat and the closes overlapping it each write several rows, and in
    another order two of them would each wait for the other's row (a deadlock, which aborts
    one of them)."""
    if conn_ids and conn.dialect.name == "postgresql":
        await conn.execute(
            sa.select(presence.c.id)
            .where(presence.c.id.in_(conn_ids))
            .order_by(presence.c.id)
            .with_for_update()
        )


async def beat(conn: AsyncConnection, conn_ids: list[str]) -> None:
    """One heartbeat for many rows (one per seat and game of a worker)."""
    if conn_ids:
        await lock(conn, conn_ids)
        await conn.execute(
            sa.update(presence).where(presence.c.id.in_(conn_ids)).values(last_seen=utcnow())
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
    # rows another transaction holds are left for a later close: waiting for them here, while
    # holding this close's own rows, could close a cycle of waits with a heartbeat
    older = (
        sa.select(presence.c.id)
        .where(
            presence.c.game_id == row.game_id,
            presence.c.seat == row.seat,
            presence.c.id != conn_id,
            presence.c.closed_at.is_not(None),
        )
        .with_for_update(skip_locked=True)
    )
    await conn.execute(sa.delete(presence).where(presence.c.id.in_(older.scalar_subquery())))
