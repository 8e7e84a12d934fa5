"""Saved designs: a design's JSON under its id, with its owner token's hash."""

from __future__ import annotations

from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from app.store.models import SavedDesign

designs = cast(sa.Table, SavedDesign.__table__)


async def add_design(
    conn: AsyncConnection, design_id: str, owner_token_hash: str, data: dict[str, Any]
) -> None:
    await conn.execute(
        sa.insert(designs),
        {"id": design_id, "owner_token_hash": owner_token_hash, "data": data},
    )


async def design_data(conn: AsyncConnection, design_id: str) -> dict[str, Any] | None:
    data = await conn.scalar(sa.select(designs.c.data).where(designs.c.id == design_id))
    return dict(data) if data is not None else None
