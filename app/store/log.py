"""The event log besides the hot reads of ``app.store.queries``: the whole log (record, rewind),
command boundaries and voiding."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store.models import EventRow

events = cast(sa.Table, EventRow.__table__)
# a ``Logged`` row's columns, in its fields' order
LOGGED_COLUMNS = (
    events.c.seq,
    events.c.turn,
    events.c.type,
    events.c.data,
    events.c.voided,
    events.c.ends_command,
)


@dataclass(frozen=True, slots=True)
class Logged:
    """One row of the log."""

    seq: int
    turn: int
    type: str
    data: dict[str, Any]
    voided: bool
    ends_command: bool


async def whole_log(conn: AsyncConnection, game_id: str) -> list[Logged]:
    """Every event of the game, voided ones included, in order."""
    rows = await conn.execute(
        sa.select(*LOGGED_COLUMNS).where(events.c.game_id == game_id).order_by(events.c.seq)
    )
    return [
        Logged(seq, turn, kind, data, bool(voided), bool(ends))
        for seq, turn, kind, data, voided, ends in rows
    ]


async def logged(conn: AsyncConnection, game_id: str, seq: int) -> Logged | None:
    row = (
        await conn.execute(
            sa.select(*LOGGED_COLUMNS).where(events.c.game_id == game_id, events.c.seq == seq)
        )
    ).first()
    if row is None:
        return None
    return Logged(row.seq, row.turn, row.type, row.data, bool(row.voided), bool(row.ends_command))


async def void(conn: AsyncConnection, game_id: str, seqs: Sequence[int]) -> None:
    """Mark events voided (a referee's rewind): they stay in the log, out of the game."""
    if seqs:
        await conn.execute(
            sa.update(events)
            .where(events.c.game_id == game_id, events.c.seq.in_(seqs))
            .values(voided=True)
        )


async def in_force(conn: AsyncConnection, game_id: str) -> list[tuple[int, int, str, bool]]:
    """(seq, turn, type, ends_command) of every event not voided, in order."""
    rows = await conn.execute(
        sa.select(events.c.seq, events.c.turn, events.c.type, events.c.ends_command)
        .where(events.c.game_id == game_id, events.c.voided.is_(False))
        .order_by(events.c.seq)
    )
    return [(seq, turn, kind, bool(ends)) for seq, turn, kind, ends in rows]


async def last_seq_of(conn: AsyncConnection, game_id: str, kind: str) -> int | None:
    """The seq of the game's latest event of type ``kind`` (voided or not), if any."""
    seq = await conn.scalar(
        sa.select(sa.func.max(events.c.seq)).where(
            events.c.game_id == game_id, events.c.type == kind
        )
    )
    return int(seq) if seq is not None else None


async def turn_now(conn: AsyncConnection, game_id: str) -> int:
    """The turn of the game's latest event in force (0 before the first turn)."""
    turn = await conn.scalar(
        sa.select(sa.func.max(events.c.turn)).where(
            events.c.game_id == game_id, events.c.voided.is_(False)
        )
    )
    return int(turn) if turn is not None else 0
