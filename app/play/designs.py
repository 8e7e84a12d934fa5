"""Ship designs over the network: presets, validation, saving under an owner token."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.play import errors as E
from app.play import tokens
from app.rules.designs import PRESET_DESIGNS, Design, design_summary, validate_design
from app.rules.errors import DesignError
from app.rules.scenarios import PRESET_SCENARIOS
from app.store.db import Database
from app.store.models import SavedDesign


def describe(design: Design) -> dict[str, Any]:
    return {**design.to_dict(), "points": design.points(), "summary": design_summary(design)}


def presets() -> dict[str, Any]:
    return {"designs": [describe(d) for d in PRESET_DESIGNS.values()]}


def scenarios() -> dict[str, Any]:
    return {"scenarios": [s.to_dict() for s in PRESET_SCENARIOS.values()]}


def checked(data: Mapping[str, Any]) -> Design:
    try:
        design = Design.from_dict(data)
        validate_design(design)
    except DesignError as error:
        raise E.InvalidDesign(error.detail, problems=error.problems) from None
    return design


def validate(data: Mapping[str, Any]) -> dict[str, Any]:
    return design_summary(checked(data))


async def save(db: Database, data: Mapping[str, Any]) -> dict[str, Any]:
    design = checked(data)
    design_id = f"d-{tokens.new_id()}"
    token = tokens.new_token()
    stored = {**design.to_dict(), "id": design_id}
    async with db.session() as session, session.begin():
        session.add(SavedDesign(id=design_id, owner_token_hash=tokens.digest(token), data=stored))
    return {"id": design_id, "owner_token": token}


async def get(db: Database, design_id: str) -> dict[str, Any]:
    if design_id in PRESET_DESIGNS:
        return describe(PRESET_DESIGNS[design_id])
    async with db.session() as session, session.begin():
        saved = await session.get(SavedDesign, design_id)
        if saved is None:
            raise E.UnknownDesign(f"no design {design_id!r}")
        return describe(Design.from_dict(saved.data))
