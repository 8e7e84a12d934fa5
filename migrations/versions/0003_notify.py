"""notification targets of seats and the outbox of notifications to send

Revision ID: 0003_notify
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision = "0003_notify"
down_revision = "0003_clocks"
branch_labels = None
depends_on = None

JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "notify_targets",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("target", JSON, nullable=False),
        sa.Column("confirmed", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("confirm_hash", sa.String(64), nullable=True),
        sa.Column("confirm_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_notify_targets_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notify_targets")),
        sa.UniqueConstraint("game_id", "seat", "kind", name=op.f("uq_notify_targets_game_id")),
    )
    with op.batch_alter_table("notify_targets") as batch_op:
        batch_op.create_index(
            batch_op.f("ix_notify_targets_confirm_hash"), ["confirm_hash"], unique=False
        )
    op.create_table(
        "notify_outbox",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(32), nullable=False),
        sa.Column("seat", sa.String(16), nullable=False),
        sa.Column("target_id", sa.String(32), nullable=False),
        sa.Column("event", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("body", JSON, nullable=False),
        sa.Column("state", sa.String(8), server_default="queued", nullable=False),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_notify_outbox_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notify_outbox")),
    )
    with op.batch_alter_table("notify_outbox") as batch_op:
        batch_op.create_index("ix_notify_outbox_due", ["state", "due_at"], unique=False)


def downgrade() -> None:
    op.drop_table("notify_outbox")
    op.drop_table("notify_targets")
