"""My games: the seats one browser holds, under one signed browser id (``app.web.browser``).

The store maps a hash of the browser id and a game to a seat row; a page's credential for a
game is then that seat's token hash (``tokens.Hashed``), so no token, plain or encrypted, is
kept for a browser. The header's count of games awaiting this browser reads only the mapping
and the games' seq; a game's awaited sides are worked out from its snapshot once per seq.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from app.play import errors as E
from app.play import tokens
from app.play.reading import Reading
from app.rules.fog import awaiting
from app.rules.snapshot import state_from_dict
from app.store import browsers as B
from app.store import seats as S
from app.store.db import Database

_AWAITED: OrderedDict[tuple[str, int], tuple[str, ...]] = OrderedDict()
_KEEP = 5_000  # (game, seq) -> awaited sides kept in memory; the oldest drop first


def _held(row: B.Held) -> bool:
    return row.status == "waiting" or row.paused


class Browsers:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def held(self, browser_hash: str, game_id: str | None = None) -> list[B.Held]:
        async with self.db.read() as conn:
            return await B.held(conn, browser_hash, game_id)

    async def remember(self, browser_hash: str, token: str) -> str | None:
        """The browser holds the token's seat from now on; the game's id, or None."""
        async with self.db.unit() as conn:
            return await B.remember(conn, browser_hash, tokens.digest(token))

    async def awaited(self, rows: list[B.Held]) -> dict[str, tuple[str, ...]]:
        """The sides each active game of ``rows`` waits for (public facts)."""
        out: dict[str, tuple[str, ...]] = {}
        missing = []
        for row in rows:
            if row.status != "active" or _held(row):
                out[row.game_id] = ()
            elif (row.game_id, row.seq) in _AWAITED:
                out[row.game_id] = _AWAITED[(row.game_id, row.seq)]
            else:
                missing.append(row.game_id)
        if missing:
            async with self.db.read() as conn:
                found = await B.snapshots(conn, missing)
            for game_id, (seq, snapshot) in found.items():
                sides = tuple(awaiting(state_from_dict(snapshot)))
                _AWAITED[(game_id, seq)] = sides
                while len(_AWAITED) > _KEEP:
                    _AWAITED.popitem(last=False)
                out[game_id] = sides
        return out

    async def awaiting_me(self, rows: list[B.Held]) -> int:
        awaited = await self.awaited(rows)
        return sum(1 for row in rows if row.side in awaited.get(row.game_id, ()))

    async def my_games(self, reading: Reading, rows: list[B.Held]) -> list[dict[str, Any]]:
        """One line per game, newest activity first: public facts only (names, status, turn,
        who is awaited, presence, the clock when the view has one)."""
        games = []
        for row in rows:
            try:
                view = await reading.view(row.game_id, tokens.Hashed(row.token_hash))
            except E.Problem:
                continue  # the seat went between the two reads
            async with self.db.read() as conn:
                names = dict(await S.live_seats(conn, row.game_id))
            presence = await reading.presence(row.game_id, detailed=False)
            awaited = list(view["phase"]["awaiting"])
            games.append(
                {
                    "game_id": row.game_id,
                    "side": row.side,
                    "status": view["status"],
                    "turn": view["turn"],
                    "awaiting": awaited,
                    "your_move": row.side in awaited,
                    "names": {
                        side: names.get(side) or view["side_names"].get(side) for side in "AB"
                    },
                    "presence": presence,
                    "clock": view.get("clock"),
                    "updated_at": row.updated_at.isoformat(),
                }
            )
        return games

    async def new_link(self, token: str) -> str | None:
        """A "play on another device" code for the token's live seat (its hash is stored)."""
        code = tokens.new_token()
        async with self.db.unit() as conn:
            made = await B.add_link(conn, tokens.digest(code), tokens.digest(token))
        return code if made else None

    async def opened_by(self, code: str) -> tokens.Hashed | None:
        """The seat credential a link code stands for, or None (not a link code)."""
        async with self.db.read() as conn:
            found = await B.link_seat(conn, tokens.digest(code))
        return tokens.Hashed(found) if found is not None else None

    async def live_in(self, game_id: str, token: str) -> bool:
        """Whether the token names a live seat of this game."""
        async with self.db.read() as conn:
            return await S.side_of_token(conn, game_id, tokens.digest(token)) is not None
