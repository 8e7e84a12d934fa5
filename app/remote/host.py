"""The host: one strategy playing one seat of one game on a server, to the game's end.

Each round it reads the seat's view. When the view awaits the seat, the seat's new events go
to ``strategy.observe`` and the view to ``strategy.decide``; the answer is held until the
moment the seat was asked plus the release delay of the decision's kind (``app.bot.timing``),
so that how long it took tells the other side nothing, and then sent with the view's seq as
``at_seq``. A view that moved on meanwhile (409 ``stale_state``) is simply read again. When the
view awaits somebody else, the host waits on the stream (``app.remote.follow``).

The clock and the sleep are injected: the tests run the host on a fake clock.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.bot.seat import View, awaited
from app.bot.strategy import Strategy
from app.bot.timing import release_delay
from app.remote.api import FIRST_ATTEMPTS, MAX_ATTEMPTS, Fatal, SeatApi, Sleep
from app.remote.follow import Follower

Clock = Callable[[], float]
PLAYER_SEATS = ("A", "B")
# what the host reads of a view, beyond what the strategy reads (docs/api.md, "The view")
VIEW_KEYS = frozenset({"game_id", "status", "you", "seq", "turn", "phase", "winner"})


class StrategyFailed(Exception):
    """The strategy failed, or sent nothing, on a view that awaits its seat: its bug."""


@dataclass(frozen=True)
class Finished:
    """The game's end as the seat's last view says it."""

    game_id: str
    seat: str
    winner: str | None
    reason: str | None
    turn: int
    commands: int  # what this host sent that applied

    def line(self) -> str:
        if self.winner in PLAYER_SEATS:
            outcome = "won" if self.winner == self.seat else "lost"
            result = f"{self.winner} won, seat {self.seat} {outcome}"
        else:
            result = "a draw"
        return (
            f"game {self.game_id} finished on turn {self.turn}: {result} ({self.reason}); "
            f"{self.commands} commands sent"
        )


@dataclass
class Asked:
    """When the host first saw the view at this seq awaiting its seat."""

    seq: int
    at: float


class Host:
    def __init__(
        self,
        api: SeatApi,
        player: Strategy,
        rng: random.Random,
        *,
        delay_scale: float = 1.0,
        clock: Clock | None = None,
        sleep: Sleep | None = None,
    ) -> None:
        self.api = api
        self.player = player
        self.rng = rng
        self.delay_scale = delay_scale
        self.clock = clock or time.monotonic
        self.sleep = sleep or api.sleep
        self.seen = 0  # the last seq handed to ``observe``
        self.sent = 0

    async def play(self) -> Finished:
        view = await self._read_view(FIRST_ATTEMPTS)
        follower = Follower(self.api, after=view["seq"])
        follower.start()
        try:
            return await self._rounds(view, follower)
        finally:
            await follower.stop()

    async def _rounds(self, view: View, follower: Follower) -> Finished:
        asked: Asked | None = None
        while view["status"] != "finished":
            if not awaited(view):
                await follower.wait()
            else:
                if asked is None or asked.seq != view["seq"]:
                    asked = Asked(view["seq"], self.clock())
                await self._answer(view, asked)
            follower.changed.clear()  # before the read: a wake-up after it is kept
            view = await self._read_view()
        return Finished(
            view["game_id"],
            view["you"],
            view["winner"],
            view["finish_reason"],
            view["turn"],
            self.sent,
        )

    async def _answer(self, view: View, asked: Asked) -> None:
        """Observe, decide, hold the answer until its release, send it."""
        events = await self.api.events(self.seen, view["seq"])
        self.seen = max([self.seen, *(e["seq"] for e in events)])
        try:
            self.player.observe(events)
            command = self.player.decide(view, self.rng)
        except Exception as error:  # said in a line: the seq lets its author replay it
            raise StrategyFailed(
                f"{self.player.name} failed on the view at seq {view['seq']}: "
                f"{type(error).__name__}: {error}"
            ) from error
        if command is None:
            raise StrategyFailed(f"{self.player.name} sent nothing at seq {view['seq']}")
        await self.release(asked.at + release_delay(view, self.delay_scale))
        outcome = await self.api.send(command, view["seq"])
        if outcome.applied:
            self.sent += 1

    async def release(self, moment: float) -> None:
        """Not a moment before ``moment`` on the host's clock."""
        while (left := moment - self.clock()) > 0:
            await self.sleep(left)

    async def _read_view(self, attempts: int = MAX_ATTEMPTS) -> dict[str, Any]:
        view = await self.api.view(attempts)
        if not view.keys() >= VIEW_KEYS or not isinstance(view["phase"], dict):
            raise Fatal("the answer is not a pingduel view: is --url the server's address?")
        if view["you"] not in PLAYER_SEATS:
            raise Fatal(
                f"the token is not a player's seat of game {view['game_id']} "
                f"(the server says {view['you']!r}): use the token of seat A or B"
            )
        return view
