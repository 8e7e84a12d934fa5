"""command boundaries for rewinds; presence of open pages and streams

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch_op:
        batch_op.add_column(
            sa.Column("ends_command", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.create_table(
        "presence",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_presence_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_presence")),
    )
    with op.batch_alter_table("presence") as batch_op:
        batch_op.create_index(batch_op.f("ix_presence_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("presence") as batch_op:
        batch_op.drop_index(batch_op.f("ix_presence_game_id"))
    op.drop_table("presence")
    with op.batch_alter_table("events") as batch_op:
        batch_op.drop_column("ends_command")
