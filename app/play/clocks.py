"""The clock room: clocks kept at every write, deadlines applied by any worker, the
``claim_win`` command and the referee's added time.

* ``written`` (a ``Watcher``): every write of a game with a clock updates the clock's JSON and
  its deadline on the row, in the write's transaction (``app.play.clock_math``).
* ``run_due``: the deadlines that have come, each applied in its own unit of work — the row
  locked (PostgreSQL: ``FOR UPDATE SKIP LOCKED``; SQLite: the immediate transaction) and the
  deadline checked again under the lock, so a command that just arrived, or another worker
  that applied it first, wins and nothing is played twice. A timeout is a public
  ``timed_out`` event followed by the default commands (``app.rules.timeouts``) as ordinary
  events of the log, then the watchers and the hint as for any command.
* ``now`` is injectable: the tests move time instead of waiting for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.play import clock_math as M
from app.play import errors as E
from app.play.logbook import event_values
from app.play.reading import Reading
from app.play.referee import Referee
from app.play.watch import Change, Watchers
from app.rules import DiceSource, Event, GameState, decide, evolve
from app.rules.errors import RulesError
from app.rules.snapshot import state_to_dict
from app.rules.state import PLAYER_SEATS, GameStatus, other_side
from app.rules.timeouts import decision_key, default_commands
from app.rules.winning import discarded_at_finish, finish
from app.store import clocks as C
from app.store import queries as Q
from app.store.cache import StateCache
from app.store.db import Database
from app.store.models import utcnow

log = logging.getLogger(__name__)

CLAIM_AFTER = 3  # timeouts in a row before the other side may claim the win
_MOST_COMMANDS = 64  # a decision never needs more; a bound against a rules defect


class ClaimNotAllowed(E.Conflict):
    code = "claim_not_allowed"
    title = "No win to claim"


class NoClock(E.Conflict):
    code = "no_clock"
    title = "No clock"


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text is not None else None


class Clocks:
    def __init__(
        self,
        db: Database,
        states: StateCache,
        reading: Reading,
        referee: Referee,
        dice_of: Callable[[Q.GameHead], DiceSource],
        watchers: Watchers,
        now: Callable[[], datetime] = utcnow,
    ) -> None:
        self.db = db
        self.states = states
        self.reading = reading
        self.referee = referee
        self.dice_of = dice_of
        self.watchers = watchers
        self.now = now
        # the clock each recent write left, by (game, seq): an answer built from the row as
        # it was read shows the clock as the write left it
        self._recent: OrderedDict[tuple[str, int], M.Clock] = OrderedDict()

    # -- every write -----------------------------------------------------------------------
    async def written(self, conn: AsyncConnection, change: Change) -> None:
        head = change.head
        if head.clock is None:
            return
        clock = M.advance(head.clock, head.status, head.paused, change.after, self.now())
        await C.save_clock(conn, head.id, clock, _time(clock["deadline"]))
        self._recent[(head.id, head.seq)] = clock
        while len(self._recent) > 1024:
            self._recent.popitem(last=False)

    def view(self, game: Any) -> dict[str, Any] | None:
        clock = getattr(game, "clock", None)
        if clock is None:
            return None
        clock = self._recent.get((game.id, game.seq), clock)
        return M.view(clock, self.now())

    # -- claim_win (hand_to_computer: app.play.handover) ----------------------------------
    def service_command(
        self, game: Q.GameHead, state: GameState, seat: str, command: Mapping[str, Any]
    ) -> tuple[list[Event], GameState] | None:
        """The commands the clock answers (None: a rules command)."""
        kind = command.get("type")
        if kind != "claim_win":
            return None
        if set(command) - {"type"}:
            raise E.Invalid("claim_win takes no fields besides 'type'")
        if game.clock is None or seat not in PLAYER_SEATS:
            raise ClaimNotAllowed("this game has no clock: there is no timeout to claim a win on")
        other = other_side(seat)
        count = game.clock["timeouts"][other]
        if count < CLAIM_AFTER:
            raise ClaimNotAllowed(
                f"side {other} has timed out {count} decision(s) in a row; a win may be "
                f"claimed after {CLAIM_AFTER}"
            )
        items: list[tuple[str, dict[str, Any]]] = []
        removed = discarded_at_finish(state)
        if removed is not None:
            items.append(("marker_removed", removed))
        items.append(("game_finished", finish(state, seat, "timeouts", seed=game.seed)))
        events = []
        for kind_, data in items:
            event = Event(state.seq + 1, state.turn, kind_, data)
            state = evolve(state, event)
            events.append(event)
        return events, state

    # -- deadlines -------------------------------------------------------------------------
    async def run_due(self, limit: int = 20) -> int:
        """Apply the deadlines that have come; how many this worker applied."""
        async with self.db.read() as conn:
            due = await C.due_games(conn, self.now(), limit)
        applied = 0
        for game_id in due:
            try:
                applied += await self.apply_due(game_id)
            except Exception:  # one game's failure must not stop the others' clocks
                log.exception("applying the deadline of game %s failed", game_id)
        return applied

    async def apply_due(self, game_id: str) -> bool:
        now = self.now()
        async with self.db.unit() as conn:
            if self.db.postgres and not await C.lock_due(conn, game_id, now):
                return False  # no longer due, or another worker holds it
            read = await Q.read_for_change(conn, game_id, None, lock=self.db.postgres)
            if read is None or read.head.clock is None:
                return False
            head, clock = read.head, read.head.clock
            late = M.expired(clock, now)  # again, under the lock
            if head.status != GameStatus.ACTIVE or head.paused or not late:
                return False
            before = self.reading.state_at(head.id, head.seq, read.snapshot)
            state, events = before, []
            for side in late:
                if state.status == GameStatus.FINISHED:
                    break
                clock = M.timed_out(clock, side, now)
                state, played = self._timeout(head, state, side, clock["timeouts"][side])
                events += played
            status = GameStatus.FINISHED if state.status == GameStatus.FINISHED else head.status
            game = replace(head, status=status, seq=state.seq, clock=clock)
            last = len(events) - 1
            rows = [event_values(e, state, ends=i == last) for i, e in enumerate(events)]
            await self.watchers.written(conn, Change(game, before, state, now))
            await Q.save_command(conn, game.id, rows, state_to_dict(state), state.seq, status, None)
        self.states.put(game_id, state)
        self.db.hint_soon(game_id, state.seq)
        return True

    def _timeout(
        self, head: Q.GameHead, state: GameState, side: str, count: int
    ) -> tuple[GameState, list[Event]]:
        """The ``timed_out`` event and the side's whole pending decision after it."""
        dry, played = self._defaults(head, state, side)
        del dry  # the commands are known: now played after the event that announces them
        data = {"side": side, "count": count, "played": [c["type"] for c in played]}
        event = Event(state.seq + 1, state.turn, "timed_out", data)
        state = evolve(state, event)
        events = [event]
        for command in played:
            decision = decide(state, side, command, self.dice_of(head), seed=head.seed)
            events += decision.events
            state = decision.state
        return state, events

    def _defaults(
        self, head: Q.GameHead, state: GameState, side: str
    ) -> tuple[GameState, list[dict[str, Any]]]:
        """The default commands of the decision awaiting ``side`` (the first candidate the
        rules take each time), while that decision still awaits it."""
        key = decision_key(state, side)
        played: list[dict[str, Any]] = []
        while len(played) < _MOST_COMMANDS and key is not None:
            if decision_key(state, side) != key or state.status == GameStatus.FINISHED:
                break
            for command in default_commands(state, side):
                try:
                    decision = decide(state, side, command, self.dice_of(head), seed=head.seed)
                except RulesError:
                    continue
                state = decision.state
                played.append(command)
                break
            else:
                break  # nothing the rules take: the clock stands for this decision (spent)
        return state, played

    # -- the referee adds time -------------------------------------------------------------
    async def add_time(
        self, game_id: str, token: str | None, side: str, seconds: int, reason: str
    ) -> dict[str, Any]:
        if side not in PLAYER_SEATS:
            raise E.Invalid("side must be A or B")
        if type(seconds) is not int or not 1 <= seconds <= M.MAX_ADD_S:
            raise E.Invalid(f"seconds must be a whole number from 1 to {M.MAX_ADD_S}")
        async with self.db.unit() as conn:
            read = await self.referee._referee(conn, game_id, token)
            head = read.head
            if head.status == GameStatus.FINISHED:
                raise E.GameOver("the game is over")
            if head.clock is None:
                raise NoClock("this game has no clock: there is no time to add")
            clock = M.added(head.clock, side, seconds, self.now())
            read = replace(read, head=replace(head, clock=clock))
            data = {"side": side, "seconds": seconds, "reason": reason}
            seen, seq = await self.referee._append(conn, read, [("time_added", data)])
        await self.db.hint(game_id, seq)
        return seen


async def deadline_worker(clocks: Clocks, every: float) -> None:
    """The background task of a worker: poll the due deadlines until cancelled."""
    while True:
        try:
            await clocks.run_due()
        except asyncio.CancelledError:
            raise
        except Exception:  # the database away for a moment: try again at the next poll
            log.warning("polling the deadlines failed", exc_info=True)
        await asyncio.sleep(every)
