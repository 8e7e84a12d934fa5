"""Presence: which seats have a page or stream open right now, and when each was last seen.

Each open page or stream is a row with a heartbeat, kept in the database so that every worker
sees the same picture; a heartbeat older than ``PRESENCE_FRESH`` means "away".
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.store import presence as P
from app.store.db import Database
from app.store.models import utcnow

PRESENCE_FRESH = timedelta(seconds=30)


async def presence_of(conn: AsyncConnection, game_id: str) -> dict[str, Any]:
    """Per seat: connected now (a fresh heartbeat) and when last seen."""
    rows = await P.contacts(conn, game_id)
    now = utcnow()
    out: dict[str, Any] = {
        seat: {"connected": False, "last_seen": None, "pages": 0, "streams": 0}
        for seat in ("A", "B", "referee", "spectator")
    }
    for row in rows:
        seen = row.last_seen if row.last_seen.tzinfo else row.last_seen.replace(tzinfo=now.tzinfo)
        entry = out.setdefault(
            row.seat, {"connected": False, "last_seen": None, "pages": 0, "streams": 0}
        )
        fresh = not row.closed and now - seen <= PRESENCE_FRESH
        if fresh:
            entry["connected"] = True
            entry["pages" if row.kind == "page" else "streams"] += 1
        if entry["last_seen"] is None or seen.isoformat() > entry["last_seen"]:
            entry["last_seen"] = seen.isoformat()
    return {"seats": out, "now": now.isoformat()}


class PresenceTracker:
    """Heartbeats of one open page or stream, kept in the database so every worker agrees."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def open(self, game_id: str, seat: str, kind: str) -> str:
        conn_id = secrets.token_hex(8)
        async with self.db.unit() as conn:
            await P.opened(conn, conn_id, game_id, seat, kind)
        return conn_id

    async def beat(self, conn_id: str) -> None:
        async with self.db.unit() as conn:
            await P.beat(conn, conn_id)

    async def close(self, conn_id: str) -> None:
        """The row stays as "last seen"; older closed rows of the same seat are dropped."""
        async with self.db.unit() as conn:
            await P.closed(conn, conn_id)


# the seats whose connected/away mark every page shows (spectators are not named)
SHOWN_SEATS = frozenset({"A", "B", "referee"})


async def connected_seats(conn: AsyncConnection, game_id: str) -> frozenset[str]:
    """The seats with an open page or stream whose heartbeat is fresh: one small read (the
    game's own rows), compared in Python as ``presence_of`` does (SQLite hands back naive
    times)."""
    rows = await P.open_contacts(conn, game_id)
    now = utcnow()
    return frozenset(
        seat
        for seat, seen in rows
        if now - (seen if seen.tzinfo else seen.replace(tzinfo=now.tzinfo)) <= PRESENCE_FRESH
    )
