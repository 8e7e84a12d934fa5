"""Ship designs, the systems table they are built from, and preset scenarios."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.design_schemas import DesignOut, DesignSummaryOut, SystemsOut
from app.api.schemas import (
    DesignBody,
    DesignSavedOut,
    DesignsOut,
    ScenariosOut,
    integral_numbers,
)
from app.deps import DbDep
from app.play import designs
from app.problems import documented

router = APIRouter(tags=["designs"])

_DESIGN_BODY = (
    "A design object: `id`, `name`, `class`, `mass`, `thrust`, `hull`, and optionally "
    "`hull_rows` (3–6, default 4), `armour` (default 0), `broadside` (default false), `stealth` "
    "(0–2, default 0) and `systems` — each `{id, type}` plus what its type takes (see "
    "`GET /api/v1/systems`: `class`, `arcs`, `weak_arcs`, `mode`, `level`, `grade`). Read "
    "strictly: a wrong JSON type or an unknown field is a problem too. A 422 lists every "
    "problem in `problems`, each saying what to change. A design as `GET /designs` or "
    "`GET /designs/{id}` gave it out may be sent back as it is: its read-only `points` and "
    "`summary` are ignored (always computed from the design)."
)


@router.get(
    "/systems",
    response_model=SystemsOut,
    summary="The systems table: every designable system, hull options, stealth and arcs",
)
async def list_systems() -> dict[str, Any]:
    return designs.systems_table()


@router.get("/designs", response_model=DesignsOut, summary="The preset ship designs")
async def list_designs() -> dict[str, Any]:
    return designs.presets()


@router.post(
    "/designs/validate",
    response_model=DesignSummaryOut,
    response_model_exclude_unset=True,
    responses=documented(400, 413, 422),
    summary="Check a design: mass used and points, or every problem with what to change",
    description=_DESIGN_BODY,
)
async def validate_design(body: DesignBody) -> dict[str, Any]:
    return designs.validate(integral_numbers(body))


@router.post(
    "/designs",
    status_code=201,
    response_model=DesignSavedOut,
    responses=documented(400, 413, 422),
    summary="Save a design; its id can be used in a game's sides",
    description=_DESIGN_BODY
    + " The answer's `owner_token` is shown once: keep it (it is stored only as a hash).",
)
async def save_design(body: DesignBody, db: DbDep) -> dict[str, Any]:
    return await designs.save(db, integral_numbers(body))


@router.get(
    "/designs/{design_id}",
    response_model=DesignOut,
    response_model_exclude_unset=True,
    responses=documented(404, 422),
    summary="A preset or saved design",
)
async def get_design(design_id: str, db: DbDep) -> dict[str, Any]:
    return await designs.get(db, design_id)


@router.get("/scenarios", response_model=ScenariosOut, summary="The preset scenarios")
async def list_scenarios() -> dict[str, Any]:
    return designs.scenarios()
