"""Notification targets of seats and the outbox of notifications (issue 15).

A sender claims due outbox rows by setting their lease (``FOR UPDATE SKIP LOCKED`` on
PostgreSQL; SQLite's write transaction is immediate, so two claimers run one after the other):
a row whose lease ran out (its sender died between claim and mark) is due again.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store.models import NotifyTarget, OutboxRow, utcnow

targets = cast(sa.Table, NotifyTarget.__table__)
outbox = cast(sa.Table, OutboxRow.__table__)
KINDS = ("webhook", "push", "email")


@dataclass(frozen=True, slots=True)
class Target:
    id: str
    game_id: str
    seat: str
    kind: str
    target: dict[str, Any]
    confirmed: bool


@dataclass(frozen=True, slots=True)
class Claimed:
    """An outbox row a sender holds until ``lease_until``, with its target (None: gone)."""

    id: int
    game_id: str
    seat: str
    event: str
    body: dict[str, Any]
    attempts: int
    target: Target | None


def _target(row: Any) -> Target:
    return Target(row.id, row.game_id, row.seat, row.kind, dict(row.target), row.confirmed)


async def seat_targets(conn: AsyncConnection, game_id: str, seat: str) -> list[Target]:
    rows = await conn.execute(
        sa.select(targets).where(targets.c.game_id == game_id, targets.c.seat == seat)
    )
    return [_target(r) for r in rows]


async def game_targets(conn: AsyncConnection, game_id: str) -> list[Target]:
    rows = await conn.execute(
        sa.select(targets).where(targets.c.game_id == game_id, targets.c.confirmed)
    )
    return [_target(r) for r in rows]


async def set_target(
    conn: AsyncConnection,
    game_id: str,
    seat: str,
    kind: str,
    target: dict[str, Any] | None,
    confirm: tuple[str, datetime] | None = None,
) -> None:
    """Replace (or with ``None`` remove) the seat's target of that kind; ``confirm``: it waits
    for the confirmation whose token hash is given, until the given time."""
    where = (targets.c.game_id == game_id, targets.c.seat == seat, targets.c.kind == kind)
    await conn.execute(sa.delete(targets).where(*where))
    if target is None:
        return
    await conn.execute(
        sa.insert(targets).values(
            id=secrets.token_hex(12),
            game_id=game_id,
            seat=seat,
            kind=kind,
            target=target,
            confirmed=confirm is None,
            confirm_hash=confirm[0] if confirm else None,
            confirm_until=confirm[1] if confirm else None,
            created_at=utcnow(),
        )
    )


async def confirm_target(conn: AsyncConnection, token_hash: str, now: datetime) -> str | None:
    """Confirms the target waiting for this token (once, before it expires); its game id."""
    row = (
        await conn.execute(
            sa.select(targets.c.id, targets.c.game_id, targets.c.confirm_until).where(
                targets.c.confirm_hash == token_hash
            )
        )
    ).first()
    if row is None:
        return None
    until = row.confirm_until
    if until is not None and until.tzinfo is None:  # SQLite: naive UTC
        until = until.replace(tzinfo=now.tzinfo)
    if until is None or until < now:
        return None
    await conn.execute(
        sa.update(targets)
        .where(targets.c.id == row.id)
        .values(confirmed=True, confirm_hash=None, confirm_until=None)
    )
    return str(row.game_id)


async def drop_target(conn: AsyncConnection, target_id: str) -> None:
    await conn.execute(sa.delete(targets).where(targets.c.id == target_id))


async def queue(conn: AsyncConnection, rows: list[dict[str, Any]]) -> None:
    if rows:
        await conn.execute(sa.insert(outbox), rows)


async def claim(
    conn: AsyncConnection, now: datetime, lease: timedelta, limit: int
) -> list[Claimed]:
    """Due rows, leased to the caller until ``now + lease`` (attempts counted at the claim, so
    a sender that dies mid-send still uses one up)."""
    lapsed = sa.or_(outbox.c.lease_until.is_(None), outbox.c.lease_until < now)
    due = (
        sa.select(outbox)
        .where(outbox.c.state == "queued", outbox.c.due_at <= now, lapsed)
        .order_by(outbox.c.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    rows = list(await conn.execute(due))
    if not rows:
        return []
    ids = [r.id for r in rows]
    await conn.execute(
        sa.update(outbox)
        .where(outbox.c.id.in_(ids))
        .values(lease_until=now + lease, attempts=outbox.c.attempts + 1)
    )
    found = await conn.execute(
        sa.select(targets).where(targets.c.id.in_({r.target_id for r in rows}))
    )
    by_id = {t.id: _target(t) for t in found}
    return [
        Claimed(
            r.id, r.game_id, r.seat, r.event, dict(r.body), r.attempts + 1, by_id.get(r.target_id)
        )
        for r in rows
    ]


async def finish(conn: AsyncConnection, row_id: int, state: str, error: str | None) -> None:
    await conn.execute(
        sa.update(outbox)
        .where(outbox.c.id == row_id)
        .values(state=state, last_error=error, done_at=utcnow(), lease_until=None)
    )


async def retry(conn: AsyncConnection, row_id: int, due_at: datetime, error: str) -> None:
    await conn.execute(
        sa.update(outbox)
        .where(outbox.c.id == row_id)
        .values(due_at=due_at, last_error=error, lease_until=None)
    )


async def rows_of(conn: AsyncConnection, game_id: str) -> list[dict[str, Any]]:
    """The game's outbox rows, oldest first (for the tests and the operator)."""
    found = await conn.execute(
        sa.select(outbox).where(outbox.c.game_id == game_id).order_by(outbox.c.id)
    )
    return [dict(r._mapping) for r in found]
