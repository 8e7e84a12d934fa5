"""Tables. The event log is the truth; the game row carries the snapshot it folds into."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = sa.MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSONType}


class Game(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    status: Mapped[str] = mapped_column(sa.String(16))  # waiting | active | finished
    paused: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    spectators: Mapped[bool] = mapped_column(default=True, server_default=sa.true())
    creator: Mapped[str] = mapped_column(sa.String(8))  # A | B | referee
    seed: Mapped[str] = mapped_column(sa.String(64))  # secret until the game ends
    seed_commitment: Mapped[str] = mapped_column(sa.String(64))
    snapshot: Mapped[dict[str, Any]]
    seq: Mapped[int]  # last seq of the log
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    # the normalized create request, for a rematch (issue 15); None for older games
    settings: Mapped[dict[str, Any] | None]
    # the time control and its accounting (app/play/clocks.py); when the first running side
    # runs out (null while no clock runs): what the deadline workers poll
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    deadline: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True), index=True)


class Seat(Base):
    __tablename__ = "seats"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), index=True)
    side: Mapped[str] = mapped_column(sa.String(8))  # A | B | referee
    name: Mapped[str | None] = mapped_column(sa.String(80))
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))


class Invite(Base):
    __tablename__ = "invites"

    code_hash: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), index=True)
    side: Mapped[str] = mapped_column(sa.String(8))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    claimed_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))


class EventRow(Base):
    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(
        sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(primary_key=True)
    turn: Mapped[int]
    type: Mapped[str] = mapped_column(sa.String(40))
    data: Mapped[dict[str, Any]]
    # who receives the event in full: "all", "A", "B" or "referee" (the others get a stub)
    full_for: Mapped[str] = mapped_column(sa.String(8))
    voided: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    # the last event of a command (or a service action): where a referee may rewind to
    ends_command: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class IdempotencyRecord(Base):
    __tablename__ = "idempotency"

    game_id: Mapped[str] = mapped_column(
        sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    token_hash: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    key: Mapped[str] = mapped_column(sa.String(200), primary_key=True)
    request_hash: Mapped[str] = mapped_column(sa.String(64))
    status_code: Mapped[int]
    response: Mapped[dict[str, Any]]
    first_seq: Mapped[int | None]
    last_seq: Mapped[int | None]
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class SavedDesign(Base):
    __tablename__ = "designs"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    owner_token_hash: Mapped[str] = mapped_column(sa.String(64))
    data: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class Presence(Base):
    """Open pages and streams, one row each, kept fresh by a heartbeat (any worker)."""

    __tablename__ = "presence"

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[str] = mapped_column(sa.String(16))
    kind: Mapped[str] = mapped_column(sa.String(8))  # page | stream
    opened_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    last_seen: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))


# -- issue 15: chat and rematch (helper "social") ------------------------------------------
class ChatMessage(Base):
    """A chat line: numbered per game and channel, never a game event (no seq)."""

    __tablename__ = "chat"

    game_id: Mapped[str] = mapped_column(
        sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    channel: Mapped[str] = mapped_column(sa.String(16), primary_key=True)  # players | spectators
    n: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    sender: Mapped[str] = mapped_column(sa.String(120))
    text: Mapped[str] = mapped_column(sa.String(500))
    at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class Rematch(Base):
    """A finished game's rematch: who offered, and once accepted the new game and the seats
    of the old game whose new token is still to be handed out (``"A,referee"``)."""

    __tablename__ = "rematches"

    game_id: Mapped[str] = mapped_column(
        sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    offered_by: Mapped[str] = mapped_column(sa.String(8))
    new_game_id: Mapped[str | None] = mapped_column(sa.String(32))
    pending: Mapped[str] = mapped_column(sa.String(32), default="", server_default="")
    offered_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


# -- issue 15: browsers and their seats (helper "mygames") ---------------------------------
class BrowserSeat(Base):
    """Which seat of a game a browser holds: the browser named by a hash of its id (the id
    itself lives only in the browser's signed cookie), the seat by its row."""

    __tablename__ = "browser_seats"

    browser_hash: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(
        sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat_id: Mapped[int] = mapped_column(sa.ForeignKey("seats.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class SeatLink(Base):
    """A "play on another device" link for a seat held through a browser id (the browser has
    no token to show): its code as a hash; it dies with the seat."""

    __tablename__ = "seat_links"

    code_hash: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    seat_id: Mapped[int] = mapped_column(sa.ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


# -- issue 15: notifications (helper "notify") ---------------------------------------------
class NotifyTarget(Base):
    """Where to tell a seat "your turn": one webhook, push subscription or e-mail address per
    kind and seat (issue 15). An e-mail address is used only once ``confirmed``."""

    __tablename__ = "notify_targets"
    __table_args__ = (sa.UniqueConstraint("game_id", "seat", "kind"),)

    id: Mapped[str] = mapped_column(sa.String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(sa.String(16))
    kind: Mapped[str] = mapped_column(sa.String(8))  # webhook | push | email
    target: Mapped[dict[str, Any]]  # {"url"} | {"subscription"} | {"address"}
    confirmed: Mapped[bool] = mapped_column(default=True, server_default=sa.true())
    # an e-mail confirmation: the SHA-256 of its one-time token, and until when it holds
    confirm_hash: Mapped[str | None] = mapped_column(sa.String(64), index=True)
    confirm_until: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class OutboxRow(Base):
    """One notification to send to one target, queued in the transaction of the write that
    caused it; a sender claims it (``lease_until``), sends it after that commit and marks it."""

    __tablename__ = "notify_outbox"
    __table_args__ = (sa.Index("ix_notify_outbox_due", "state", "due_at"),)

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(sa.String(16))
    target_id: Mapped[str] = mapped_column(sa.String(32))
    event: Mapped[str] = mapped_column(sa.String(16))  # your_turn | game_finished
    seq: Mapped[int]
    body: Mapped[dict[str, Any]]  # what is sent: content, game_id, seq, event
    # queued | sent | skipped (the seat was online) | dropped (target gone) | failed
    state: Mapped[str] = mapped_column(sa.String(8), default="queued", server_default="queued")
    attempts: Mapped[int] = mapped_column(default=0, server_default="0")
    due_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    lease_until: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(sa.String(200))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    done_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))


# -- issue 17: the computer opponent -------------------------------------------------------
class ComputerSeat(Base):
    """A side the server's computer plays: its level and the seat row it acts through. The
    turn it is thinking about is claimed here (``lease_*``), and when it was asked
    (``asked_*``), so that a restart loses no turn, two workers never both play it and the
    answer's release time survives a restart."""

    __tablename__ = "computer_seats"

    game_id: Mapped[str] = mapped_column(
        sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    side: Mapped[str] = mapped_column(sa.String(8), primary_key=True)  # A | B
    level: Mapped[str] = mapped_column(sa.String(16))  # cadet | captain
    # the computer's own random source, drawn at seating (not the game's dice seed)
    rng_key: Mapped[str] = mapped_column(sa.String(64))
    seat_id: Mapped[int] = mapped_column(sa.ForeignKey("seats.id", ondelete="CASCADE"))
    # the game's seq at which the computer was last found not awaited: skipped until it moves
    idle_seq: Mapped[int] = mapped_column(default=-1, server_default="-1")
    asked_seq: Mapped[int | None]
    asked_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    lease_owner: Mapped[str | None] = mapped_column(sa.String(32))
    lease_until: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    # what the computer believed at its last decision (the captain's heat map; shown to the
    # referee during the game and to everyone after it, never to a seat before the end)
    belief: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)


class ComputerBelief(Base):
    """What the computer believed at its last decision of each turn it played: one heat map per
    (game, side, turn), for the picture turn by turn (same access as ``ComputerSeat.belief``)."""

    __tablename__ = "computer_beliefs"

    game_id: Mapped[str] = mapped_column(
        sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    side: Mapped[str] = mapped_column(sa.String(8), primary_key=True)
    turn: Mapped[int] = mapped_column(primary_key=True)
    seq: Mapped[int]
    belief: Mapped[dict[str, Any]] = mapped_column(JSONType)
