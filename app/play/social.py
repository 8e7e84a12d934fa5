"""Chat and rematch (issue 15): what players say to each other, and the next game.

Chat is never a game event: it has no seq, is not in the record and changes nothing a view
or a command reads. A game has two channels: ``players`` (the seats A and B, and the referee)
and ``spectators`` (callers without a token, where the game allows them); each is numbered
from 1 without gaps, under the game's row lock. The server never writes into chat itself.

A rematch: a seat of a finished game offers, the other accepts, and the new game has the
same settings (the whole create request, kept on the game row), a new seed, and the players
on each other's sides. Each seat of the new game is handed to its player once: the accepter
at once, the offerer (and a human referee) at their next call; until then the seat's token
is a random one nobody knows. The hint ``rematch`` wakes the old game's pages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from app.play import errors as E
from app.play import tokens
from app.play.callers import Caller, Callers, token_hash
from app.play.lobby import Lobby, NewGame, NewShip, NewSide
from app.rules.state import GameStatus
from app.store import computer as CS
from app.store import queries as Q
from app.store import seats as S
from app.store import social as SS
from app.store.db import Database

PLAYERS, SPECTATORS = "players", "spectators"
MAX_TEXT = 500
PAGE = 200  # lines per read
OTHER = {"A": "B", "B": "A"}


class ChatTextInvalid(E.Invalid):
    code = "chat_text_invalid"
    title = "Chat text refused"


class RematchNotFinished(E.Conflict):
    code = "game_not_finished"
    title = "The game has not finished"


class RematchUnavailable(E.Conflict):
    code = "rematch_unavailable"
    title = "No rematch for this game"


class RematchBusy(E.Conflict):
    code = "rematch_busy"
    title = "The rematch is being made"


def channel_of(caller: Caller) -> str:
    return SPECTATORS if caller.seat == "spectator" else PLAYERS


# refused in chat: C0/C1 controls (line breaks and tabs too: a line is one line) and the
# invisible format characters that reorder or hide text (bidi overrides, zero widths, BOM)
BAD_CHARS = (
    "\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064"
    "\u2066-\u206f\ufeff\ufff9-\ufffb"
)
_BAD = re.compile(f"[{BAD_CHARS}]")
# the same rule as JSON Schema says it (the API documents it): no such character, and one
# that is not white space
TEXT_PATTERN = f"^[^{BAD_CHARS}]*[^\\s{BAD_CHARS}][^{BAD_CHARS}]*$"


def clean_text(text: object) -> str:
    """The line as stored: at most 500 characters, none of ``BAD_CHARS``, trimmed, not
    empty. Markup is kept as typed and escaped wherever it is shown."""
    if not isinstance(text, str):
        raise ChatTextInvalid("'text' must be a string", field="text")
    if len(text) > MAX_TEXT:
        raise ChatTextInvalid(
            f"the message has {len(text)} characters; at most {MAX_TEXT} are allowed: shorten it",
            field="text",
        )
    bad = _BAD.search(text)
    if bad is not None:
        raise ChatTextInvalid(
            f"the message holds a control character (U+{ord(bad.group()):04X}): remove it "
            "(line breaks and tabs included; send one line)",
            field="text",
        )
    text = text.strip()
    if not text:
        raise ChatTextInvalid("the message is empty: type something to send", field="text")
    return text


def line_json(line: SS.Line) -> dict[str, Any]:
    return {"n": line.n, "from": line.sender, "text": line.text, "at": line.at.isoformat()}


def request_of(settings: Mapping[str, Any]) -> NewGame:
    """The create request a game was made with, rebuilt (unknown keys of a newer release
    dropped; known ones carried over as stored). A rematch is never guided: the lessons were
    for the first duel."""
    known = {f.name for f in fields(NewGame)}
    values = {k: v for k, v in settings.items() if k in known and k not in ("seed", "guided")}
    sides = values.get("sides")
    if sides is not None:
        values["sides"] = {
            side: NewSide(
                entry.get("name"), [NewShip(s["name"], s["design"]) for s in entry["ships"]]
            )
            for side, entry in sides.items()
        }
    return NewGame(**values)


class Social:
    def __init__(self, db: Database, callers: Callers, lobby: Lobby) -> None:
        self.db = db
        self.callers = callers
        self.lobby = lobby

    async def _hint(self, game_id: str, kind: str) -> None:
        await self.db.side_hint(game_id, kind)

    # -- chat ----------------------------------------------------------------------------
    async def _sender(self, conn: Any, game_id: str, caller: Caller) -> str:
        if caller.seat == "spectator":
            return "spectator"
        if caller.admin:
            return "referee"
        name = await S.seat_name(conn, game_id, caller.seat)
        label = caller.seat if caller.seat != "referee" else "referee"
        return f"{label} · {name}" if name else label

    async def read_chat(self, game_id: str, token: str | None, after: int) -> dict[str, Any]:
        async with self.db.read() as conn:
            read = await Q.read_game(conn, game_id, token_hash(token), None)
            if read is None:
                raise E.UnknownGame(f"there is no game {game_id!r}")
            caller = self.callers.identify(read, token)
            got = await SS.lines(conn, game_id, channel_of(caller), after, PAGE)
        return {"channel": channel_of(caller), "messages": [line_json(x) for x in got]}

    async def post_chat(self, game_id: str, token: str | None, text: object) -> dict[str, Any]:
        clean = clean_text(text)
        async with self.db.unit() as conn:
            read = await Q.read_for_change(conn, game_id, token_hash(token), self.db.postgres)
            if read is None:
                raise E.UnknownGame(f"there is no game {game_id!r}")
            caller = self.callers.identify(read, token)  # spectators may chat, if allowed in
            channel = channel_of(caller)
            line = await SS.add_line(
                conn, game_id, channel, await self._sender(conn, game_id, caller), clean
            )
        await self._hint(game_id, f"chat.{channel}.{line.n}")
        return {"channel": channel, "message": line_json(line)}

    # -- rematch -------------------------------------------------------------------------
    async def rematch_state(self, game_id: str, token: str | None) -> dict[str, Any]:
        """What anyone who may read the game may know of its rematch."""
        async with self.db.read() as conn:
            read = await Q.read_game(conn, game_id, token_hash(token), None)
            if read is None:
                raise E.UnknownGame(f"there is no game {game_id!r}")
            caller = self.callers.identify(read, token)
            offer = await SS.offer(conn, game_id)
        owed = offer is not None and offer.new_game_id is not None and caller.seat in offer.pending
        return {
            "offered_by": offer.offered_by if offer else None,
            "game_id": offer.new_game_id if offer else None,
            "token_waiting": bool(owed and not caller.admin),
        }

    async def rematch(self, game_id: str, token: str | None) -> tuple[int, dict[str, Any]]:
        """One seat's call: offer, accept, or take its seat of the new game."""
        async with self.db.unit() as conn:
            read = await Q.read_for_change(conn, game_id, token_hash(token), self.db.postgres)
            if read is None:
                raise E.UnknownGame(f"there is no game {game_id!r}")
            caller = self.callers.identify(read, token, write=True)
            offer = await SS.offer(conn, game_id)
            if offer is not None and offer.new_game_id is not None:
                return 200, await self._hand_out(conn, game_id, caller, offer)
            if not caller.player:
                raise E.Forbidden(
                    "only the players (seats A and B) offer or accept a rematch; the referee "
                    "joins the new game once both agreed (call again then)"
                )
            if read.head.status != GameStatus.FINISHED:
                raise RematchNotFinished("a rematch can be offered once the game has finished")
            if await SS.settings_of(conn, game_id) is None:
                raise RematchUnavailable(
                    "this game was created before rematches were kept: create a new game"
                )
            computer = await CS.levels(conn, game_id)
            if OTHER[caller.seat] in computer:
                offered = False  # the computer accepts at once (issue 17)
            elif offer is None:
                await SS.add_offer(conn, game_id, caller.seat)
                offered = True
            elif offer.offered_by == caller.seat:
                return 202, {"offered": True}  # idempotent: already offered
            else:
                offered = False
        if offered:
            await self._hint(game_id, "rematch")
            return 202, {"offered": True}
        return 200, await self._accept(game_id, caller)

    async def _hand_out(
        self, conn: Any, game_id: str, caller: Caller, offer: SS.Offer
    ) -> dict[str, Any]:
        new = offer.new_game_id
        assert new is not None
        if caller.seat == "spectator" or caller.admin or caller.seat not in offer.pending:
            # already handed out (or never this caller's): the id, never a second token
            return {"game_id": new, "token": None}
        token = tokens.new_token()
        await SS.retoken(conn, new, new_seat(caller.seat), tokens.digest(token))
        await SS.set_offer(conn, game_id, new, offer.pending - {caller.seat})
        return {"game_id": new, "token": token}

    async def _accept(self, game_id: str, caller: Caller) -> dict[str, Any]:
        """The accepter's call: the new game is made (its own units, as any new game), then
        recorded on the old game under its lock; a concurrent accept that lost the race
        drops the game it made and answers as a later call would."""
        async with self.db.read() as conn:
            settings = await SS.settings_of(conn, game_id)
            names = dict(await S.live_seats(conn, game_id))
            computer = await CS.levels(conn, game_id)
        assert settings is not None
        referee = "referee" in names
        req = request_of(settings)
        if OTHER[caller.seat] in computer:  # the computer plays on (a handed-over side too)
            if referee:
                raise RematchUnavailable(
                    "a rematch against the computer under a referee is not made here: the "
                    "referee creates a new game"
                )
            req = replace(req, opponent=computer[OTHER[caller.seat]])
        accepter = new_seat(caller.seat)
        creator = "referee" if referee else accepter
        creator_name = names.get("referee" if referee else caller.seat)
        made = await self.lobby.create_game(
            replace(req, creator=creator, creator_name=creator_name)
        )
        new_id = made["game_id"]
        handed: dict[str, str] = {creator: made["token"]}
        for side, code in made["invites"].items():
            old = "referee" if side == "referee" else new_seat(side)
            claimed = await self.lobby.claim(code, names.get(old))
            handed[side] = claimed["token"]
        human = set() if OTHER[caller.seat] in computer else {OTHER[caller.seat]}
        pending = frozenset(human | ({"referee"} if referee else set()))
        async with self.db.unit() as conn:
            read = await Q.read_for_change(conn, game_id, None, self.db.postgres)
            offer = await SS.offer(conn, game_id)
            if offer is None and OTHER[caller.seat] in computer:
                await SS.add_offer(conn, game_id, caller.seat)  # offered and accepted at once
                offer = await SS.offer(conn, game_id)
            if read is None or offer is None or offer.new_game_id is not None:
                await SS.delete_game(conn, new_id)
                lost = True
            else:
                await SS.set_offer(conn, game_id, new_id, pending)
                lost = False
        if lost:
            raise RematchBusy(
                "another call made this rematch at the same moment: call again to get its id"
            )
        await self._hint(game_id, "rematch")
        # only the accepter's own token leaves; the others' are replaced when they call
        return {"game_id": new_id, "token": handed[accepter]}


def new_seat(old: str) -> str:
    """Where an old seat sits in the rematch: the players swap sides, the referee stays."""
    return OTHER.get(old, old)
