"""The lobby's writes in as few round trips as their checks allow: a new game (its row, its
first event, the creator's seat and the invites) and a claimed invite.

On PostgreSQL each goes to the driver directly (``app.store.driver``): a new game is one
statement; a claim is three — lock the game through the invite, re-read the invite and the
live seats now that the game is locked, write the seat, the claim, the events and the
snapshot. SQLite runs the plain statements of ``app.store.games`` and ``app.store.seats``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store import driver
from app.store import games as G
from app.store import seats as S
from app.store.models import utcnow
from app.store.queries import HEAD_COLUMNS, GameHead, games, head_of

_PG_NEW_GAME = sa.text("""
WITH game AS (
    INSERT INTO games (
        id, status, paused, spectators, creator, seed, seed_commitment, snapshot, seq,
        clock, created_at, updated_at, settings
    )
    VALUES (
        :game_id, :status, :paused, :spectators, :creator, :seed, :seed_commitment,
        CAST(:snapshot AS jsonb), :seq, CAST(:clock AS jsonb), :now, :now, CAST(:settings AS jsonb)
    )
), first AS (
    INSERT INTO events (
        game_id, seq, turn, type, data, full_for, voided, ends_command, created_at
    )
    VALUES (:game_id, :seq, :turn, :type, CAST(:data AS jsonb), :full_for, false, :ends, :now)
), seat AS (
    INSERT INTO seats (game_id, side, name, token_hash, created_at)
    VALUES (:game_id, :side, :name, :token_hash, :now)
)
INSERT INTO invites (code_hash, game_id, side, created_at)
SELECT i.code_hash, :game_id, i.side, :now
FROM jsonb_to_recordset(CAST(:invites AS jsonb)) AS i(code_hash text, side text)
""")


async def create_game(
    conn: AsyncConnection,
    head: GameHead,
    snapshot: dict[str, Any],
    first: dict[str, Any],
    seat: tuple[str, str | None, str],
    invites: Sequence[tuple[str, str]],
    settings: dict[str, Any] | None = None,
) -> None:
    """A new game's row, its first event (``first``: the events row's columns), the seat
    (side, name, token hash) and the invites ((code hash, side) each). The unit's last
    statement: on PostgreSQL it commits."""
    side, name, token_hash = seat
    if conn.dialect.name != "postgresql":
        await G.insert_game(conn, head, snapshot, first, settings)
        await S.add_seat(conn, head.id, side, name, token_hash)
        for code_hash, offered in invites:
            await S.add_invite(conn, code_hash, head.id, offered)
        return
    params = {
        "game_id": head.id,
        "snapshot": driver.to_json(snapshot),
        **G.head_values(head),
        "clock": None if head.clock is None else driver.to_json(head.clock),
        "now": utcnow(),
        "turn": first["turn"],
        "type": first["type"],
        "data": driver.to_json(first["data"]),
        "full_for": first["full_for"],
        "ends": first["ends_command"],
        "side": side,
        "name": name,
        "token_hash": token_hash,
        "invites": driver.to_json([{"code_hash": c, "side": s} for c, s in invites]),
        "settings": None if settings is None else driver.to_json(settings),
    }
    assert first["seq"] == head.seq
    await driver.rows(conn, _PG_NEW_GAME, params, last=True)  # BEGIN, it, COMMIT: one trip


@dataclass(frozen=True, slots=True)
class ClaimRead:
    """A claim's reads, made with the game locked: the game, the invite as it is now and the
    sides seated now."""

    head: GameHead
    snapshot: dict[str, Any]
    side: str | None  # None: the invite is gone
    usable: bool
    seated: frozenset[str]


_invites = S.invites
_seats = S.seats
# PostgreSQL: the game row locked through the invite (the invite's own columns may be as they
# were when the statement started: they are read again below)
_LOCK_BY_INVITE = (
    sa.select(*HEAD_COLUMNS, games.c.snapshot)
    .select_from(_invites.join(games, games.c.id == _invites.c.game_id))
    .where(_invites.c.code_hash == sa.bindparam("code_hash"))
    .with_for_update(of=games)
)
_INVITE_AND_SEATS = sa.select(
    _invites.c.side,
    sa.and_(_invites.c.claimed_at.is_(None), _invites.c.revoked_at.is_(None)).label("usable"),
    sa.func.array(
        sa.select(_seats.c.side)
        .where(_seats.c.game_id == _invites.c.game_id, _seats.c.revoked_at.is_(None))
        .scalar_subquery()
    ).label("seated"),
).where(_invites.c.code_hash == sa.bindparam("code_hash"))


async def read_for_claim(conn: AsyncConnection, code_hash: str) -> ClaimRead | None:
    """PostgreSQL only: the invite's game, locked, with the invite and the live seats read
    after the lock; None if the code names no invite (the caller then takes the general
    path)."""
    locked = await driver.rows(conn, _LOCK_BY_INVITE, {"code_hash": code_hash})
    if not locked:
        return None
    head, snapshot = head_of(locked[0]), locked[0].snapshot  # locked: fresh
    found = await driver.rows(conn, _INVITE_AND_SEATS, {"code_hash": code_hash})
    if not found:
        return ClaimRead(head, snapshot, None, False, frozenset())
    row = found[0]
    return ClaimRead(head, snapshot, row.side, bool(row.usable), frozenset(row.seated or ()))


_PG_CLAIM = sa.text("""
WITH seat AS (
    INSERT INTO seats (game_id, side, name, token_hash, created_at)
    VALUES (:game_id, :side, :name, :token_hash, :now)
), claimed AS (
    UPDATE invites SET claimed_at = :now WHERE code_hash = :code_hash
), appended AS (
    INSERT INTO events (
        game_id, seq, turn, type, data, full_for, voided, ends_command, created_at
    )
    SELECT :game_id, e.seq, e.turn, e.type, e.data, e.full_for, false, e.ends_command, :now
    FROM jsonb_to_recordset(CAST(:events AS jsonb)) AS e(
        seq integer, turn integer, type text, data jsonb, full_for text, ends_command boolean
    )
)
UPDATE games SET snapshot = CAST(:snapshot AS jsonb), seq = :seq,
    status = COALESCE(:status, status), updated_at = :now
WHERE id = :game_id
""")


async def save_claim(
    conn: AsyncConnection,
    game_id: str,
    code_hash: str,
    seat: tuple[str, str | None, str],
    rows: Sequence[dict[str, Any]],
    snapshot: dict[str, Any],
    seq: int,
    status: str | None,
) -> None:
    """The claimed seat (side, name, token hash), the invite marked used, the events and the
    snapshot at ``seq`` (``status`` changes only when given). The unit's last statement: on
    PostgreSQL it commits."""
    side, name, token_hash = seat
    if conn.dialect.name != "postgresql":
        await S.add_seat(conn, game_id, side, name, token_hash)
        await S.mark_claimed(conn, code_hash)
        await G.save_game(conn, game_id, rows, snapshot, seq, status)
        return
    params = {
        "game_id": game_id,
        "side": side,
        "name": name,
        "token_hash": token_hash,
        "now": utcnow(),
        "code_hash": code_hash,
        "events": driver.to_json(list(rows)),
        "snapshot": driver.to_json(snapshot),
        "seq": seq,
        "status": status,
    }
    await driver.rows(conn, _PG_CLAIM, params, last=True)
