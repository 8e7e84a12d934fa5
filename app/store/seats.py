"""Seats (a side's token, stored as its hash) and invites (single-use codes, hashed too)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store.models import Invite, Seat, utcnow

seats = cast(sa.Table, Seat.__table__)
invites = cast(sa.Table, Invite.__table__)
_LIVE = seats.c.revoked_at.is_(None)


@dataclass(frozen=True, slots=True)
class InviteOf:
    """What an invite code offers, and whether it still can be used."""

    game_id: str
    side: str
    usable: bool  # neither claimed nor replaced


@dataclass(frozen=True, slots=True)
class TokenSeat:
    """The live seat a token names, in whichever game."""

    game_id: str
    side: str
    name: str | None


async def invite(conn: AsyncConnection, code_hash: str) -> InviteOf | None:
    row = (
        await conn.execute(
            sa.select(
                invites.c.game_id, invites.c.side, invites.c.claimed_at, invites.c.revoked_at
            ).where(invites.c.code_hash == code_hash)
        )
    ).first()
    if row is None:
        return None
    return InviteOf(row.game_id, row.side, row.claimed_at is None and row.revoked_at is None)


async def add_invite(conn: AsyncConnection, code_hash: str, game_id: str, side: str) -> None:
    await conn.execute(
        sa.insert(invites), {"code_hash": code_hash, "game_id": game_id, "side": side}
    )


async def mark_claimed(conn: AsyncConnection, code_hash: str) -> None:
    await conn.execute(
        sa.update(invites).where(invites.c.code_hash == code_hash).values(claimed_at=utcnow())
    )


async def revoke_invites(conn: AsyncConnection, game_id: str, side: str) -> None:
    """Every open invite of the seat stops working."""
    await conn.execute(
        sa.update(invites)
        .where(
            invites.c.game_id == game_id,
            invites.c.side == side,
            invites.c.claimed_at.is_(None),
            invites.c.revoked_at.is_(None),
        )
        .values(revoked_at=utcnow())
    )


async def seat_of_token(conn: AsyncConnection, token_hash: str) -> TokenSeat | None:
    row = (
        await conn.execute(
            sa.select(seats.c.game_id, seats.c.side, seats.c.name).where(
                seats.c.token_hash == token_hash, _LIVE
            )
        )
    ).first()
    return TokenSeat(row.game_id, row.side, row.name) if row is not None else None


async def side_of_token(conn: AsyncConnection, game_id: str, token_hash: str) -> str | None:
    """The live seat of this game the token names, if any."""
    return await conn.scalar(
        sa.select(seats.c.side).where(
            seats.c.token_hash == token_hash, seats.c.game_id == game_id, _LIVE
        )
    )


async def live_seats(conn: AsyncConnection, game_id: str) -> list[tuple[str, str | None]]:
    """(side, name) of each live seat of the game, in the order they were taken."""
    rows = await conn.execute(
        sa.select(seats.c.side, seats.c.name)
        .where(seats.c.game_id == game_id, _LIVE)
        .order_by(seats.c.id)
    )
    return [(side, name) for side, name in rows]


async def seat_name(conn: AsyncConnection, game_id: str, side: str) -> str | None:
    return await conn.scalar(
        sa.select(seats.c.name).where(seats.c.game_id == game_id, seats.c.side == side, _LIVE)
    )


async def seated(conn: AsyncConnection, game_id: str, side: str) -> bool:
    """Whether the side has a live seat."""
    found = await conn.scalar(
        sa.select(seats.c.id).where(seats.c.game_id == game_id, seats.c.side == side, _LIVE)
    )
    return found is not None


async def add_seat(
    conn: AsyncConnection, game_id: str, side: str, name: str | None, token_hash: str
) -> None:
    await conn.execute(
        sa.insert(seats),
        {"game_id": game_id, "side": side, "name": name, "token_hash": token_hash},
    )


async def revoke_seat(conn: AsyncConnection, game_id: str, side: str) -> None:
    """The side's live token stops working at once (streams included)."""
    await conn.execute(
        sa.update(seats)
        .where(seats.c.game_id == game_id, seats.c.side == side, _LIVE)
        .values(revoked_at=utcnow())
    )
