"""chat messages per game and channel; rematch offers; each game's creation settings

Revision ID: 0003_social
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0003_social"
down_revision = "0002"
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.add_column(sa.Column("settings", JSONType, nullable=True))
    op.create_table(
        "chat",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("sender", sa.String(120), nullable=False),
        sa.Column("text", sa.String(500), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_chat_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "channel", "n", name=op.f("pk_chat")),
    )
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("offered_by", sa.String(8), nullable=False),
        sa.Column("new_game_id", sa.String(32), nullable=True),
        # seats of the new game (old seat names: A, B, referee) whose token is still to hand out
        sa.Column("pending", sa.String(32), nullable=False, server_default=""),
        sa.Column("offered_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_rematches_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_rematches")),
    )


def downgrade() -> None:
    op.drop_table("rematches")
    op.drop_table("chat")
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("settings")
