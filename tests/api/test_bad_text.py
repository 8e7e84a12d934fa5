"""Text the server cannot keep is refused where it comes in (selected backend: run on both).

A lone surrogate (``"\\ud800"``, legal in JSON's escapes, not a character) used to be stored on
SQLite: from then on every answer that carried it failed to encode (the game's view, events,
resign; a saved design's ``/api/v1/designs/{id}``, ``/?design=``, ``/designer?from=``), a 500 for
everyone. PostgreSQL refuses NUL in text by itself (a bare 500, or a 422 that names no field).
Now every string of every JSON body (and every object key) with a NUL or a lone surrogate is a
422 ``invalid_request`` naming the field; page forms refuse NUL the same way (a form cannot
carry a surrogate: its bytes decode with replacement), and a pasted design in the designer is
an inline message. Nothing is stored.
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from app.rules.designs import PRESET_DESIGNS
from app.store.models import SavedDesign
from tests.api.helpers import API, deploy_duel, new_game
from tests.api.replay_check import assert_problem
from tests.conftest import ADMIN
from tests.web import Browser, element

ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}
BAD = {"surrogate": "\ud800", "low surrogate": "x\udfffy", "nul": "a\x00b"}
FRIGATE = PRESET_DESIGNS["frigate"].to_dict()


async def post(
    client: httpx.AsyncClient, path: str, body: Any, headers: dict[str, str] | None = None
) -> httpx.Response:
    """JSON with escapes, as most clients write it (httpx's ``json=`` cannot send a lone
    surrogate: it writes UTF-8, which has none)."""
    return await client.post(
        path,
        content=json.dumps(body),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def refused_for(r: httpx.Response, field: str) -> dict[str, Any]:
    body = assert_problem(r, 422, "invalid_request")
    assert body["detail"].startswith(f"{field}: "), body
    assert any(e["field"] == field for e in body["errors"]), body
    return body


async def saved_designs(client: httpx.AsyncClient) -> int:
    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.db.session() as session:
        return int(await session.scalar(sa.select(sa.func.count()).select_from(SavedDesign)) or 0)


async def game_count(client: httpx.AsyncClient) -> int:
    r = await client.get(f"{API}/games", headers=ADMIN_AUTH)
    return len(r.json()["games"])


def design_with(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    design = copy.deepcopy(FRIGATE)
    target: Any = design
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return design


@pytest.mark.parametrize("kind", list(BAD))
async def test_design_bodies_with_unstorable_text_are_422_naming_the_field(
    client: httpx.AsyncClient, kind: str
) -> None:
    bad = BAD[kind]
    cases = [
        (design_with(("name",), bad), "name"),
        (design_with(("id",), bad), "id"),
        (design_with(("class",), bad), "class"),
        (design_with(("systems", 0, "id"), bad), "systems.0.id"),
        (design_with(("systems", 0, "arcs"), ["F", bad]), "systems.0.arcs.1"),
        ({**FRIGATE, bad: 1}, "body"),  # an object key
    ]
    for design, field in cases:
        for path in (f"{API}/designs/validate", f"{API}/designs"):
            refused_for(await post(client, path, design), field)
        game = {
            "sides": {
                "A": {"ships": [{"name": "a", "design": design}]},
                "B": {"ships": [{"name": "b", "design": "frigate"}]},
            }
        }
        refused_for(
            await post(client, f"{API}/games", game),
            "sides.A.ships.0.design" + ("" if field == "body" else f".{field}"),
        )
    assert await saved_designs(client) == 0
    assert await game_count(client) == 0


@pytest.mark.parametrize("kind", list(BAD))
async def test_names_reasons_and_commands_with_unstorable_text_are_422(
    client: httpx.AsyncClient, kind: str
) -> None:
    bad = BAD[kind]
    sides = {
        "A": {"name": "Blue", "ships": [{"name": "a", "design": "frigate"}]},
        "B": {"name": "Red", "ships": [{"name": "b", "design": "frigate"}]},
    }
    cases: list[tuple[dict[str, Any], str]] = [
        ({"scenario": "duel", "creator_name": bad}, "creator_name"),
        ({"scenario": bad}, "scenario"),
        ({"sides": {**sides, "B": {**sides["B"], "name": bad}}}, "sides.B.name"),
        (
            {"sides": {**sides, "A": {"ships": [{"name": f"x{bad}", "design": "frigate"}]}}},
            "sides.A.ships.0.name",
        ),
        (
            {"sides": {**sides, "A": {"ships": [{"name": "a", "design": bad}]}}},
            "sides.A.ships.0.design",
        ),
    ]
    for body, field in cases:
        refused_for(await post(client, f"{API}/games", body), field)
    assert await game_count(client) == 0

    created = (await post(client, f"{API}/games", {"scenario": "duel"})).json()
    code = created["invites"]["B"]
    refused_for(await post(client, f"{API}/invites/{code}/claim", {"name": bad}), "name")
    r = await post(client, f"{API}/invites/{code}/claim", {"name": "Bea"})
    assert r.status_code == 200, r.text  # the refusal did not use the invite
    game = await new_game(client, {"scenario": "duel"})
    await deploy_duel(client, game)
    view = (await client.get(game.path, headers=ADMIN_AUTH)).json()
    side = view["phase"]["side"]
    for body, field in (
        ({"type": "activate", "ship": bad}, "ship"),
        ({"type": "ping", "ship": f"{side.lower()}1{bad}"}, "ship"),
    ):
        r = await post(client, f"{game.path}/commands", body, game.auth(side))
        refused_for(r, field)
    for action, body in (
        ("pause", {"reason": bad}),
        ("end", {"winner": "A", "reason": f"why{bad}"}),
    ):
        r = await post(client, f"{game.path}/referee/{action}", body, ADMIN_AUTH)
        refused_for(r, "reason")
    after = (await client.get(game.path, headers=ADMIN_AUTH)).json()
    assert after == view
    # and the game answers everyone as before
    for seat in ("A", "B"):
        assert (await client.get(f"{game.path}/events", headers=game.auth(seat))).status_code == 200


async def test_a_design_named_with_a_surrogate_cannot_break_the_pages(
    client: httpx.AsyncClient,
) -> None:
    """What the surrogate used to break, each answered (nothing of it was stored)."""
    r = await post(client, f"{API}/designs", design_with(("name",), "\ud800"))
    refused_for(r, "name")
    r = await client.post(f"{API}/designs", json=design_with(("name",), "Fine"))
    assert r.status_code == 201
    saved = r.json()["id"]
    for path in (f"{API}/designs/{saved}", f"/?design={saved}", f"/designer?from={saved}"):
        assert (await client.get(path)).status_code == 200, path
    # a NUL (or a surrogate's replacement) in an id asked for is an unknown design, not a 500
    r = await client.get(f"{API}/designs/x%00y")
    assert_problem(r, 404, "unknown_design")
    r = await client.get("/?design=x%00y")
    assert r.status_code == 200 and "unknown design" in r.text
    r = await client.get("/designer?from=x%00y")
    assert r.status_code == 404 and "no design" in r.text


# -- the page forms ----------------------------------------------------------------------------
LOBBY = {"mode": "ships", "movement": "cinematic", "seat": "A"}
SHIPS = {"A_design_1": "frigate", "A_name_1": "a", "B_design_1": "frigate", "B_name_1": "b"}


async def test_page_forms_refuse_nul_inline_and_store_nothing(client: httpx.AsyncClient) -> None:
    browser = Browser(client)
    try:
        for field in ("name", "A_side_name", "B_name_1", "A_design_1"):
            fields = {**LOBBY, **SHIPS, field: "x\x00y"}
            r = await browser.form("/games", fields)
            assert r.status_code == 422, (field, r.status_code)
            assert "NUL" in element(r.text, "lobby-error"), field
        assert await game_count(client) == 0
        # the join form
        created = (await post(client, f"{API}/games", {"scenario": "duel"})).json()
        code = created["invites"]["B"]
        await browser.get(f"/join/{code}")
        r = await browser.form(f"/join/{code}", {"name": "Bea\x00"})
        assert r.status_code == 422 and "NUL" in r.text, r.text[:300]
        r = await client.get(f"{API}/games/{created['game_id']}", headers=ADMIN_AUTH)
        assert r.json()["status"] == "waiting"
        # the referee's reason
        admin = Browser(client)
        try:
            await admin.form("/referee/login", {"token": ADMIN})
            r = await admin.form(
                f"/games/{created['game_id']}/referee/pause", {"reason": "tea\x00"}
            )
            assert r.status_code == 422 and "NUL" in r.text
            r = await client.get(f"{API}/games/{created['game_id']}", headers=ADMIN_AUTH)
            assert r.json()["paused"] is False
        finally:
            await admin.close()
    finally:
        await browser.close()


async def test_the_designer_refuses_nul_in_fields_and_bad_text_in_imports(
    client: httpx.AsyncClient,
) -> None:
    browser = Browser(client)
    try:
        page = (await browser.get("/designer?from=frigate")).text
        fields = dict(re.findall(r'<input[^>]*name="(f_[a-z_]+)"[^>]*value="([^"]*)"', page))
        fields.update(
            dict(re.findall(r'<input[^>]*name="(sys-\d+-[a-z]+)"[^>]*value="([^"]*)"', page))
        )
        for key in ("f_name", "f_id"):
            bad = {**fields, key: "x\x00y"}
            r = await browser.form("/designer/save", bad)
            assert r.status_code == 422 and "NUL" in r.text, (key, r.text[:300])
            r = await browser.form("/designer/summary", bad, htmx=True)
            assert "NUL" in r.text, key
        assert await saved_designs(client) == 0
        # a pasted design: JSON escapes can spell a surrogate or a NUL
        for bad in ("\\ud800", "\\u0000", "x\\udc00"):
            text = (
                '{"id": "x", "name": "' + bad + '", "class": "frigate", "mass": 30, '
                '"thrust": 4, "hull": 8}'
            )
            r = await browser.form("/designer", {"do_import": "1", "import_json": text})
            assert r.status_code == 422, (bad, r.status_code)
            error = re.search(r'id="import-error">(.*?)</p>', r.text, re.S)
            assert error and "name:" in error.group(1), r.text[:300]
    finally:
        await browser.close()
