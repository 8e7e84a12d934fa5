"""Work a game write causes inside its own transaction (clocks, the notification outbox).

Every room that writes a game (a command, a seat claimed, a referee action) tells the
``Watchers`` what changed before it commits, on the same connection, with the game's row
locked: whatever a watcher writes commits or rolls back with the events themselves, so a
deadline or a queued notification is never lost nor doubled by a crash between the two.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncConnection

from app.rules import GameState
from app.store.models import utcnow
from app.store.queries import GameHead


@dataclass(frozen=True, slots=True)
class Change:
    """One write of a game: its row as it will be (``head``: status, paused, seq), the state
    before (``None`` for a new game) and after, and the write's time (one clock for all)."""

    head: GameHead
    before: GameState | None
    after: GameState
    at: datetime = field(default_factory=utcnow)


class Watcher(Protocol):
    async def written(self, conn: AsyncConnection, change: Change) -> None: ...


class Watchers:
    def __init__(self, items: Iterable[Watcher] = ()) -> None:
        self._items = list(items)

    def add(self, watcher: Watcher) -> None:
        self._items.append(watcher)

    async def written(self, conn: AsyncConnection, change: Change) -> None:
        for watcher in self._items:
            await watcher.written(conn, change)
