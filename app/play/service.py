"""The game master: every use case of a game, shared by the REST API and the browser pages.

A command runs as one unit of work: lock the game (``SELECT … FOR UPDATE`` on PostgreSQL, the
``BEGIN IMMEDIATE`` transaction on SQLite), authenticate, check the idempotency key, load the
snapshot, ``decide``, append the events, save the snapshot and the idempotency record — one
commit — and only then send the "game N is at seq S" hint.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from app.play import errors as E
from app.play import tokens
from app.play.presence import SHOWN_SEATS, connected_seats, presence_of
from app.rules import (
    Event,
    GameSetup,
    GameState,
    SeededDice,
    ShipEntry,
    decide,
    evolve,
    game_started,
    redact,
    seed_commitment,
    start_state,
    view,
    visible,
)
from app.rules.decide import check_at_seq
from app.rules.designs import PRESET_DESIGNS, Design, validate_design
from app.rules.errors import DesignError, RulesError
from app.rules.geometry import Table
from app.rules.rewind import open_windows
from app.rules.scenarios import PRESET_SCENARIOS
from app.rules.snapshot import state_from_dict, state_to_dict
from app.rules.state import PLAYER_SEATS, SIDES
from app.store import queries as Q
from app.store.cache import StateCache
from app.store.db import Database
from app.store.models import EventRow, Game, Invite, SavedDesign, Seat, utcnow


@dataclass(frozen=True)
class PlayOptions:
    admin_token: str | None = None
    allow_client_seed: bool = False


@dataclass(frozen=True)
class Caller:
    seat: str  # A | B | referee | spectator
    token_hash: str | None = None
    admin: bool = False

    @property
    def player(self) -> bool:
        return self.seat in PLAYER_SEATS


@dataclass(frozen=True)
class NewShip:
    name: str
    design: str | Mapping[str, Any]


@dataclass(frozen=True)
class NewSide:
    name: str | None
    ships: Sequence[NewShip]


@dataclass(frozen=True)
class NewGame:
    scenario: str | None = None
    sides: Mapping[str, NewSide] | None = None
    movement: str = "cinematic"
    table: Mapping[str, float] | None = None
    turn_limit: int | None = None
    ping_range: float | None = None
    spectators: bool = True
    creator: str = "A"
    creator_name: str | None = None
    seed: str | None = None


@dataclass
class CommandResult:
    status: int
    body: dict[str, Any]
    hint: tuple[str, int] | None = field(default=None)


class GameInfo(Protocol):
    """What a view shows of the game row besides its state (an ORM ``Game`` or a
    ``GameHead``)."""

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


def full_for(event: Event, state: GameState) -> str:
    """Who receives the event in full: 'all', one side, or only the 'referee' — read from the
    rules' own fog of war, so the stored visibility never disagrees with what is delivered."""
    sides = [side for side in SIDES if visible(event, side, state)]
    if len(sides) == len(SIDES):
        return "all"
    return sides[0] if sides else "referee"


