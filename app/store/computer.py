"""The sides the server's computer plays (``computer_seats``), and the turns it claims.

A worker asks for the computer sides whose game moved since the computer last found nothing to
do (``idle_seq``), claims one with a lease (a conditional update: of two workers, one wins),
records when it was asked (``asked_seq``, ``asked_at``: the release time survives a restart)
and lets the lease go once it has answered. A lease that runs out — its worker died — is
claimed again by any worker.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store.models import ComputerBelief, ComputerSeat, utcnow
from app.store.queries import games, seats

computer = cast(sa.Table, ComputerSeat.__table__)
by_turn = cast(sa.Table, ComputerBelief.__table__)
_LIVE_SEAT = seats.c.revoked_at.is_(None)


@dataclass(frozen=True, slots=True)
class ComputerTurn:
    """A computer side that may have something to do: its seat's token hash, its level, and
    the turn it was last asked (if it has not answered it yet)."""

    game_id: str
    side: str
    level: str
    rng_key: str
    token_hash: str
    asked_seq: int | None
    asked_at: datetime | None


async def add(conn: AsyncConnection, game_id: str, side: str, level: str, rng_key: str) -> None:
    """The computer plays ``side`` through the side's live seat (taken just before)."""
    seat_id = await conn.scalar(
        sa.select(seats.c.id).where(seats.c.game_id == game_id, seats.c.side == side, _LIVE_SEAT)
    )
    assert seat_id is not None, "the computer's seat is taken first"
    await conn.execute(
        sa.delete(computer).where(computer.c.game_id == game_id, computer.c.side == side)
    )
    await conn.execute(
        sa.insert(computer),
        {"game_id": game_id, "side": side, "level": level, "rng_key": rng_key,
         "seat_id": seat_id, "created_at": utcnow()},
    )  # fmt: skip


async def levels(conn: AsyncConnection, game_id: str) -> dict[str, str]:
    """side -> level of each side the computer plays now (its seat still live)."""
    rows = await conn.execute(
        sa.select(computer.c.side, computer.c.level)
        .select_from(computer.join(seats, seats.c.id == computer.c.seat_id))
        .where(computer.c.game_id == game_id, _LIVE_SEAT)
    )
    return {side: level for side, level in rows}


_TURN_COLUMNS = (
    computer.c.game_id,
    computer.c.side,
    computer.c.level,
    computer.c.rng_key,
    seats.c.token_hash,
    computer.c.asked_seq,
    computer.c.asked_at,
)


async def pending(conn: AsyncConnection, now: datetime, limit: int) -> list[ComputerTurn]:
    """Computer sides of active, unpaused games that moved since their idle seq, unclaimed."""
    rows = await conn.execute(
        sa.select(*_TURN_COLUMNS)
        .select_from(
            computer.join(seats, seats.c.id == computer.c.seat_id).join(
                games, games.c.id == computer.c.game_id
            )
        )
        .where(
            _LIVE_SEAT,
            games.c.status == "active",
            games.c.paused.is_(False),
            games.c.seq != computer.c.idle_seq,
            sa.or_(computer.c.lease_until.is_(None), computer.c.lease_until < now),
        )
        .order_by(games.c.updated_at)
        .limit(limit)
    )
    return [ComputerTurn(*row[:-1], _aware(row.asked_at)) for row in rows]


def _aware(at: datetime | None) -> datetime | None:
    # SQLite hands back the UTC time it stored without its zone
    return at.replace(tzinfo=UTC) if at is not None and at.tzinfo is None else at


def _row(game_id: str, side: str) -> sa.ColumnElement[bool]:
    return sa.and_(computer.c.game_id == game_id, computer.c.side == side)


async def claim(
    conn: AsyncConnection, turn: ComputerTurn, owner: str, until: datetime, now: datetime
) -> bool:
    """Take the side's next turn until ``until``; False if another worker holds it."""
    result = await conn.execute(
        sa.update(computer)
        .where(
            _row(turn.game_id, turn.side),
            sa.or_(computer.c.lease_until.is_(None), computer.c.lease_until < now),
        )
        .values(lease_owner=owner, lease_until=until)
    )
    return bool(result.rowcount == 1)


async def asked(conn: AsyncConnection, game_id: str, side: str, seq: int, at: datetime) -> None:
    await conn.execute(
        sa.update(computer).where(_row(game_id, side)).values(asked_seq=seq, asked_at=at)
    )


async def release(
    conn: AsyncConnection, game_id: str, side: str, owner: str, idle_seq: int | None = None
) -> None:
    """Let the lease go; with ``idle_seq``, nothing more to do until the game moves past it."""
    values: dict[str, object] = {"lease_owner": None, "lease_until": None}
    if idle_seq is not None:
        values.update(idle_seq=idle_seq, asked_seq=None, asked_at=None)
    await conn.execute(
        sa.update(computer)
        .where(_row(game_id, side), computer.c.lease_owner == owner)
        .values(**values)
    )


async def believed(
    conn: AsyncConnection, game_id: str, side: str, belief: dict[str, object]
) -> None:
    """The heat map of the computer's last decision; with a ``turn`` in it, also that turn's
    (a later decision of the same turn takes its place)."""
    await conn.execute(sa.update(computer).where(_row(game_id, side)).values(belief=belief))
    turn = belief.get("turn")
    if not isinstance(turn, int):
        return
    here = sa.and_(by_turn.c.game_id == game_id, by_turn.c.side == side, by_turn.c.turn == turn)
    await conn.execute(sa.delete(by_turn).where(here))
    await conn.execute(
        sa.insert(by_turn),
        {"game_id": game_id, "side": side, "turn": turn, "seq": belief["seq"], "belief": belief},
    )


async def beliefs(
    conn: AsyncConnection, game_id: str, turn: int | None = None
) -> dict[str, dict[str, object]]:
    """side -> the computer's heat map, for each side it played that kept one: its last, or
    its last of ``turn``."""
    if turn is None:
        rows = await conn.execute(
            sa.select(computer.c.side, computer.c.belief).where(
                computer.c.game_id == game_id, computer.c.belief.is_not(None)
            )
        )
    else:
        rows = await conn.execute(
            sa.select(by_turn.c.side, by_turn.c.belief).where(
                by_turn.c.game_id == game_id, by_turn.c.turn == turn
            )
        )
    return {side: belief for side, belief in rows}


async def belief_turns(conn: AsyncConnection, game_id: str, up_to: int) -> list[int]:
    """The turns up to ``up_to`` of which a heat map is kept (later ones were voided by a
    rewind that took the game back: they are not shown until played again)."""
    rows = await conn.scalars(
        sa.select(by_turn.c.turn)
        .where(by_turn.c.game_id == game_id, by_turn.c.turn <= up_to)
        .distinct()
        .order_by(by_turn.c.turn)
    )
    return list(rows)
