"""The game master, in rooms: the use cases both front doors share.

* ``lobby`` (``app.play.lobby``): create a game, claim a seat, re-enter one, reissue an
  invite, the admin's list;
* ``commands`` (``app.play.commands``): a game command as one unit of work;
* ``reading`` (``app.play.reading``): a seat's view, its events, the record, presence;
* ``referee`` (``app.play.referee``): pause, resume, rewind, end, replace a seat.

They share one database, one cache of parsed states and one way to tell who is asking
(``app.play.callers``). A room that writes the game sends the "game N is at seq S" hint after
its commit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.play.callers import Callers
from app.play.clocks import Clocks
from app.play.commands import Commands
from app.play.computer import Computer, ComputerOptions
from app.play.handover import hand_to_computer
from app.play.lobby import Lobby
from app.play.notify import Notify, NotifyOptions, OutboxWatcher
from app.play.reading import Reading
from app.play.referee import Referee
from app.play.social import Social
from app.play.watch import Watchers
from app.rules import DiceSource, Event, GameState, SeededDice
from app.rules.designs import PRESET_DESIGNS, Design
from app.store.cache import StateCache
from app.store.db import Database
from app.store.models import utcnow
from app.store.queries import GameHead

__all__ = ["GameService", "PlayOptions"]


@dataclass(frozen=True)
class PlayOptions:
    admin_token: str | None = None
    allow_client_seed: bool = False
    now: Callable[[], datetime] = utcnow  # the clocks' time (tests move it)
    notify: NotifyOptions = NotifyOptions()  # issue 15: "your turn" notifications
    computer: ComputerOptions = ComputerOptions()  # issue 17: the computer opponent


def dice_of(game: GameHead) -> DiceSource:
    """A game's dice: drawn from its secret seed, keyed by its id (RULES §12)."""
    return SeededDice.from_hex(game.seed, game.id)


def preset_designs() -> Mapping[str, Design]:
    """The preset designs a new game's ships may name, as this release has them (a game keeps
    the designs it began with)."""
    return PRESET_DESIGNS


class GameService:
    def __init__(self, db: Database, options: PlayOptions) -> None:
        self.db = db
        # parsed states of this process, valid only at the seq they were committed at
        self.states = StateCache()
        self.callers = Callers(options.admin_token)
        self.reading = Reading(db, self.states, self.callers)
        # what a game write causes in its own transaction (clocks, the notification outbox)
        self.watchers = Watchers()
        self.watchers.add(OutboxWatcher(options.notify))  # queues notifications (issue 15)
        self.notify = Notify(db, self.reading, options.notify)
        self.commands = Commands(
            db, self.states, self.callers, self.reading, dice_of, self.watchers
        )
        self.lobby = Lobby(
            db,
            self.callers,
            self.reading,
            options.allow_client_seed,
            preset_designs,
            self.watchers,
        )
        self.referee = Referee(db, self.callers, self.reading, self.watchers)
        self.social = Social(db, self.callers, self.lobby)  # chat and rematch (issue 15)
        # clocks: kept at every write, deadlines applied by any worker (app.play.clocks)
        self.clocks = Clocks(
            db, self.states, self.reading, self.referee, dice_of, self.watchers, options.now
        )
        self.watchers.add(self.clocks)
        self.reading.clock_view = self.clocks.view
        self.commands.service_command = self._service_command
        # the server's computer player: a client of its seat like any other (issue 17)
        self.computer = Computer(db, self.reading, self.commands, options.now, options.computer)

    async def _service_command(
        self,
        conn: AsyncConnection,
        game: GameHead,
        state: GameState,
        seat: str,
        command: Mapping[str, Any],
    ) -> tuple[list[Event], GameState] | None:
        """The commands the service answers itself (None: the rules' own)."""
        if command.get("type") == "hand_to_computer":
            return await hand_to_computer(conn, game, state, seat, command)
        return self.clocks.service_command(game, state, seat, command)
