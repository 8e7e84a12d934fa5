"""the sides the server's computer plays, with the turn it has claimed

Revision ID: 0004_computer
Revises: 0003_notify
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0004_computer"
down_revision = "0003_notify"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "computer_seats",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("side", sa.String(8), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("rng_key", sa.String(64), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("idle_seq", sa.Integer(), nullable=False, server_default="-1"),
        sa.Column("asked_seq", sa.Integer(), nullable=True),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lease_owner", sa.String(32), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("belief", JSONType, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_computer_seats_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["seat_id"],
            ["seats.id"],
            name=op.f("fk_computer_seats_seat_id_seats"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "side", name=op.f("pk_computer_seats")),
    )


def downgrade() -> None:
    op.drop_table("computer_seats")
