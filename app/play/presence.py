"""Presence: which seats have a page or stream open right now, and when each was last seen.

This worker knows its own open pages and streams (``HERE``, in memory); other workers' are
rows in the database. A page or stream of a shown seat (A, B, the referee) opening or closing
is written at once (other features rely on it), and a worker refreshes one row per seat and
game every ``presence_beat`` seconds, however many streams of that seat it holds. Spectators
write nothing: they are counted in memory, by the worker that holds them. A worker whose
freshest row of a seat is older than ``PRESENCE_FRESH`` is gone (it crashed): its rows count
as away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.store import presence as P
from app.store.db import Database
from app.store.models import utcnow

log = logging.getLogger(__name__)
PRESENCE_FRESH = timedelta(seconds=10)  # three default beats and some slack
# the seats whose connected/away mark every page shows (spectators are not named)
SHOWN_SEATS = frozenset({"A", "B", "referee"})
SEATS = ("A", "B", "referee", "spectator")
_FORGET = 10_000  # spectator "last seen" times kept in memory (games long over drop first)


@dataclass(eq=False, slots=True)
class Contact:
    """One open page or stream on this worker; ``row`` is its database row (shown seats)."""

    game_id: str
    seat: str
    kind: str  # page | stream
    row: str | None


@dataclass
class Here:
    """This worker's open pages and streams, and when its spectators were last seen."""

    worker: str = field(default_factory=lambda: secrets.token_hex(8))
    open: dict[str, list[Contact]] = field(default_factory=dict)  # game id -> contacts
    left: dict[tuple[str, str], datetime] = field(default_factory=dict)  # spectators' last

    def add(self, contact: Contact) -> None:
        self.open.setdefault(contact.game_id, []).append(contact)

    def remove(self, contact: Contact) -> list[Contact]:
        """Drops it; returns the game's contacts still open."""
        still = self.open.get(contact.game_id, [])
        with contextlib.suppress(ValueError):
            still.remove(contact)
        if not still:
            self.open.pop(contact.game_id, None)
        return still

    def of(self, game_id: str) -> list[Contact]:
        return self.open.get(game_id, [])

    def beacons(self) -> list[str]:
        """One row per seat and game: the ones a heartbeat refreshes."""
        rows: dict[tuple[str, str], str] = {}
        for game_id, contacts in self.open.items():
            for c in contacts:
                if c.row is not None:
                    rows.setdefault((game_id, c.seat), c.row)
        return list(rows.values())


HERE = Here()  # the process is the worker: every app in it shares its connections


def _aware(when: datetime, now: datetime) -> datetime:
    return when if when.tzinfo else when.replace(tzinfo=now.tzinfo)  # SQLite: naive UTC


def _live_elsewhere(rows: list[P.Contact], now: datetime) -> list[P.Contact]:
    """Other workers' open rows, of the workers whose freshest row of the seat is fresh."""
    freshest: dict[tuple[str, str], datetime] = {}
    others = [r for r in rows if not r.closed and r.worker != HERE.worker]
    for r in others:
        key = (r.worker, r.seat)
        seen = _aware(r.last_seen, now)
        if key not in freshest or seen > freshest[key]:
            freshest[key] = seen
    return [r for r in others if now - freshest[(r.worker, r.seat)] <= PRESENCE_FRESH]


async def presence_of(conn: AsyncConnection, game_id: str) -> dict[str, Any]:
    """Per seat: connected now, how many pages and streams, and when last seen. Spectators
    are this worker's only (they are nowhere in the database)."""
    rows = await P.contacts(conn, game_id)
    now = utcnow()
    out: dict[str, Any] = {
        seat: {"connected": False, "last_seen": None, "pages": 0, "streams": 0} for seat in SEATS
    }
    seen_at: dict[str, datetime] = {}

    def saw(seat: str, when: datetime) -> None:
        if seat not in seen_at or when > seen_at[seat]:
            seen_at[seat] = when

    live = [(c.seat, c.kind) for c in HERE.of(game_id)]
    live += [(r.seat, r.kind) for r in _live_elsewhere(rows, now)]
    for seat, kind in live:
        entry = out.setdefault(
            seat, {"connected": False, "last_seen": None, "pages": 0, "streams": 0}
        )
        entry["connected"] = True
        entry["pages" if kind == "page" else "streams"] += 1
        saw(seat, now)
    for r in rows:  # closed rows keep when their seat was last seen
        saw(r.seat, _aware(r.last_seen, now))
    spectators_left = HERE.left.get((game_id, "spectator"))
    if spectators_left is not None:
        saw("spectator", spectators_left)
    for seat, when in seen_at.items():
        out[seat]["last_seen"] = when.isoformat()
    return {"seats": out, "now": now.isoformat()}


async def connected_seats(conn: AsyncConnection, game_id: str) -> frozenset[str]:
    """The shown seats with an open page or stream: this worker's from memory, and the
    database's only for the seats memory does not already name."""
    here = frozenset(c.seat for c in HERE.of(game_id)) & SHOWN_SEATS
    if here == SHOWN_SEATS:
        return here
    rows = await P.open_contacts(conn, game_id)
    return here | frozenset(r.seat for r in _live_elsewhere(rows, utcnow()))


class PresenceTracker:
    """Writes what other workers must see: opens and closes of shown seats at once, and one
    heartbeat per seat and game every ``beat`` seconds from one task."""

    def __init__(self, db: Database, beat: float = 10.0) -> None:
        self.db = db
        self.beat_every = beat
        self._task: asyncio.Task[None] | None = None
        self.beats = 0  # heartbeat statements sent (the tests count them)

    def start(self) -> None:
        self._task = asyncio.create_task(self._beat(), name="pingduel-presence")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def open(self, game_id: str, seat: str, kind: str) -> Contact:
        row = None
        if seat in SHOWN_SEATS:
            row = f"{HERE.worker}-{secrets.token_hex(7)}"
            async with self.db.unit() as conn:
                await P.opened(conn, row, game_id, seat, kind)
        contact = Contact(game_id, seat, kind, row)
        HERE.add(contact)
        return contact

    async def close(self, contact: Contact) -> None:
        """A shown seat's row stays as "last seen" (older closed rows of the seat are dropped);
        a spectator's close is remembered here."""
        still = HERE.remove(contact)
        if contact.row is None:
            if len(HERE.left) >= _FORGET:
                HERE.left.pop(next(iter(HERE.left)))
            HERE.left[(contact.game_id, contact.seat)] = utcnow()
            return
        # the seat's row that the heartbeat refreshes from now on is fresh at once
        heir = [c.row for c in still if c.seat == contact.seat and c.row is not None][:1]
        async with self.db.unit() as conn:
            await P.lock(conn, [contact.row, *heir])
            await P.closed(conn, contact.row)
            await P.beat(conn, heir)

    async def beat_once(self) -> None:
        rows = HERE.beacons()
        if not rows:
            return
        async with self.db.unit() as conn:
            await P.beat(conn, rows)
        self.beats += 1

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.beat_every * random.uniform(0.9, 1.1))
            try:
                await self.beat_once()
            except Exception:  # the next beat comes before the rows go stale
                log.warning("presence heartbeat failed", exc_info=True)