def request_hash(body: Mapping[str, Any]) -> str:
    return hashlib.sha256(
        json.dumps(body, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


def stored_reply(
    caller: Caller, key: str, fingerprint: str, body: dict[str, Any], events: Sequence[Event]
) -> dict[str, Any]:
    """The idempotency record of an accepted command: its answer, kept for a retry."""
    return {
        "token_hash": caller.token_hash or "admin",
        "key": key,
        "request_hash": fingerprint,
        "status_code": 200,
        "response": body,
        "first_seq": events[0].seq if events else None,
        "last_seq": events[-1].seq if events else None,
    }


class GameService:
    def __init__(self, db: Database, options: PlayOptions) -> None:
        self.db = db
        self.options = options
        # parsed states of this process, valid only at the seq they were committed at
        self.states = StateCache()

    # -- authentication ------------------------------------------------------------------------
    def is_admin(self, token: str | None) -> bool:
        admin = self.options.admin_token
        return bool(token and admin and tokens.same(token, admin))

    def _tokenless_or_admin(
        self, spectators: bool, token: str | None, write: bool
    ) -> Caller | None:
        """A spectator (no token, read only, where the game allows them) or the admin; None
        when the token must be looked up among the seats."""
        if token is None:
            if write:
                raise E.MissingToken("send 'Authorization: Bearer <token>' to act in a game")
            if not spectators:
                raise E.MissingToken("this game has no spectators: send a seat's token")
            return Caller("spectator")
        if self.is_admin(token):
            return Caller("referee", admin=True)
        return None

    async def caller(
        self, session: AsyncSession, game: Game, token: str | None, write: bool = False
    ) -> Caller:
        """Who is asking: a seat of this game, the admin (referee of all), or a spectator."""
        known = self._tokenless_or_admin(game.spectators, token, write)
        if known is not None:
            return known
        assert token is not None  # every tokenless call was answered above
        hashed = tokens.digest(token)
        seat = await session.scalar(
            select(Seat).where(Seat.token_hash == hashed, Seat.revoked_at.is_(None))
        )
        if seat is None:
            raise E.Unauthorized("this token is not valid (revoked, mistyped or never issued)")
        if seat.game_id != game.id:
            raise E.WrongGame("this token belongs to another game")
        return Caller(seat.side, token_hash=hashed)

    def _caller_of(
        self, game: Q.GameHead, read: Q.GameRead, token: str | None, write: bool = False
    ) -> Caller:
        """``caller`` for a game read with the token's seat (``app.store.queries``)."""
        known = self._tokenless_or_admin(game.spectators, token, write)
        if known is not None:
            return known
        assert token is not None  # every tokenless call was answered above
        if read.seat is None:
            raise E.Unauthorized("this token is not valid (revoked, mistyped or never issued)")
        if read.seat.game_id != game.id:
            raise E.WrongGame("this token belongs to another game")
        return Caller(read.seat.side, token_hash=tokens.digest(token))

    def _state(self, game_id: str, seq: int, snapshot: dict[str, Any] | None) -> GameState:
        """The state at ``seq``: the cached one, else parsed from the snapshot read with it."""
        state = self.states.get(game_id, seq)
        if state is not None:
            return state
        if snapshot is None:
            raise LookupError(f"no snapshot of {game_id} at {seq}")
        state = state_from_dict(snapshot)
        self.states.put(game_id, state)
        return state

    async def _read(
        self, conn: AsyncConnection, game_id: str, token: str | None, with_state: bool = True
    ) -> tuple[Q.GameHead, Q.GameRead, GameState | None]:
        """A game, the token's seat and (``with_state``) the state, in one statement when the
        cache holds the state at the row's seq (a second one reads the row whole if not)."""
        hashed = tokens.digest(token) if token is not None else None
        cached = self.states.seq(game_id) if with_state else None
        read = await Q.read_game(conn, game_id, hashed, cached)
        if read is None:
            raise E.UnknownGame(f"there is no game {game_id!r}")
        if not with_state:
            return read.head, read, None
        game, state = await self._state_of(conn, read)
        return game, read, state

    async def _state_of(
        self, conn: AsyncConnection, read: Q.GameRead
    ) -> tuple[Q.GameHead, GameState]:
        """The state of a game read with ``cached_seq``: the cached one at the row's seq, else
        the snapshot that came with the row."""
        game = read.head
        if read.snapshot is not None or self.states.get(game.id, game.seq) is not None:
            return game, self._state(game.id, game.seq, read.snapshot)
        # the cached state went stale between the two looks: read the row again, whole
        full = await Q.read_full_game(conn, game.id)
        if full is None:
            raise E.UnknownGame(f"there is no game {game.id!r}")
        game, snapshot = full
        return game, self._state(game.id, game.seq, snapshot)

    async def _game(self, session: AsyncSession, game_id: str, lock: bool = False) -> Game:
        query = select(Game).where(Game.id == game_id)
        if lock and self.db.postgres:
            query = query.with_for_update()
        game = await session.scalar(query)
        if game is None:
            raise E.UnknownGame(f"there is no game {game_id!r}")
        return game

    # -- creating and joining ------------------------------------------------------------------
    async def _design(self, session: AsyncSession, spec: str | Mapping[str, Any]) -> Design:
        if isinstance(spec, str):
            if spec in PRESET_DESIGNS:
                return PRESET_DESIGNS[spec]
            saved = await session.get(SavedDesign, spec)
            if saved is None:
                raise E.UnknownDesign(f"no preset or saved design {spec!r}", field="design")
            return Design.from_dict(saved.data)
        try:
            design = Design.from_dict(spec)
            validate_design(design)
        except DesignError as error:
            raise E.InvalidDesign(error.detail, problems=error.problems) from None
        return design

    async def _setup(self, session: AsyncSession, req: NewGame) -> GameSetup:
        if req.scenario is not None and req.sides is not None:
            raise E.Invalid("give either a scenario or explicit sides, not both")
        if req.scenario is not None:
            if req.scenario not in PRESET_SCENARIOS:
                known = ", ".join(sorted(PRESET_SCENARIOS))
                raise E.UnknownScenario(f"no scenario {req.scenario!r}; known: {known}")
            if req.table is not None:
                # a scenario's zones are drawn for its own table
                raise E.Invalid("a scenario brings its own table: drop 'table' or give 'sides'")
            setup = GameSetup.from_scenario(req.scenario, req.movement)
            if req.turn_limit is not None:
                setup = replace(setup, turn_limit=req.turn_limit)
            if req.ping_range is not None:
                setup = replace(setup, ping_range=req.ping_range)
            return setup
        if req.sides is None:
            raise E.Invalid("give a scenario (see GET /api/v1/scenarios) or explicit sides")
        ships: dict[str, list[ShipEntry]] = {}
        names: dict[str, str] = {}
        for side in SIDES:
            if side not in req.sides:
                raise E.Invalid(f"sides.{side} is missing: both sides need ships")
            entry = req.sides[side]
            names[side] = entry.name or f"Side {side}"
            ships[side] = [
                ShipEntry(s.name, await self._design(session, s.design)) for s in entry.ships
            ]
        table = Table.from_dict(req.table) if req.table else Table()
        return GameSetup(
            ships=ships,
            side_names=names,
            movement=req.movement,
            table=table,
            turn_limit=req.turn_limit or 12,
            ping_range=req.ping_range,
        )

    async def create_game(self, req: NewGame, token: str | None = None) -> dict[str, Any]:
        if req.seed is not None:
            # whoever chooses the seed knows every roll to come (RULES §12): the admin only
            if not self.options.allow_client_seed:
                raise E.ClientSeedNotAllowed(
                    "this server does not accept client seeds (its operator may allow them "
                    "with PINGDUEL_ALLOW_CLIENT_SEED=1); leave out 'seed' and the server draws "
                    "a secret one"
                )
            if not self.is_admin(token):
                raise E.ClientSeedNotAllowed(
                    "only the server's admin may choose the seed: send 'Authorization: Bearer "
                    "<admin token>' with it, or leave out 'seed' and the server draws a secret one"
                )
        seed = bytes.fromhex(req.seed) if req.seed is not None else tokens.new_seed()
        async with self.db.session() as session, session.begin():
            setup = await self._setup(session, req)
            game_id = tokens.new_id()
            try:
                first = game_started(game_id, setup)
            except RulesError as error:
                raise E.Invalid(error.detail) from None
            state = start_state(first)
            commitment = seed_commitment(seed)
            game = Game(
                id=game_id,
                status="waiting",
                spectators=req.spectators,
                creator=req.creator,
                seed=seed.hex(),
                seed_commitment=commitment,
                snapshot=state_to_dict(state),
                seq=first.seq,
            )
            session.add(game)
            await session.flush()
            session.add(event_row(game_id, first, state))
            token = tokens.new_token()
            session.add(
                Seat(
                    game_id=game_id,
                    side=req.creator,
                    name=req.creator_name,
                    token_hash=tokens.digest(token),
                )
            )
            invites = {}
            for side in SIDES:
                if side != req.creator:
                    code = tokens.new_code()
                    session.add(Invite(code_hash=tokens.digest(code), game_id=game_id, side=side))
                    invites[side] = code
        return {
            "game_id": game_id,
            "side": req.creator,
            "token": token,
            "invites": invites,
            "seed_commitment": commitment,
        }

    async def _held_seat(
        self, session: AsyncSession, game_id: str, token: str | None
    ) -> str | None:
        """The seat of this game a token already holds (the admin's: the referee's), or None
        (no token, a replaced seat's, another game's)."""
        if token is None:
            return None
        if self.is_admin(token):
            return "referee"
        return await session.scalar(
            select(Seat.side).where(
                Seat.token_hash == tokens.digest(token),
                Seat.game_id == game_id,
                Seat.revoked_at.is_(None),
            )
        )

    async def claim(
        self, code: str, name: str | None, held: Callable[[str], str | None] | None = None
    ) -> tuple[dict[str, Any], tuple[str, int]]:
        """Take the seat an invite offers. ``held(game_id)``: the token the claiming browser
        already holds for that game, if any; a browser holding a seat of the game is refused
        and the invite stays unused (a creator opening his own link, a referee who would also
        play)."""
        async with self.db.session() as session, session.begin():
            invite = await session.get(Invite, tokens.digest(code))
            if invite is None:
                raise E.UnknownInvite("this invite code is not known")
            game = await self._game(session, invite.game_id, lock=True)
            await session.refresh(invite)
            if invite.claimed_at is not None or invite.revoked_at is not None:
                raise E.Gone("this invite has already been used or was replaced")
            mine = await self._held_seat(session, game.id, held(game.id) if held else None)
            if mine is not None:
                raise E.AlreadySeated(already_seated(mine, invite.side), game_id=game.id)
            taken = await session.scalar(
                select(Seat).where(
                    Seat.game_id == game.id, Seat.side == invite.side, Seat.revoked_at.is_(None)
                )
            )
            if taken is not None:
                raise E.Gone(f"side {invite.side} is already seated")
            token = tokens.new_token()
            session.add(
                Seat(game_id=game.id, side=invite.side, name=name, token_hash=tokens.digest(token))
            )
            invite.claimed_at = utcnow()
            seated = set(
                await session.scalars(
                    select(Seat.side).where(Seat.game_id == game.id, Seat.revoked_at.is_(None))
                )
            ) | {invite.side}
            starts = game.status == "waiting" and seated >= PLAYER_SEATS
            state = state_from_dict(game.snapshot)
            data = {"side": invite.side, "name": name, "game_active": starts}
            state = await self._append(session, game, state, [("seat_claimed", data)])
            if starts:
                game.status = "active"
            hint = (game.id, game.seq)
        return {"game_id": game.id, "side": invite.side, "token": token}, hint

    async def peek_invite(
        self, code: str, held: Callable[[str], str | None] | None = None
    ) -> dict[str, Any]:
        """What an invite offers, without claiming it (a link preview must not use it up);
        ``held`` as for ``claim``: ``held_seat`` says which seat of the game the browser
        already holds (it may not claim this one)."""
        async with self.db.session() as session, session.begin():
            invite = await session.get(Invite, tokens.digest(code))
            if invite is None:
                raise E.UnknownInvite("this invite code is not known")
            if invite.claimed_at is not None or invite.revoked_at is not None:
                raise E.Gone("this invite has already been used or was replaced")
            game = await self._game(session, invite.game_id)
            mine = await self._held_seat(session, game.id, held(game.id) if held else None)
            state = state_from_dict(game.snapshot)
            referee = await self._referee_of(await session.connection(), game.id, game.creator)
            return {
                "game_id": game.id,
                "side": invite.side,
                "referee": referee,
                "held_seat": mine,
                "side_name": state.side_names.get(invite.side),
                "status": game.status,
                "movement": state.movement,
                "ships": [
                    {"name": s.name, "side": s.side, "class": state.design_of(s).hull_class}
                    for s in state.ships
                ],
            }

    async def seat_of_token(
        self, token: str, held: Callable[[str], str | None] | None = None
    ) -> dict[str, Any]:
        """The seat a seat token names, for re-entering it on another device: its game, side,
        player and side names, and (``held`` as for ``claim``) which seat of that game the
        browser already holds."""
        async with self.db.session() as session, session.begin():
            seat = await session.scalar(
                select(Seat).where(
                    Seat.token_hash == tokens.digest(token), Seat.revoked_at.is_(None)
                )
            )
            if seat is None:
                raise E.Unauthorized("this seat link is not valid (revoked or mistyped)")
            game = await self._game(session, seat.game_id)
            side_names = state_from_dict(game.snapshot).side_names
            return {
                "game_id": game.id,
                "side": seat.side,
                "name": seat.name,
                "side_name": side_names.get(seat.side),
                "status": game.status,
                "held_seat": await self._held_seat(
                    session, game.id, held(game.id) if held else None
                ),
            }

    async def seq_for(self, game_id: str, token: str | None, seat: str) -> int:
        """The game's last seq, re-checking that the token still names ``seat``."""
        async with self.db.read() as conn:
            game, read, _ = await self._read(conn, game_id, token, with_state=False)
            caller = self._caller_of(game, read, token)
            if caller.seat != seat:
                raise E.Unauthorized("this token no longer names the seat of this page")
            return game.seq

    async def reissue(self, game_id: str, side: str, token: str | None) -> dict[str, Any]:
        if side not in PLAYER_SEATS:
            raise E.NotFound(f"no invitable seat {side!r}: only A and B have invites")
        async with self.db.session() as session, session.begin():
            game = await self._game(session, game_id, lock=True)
            caller = await self.caller(session, game, token, write=True)
            if caller.seat not in (game.creator, "referee"):
                raise E.Forbidden("only the game's creator or a referee may reissue invites")
            taken = await session.scalar(
                select(Seat).where(
                    Seat.game_id == game.id, Seat.side == side, Seat.revoked_at.is_(None)
                )
            )
            if taken is not None:
                raise E.SeatTaken(f"side {side} is already seated: its invite cannot be reissued")
            await session.execute(
                update(Invite)
                .where(
                    Invite.game_id == game.id,
                    Invite.side == side,
                    Invite.claimed_at.is_(None),
                    Invite.revoked_at.is_(None),
                )
                .values(revoked_at=utcnow())
            )
            code = tokens.new_code()
            session.add(Invite(code_hash=tokens.digest(code), game_id=game.id, side=side))
        return {"game_id": game_id, "side": side, "code": code}

    # -- commands ------------------------------------------------------------------------------
    async def command(
        self, game_id: str, token: str | None, body: Mapping[str, Any], key: str | None
    ) -> CommandResult:
        hashed = tokens.digest(token) if token is not None else None
        async with self.db.unit() as conn:
            read = await Q.read_for_command(
                conn, game_id, hashed, key, self.states.seq(game_id), lock=self.db.postgres
            )
            if read is None:
                raise E.UnknownGame(f"there is no game {game_id!r}")
            game = read.head
            caller = self._caller_of(game, read, token, write=True)
            if not caller.player:
                raise E.Forbidden("the referee and spectators do not send game commands")
            fingerprint = request_hash(body)
            if read.stored is not None:
                return await self._replayed(conn, game_id, read.stored, fingerprint)
            if game.status == "waiting":
                raise E.GameNotStarted("the game starts when both seats are taken")
            if game.status == "finished":
                raise E.GameOver("the game is over")
            if game.paused:
                raise E.GamePaused("the referee has paused the game")
            state = self.states.get(game_id, game.seq)
            if state is None:
                if read.snapshot is None:  # the cached state moved on while we asked
                    read = await Q.read_for_command(
                        conn, game_id, hashed, key, -1, lock=self.db.postgres
                    )
                    assert read is not None and read.snapshot is not None  # locked: still there
                state = state_from_dict(read.snapshot)
            command = {k: v for k, v in body.items() if k != "at_seq"}
            dice = SeededDice.from_hex(game.seed, game.id)
            # a RulesError propagates: the transaction rolls back and nothing changes
            check_at_seq(state, body.get("at_seq"))
            # the rules publish the seed in the finish event themselves
            decision = decide(state, caller.seat, command, dice, seed=game.seed)
            events, new_state = list(decision.events), decision.state
            # each row's visibility is read against the state after the command, as the answer
            # redacts them (``_answer``): what it reads, the ships' sides, never changes
            last = len(events) - 1
            rows = [event_values(e, new_state, ends=i == last) for i, e in enumerate(events)]
            status = "finished" if new_state.status == "finished" else game.status
            referee = await self._referee_of(conn, game_id, game.creator)
            game = replace(game, status=status, seq=new_state.seq)
            reply = None
            if key is not None:
                body_out = self._answer(game, new_state, events, caller, referee)
                reply = stored_reply(caller, key, fingerprint, body_out, events)
            await Q.save_command(
                conn, game_id, rows, state_to_dict(new_state), new_state.seq, status, reply
            )
        # committed: from now on this state is the row's at its seq
        self.states.put(game_id, new_state)
        if key is None:  # built after the commit: the game's lock is held no longer than needed
            body_out = self._answer(game, new_state, events, caller, referee)
        return CommandResult(200, body_out, (game_id, new_state.seq))

    def _answer(
        self,
        game: Q.GameHead,
        state: GameState,
        events: list[Event],
        caller: Caller,
        referee: dict[str, Any] | None,
    ) -> dict[str, Any]:
        """A command's answer: its events as the caller may see them, and the caller's view."""
        return {
            "events": [redact(e, caller.seat, state) for e in events],
            "view": self._view(game, state, caller, referee),
        }

    async def _replayed(
        self, conn: AsyncConnection, game_id: str, stored: Q.StoredReply, fingerprint: str
    ) -> CommandResult:
        if not tokens.same(stored.request_hash, fingerprint):
            raise E.IdempotencyKeyReused(
                "this Idempotency-Key was used with another body: use a new key for a new command"
            )
        if stored.first_seq is not None and await Q.voided(conn, game_id, stored.first_seq):
            raise E.CommandVoided("a referee rewind voided this command's effects")
        return CommandResult(stored.status_code, dict(stored.response))

    async def _append(
        self,
        session: AsyncSession,
        game: Game,
        state: GameState,
        items: Sequence[tuple[str, dict[str, Any]]],
    ) -> GameState:
        """Append service-level events (seats, referee actions); the rules fold them as no-ops."""
        for kind, data in items:
            event = Event(state.seq + 1, state.turn, kind, data)
            state = evolve(state, event)
            session.add(event_row(game.id, event, state))
        game.snapshot = state_to_dict(state)
        game.seq = state.seq
        game.updated_at = utcnow()
        return state

    # -- reading -------------------------------------------------------------------------------
    def _view(
        self,
        game: GameInfo,
        state: GameState,
        caller: Caller,
        referee: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        # nobody can act while the game waits for a seat to be taken or for the referee
        seen = view(state, caller.seat, waiting=game.status == "waiting", paused=game.paused)
        # a human referee sees every ship: everyone is told (``_referee_of``)
        seen["referee"] = referee
        seen["status"] = game.status
        seen["paused"] = game.paused
        seen["spectators"] = game.spectators
        seen["creator"] = game.creator
        seen["seed_commitment"] = game.seed_commitment
        # the seed is published at the end and secret from everyone before, the referee and
        # the admin included: it tells every roll to come (RULES §12)
        seen["seed"] = game.seed if game.status == "finished" else None
        return seen

    async def _referee_of(
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
            name = await conn.scalar(
                select(Seat.name).where(
                    Seat.game_id == game_id, Seat.side == "referee", Seat.revoked_at.is_(None)
                )
            )
        return {"name": name, "connected": "referee" in await connected_seats(conn, game_id)}

    async def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        hashed = tokens.digest(token) if token is not None else None
        async with self.db.read() as conn:
            found = await Q.read_view(conn, game_id, hashed, self.states.seq(game_id))
            if found is None:
                raise E.UnknownGame(f"there is no game {game_id!r}")
            read, live = found
            caller = self._caller_of(read.head, read, token)
            game, state = await self._state_of(conn, read)
            referee = await self._referee_of(conn, game.id, game.creator, dict(live))
        seen = self._view(game, state, caller, referee)
        seats: dict[str, Any] = {side: None for side in SIDES}
        for side, name in live:
            if side in PLAYER_SEATS:
                seats[side] = {"name": name}
        seen["seats"] = seats
        return seen

    async def _seats(self, session: AsyncSession, game: Game) -> dict[str, Any]:
        rows = await session.scalars(
            select(Seat).where(Seat.game_id == game.id, Seat.revoked_at.is_(None))
        )
        out: dict[str, Any] = {side: None for side in SIDES}
        for seat in rows:
            if seat.side in PLAYER_SEATS:
                out[seat.side] = {"name": seat.name}
        return out

    async def presence(self, game_id: str, detailed: bool) -> dict[str, Any]:
        """Who has a page or stream open: "connected"/"away" per seat for everyone, and the
        times of last contact for the referee."""
        async with self.db.session() as session, session.begin():
            seats = (await presence_of(session, game_id))["seats"]
        if detailed:
            return dict(seats)
        return {seat: {"connected": seats[seat]["connected"]} for seat in ("A", "B")}

    async def connected(self, game_id: str) -> frozenset[str]:
        """The seats a page's status names (A, B, the referee) that have a page or stream
        open now: one read, no write."""
        async with self.db.read() as conn:
            return await connected_seats(conn, game_id) & SHOWN_SEATS

    async def command_boundaries(self, game_id: str) -> list[dict[str, Any]]:
        """Seqs a referee may rewind to: the last event of each command still in force, before
        the present and outside any open fire window (``app.rules.rewind``)."""
        async with self.db.session() as session, session.begin():
            rows = list(
                await session.execute(
                    select(EventRow.seq, EventRow.turn, EventRow.type, EventRow.ends_command)
                    .where(EventRow.game_id == game_id, EventRow.voided.is_(False))
                    .order_by(EventRow.seq)
                )
            )
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
            seq = await conn.scalar(
                select(func.max(EventRow.seq)).where(
                    EventRow.game_id == game_id, EventRow.type == "rewound"
                )
            )
        return int(seq) if seq is not None else 1

    async def read_caller(self, game_id: str, token: str | None) -> Caller:
        async with self.db.read() as conn:
            game, read, _ = await self._read(conn, game_id, token, with_state=False)
            return self._caller_of(game, read, token)

    async def events(
        self, game_id: str, token: str | None, after: int, limit: int = 1000
    ) -> dict[str, Any]:
        async with self.db.read() as conn:
            game, read, state = await self._read(conn, game_id, token)
            caller = self._caller_of(game, read, token)
            assert state is not None
            events = await self._events_for(conn, game_id, state, caller.seat, after, limit)
            return {"events": events, "last_seq": game.seq}

    async def events_for_token(
        self, game_id: str, token: str | None, seat: str, after: int, limit: int = 1000
    ) -> tuple[list[dict[str, Any]], int]:
        """For a stream: the token is checked again on every read (a replaced seat's stream
        ends at once) and must still name the seat the stream was opened for."""
        async with self.db.read() as conn:
            game, read, state = await self._read(conn, game_id, token)
            caller = self._caller_of(game, read, token)
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
        async with self.db.session() as session, session.begin():
            game = await self._game(session, game_id)
            caller = await self.caller(session, game, token)
            if game.status != "finished" and caller.seat != "referee":
                raise E.Forbidden("the record is open to players and spectators after the end")
            rows = await session.scalars(
                select(EventRow).where(EventRow.game_id == game.id).order_by(EventRow.seq)
            )
            state = state_from_dict(game.snapshot)
            events = []
            for row in rows:
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
                "seed": game.seed if game.status == "finished" else None,
                "seed_commitment": game.seed_commitment,
                "designs": {k: d.to_dict() for k, d in state.designs.items()},
                "events": events,
            }

    async def list_games(self, token: str | None) -> dict[str, Any]:
        if not self.is_admin(token):
            if token is None:
                raise E.MissingToken("listing games needs the admin token")
            raise E.Forbidden("listing games needs the admin token")
        async with self.db.session() as session, session.begin():
            games = await session.scalars(select(Game).order_by(Game.created_at.desc()))
            out = []
            for game in games:
                state = state_from_dict(game.snapshot)
                seen = self._view(game, state, Caller("referee", admin=True))
                out.append(
                    {
                        "game_id": game.id,
                        "status": game.status,
                        "paused": game.paused,
                        "turn": state.turn,
                        "step": state.phase.step,
                        "awaiting": seen["phase"]["awaiting"],
                        "side_names": dict(state.side_names),
                        "winner": state.winner,
                        "created_at": game.created_at.isoformat(),
                        "updated_at": game.updated_at.isoformat(),
                    }
                )
            return {"games": out}


def already_seated(held: str, offered: str) -> str:
    """Why a browser holding ``held`` may not take ``offered`` of the same game."""
    if held == "referee":
        return (
            "this browser holds the referee's seat of this game, and the referee cannot also "
            f"play in it: send this invite to the player of side {offered}"
        )
    return (
        f"this browser already plays side {held} of this game: this is your opponent's invite "
        f"(side {offered}), send them the link"
    )


def event_values(event: Event, state: GameState, ends: bool = True) -> dict[str, Any]:
    """An events row's columns (besides ``game_id``), ``state`` being the state after it."""
    return {
        "seq": event.seq,
        "turn": event.turn,
        "type": event.type,
        "data": dict(event.data),
        "full_for": full_for(event, state),
        "ends_command": ends,
    }


def event_row(game_id: str, event: Event, state: GameState, ends: bool = True) -> EventRow:
    return EventRow(game_id=game_id, **event_values(event, state, ends))
