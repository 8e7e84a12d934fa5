"""browser seats (my games under one browser id) and seat links for other devices

Revision ID: 0003_browsers
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_browsers"
down_revision = "0003_social"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "browser_seats",
        sa.Column("browser_hash", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_browser_seats_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["seat_id"],
            ["seats.id"],
            name=op.f("fk_browser_seats_seat_id_seats"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("browser_hash", "game_id", name=op.f("pk_browser_seats")),
    )

    op.create_table(
        "seat_links",
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["seat_id"], ["seats.id"], name=op.f("fk_seat_links_seat_id_seats"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("code_hash", name=op.f("pk_seat_links")),
    )
    with op.batch_alter_table("seat_links") as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_links_seat_id"), ["seat_id"], unique=False)


def downgrade() -> None:
    op.drop_table("seat_links")
    op.drop_table("browser_seats")
