"""The reading room: a seat's view, its events, the record, presence — nothing here writes
the game.

Every read authenticates the caller the one way (``app.play.callers``) on the game row read
with the token's seat, and takes the state from the process's cache when the row is at the
cached seq (``app.store.cache``), else from the snapshot read with it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncConnection

from app.play import errors as E
from app.play.callers import Caller, Callers, token_hash
from app.play.presence import SHOWN_SEATS, connected_seats, presence_of
from app.rules import Event, GameState, redact, view
from app.rules.rewind import open_windows
from app.rules.snapshot import state_from_dict
from app.rules.state import PLAYER_SEATS, SIDES, GameStatus, Seat
from app.store import computer as CS
from app.store import log as L
from app.store import queries as Q
from app.store import seats as S
from app.store.cache import StateCache
from app.store.db import Database


class GameInfo(Protocol):
    """What a view shows of the game row besides its state (a ``GameHead``)."""

    @property
    def status(self) -> str: ...
    @property
    def paused(self) -> bool: ...
    @property
    def spectators(self) -> bool: ...
    @property
    def creator(self) -> str: ...
    @property
    def seed(self) -> str: ...
    @property
    def seed_commitment(self) -> str: ...


def seat_names(live: list[tuple[str, str | None]]) -> dict[str, Any]:
    """The players' seats as a view shows them: each side's player name, None while empty."""
    seats: dict[str, Any] = {side: None for side in SIDES}
    for side, name in live:
        if side in PLAYER_SEATS:
            seats[side] = {"name": name}
    return seats


class Reading:
    def __init__(self, db: Database, states: StateCache, callers: Callers) -> None:
        self.db = db
        self.states = states
        self.callers = callers
        # the view's ``clock`` of a game row (set by the service: ``app.play.clocks``)
        self.clock_view: Callable[[Any], dict[str, Any] | None] = lambda game: None

    # -- the state and the caller of a game read --------------------------------------------
    def state_at(self, game_id: str, seq: int, snapshot: dict[str, Any] | None) -> GameState:
        """The state at ``seq``: the cached one, else parsed from the snapshot read with it."""
        state = self.states.get(game_id, seq)
        if state is not None:
            return state
        if snapshot is None:
            raise LookupError(f"no snapshot of {game_id} at {seq}")
        state = state_from_dict(snapshot)
        self.states.put(game_id, state)
        return state

    async def state_of(
        self, conn: AsyncConnection, read: Q.GameRead
    ) -> tuple[Q.GameHead, GameState]:
        """The state of a game read with ``cached_seq``: the cached one at the row's seq, else
        the snapshot that came with the row."""
        game = read.head
        if read.snapshot is not None or self.states.get(game.id, game.seq) is not None:
            return game, self.state_at(game.id, game.seq, read.snapshot)
        # the cached state went stale between the two looks: read the row again, whole
        full = await Q.read_full_game(conn, game.id)
        if full is None:
            raise E.UnknownGame(f"there is no game {game.id!r}")
        game, snapshot = full
        return game, self.state_at(game.id, game.seq, snapshot)

    async def _read(
        self, conn: AsyncConnection, game_id: str, token: str | None, with_state: bool = True
    ) -> tuple[Q.GameHead, Caller, GameState | None]:
        """A game, its caller and (``with_state``) the state, in one statement when the cache
        holds the state at the row's seq (a second one reads the row whole if not)."""
        cached = self.states.seq(game_id) if with_state else None
        read = await Q.read_game(conn, game_id, token_hash(token), cached)
        if read is None:
            raise E.UnknownGame(f"there is no game {game_id!r}")
        caller = self.callers.identify(read, token)
        if not with_state:
            return read.head, caller, None
        game, state = await self.state_of(conn, read)
        return game, caller, state

    async def caller(self, game_id: str, token: str | None) -> Caller:
        async with self.db.read() as conn:
            _, caller, _ = await self._read(conn, game_id, token, with_state=False)
            return caller

    async def sender(self, game_id: str, token: str | None) -> Caller:
        """Who would send a command with this token (refused as ``Commands.command`` would
        refuse it): for a door that must say so before it says what is wrong with the command."""
        async with self.db.read() as conn:
            read = await Q.read_game(conn, game_id, token_hash(token), None)
            if read is None:
                raise E.UnknownGame(f"there is no game {game_id!r}")
            return self.callers.sender(read, token)

    async def seq_for(self, game_id: str, token: str | None, seat: str) -> int:
        """The game's last seq, re-checking that the token still names ``seat``."""
        async with self.db.read() as conn:
            game, caller, _ = await self._read(conn, game_id, token, with_state=False)
            if caller.seat != seat:
                raise E.Unauthorized("this token no longer names the seat of this page")
            return game.seq

    # -- views -------------------------------------------------------------------------------
    def view_of(
        self,
        game: GameInfo,
        state: GameState,
        caller: Caller,
        referee: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        # nobody can act while the game waits for a seat to be taken or for the referee
        seen = view(
            state, caller.seat, waiting=game.status == GameStatus.WAITING, paused=game.paused
        )
        # a human referee sees every ship: everyone is told (``referee_of``)
        seen["referee"] = referee
        seen["status"] = game.status
        seen["paused"] = game.paused
        seen["spectators"] = game.spectators
        seen["creator"] = game.creator
        seen["seed_commitment"] = game.seed_commitment
        # the seed is published at the end and secret from everyone before, the referee and
        # the admin included: it tells every roll to come (RULES §12)
        seen["seed"] = game.seed if game.status == GameStatus.FINISHED else None
        seen["clock"] = self.clock_view(game)  # the same for every seat (app.play.clocks)
        return seen

    async def referee_of(
        self,
        conn: AsyncConnection,
        game_id: str,
        creator: str,
        names: Mapping[str, str | None] | None = None,
    ) -> dict[str, Any] | None:
        """The game's human referee as every view shows it (name, whether a page or stream of
        the seat is open), or None. Only a game created from the referee's seat has one (the
        admin is nobody's named referee), so other games cost no read here."""
        if creator != "referee":
            return None
        if names is not None and "referee" in names:
            name = names["referee"]
        else:
            name = await S.seat_name(conn, game_id, "referee")
        return {"name": name, "connected": "referee" in await connected_seats(conn, game_id)}

    async def view(
        self, game_id: str, token: str | None, *, computer: str | None = None
    ) -> dict[str, Any]:
        """The token's view; ``computer``: the view of the seat whose token hash the
        server's computer player holds (exactly what that seat's token would read)."""
        hashed = computer if computer is not None else token_hash(token)
        async with self.db.read() as conn:
            found = await Q.read_view(conn, game_id, hashed, self.states.seq(game_id))
            if found is None:
                raise E.UnknownGame(f"there is no game {game_id!r}")
            read, live = found
            if computer is not None:
                caller = self.callers.computer(read, computer)
            else:
                caller = self.callers.identify(read, token)
            game, state = await self.state_of(conn, read)
            referee = await self.referee_of(conn, game.id, game.creator, dict(live))
        seen = self.view_of(game, state, caller, referee)
        seen["seats"] = seat_names(live)
        return seen

    # -- events and the record ---------------------------------------------------------------
    async def events(
        self, game_id: str, token: str | None, after: int, limit: int = 1000
    ) -> dict[str, Any]:
        async with self.db.read() as conn:
            game, caller, state = await self._read(conn, game_id, token)
            assert state is not None
            events = await self._events_for(conn, game_id, state, caller.seat, after, limit)
            return {"events": events, "last_seq": game.seq}

    async def computer_events(
        self, game_id: str, hashed: str, after: int, limit: int = 1000
    ) -> dict[str, Any]:
        """``events`` as the seat the server's computer player holds receives them."""
        async with self.db.read() as conn:
            read = await Q.read_game(conn, game_id, hashed, self.states.seq(game_id))
            if read is None:
                raise E.UnknownGame(f"there is no game {game_id!r}")
            caller = self.callers.computer(read, hashed)
            game, state = await self.state_of(conn, read)
            events = await self._events_for(conn, game_id, state, caller.seat, after, limit)
            return {"events": events, "last_seq": game.seq}

    async def events_for_token(
        self, game_id: str, token: str | None, seat: str, after: int, limit: int = 1000
    ) -> tuple[list[dict[str, Any]], int]:
        """For a stream: the token is checked again on every read (a replaced seat's stream
        ends at once) and must still name the seat the stream was opened for."""
        async with self.db.read() as conn:
            game, caller, state = await self._read(conn, game_id, token)
            if caller.seat != seat:
                raise E.Unauthorized("this token no longer names the seat of this stream")
            assert state is not None
            return await self._events_for(conn, game_id, state, seat, after, limit), game.seq

    async def _events_for(
        self,
        conn: AsyncConnection,
        game_id: str,
        state: GameState,
        seat: str,
        after: int,
        limit: int,
    ) -> list[dict[str, Any]]:
        """The events after ``after`` as ``seat`` may see them, redacted against ``state``
        (the game's state, read just before them)."""
        out = []
        for seq, turn, kind, data, voided in await Q.event_rows(conn, game_id, after, limit):
            item = redact(Event(seq, turn, kind, data), seat, state)
            if voided:
                item["voided"] = True
            out.append(item)
        return out

    async def record(self, game_id: str, token: str | None) -> dict[str, Any]:
        async with self.db.read() as conn:
            game, caller, state = await self._read(conn, game_id, token)
            assert state is not None
            if game.status != GameStatus.FINISHED and caller.seat != Seat.REFEREE:
                raise E.Forbidden("the record is open to players and spectators after the end")
            events = []
            for row in await L.whole_log(conn, game.id):
                item = Event(row.seq, row.turn, row.type, row.data).to_dict()
                if row.voided:
                    item["voided"] = True
                events.append(item)
        return {
            "game_id": game.id,
            "status": game.status,
            "winner": state.winner,
            "rules_version": state.rules_version,
            # the referee reads the record mid-game: every die rolled, none to come
            "seed": game.seed if game.status == GameStatus.FINISHED else None,
            "seed_commitment": game.seed_commitment,
            "designs": {k: d.to_dict() for k, d in state.designs.items()},
            "events": events,
        }

    async def computer_beliefs(
        self, game_id: str, token: str | None, turn: int | None = None
    ) -> dict[str, Any]:
        """What the server's computer believed at its last decision (of ``turn``, if given),
        per side it played (``app.play.computer``), and the turns it kept a picture of: open
        to whoever may read the record now — the referee during the game, the players and
        spectators after it (before, it would tell a seat what the other side has worked
        out)."""
        async with self.db.read() as conn:
            game, caller, _ = await self._read(conn, game_id, token, with_state=False)
            # the record's gate (``record``), without reading the whole log to apply it
            if game.status != GameStatus.FINISHED and caller.seat != Seat.REFEREE:
                raise E.Forbidden("the computer's belief is open to the players after the end")
            turns = await CS.belief_turns(conn, game_id, await L.turn_now(conn, game_id))
            if turn is not None and turn not in turns:
                raise E.NotFound(f"the computer kept no picture of turn {turn} in this game")
            beliefs = await CS.beliefs(conn, game_id, turn)
        return {"status": game.status, "beliefs": beliefs, "turns": turns}

    # -- presence and the referee's choices --------------------------------------------------
    async def presence(self, game_id: str, detailed: bool) -> dict[str, Any]:
        """Who has a page or stream open: "connected"/"away" and the time of last contact per
        seat for everyone; the counts of pages and streams for the referee."""
        async with self.db.read() as conn:
            seats = (await presence_of(conn, game_id))["seats"]
        if detailed:
            return dict(seats)
        # when a seat was last seen is public too: "away since" on every page
        return {
            seat: {k: seats[seat][k] for k in ("connected", "last_seen")} for seat in ("A", "B")
        }

    async def connected(self, game_id: str) -> frozenset[str]:
        """The seats a page's status names (A, B, the referee) that have a page or stream
        open now: one read, no write."""
        async with self.db.read() as conn:
            return await connected_seats(conn, game_id) & SHOWN_SEATS

    async def command_boundaries(self, game_id: str) -> list[dict[str, Any]]:
        """Seqs a referee may rewind to: the last event of each command still in force, before
        the present and outside any open fire window (``app.rules.rewind``)."""
        async with self.db.read() as conn:
            rows = await L.in_force(conn, game_id)
        windows = open_windows((seq, kind) for seq, _, kind, _ in rows)
        present = rows[-1][0] if rows else 0
        return [
            {"seq": seq, "turn": turn, "type": kind}
            for seq, turn, kind, ends in rows
            if ends and seq < present and windows[seq] is None
        ]

    async def deployment_asked(self, game_id: str) -> int:
        """The seq of the event that asks for the deployment now due: the latest rewind (which
        voided a deployment), else the game's start. The page keys its deploy form by it."""
        async with self.db.read() as conn:
            seq = await L.last_seq_of(conn, game_id, "rewound")
        return seq if seq is not None else 1
