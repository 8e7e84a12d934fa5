"""games, seats, invites, events, idempotency, designs

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def _created() -> sa.Column[object]:
    return sa.Column("created_at", sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "designs",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("owner_token_hash", sa.String(64), nullable=False),
        sa.Column("data", JSON, nullable=False),
        _created(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_designs")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("paused", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("spectators", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("creator", sa.String(8), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("seed_commitment", sa.String(64), nullable=False),
        sa.Column("snapshot", JSON, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        _created(),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_table(
        "events",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(40), nullable=False),
        sa.Column("data", JSON, nullable=False),
        sa.Column("full_for", sa.String(8), nullable=False),
        sa.Column("voided", sa.Boolean(), server_default=sa.false(), nullable=False),
        _created(),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_events_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_events")),
    )
    op.create_table(
        "idempotency",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=False),
        sa.Column("response", JSON, nullable=False),
        sa.Column("first_seq", sa.Integer(), nullable=True),
        sa.Column("last_seq", sa.Integer(), nullable=True),
        _created(),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_idempotency_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "token_hash", "key", name=op.f("pk_idempotency")),
    )
    op.create_table(
        "invites",
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("side", sa.String(8), nullable=False),
        _created(),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_invites_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("code_hash", name=op.f("pk_invites")),
    )
    with op.batch_alter_table("invites") as batch_op:
        batch_op.create_index(batch_op.f("ix_invites_game_id"), ["game_id"], unique=False)
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("side", sa.String(8), nullable=False),
        sa.Column("name", sa.String(80), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        _created(),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_seats_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_seats_token_hash")),
    )
    with op.batch_alter_table("seats") as batch_op:
        batch_op.create_index(batch_op.f("ix_seats_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch_op:
        batch_op.drop_index(batch_op.f("ix_seats_game_id"))
    op.drop_table("seats")
    with op.batch_alter_table("invites") as batch_op:
        batch_op.drop_index(batch_op.f("ix_invites_game_id"))
    op.drop_table("invites")
    op.drop_table("idempotency")
    op.drop_table("events")
    op.drop_table("games")
    op.drop_table("designs")
