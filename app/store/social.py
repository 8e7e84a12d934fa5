"""Chat lines and rematch offers (issue 15): plain statements, run inside a unit that holds
the game's row lock (``queries.read_for_change``), so numbering and offers never race."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store.models import ChatMessage, Game, Rematch, Seat, utcnow

chat = cast(sa.Table, ChatMessage.__table__)
rematches = cast(sa.Table, Rematch.__table__)
games = cast(sa.Table, Game.__table__)
seats = cast(sa.Table, Seat.__table__)


@dataclass(frozen=True, slots=True)
class Line:
    n: int
    sender: str
    text: str
    at: datetime


async def add_line(
    conn: AsyncConnection, game_id: str, channel: str, sender: str, text: str
) -> Line:
    """The channel's next line (n from 1, gapless: the caller holds the game's lock)."""
    last = await conn.scalar(
        sa.select(sa.func.max(chat.c.n)).where(chat.c.game_id == game_id, chat.c.channel == channel)
    )
    line = Line((last or 0) + 1, sender, text, utcnow())
    await conn.execute(
        sa.insert(chat),
        {"game_id": game_id, "channel": channel, "n": line.n, "sender": sender, "text": text,
         "at": line.at},
    )  # fmt: skip
    return line


async def lines(
    conn: AsyncConnection, game_id: str, channel: str, after: int, limit: int
) -> list[Line]:
    rows = await conn.execute(
        sa.select(chat.c.n, chat.c.sender, chat.c.text, chat.c.at)
        .where(chat.c.game_id == game_id, chat.c.channel == channel, chat.c.n > after)
        .order_by(chat.c.n)
        .limit(limit)
    )
    return [Line(n, sender, text, at) for n, sender, text, at in rows]


@dataclass(frozen=True, slots=True)
class Offer:
    offered_by: str
    new_game_id: str | None
    pending: frozenset[str]


async def offer(conn: AsyncConnection, game_id: str) -> Offer | None:
    row = (
        await conn.execute(
            sa.select(rematches.c.offered_by, rematches.c.new_game_id, rematches.c.pending).where(
                rematches.c.game_id == game_id
            )
        )
    ).first()
    if row is None:
        return None
    return Offer(row.offered_by, row.new_game_id, frozenset(p for p in row.pending.split(",") if p))


async def add_offer(conn: AsyncConnection, game_id: str, side: str) -> None:
    await conn.execute(sa.insert(rematches), {"game_id": game_id, "offered_by": side})


async def set_offer(
    conn: AsyncConnection, game_id: str, new_game_id: str, pending: frozenset[str]
) -> None:
    await conn.execute(
        sa.update(rematches)
        .where(rematches.c.game_id == game_id)
        .values(new_game_id=new_game_id, pending=",".join(sorted(pending)))
    )


async def settings_of(conn: AsyncConnection, game_id: str) -> dict[str, Any] | None:
    value = await conn.scalar(sa.select(games.c.settings).where(games.c.id == game_id))
    return cast("dict[str, Any] | None", value)


async def retoken(conn: AsyncConnection, game_id: str, side: str, token_hash: str) -> None:
    """A reserved seat's token: the hash of the token its claim drew (never handed to anyone)
    replaced by the hash of the one handed out now."""
    await conn.execute(
        sa.update(seats)
        .where(seats.c.game_id == game_id, seats.c.side == side, seats.c.revoked_at.is_(None))
        .values(token_hash=token_hash)
    )


async def delete_game(conn: AsyncConnection, game_id: str) -> None:
    """A rematch game made by the loser of a race of two accepts (never handed to anyone);
    its rows go with it (foreign keys cascade)."""
    await conn.execute(sa.delete(games).where(games.c.id == game_id))
