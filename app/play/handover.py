"""``hand_to_computer``: the side that keeps timing out is handed to the server's computer
instead of the game ending (the other side's choice, under the same condition as
``claim_win``). The absent player's seat is revoked — its token and streams stop at once —
and the computer takes the side through a new seat; everyone reads a public
``seat_replaced`` event that says why."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from app.play import errors as E
from app.play import tokens
from app.play.clocks import CLAIM_AFTER, ClaimNotAllowed
from app.play.computer import DEFAULT_LEVEL, computer_name, new_rng_key
from app.rules import Event, GameState, evolve
from app.rules.state import PLAYER_SEATS, other_side
from app.store import computer as CS
from app.store import queries as Q
from app.store import seats as S


class AlreadyComputer(E.Conflict):
    code = "already_computer"
    title = "Already played by the computer"


async def hand_to_computer(
    conn: AsyncConnection, game: Q.GameHead, state: GameState, seat: str, command: Mapping[str, Any]
) -> tuple[list[Event], GameState]:
    if set(command) - {"type"}:
        raise E.Invalid("hand_to_computer takes no fields besides 'type'")
    if game.clock is None or seat not in PLAYER_SEATS:
        raise ClaimNotAllowed("this game has no clock: no side has timed out to hand over")
    other = other_side(seat)
    if other in await CS.levels(conn, game.id):
        raise AlreadyComputer(f"the computer already plays side {other}")
    count = game.clock["timeouts"][other]
    if count < CLAIM_AFTER:
        raise ClaimNotAllowed(
            f"side {other} has timed out {count} decision(s) in a row; it may be handed to "
            f"the computer after {CLAIM_AFTER}"
        )
    await S.revoke_seat(conn, game.id, other)
    await S.revoke_invites(conn, game.id, other)
    # the computer acts through the seat's token hash; the token itself is never kept
    name = computer_name(DEFAULT_LEVEL)
    await S.add_seat(conn, game.id, other, name, tokens.digest(tokens.new_token()))
    await CS.add(conn, game.id, other, DEFAULT_LEVEL, new_rng_key())
    reason = f"side {seat} handed side {other} to the computer after {count} timeouts in a row"
    event = Event(state.seq + 1, state.turn, "seat_replaced", {"side": other, "reason": reason})
    return [event], evolve(state, event)
