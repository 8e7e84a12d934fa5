"""Statements sent straight to PostgreSQL's driver: how the hot paths reach the database.

SQLAlchemy's work around each execution (cache key, execution context, result processing, a
greenlet hop each way) costs more CPU here than the round trip itself. So on PostgreSQL a
statement built once at import is compiled once for psycopg and sent on the connection's own
psycopg connection — in the connection's transaction all the same; SQLite goes through
``conn.execute`` as usual. Errors come out as SQLAlchemy's, as from ``conn.execute``.

What SQLAlchemy would do for such a statement, the statement and its caller do themselves:
every value is a bind parameter (no Python-side column defaults: pass ``now``), and JSON goes in
as text (``to_json``; PostgreSQL reads text sent for a ``jsonb`` column or a ``CAST … AS
jsonb`` as JSON, SQLite's JSON columns take the text as it is) — see ``json_param``.

Transactions (``app.store.db``): PostgreSQL's connections are in the driver's autocommit mode
and a unit of work opens its transaction itself. A connection that wants one and has none yet
sends ``BEGIN`` in the same round trip as its first statement (psycopg's pipeline mode);
``Database.read`` connections never open one.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from typing import Any

import orjson
import psycopg
import sqlalchemy as sa
from psycopg.pq import TransactionStatus
from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

# the execution option that marks a ``Database.read`` connection: statements one by one, each
# committed by itself (no BEGIN)
READS = "pingduel_reads"


@dataclass(frozen=True)
class _Compiled:
    statement: Any  # kept: the cache is keyed by its id()
    sql: str
    defaults: dict[str, Any]
    row: Any  # a namedtuple class of the result columns (None: no rows)


_PG_DIALECT = PGDialect_psycopg()  # type: ignore[no-untyped-call]
_COMPILED: dict[int, _Compiled] = {}  # by id() of module-level statements (they live forever)


def _for_psycopg(statement: Any) -> _Compiled:
    compiled = _COMPILED.get(id(statement))
    if compiled is None or compiled.statement is not statement:
        done = statement.compile(dialect=_PG_DIALECT)
        names: list[str] = []
        if isinstance(statement, sa.Select):
            names = list(statement.selected_columns.keys())
        elif getattr(statement, "_returning", ()):
            names = [c.key for c in statement._returning]
        row = namedtuple("Row", names) if names else None
        compiled = _Compiled(statement, str(done), dict(done.params), row)
        _COMPILED[id(statement)] = compiled
    return compiled


async def driver_of(conn: AsyncConnection) -> Any:
    """The psycopg connection under ``conn`` (no round trip; no greenlet once connected)."""
    sync = conn.sync_connection
    if sync is None or sync.closed or sync.invalidated:
        raw = await conn.get_raw_connection()  # reconnects, or raises as SQLAlchemy would
        return raw.driver_connection
    return sync.connection.driver_connection


def wants_transaction(conn: AsyncConnection | Connection, driver: Any) -> bool:
    """Whether ``BEGIN`` is still to be sent: a unit of work's connection with none open."""
    if driver.pgconn.transaction_status != TransactionStatus.IDLE:
        return False
    sync = conn.sync_connection if isinstance(conn, AsyncConnection) else conn
    return sync is None or not sync.get_execution_options().get(READS, False)


async def rows(
    conn: AsyncConnection, statement: Any, params: dict[str, Any], last: bool = False
) -> list[Any]:
    """Run one of the store's module-level statements; its result rows (none for a write
    without ``RETURNING``). ``last``: the unit of work's last statement — on PostgreSQL its
    ``COMMIT`` goes in the same round trip (the unit's own commit then has nothing to do);
    elsewhere the unit commits as usual."""
    if conn.dialect.name != "postgresql":
        result = await conn.execute(statement, params)
        return list(result.all()) if result.returns_rows else []
    compiled = _for_psycopg(statement)
    driver = await driver_of(conn)
    values = {**compiled.defaults, **params} if compiled.defaults else params
    try:
        begin = wants_transaction(conn, driver)
        if begin or last:
            async with driver.pipeline():
                if begin:
                    await driver.execute("BEGIN")
                cursor = await driver.execute(compiled.sql, values)
                if last:  # not run if the statement fails: the unit then rolls back
                    await driver.execute("COMMIT")
                found = await cursor.fetchall() if compiled.row is not None else []
        else:
            cursor = await driver.execute(compiled.sql, values)
            found = await cursor.fetchall() if compiled.row is not None else []
    except psycopg.Error as error:
        raise sa.exc.DBAPIError.instance(compiled.sql, values, error, psycopg.Error) from error
    return [compiled.row._make(row) for row in found] if compiled.row is not None else []


def json_param(conn: AsyncConnection, value: Any) -> Any:
    """A JSON column's value for ``rows``: text on PostgreSQL (read as JSON by the column or a
    ``CAST … AS jsonb``), the value itself where SQLAlchemy serialises it (SQLite)."""
    return to_json(value) if conn.dialect.name == "postgresql" else value


def to_json(value: Any) -> str:
    """Compact JSON text (orjson: the snapshot of every command goes through here). Keys that
    are not strings become strings, as the json module makes them."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
