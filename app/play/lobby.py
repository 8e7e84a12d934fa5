"""The lobby: creating a game, claiming a seat with an invite, re-entering a seat from its
link, reissuing an invite, and the admin's list of games."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.play import clock_math, tokens
from app.play import errors as E
from app.play.callers import ADMIN, Callers, token_hash
from app.play.computer import LEVELS, computer_name, computer_side, new_rng_key
from app.play.logbook import event_values, service_events
from app.play.reading import Reading
from app.play.watch import Change, Watchers
from app.rules import GameSetup, GameState, ShipEntry, game_started, seed_commitment, start_state
from app.rules.designs import Design, validate_design
from app.rules.errors import DesignError, RulesError
from app.rules.geometry import Table
from app.rules.scenarios import PRESET_SCENARIOS
from app.rules.snapshot import state_from_dict, state_to_dict
from app.rules.state import PLAYER_SEATS, SIDES, GameStatus
from app.store import computer as CS
from app.store import designs as D
from app.store import games as G
from app.store import lobby as SL
from app.store import queries as Q
from app.store import seats as S
from app.store import social as SS
from app.store.db import Database

# ``held(game_id)``: the token the asking browser already holds for that game, if any
Held = Callable[[str], str | None]


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
    clock: Mapping[str, Any] | None = None  # checked by ``clock_math.parse_settings``
    opponent: str | None = None  # the computer's level on the side the creator leaves
    # "Learn to play": the game page explains each step as it comes (static/js/guide.js);
    # kept in the settings because the page reads it there, never sent to the API
    guided: bool = False


def settings_of(req: NewGame) -> dict[str, Any]:
    """The request as a rematch repeats it (issue 15): every field, whatever fields come,
    but the seed (a rematch draws a new one, and a chosen seed is the admin's secret)."""
    settings = asdict(req)
    settings.pop("seed", None)
    return settings


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


class Lobby:
    def __init__(
        self,
        db: Database,
        callers: Callers,
        reading: Reading,
        allow_client_seed: bool,
        presets: Callable[[], Mapping[str, Design]],
        watchers: Watchers | None = None,
    ) -> None:
        self.db = db
        self.watchers = watchers or Watchers()
        self.callers = callers
        self.reading = reading
        self.allow_client_seed = allow_client_seed
        self.presets = presets

    # -- a new game --------------------------------------------------------------------------
    async def _design(self, conn: AsyncConnection, spec: str | Mapping[str, Any]) -> Design:
        if isinstance(spec, str):
            presets = self.presets()
            if spec in presets:
                return presets[spec]
            saved = await D.design_data(conn, spec)
            if saved is None:
                raise E.UnknownDesign(f"no preset or saved design {spec!r}", field="design")
            return Design.from_dict(saved)
        try:
            design = Design.from_dict(spec)
            validate_design(design)
        except DesignError as error:
            raise E.InvalidDesign(error.detail, problems=error.problems) from None
        return design

    def _scenario(self, req: NewGame, scenario: str) -> GameSetup:
        if scenario not in PRESET_SCENARIOS:
            known = ", ".join(sorted(PRESET_SCENARIOS))
            raise E.UnknownScenario(f"no scenario {scenario!r}; known: {known}")
        if req.table is not None:
            # a scenario's zones are drawn for its own table
            raise E.Invalid("a scenario brings its own table: drop 'table' or give 'sides'")
        setup = GameSetup.from_scenario(scenario, req.movement)
        if req.turn_limit is not None:
            setup = replace(setup, turn_limit=req.turn_limit)
        if req.ping_range is not None:
            setup = replace(setup, ping_range=req.ping_range)
        return setup

    async def _setup(self, conn: AsyncConnection, req: NewGame) -> GameSetup:
        if req.scenario is not None and req.sides is not None:
            raise E.Invalid("give either a scenario or explicit sides, not both")
        if req.scenario is not None:
            return self._scenario(req, req.scenario)
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
                ShipEntry(s.name, await self._design(conn, s.design)) for s in entry.ships
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

    def _seed(self, req: NewGame, token: str | None) -> bytes:
        if req.seed is None:
            return tokens.new_seed()
        # whoever chooses the seed knows every roll to come (RULES §12): the admin only
        if not self.allow_client_seed:
            raise E.ClientSeedNotAllowed(
                "this server does not accept client seeds (its operator may allow them "
                "with PINGDUEL_ALLOW_CLIENT_SEED=1); leave out 'seed' and the server draws "
                "a secret one"
            )
        if not self.callers.is_admin(token):
            raise E.ClientSeedNotAllowed(
                "only the server's admin may choose the seed: send 'Authorization: Bearer "
                "<admin token>' with it, or leave out 'seed' and the server draws a secret one"
            )
        return bytes.fromhex(req.seed)

    async def create_game(self, req: NewGame, token: str | None = None) -> dict[str, Any]:
        if req.opponent is not None and req.opponent not in LEVELS:
            raise E.Invalid(f"opponent: the computer plays as {' or '.join(LEVELS)}")
        if req.guided and (req.opponent is None or req.creator not in PLAYER_SEATS):
            raise E.Invalid("a guided duel is a player's game against the computer")
        seed = self._seed(req, token)
        settings = clock_math.parse_settings(req.clock)
        clock = clock_math.new_clock(settings) if settings is not None else None
        async with self.db.unit() as conn:
            setup = await self._setup(conn, req)
            game_id = tokens.new_id()
            try:
                first = game_started(game_id, setup)
            except RulesError as error:
                raise E.Invalid(error.detail) from None
            state = start_state(first)
            commitment = seed_commitment(seed)
            head = Q.GameHead(
                game_id, GameStatus.WAITING, False, req.spectators, req.creator, seed.hex(),
                commitment, first.seq, clock,
            )  # fmt: skip
            token = tokens.new_token()
            invites = {side: tokens.new_code() for side in SIDES if side != req.creator}
            await SL.create_game(
                conn,
                head,
                state_to_dict(state),
                event_values(first, state),
                (req.creator, req.creator_name, tokens.digest(token)),
                [(tokens.digest(code), side) for side, code in invites.items()],
                settings_of(req),
            )
        self.reading.states.put(game_id, state)  # committed: the claim needs no parsing
        if req.opponent is not None:
            side = computer_side(req.creator)
            await self.seat_computer(game_id, invites.pop(side), req.opponent)
        return {
            "game_id": game_id,
            "side": req.creator,
            "token": token,
            "invites": invites,
            "seed_commitment": commitment,
        }

    # -- seats -------------------------------------------------------------------------------
    async def claim(self, code: str, name: str | None, held: Held | None = None) -> dict[str, Any]:
        """Take the seat an invite offers. ``held``: a browser holding a seat of the game is
        refused and the invite stays unused (a creator opening his own link, a referee who
        would also play)."""
        code_hash = tokens.digest(code)
        async with self.db.unit() as conn:
            read = await self._claim_read(conn, code_hash)
            game, invite_side = read.head, read.side
            if invite_side is None or not read.usable:
                raise E.Gone("this invite has already been used or was replaced")
            mine = await self.callers.held_seat(conn, game.id, held(game.id) if held else None)
            if mine is not None:
                raise E.AlreadySeated(already_seated(mine, invite_side), game_id=game.id)
            token, state = await self._take_seat(conn, read, code_hash, name)
        self.reading.states.put(game.id, state)  # committed: the first views need no parsing
        await self.db.hint(game.id, state.seq)
        return {"game_id": game.id, "side": invite_side, "token": token}

    async def _take_seat(
        self, conn: AsyncConnection, read: SL.ClaimRead, code_hash: str, name: str | None
    ) -> tuple[str, GameState]:
        """The invite's seat taken (the game locked): the new token and the state after."""
        game, invite_side = read.head, read.side
        assert invite_side is not None
        if invite_side in read.seated:
            raise E.Gone(f"side {invite_side} is already seated")
        token = tokens.new_token()
        seated = read.seated | {invite_side}
        starts = game.status == GameStatus.WAITING and seated >= PLAYER_SEATS
        data = {"side": invite_side, "name": name, "game_active": starts}
        before = self._state(read)
        state, rows = service_events(before, [("seat_claimed", data)])
        status = GameStatus.ACTIVE if starts else None
        seat = (invite_side, name, tokens.digest(token))
        after = replace(game, status=status or game.status, seq=state.seq)
        await self.watchers.written(conn, Change(after, before, state))
        await SL.save_claim(
            conn, game.id, code_hash, seat, rows, state_to_dict(state), state.seq, status
        )
        return token, state

    async def is_guided(self, game_id: str) -> bool:
        """Whether the game was made as a guided first duel (its page then teaches)."""
        async with self.db.read() as conn:
            settings = await SS.settings_of(conn, game_id)
        return bool(settings and settings.get("guided"))

    async def seat_computer(self, game_id: str, code: str, level: str) -> None:
        """The server's computer takes the seat an invite offers (its token is never kept:
        it acts through the seat's token hash, ``app.play.computer``)."""
        code_hash = tokens.digest(code)
        async with self.db.unit() as conn:
            read = await self._claim_read(conn, code_hash)
            if read.side is None or not read.usable or read.head.id != game_id:
                raise E.Gone("this invite has already been used or was replaced")
            _, state = await self._take_seat(conn, read, code_hash, computer_name(level))
            await CS.add(conn, game_id, read.side, level, new_rng_key())
        self.reading.states.put(game_id, state)
        await self.db.hint(game_id, state.seq)

    def _state(self, read: SL.ClaimRead) -> GameState:
        """The locked game's state: the cached one at the row's seq (a new game's, put there
        by ``create_game``), else parsed from the snapshot read with it."""
        return self.reading.state_at(read.head.id, read.head.seq, read.snapshot)

    async def _claim_read(self, conn: AsyncConnection, code_hash: str) -> SL.ClaimRead:
        """The invite's game, locked, and the invite and live seats as they are now that it is
        (PostgreSQL: ``SL.read_for_claim``; elsewhere, and for an unknown code, one by one)."""
        if self.db.postgres:
            read = await SL.read_for_claim(conn, code_hash)
            if read is not None:
                return read
        offered = await S.invite(conn, code_hash)
        if offered is None:
            raise E.UnknownInvite("this invite code is not known")
        locked = await Q.read_for_change(conn, offered.game_id, None, lock=self.db.postgres)
        if locked is None or locked.snapshot is None:
            raise E.UnknownGame(f"there is no game {offered.game_id!r}")
        invite = await S.invite(conn, code_hash)  # again, now that the game is locked
        seated = frozenset(side for side, _ in await S.live_seats(conn, offered.game_id))
        if invite is None:
            return SL.ClaimRead(locked.head, locked.snapshot, None, False, seated)
        return SL.ClaimRead(locked.head, locked.snapshot, invite.side, invite.usable, seated)

    async def peek_invite(self, code: str, held: Held | None = None) -> dict[str, Any]:
        """What an invite offers, without claiming it (a link preview must not use it up);
        ``held`` as for ``claim``: ``held_seat`` says which seat of the game the browser
        already holds (it may not claim this one)."""
        async with self.db.read() as conn:
            invite = await S.invite(conn, tokens.digest(code))
            if invite is None:
                raise E.UnknownInvite("this invite code is not known")
            if not invite.usable:
                raise E.Gone("this invite has already been used or was replaced")
            game, snapshot = await self._game(conn, invite.game_id)
            mine = await self.callers.held_seat(conn, game.id, held(game.id) if held else None)
            state = state_from_dict(snapshot)
            referee = await self.reading.referee_of(conn, game.id, game.creator)
        return {
            "game_id": game.id,
            "side": invite.side,
            "referee": referee,
            "held_seat": mine,
            "side_name": state.side_names.get(invite.side),
            "status": game.status,
            "clock": clock_math.describe(game.clock["settings"] if game.clock else None),
            "movement": state.movement,
            "ships": [
                {"name": s.name, "side": s.side, "class": state.design_of(s).hull_class}
                for s in state.ships
            ],
        }

    async def seat_of_token(self, token: str, held: Held | None = None) -> dict[str, Any]:
        """The seat a seat token names, for re-entering it on another device: its game, side,
        player and side names, and (``held`` as for ``claim``) which seat of that game the
        browser already holds."""
        async with self.db.read() as conn:
            seat = await self.callers.seat_named(conn, token)
            game, snapshot = await self._game(conn, seat.game_id)
            return {
                "game_id": game.id,
                "side": seat.side,
                "name": seat.name,
                "side_name": state_from_dict(snapshot).side_names.get(seat.side),
                "status": game.status,
                "held_seat": await self.callers.held_seat(
                    conn, game.id, held(game.id) if held else None
                ),
            }

    async def reissue(self, game_id: str, side: str, token: str | None) -> dict[str, Any]:
        if side not in PLAYER_SEATS:
            raise E.NotFound(f"no invitable seat {side!r}: only A and B have invites")
        async with self.db.unit() as conn:
            read = await Q.read_for_change(conn, game_id, token_hash(token), self.db.postgres)
            if read is None:
                raise E.UnknownGame(f"there is no game {game_id!r}")
            caller = self.callers.identify(read, token, write=True)
            if caller.seat not in (read.head.creator, "referee"):
                raise E.Forbidden("only the game's creator or a referee may reissue invites")
            if await S.seated(conn, game_id, side):
                raise E.SeatTaken(f"side {side} is already seated: its invite cannot be reissued")
            await S.revoke_invites(conn, game_id, side)
            code = tokens.new_code()
            await S.add_invite(conn, tokens.digest(code), game_id, side)
        return {"game_id": game_id, "side": side, "code": code}

    async def _game(self, conn: AsyncConnection, game_id: str) -> tuple[Q.GameHead, dict[str, Any]]:
        found = await Q.read_full_game(conn, game_id)
        if found is None:
            raise E.UnknownGame(f"there is no game {game_id!r}")
        return found

    # -- the admin's list --------------------------------------------------------------------
    async def list_games(self, token: str | None) -> dict[str, Any]:
        if not self.callers.is_admin(token):
            if token is None:
                raise E.MissingToken("listing games needs the admin token")
            raise E.Forbidden("listing games needs the admin token")
        async with self.db.read() as conn:
            games = await G.every_game(conn)
        out = []
        for game in games:
            state = state_from_dict(game.snapshot)
            seen = self.reading.view_of(game.head, state, ADMIN)
            out.append(
                {
                    "game_id": game.head.id,
                    "status": game.head.status,
                    "paused": game.head.paused,
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
