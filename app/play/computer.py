"""The server's computer player: a client of the seat it holds, run by any worker.

Each poll finds the computer sides whose game moved (``app.store.computer``), claims one turn
with a lease and plays it: the seat's view and its new events (exactly what that seat's token
would read), the strategy's answer worked out on a thread (never on the event loop), held
until the moment it was asked plus the fixed delay of the decision's kind
(``app.bot.timing``), then sent through the same command pipeline as a browser's, with
``at_seq`` and an idempotency key. The lease goes back afterwards; a worker that dies leaves a
lease that runs out, and another worker plays the turn (at the release time recorded when it
was first asked).

A strategy with a memory (the captain's belief) is kept per game and side in the worker; a
worker that has none for a game — a restart, another worker's game, a rewind — builds it again
from the seat's whole event history.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from app.bot import strategy
from app.bot.seat import awaited
from app.bot.strategy import Strategy
from app.bot.timing import release_delay
from app.play import errors as E
from app.play import tokens
from app.play.commands import Commands
from app.play.reading import Reading
from app.rules.errors import RulesError, StaleState
from app.store import computer as CS
from app.store.db import Database

log = logging.getLogger(__name__)

LEVELS = ("cadet", "captain")
DEFAULT_LEVEL = "captain"  # "opponent": "computer", and a side handed to the computer
_KEPT = 256  # strategies kept in memory per worker (rebuilt from the log when dropped)


@dataclass(frozen=True)
class ComputerOptions:
    delay_scale: float = 1.0  # 0 in tests: the answer goes as soon as it is worked out
    lease_s: float = 120.0  # a turn claimed by a worker that died is free again after this
    poll_s: float = 1.0


@dataclass
class _Kept:
    player: Strategy
    fed: int = 0  # the last seq handed to ``observe``


def decision_rng(rng_key: str, side: str, seq: int) -> random.Random:
    """The computer's random source for the decision asked at ``seq``: drawn from its own key
    (never the game's dice seed), the same after a restart."""
    digest = hashlib.sha256(f"{rng_key}:{side}:{seq}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def new_rng_key() -> str:
    return tokens.new_seed().hex()


def computer_name(level: str) -> str:
    """The seat's name, as every view shows it."""
    return f"Computer ({level})"


def computer_side(creator: str) -> str:
    """The side the computer takes: the one the creator leaves (B under a referee)."""
    return "A" if creator == "B" else "B"


@dataclass
class Computer:
    db: Database
    reading: Reading
    commands: Commands
    now: Callable[[], datetime]
    options: ComputerOptions = ComputerOptions()
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    make_player: Callable[[str], Strategy] = strategy
    owner: str = field(default_factory=lambda: tokens.new_id()[:16])

    def __post_init__(self) -> None:
        self._kept: OrderedDict[tuple[str, str], _Kept] = OrderedDict()
        self._running: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="computer")
        self.wake = asyncio.Event()

    # -- the worker's loop ---------------------------------------------------------------
    def committed(self, game_id: str, seq: int) -> None:
        """A command of this worker committed (``Database.on_hint``): look now, not at the
        next poll."""
        self.wake.set()

    async def run_pending(self, limit: int = 20) -> int:
        """Claim and start the computer turns that are due; how many were started."""
        now = self.now()
        async with self.db.read() as conn:
            turns = await CS.pending(conn, now, limit)
        started = 0
        for turn in turns:
            key = (turn.game_id, turn.side)
            if key in self._running:
                continue
            until = now + timedelta(seconds=self.options.lease_s)
            async with self.db.unit() as conn:
                if not await CS.claim(conn, turn, self.owner, until, now):
                    continue  # another worker has it
            self._running[key] = asyncio.create_task(self._turn(turn), name=f"computer {key}")
            started += 1
        return started

    async def idle(self) -> None:
        """Until every turn this worker started has been played (tests)."""
        while self._running:
            await asyncio.gather(*self._running.values(), return_exceptions=True)

    async def stop(self) -> None:
        for task in list(self._running.values()):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*self._running.values(), return_exceptions=True)
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def _turn(self, turn: CS.ComputerTurn) -> None:
        key = (turn.game_id, turn.side)
        idle_seq: int | None = None
        try:
            idle_seq = await self.play(turn)
        except asyncio.CancelledError:
            raise
        except Exception:  # the database away, a strategy's defect: the next poll tries again
            log.warning("the computer's turn in %s failed", turn.game_id, exc_info=True)
        finally:
            self._running.pop(key, None)
            with contextlib.suppress(Exception):
                async with self.db.unit() as conn:
                    await CS.release(conn, turn.game_id, turn.side, self.owner, idle_seq)

    # -- one turn ------------------------------------------------------------------------
    async def play(self, turn: CS.ComputerTurn) -> int | None:
        """Answer what the seat is asked now; the seq to stay idle at if it is asked nothing."""
        seen = await self.reading.view(turn.game_id, None, computer=turn.token_hash)
        seq = int(seen["seq"])
        if not awaited(seen):
            return seq
        asked_at = turn.asked_at if turn.asked_seq == seq else None
        if asked_at is None:
            asked_at = self.now()
            async with self.db.unit() as conn:
                await CS.asked(conn, turn.game_id, turn.side, seq, asked_at)
        kept = await self._player(turn)
        rng = decision_rng(turn.rng_key, turn.side, seq)
        loop = asyncio.get_running_loop()
        command = await loop.run_in_executor(self._pool, kept.player.decide, seen, rng)
        if command is None:
            return seq
        belief = _belief_of(kept.player, seq, int(seen["turn"]))
        if belief is not None:
            async with self.db.unit() as conn:
                await CS.believed(conn, turn.game_id, turn.side, belief)
        release_at = asked_at + timedelta(seconds=release_delay(seen, self.options.delay_scale))
        wait = (release_at - self.now()).total_seconds()
        if wait > 0:
            await self.sleep(wait)
        if await self._send(turn, {**command, "at_seq": seq}, seq):
            return None
        # refused: the strategy's defect, said loudly; the cadet's legal answer instead, and
        # if that too is refused the seat waits for the game to move (a clock's timeout)
        fallback = await loop.run_in_executor(self._pool, _cadet_answer, seen, rng)
        if fallback is not None and await self._send(turn, {**fallback, "at_seq": seq}, seq):
            return None
        return seq

    async def _send(self, turn: CS.ComputerTurn, body: Mapping[str, Any], seq: int) -> bool:
        """Send the answer; False if the rules refused it."""
        try:
            await self.commands.computer_command(
                turn.game_id, turn.token_hash, body, f"computer:{turn.side}:{seq}:{body['type']}"
            )
        except (StaleState, E.Conflict):
            pass  # the game moved on (the other side, the referee): asked again next time
        except (RulesError, E.Invalid) as error:
            log.error("the computer (%s) sent a refused command %s: %s", turn.level, body, error)
            return False
        return True

    async def _player(self, turn: CS.ComputerTurn) -> _Kept:
        """The side's strategy, fed every event of its seat it has not seen (built again from
        the start after a rewind)."""
        key = (turn.game_id, turn.side)
        kept = self._kept.get(key)
        if kept is None:
            kept = self._kept[key] = _Kept(self.make_player(turn.level))
        self._kept.move_to_end(key)
        while len(self._kept) > _KEPT:
            self._kept.popitem(last=False)
        loop = asyncio.get_running_loop()
        while True:
            page = await self.reading.computer_events(turn.game_id, turn.token_hash, kept.fed)
            events = [e for e in page["events"] if not e.get("voided")]
            if kept.fed > 0 and any(e["type"] == "rewound" for e in events):
                kept = self._kept[key] = _Kept(self.make_player(turn.level))
                continue  # what it was fed may have been voided: from the start
            if events:
                await loop.run_in_executor(self._pool, kept.player.observe, events)
            if not page["events"]:
                return kept
            kept.fed = int(page["events"][-1]["seq"])


def _belief_of(player: Strategy, seq: int, turn: int) -> dict[str, Any] | None:
    """The player's heat map (a strategy that keeps a belief: the captain), as stored."""
    believes = getattr(player, "belief_map", None)
    if believes is None:
        return None
    maps = believes()
    ships = {ship: m.to_dict() for ship, m in sorted(maps.items())}
    return {"seq": seq, "turn": turn, "ships": ships}


def _cadet_answer(seen: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
    return strategy("cadet").decide(seen, rng)


async def computer_worker(computer: Computer, every: float) -> None:
    """The background task of a worker: play the computer's due turns until cancelled."""
    while True:
        try:
            await computer.run_pending()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("polling the computer's turns failed", exc_info=True)
        computer.wake.clear()
        # not ``wait_for``: on Python 3.11 a cancel that meets the wake-up can be swallowed,
        # and the worker then never stops (a shutdown hung on it)
        waiter = asyncio.ensure_future(computer.wake.wait())
        try:
            await asyncio.wait([waiter], timeout=every)
        finally:
            waiter.cancel()
