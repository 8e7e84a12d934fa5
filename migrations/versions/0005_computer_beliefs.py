"""the computer's heat map at its last decision of each turn

Revision ID: 0005_computer_beliefs
Revises: 0004_computer
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0005_computer_beliefs"
down_revision = "0004_computer"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "computer_beliefs",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("side", sa.String(8), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("belief", JSONType, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_computer_beliefs_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "side", "turn", name=op.f("pk_computer_beliefs")),
    )


def downgrade() -> None:
    op.drop_table("computer_beliefs")
