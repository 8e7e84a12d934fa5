"""clocks: the time control and its accounting on the game row, and the deadline workers poll

Revision ID: 0003_clocks
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0003_clocks"
down_revision = "0003_browsers"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(
            sa.Column("clock", sa.JSON().with_variant(JSONB(), "postgresql"), nullable=True)
        )
        batch_op.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f("ix_games_deadline"), ["deadline"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_deadline"))
        batch_op.drop_column("deadline")
        batch_op.drop_column("clock")
