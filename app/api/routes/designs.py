"""Ship designs and preset scenarios."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.schemas import DesignSavedOut, DesignsOut, ScenariosOut
from app.deps import DbDep
from app.play import designs
from app.problems import documented

router = APIRouter(tags=["designs"])


@router.get("/designs", response_model=DesignsOut, summary="The preset ship designs")
async def list_designs() -> dict[str, Any]:
    return designs.presets()


@router.post(
    "/designs/validate",
    responses=documented(400, 413, 422),
    summary="Check a design: mass used and points, or every problem with what to change",
)
async def validate_design(body: dict[str, Any]) -> dict[str, Any]:
    return designs.validate(body)


@router.post(
    "/designs",
    status_code=201,
    response_model=DesignSavedOut,
    responses=documented(400, 413, 422),
    summary="Save a design; its id can be used in a game's sides",
)
async def save_design(body: dict[str, Any], db: DbDep) -> dict[str, Any]:
    return await designs.save(db, body)


@router.get(
    "/designs/{design_id}",
    responses=documented(404, 422),
    summary="A preset or saved design",
)
async def get_design(design_id: str, db: DbDep) -> dict[str, Any]:
    return await designs.get(db, design_id)


@router.get("/scenarios", response_model=ScenariosOut, summary="The preset scenarios")
async def list_scenarios() -> dict[str, Any]:
    return designs.scenarios()
