"""The hot paths' statements, in SQLAlchemy Core: a command's unit of work and the reads of a
game (view, events, streams), each in as few round trips as the answer allows.

* The game row and the caller's seat (and, for a command, its idempotency record) come back in
  one ``SELECT`` — ``FOR UPDATE OF games`` for a command on PostgreSQL.
* The JSONB snapshot is sent only when the caller's cached state is not at the row's seq
  (``CASE WHEN seq = :cached_seq THEN NULL ELSE snapshot END``): see ``app.store.cache``.
* A command's writes are plain Core ``INSERT``/``UPDATE`` statements (no ORM unit of work).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store import driver
from app.store.cache import NO_SEQ
from app.store.models import EventRow, Game, IdempotencyRecord, JSONType, Seat, utcnow

games = cast(sa.Table, Game.__table__)
seats = cast(sa.Table, Seat.__table__)
events = cast(sa.Table, EventRow.__table__)
idempotency = cast(sa.Table, IdempotencyRecord.__table__)


@dataclass(frozen=True, slots=True)
class GameHead:
    """The game row without its snapshot: what a view or a command reads besides the state."""

    id: str
    status: str
    paused: bool
    spectators: bool
    creator: str
    seed: str
    seed_commitment: str
    seq: int
    # the time control and its accounting (``app.play.clocks``), None without a clock
    clock: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class SeatOf:
    """The live seat a token names (possibly of another game)."""

    game_id: str
    side: str


@dataclass(frozen=True, slots=True)
class StoredReply:
    """An idempotency record: the answer a key already received."""

    request_hash: str
    status_code: int
    response: dict[str, Any]
    first_seq: int | None


@dataclass(frozen=True, slots=True)
class GameRead:
    head: GameHead
    snapshot: dict[str, Any] | None  # None: the row is at the cached seq (or was not asked for)
    seat: SeatOf | None  # the token's live seat, if any
    stored: StoredReply | None = None  # the idempotency record of (token, key), if any


# the game row's columns besides its snapshot: what ``head_of`` makes a ``GameHead`` of
HEAD_COLUMNS = (
    games.c.id,
    games.c.status,
    games.c.paused,
    games.c.spectators,
    games.c.creator,
    games.c.seed,
    games.c.seed_commitment,
    games.c.seq,
    games.c.clock,
)
_SNAPSHOT_UNLESS_CACHED = sa.type_coerce(
    sa.case((games.c.seq == sa.bindparam("cached_seq"), sa.null()), else_=games.c.snapshot),
    JSONType,
).label("snapshot")
_TOKEN_SEAT = sa.and_(
    seats.c.token_hash == sa.bindparam("token_hash"), seats.c.revoked_at.is_(None)
)


def head_of(row: Any) -> GameHead:
    return GameHead(
        row.id,
        row.status,
        bool(row.paused),
        bool(row.spectators),
        row.creator,
        row.seed,
        row.seed_commitment,
        row.seq,
        row.clock,
    )


def _seat(row: Any) -> SeatOf | None:
    if row.seat_game is None:
        return None
    return SeatOf(row.seat_game, row.seat_side)


# -- a command's unit of work ------------------------------------------------------------------
_COMMAND_READ = (
    sa.select(
        *HEAD_COLUMNS,
        _SNAPSHOT_UNLESS_CACHED,
        seats.c.game_id.label("seat_game"),
        seats.c.side.label("seat_side"),
        idempotency.c.request_hash,
        idempotency.c.status_code,
        idempotency.c.response,
        idempotency.c.first_seq,
    )
    .select_from(
        games.outerjoin(seats, _TOKEN_SEAT).outerjoin(
            idempotency,
            sa.and_(
                idempotency.c.game_id == games.c.id,
                idempotency.c.token_hash == sa.bindparam("token_hash"),
                idempotency.c.key == sa.bindparam("key"),
            ),
        )
    )
    .where(games.c.id == sa.bindparam("game_id"))
)
# PostgreSQL, READ COMMITTED: when ``FOR UPDATE`` had to wait for another writer of the game,
# the game row comes back as that writer committed it, but the joined rows (seat, idempotency
# record) as they were when the statement started — possibly stale (a seat replaced, a key
# just recorded). Every such writer also updates the game row, so comparing the locked row's
# version (xmin) with the one the statement's snapshot sees tells; then the statement runs
# once more, now holding the lock, on a snapshot that includes every earlier writer.
_G2 = games.alias("g2")
_SEEN_AS_LOCKED = (
    sa.literal_column("games.xmin")
    == sa.select(sa.literal_column("g2.xmin")).where(_G2.c.id == games.c.id).scalar_subquery()
).label("fresh")
_COMMAND_LOCK = _COMMAND_READ.add_columns(_SEEN_AS_LOCKED).with_for_update(of=games)


async def read_for_command(
    conn: AsyncConnection,
    game_id: str,
    token_hash: str | None,
    key: str | None,
    cached_seq: int,
    lock: bool,
) -> GameRead | None:
    """The game (locked with ``lock``: PostgreSQL's ``FOR UPDATE``), the token's seat and the
    stored reply to ``key``, in one statement; ``None`` if there is no such game."""
    params = {"game_id": game_id, "token_hash": token_hash, "key": key, "cached_seq": cached_seq}
    rows = await driver.rows(conn, _COMMAND_LOCK if lock else _COMMAND_READ, params)
    if rows and lock and not rows[0].fresh:
        rows = await driver.rows(conn, _COMMAND_LOCK, params)  # we hold the lock now
        assert rows and rows[0].fresh  # a locked row stays
    if not rows:
        return None
    row = rows[0]
    stored = None
    if row.request_hash is not None:
        stored = StoredReply(row.request_hash, row.status_code, row.response, row.first_seq)
    return GameRead(head_of(row), row.snapshot, _seat(row), stored)


async def read_for_change(
    conn: AsyncConnection, game_id: str, token_hash: str | None, lock: bool
) -> GameRead | None:
    """``read_for_command`` for a change that is not a command (a seat, a referee's action, an
    invite): the game with its snapshot, locked as a command locks it, and the token's seat."""
    return await read_for_command(conn, game_id, token_hash, None, NO_SEQ, lock)


# PostgreSQL: every write of a command in one statement (the events from one JSON array)
_PG_SAVE = """
WITH appended AS (
    INSERT INTO events (
        game_id, seq, turn, type, data, full_for, voided, ends_command, created_at
    )
    SELECT :game_id, e.seq, e.turn, e.type, e.data, e.full_for, false, e.ends_command, :now
    FROM jsonb_to_recordset(CAST(:events AS jsonb)) AS e(
        seq integer, turn integer, type text, data jsonb, full_for text, ends_command boolean
    )
){reply}
UPDATE games SET snapshot = CAST(:snapshot AS jsonb), seq = :seq, status = :status,
    updated_at = :now
WHERE id = :game_id
"""
_PG_REPLY = """, replied AS (
    INSERT INTO idempotency (
        game_id, token_hash, key, request_hash, status_code, response, first_seq, last_seq,
        created_at
    )
    VALUES (
        :game_id, :token_hash, :key, :request_hash, :status_code, CAST(:response AS jsonb),
        :first_seq, :last_seq, :now
    )
)"""
_PG_SAVE_COMMAND = sa.text(_PG_SAVE.format(reply=""))
_PG_SAVE_COMMAND_AND_REPLY = sa.text(_PG_SAVE.format(reply=_PG_REPLY))
_SAVE_GAME = (
    sa.update(games)
    .where(games.c.id == sa.bindparam("game_id"))
    .values(
        snapshot=sa.bindparam("snapshot"),
        seq=sa.bindparam("seq"),
        status=sa.bindparam("status"),
        updated_at=sa.bindparam("now"),
    )
)


async def save_command(
    conn: AsyncConnection,
    game_id: str,
    rows: Sequence[dict[str, Any]],
    snapshot: dict[str, Any],
    seq: int,
    status: str,
    reply: dict[str, Any] | None,
) -> None:
    """Append the events, save the snapshot at ``seq`` and the idempotency record (if any):
    one statement on PostgreSQL, plain Core statements elsewhere. The unit's last statement:
    on PostgreSQL it commits (nothing may follow it in the unit)."""
    now = utcnow()
    if conn.dialect.name == "postgresql":
        params: dict[str, Any] = {
            "game_id": game_id,
            "events": driver.to_json(rows),
            "snapshot": driver.to_json(snapshot),
            "seq": seq,
            "status": status,
            "now": now,
        }
        # a command's last statement: the commit goes with it (``driver.rows``)
        if reply is None:
            await driver.rows(conn, _PG_SAVE_COMMAND, params, last=True)
        else:
            params.update(reply, response=driver.to_json(reply["response"]))
            await driver.rows(conn, _PG_SAVE_COMMAND_AND_REPLY, params, last=True)
        return
    if rows:
        await conn.execute(
            sa.insert(events),
            [{**row, "game_id": game_id, "voided": False, "created_at": now} for row in rows],
        )
    await conn.execute(
        _SAVE_GAME,
        {"game_id": game_id, "snapshot": snapshot, "seq": seq, "status": status, "now": now},
    )
    if reply is not None:
        await conn.execute(sa.insert(idempotency), {**reply, "game_id": game_id, "created_at": now})


async def voided(conn: AsyncConnection, game_id: str, seq: int) -> bool:
    value = await conn.scalar(
        sa.select(events.c.voided).where(events.c.game_id == game_id, events.c.seq == seq)
    )
    return bool(value)


# -- reads -------------------------------------------------------------------------------------
_GAME_AND_SEAT = (
    sa.select(*HEAD_COLUMNS, seats.c.game_id.label("seat_game"), seats.c.side.label("seat_side"))
    .select_from(games.outerjoin(seats, _TOKEN_SEAT))
    .where(games.c.id == sa.bindparam("game_id"))
)
_GAME_AND_SEAT_STATE = (
    sa.select(
        *HEAD_COLUMNS,
        _SNAPSHOT_UNLESS_CACHED,
        seats.c.game_id.label("seat_game"),
        seats.c.side.label("seat_side"),
    )
    .select_from(games.outerjoin(seats, _TOKEN_SEAT))
    .where(games.c.id == sa.bindparam("game_id"))
)
_LIVE = seats.alias("live")
# a view: the game, the token's seat and every live seat (one row each), the snapshot in the
# first row only
_VIEW = (
    sa.select(
        *HEAD_COLUMNS,
        sa.type_coerce(
            sa.case(
                (
                    sa.or_(
                        games.c.seq == sa.bindparam("cached_seq"),
                        sa.func.row_number().over() > 1,
                    ),
                    sa.null(),
                ),
                else_=games.c.snapshot,
            ),
            JSONType,
        ).label("snapshot"),
        seats.c.game_id.label("seat_game"),
        seats.c.side.label("seat_side"),
        _LIVE.c.side.label("live_side"),
        _LIVE.c.name.label("live_name"),
    )
    .select_from(
        games.outerjoin(seats, _TOKEN_SEAT).outerjoin(
            _LIVE, sa.and_(_LIVE.c.game_id == games.c.id, _LIVE.c.revoked_at.is_(None))
        )
    )
    .where(games.c.id == sa.bindparam("game_id"))
    .order_by(_LIVE.c.id)
)
_FULL_GAME = sa.select(*HEAD_COLUMNS, games.c.snapshot).where(games.c.id == sa.bindparam("game_id"))


async def read_game(
    conn: AsyncConnection, game_id: str, token_hash: str | None, cached_seq: int | None
) -> GameRead | None:
    """The game row and the token's live seat in one statement; the snapshot too unless
    ``cached_seq`` is None (not wanted) or the row's seq (the caller has it)."""
    params = {"game_id": game_id, "token_hash": token_hash}
    if cached_seq is None:
        rows = await driver.rows(conn, _GAME_AND_SEAT, params)
        return GameRead(head_of(rows[0]), None, _seat(rows[0])) if rows else None
    rows = await driver.rows(conn, _GAME_AND_SEAT_STATE, {**params, "cached_seq": cached_seq})
    return GameRead(head_of(rows[0]), rows[0].snapshot, _seat(rows[0])) if rows else None


async def read_view(
    conn: AsyncConnection, game_id: str, token_hash: str | None, cached_seq: int
) -> tuple[GameRead, list[tuple[str, str | None]]] | None:
    """``read_game`` and the live seats' (side, name), in one statement."""
    rows = await driver.rows(
        conn, _VIEW, {"game_id": game_id, "token_hash": token_hash, "cached_seq": cached_seq}
    )
    if not rows:
        return None
    snapshot = next((row.snapshot for row in rows if row.snapshot is not None), None)
    live = [(row.live_side, row.live_name) for row in rows if row.live_side is not None]
    return GameRead(head_of(rows[0]), snapshot, _seat(rows[0])), live


async def read_full_game(
    conn: AsyncConnection, game_id: str
) -> tuple[GameHead, dict[str, Any]] | None:
    row = (await conn.execute(_FULL_GAME, {"game_id": game_id})).first()
    if row is None:
        return None
    return head_of(row), row.snapshot


_EVENTS_AFTER = (
    sa.select(events.c.seq, events.c.turn, events.c.type, events.c.data, events.c.voided)
    .where(events.c.game_id == sa.bindparam("game_id"), events.c.seq > sa.bindparam("after"))
    .order_by(events.c.seq)
    .limit(sa.bindparam("limit"))
)


async def event_rows(
    conn: AsyncConnection, game_id: str, after: int, limit: int
) -> list[tuple[int, int, str, dict[str, Any], bool]]:
    """(seq, turn, type, data, voided) of the events after ``after``, in order."""
    rows = await driver.rows(
        conn, _EVENTS_AFTER, {"game_id": game_id, "after": after, "limit": limit}
    )
    return [(seq, turn, kind, data, bool(voided)) for seq, turn, kind, data, voided in rows]
