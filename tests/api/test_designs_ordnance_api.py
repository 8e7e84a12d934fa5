"""The design routes carry the ordnance fields (issue 12): a rack's ``load``, a launcher's
``magazine``, a magazine's ``loads``; validate gives the magazine's mass from its loads, save and
get give every field back, and every ordnance fault comes back in one problem+json 422."""

from __future__ import annotations

from typing import Any

import httpx

from app.rules.designs import Design, design_summary, preset

API = "/api/v1"


def missile_design() -> dict[str, Any]:
    return preset("missile_cruiser").to_dict() | {"id": "volley", "name": "Volley"}


async def test_validate_weighs_the_magazine_by_its_loads(client: httpx.AsyncClient) -> None:
    body = missile_design()
    r = await client.post(f"{API}/designs/validate", json=body)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got == design_summary(Design.from_dict(body)) and got["problems"] == []
    rows = {row["id"]: row for row in got["systems"]}
    assert rows["mag-1"] == {"id": "mag-1", "type": "magazine", "mass": 16, "points": 48}
    assert rows["sml-1"]["mass"] == 3 and rows["sml-1"]["points"] == 9


async def test_save_and_get_keep_load_loads_and_magazine(client: httpx.AsyncClient) -> None:
    body = missile_design()
    body["systems"].append({"id": "smr-1", "type": "salvo_rack", "arcs": ["A"], "load": "salvo"})
    body["armour"] = 0  # the rack's 4 mass instead of the 4 armour boxes
    assert Design.from_dict(body).problems() == [], Design.from_dict(body).problems()
    r = await client.post(f"{API}/designs", json=body)
    assert r.status_code == 201, r.text
    saved = r.json()
    got = (await client.get(f"{API}/designs/{saved['id']}")).json()
    design = {k: v for k, v in got.items() if k not in ("points", "summary")}
    assert design == {**body, "id": saved["id"]}
    systems = {s["id"]: s for s in got["systems"]}
    assert systems["mag-1"]["loads"] == {"salvo": 4, "er_salvo": 2, "af_salvo": 2}
    assert systems["sml-2"]["magazine"] == "mag-1" and systems["smr-1"]["load"] == "salvo"


async def test_ordnance_faults_are_one_problem_json(client: httpx.AsyncClient) -> None:
    body = missile_design()
    body["systems"] = [
        {"id": "fc-1", "type": "fire_control"},
        {"id": "b", "type": "beam", "class": 1},
        {"id": "sml-1", "type": "salvo_launcher", "arcs": ["F"]},
        {"id": "mag-1", "type": "magazine", "loads": {"salvo": 0, "torpedo": 1}},
        {"id": "hmr-1", "type": "heavy_missile_rack", "arcs": ["F"]},
    ]
    r = await client.post(f"{API}/designs/validate", json=body)
    assert r.status_code == 422, r.text
    problems = r.json()["problems"]
    for fragment in (
        "sml-1 is fed from no magazine: set its magazine to mag-1",
        "holds 0 × 'salvo'",
        "'torpedo' is not a load",
        "mag-1 feeds no launcher",
        "heavy missile rack hmr-1 has no missile type",
    ):
        assert any(fragment in p for p in problems), (fragment, problems)
    body["systems"][3] = {"id": "mag-1", "type": "magazine", "loads": {"salvo": True}}
    r = await client.post(f"{API}/designs", json=body)
    assert r.status_code == 422
    assert any("loads['salvo'] must be a whole number" in p for p in r.json()["problems"])


async def test_the_systems_table_gives_magazine_and_rack_masses_per_load(
    client: httpx.AsyncClient,
) -> None:
    """C2.2/C2.3 by hand: a standard salvo rack 4 mass (12 points), an extended-range one 5
    (15); a magazine weighs what it holds, 2 per standard salvo, 3 per ER, 1 per AF salvo or
    heavy missile, at 3 points per mass."""
    r = await client.get(f"{API}/systems")
    assert r.status_code == 200
    rows = {row["type"]: row for row in r.json()["systems"]}
    rack = {v["load"]: (v["mass"], v["points"]) for v in rows["salvo_rack"]["masses"]}
    assert rack == {"salvo": (4, 12), "er_salvo": (5, 15)}
    magazine = {v["load"]: (v["mass"], v["points"]) for v in rows["magazine"]["masses"]}
    assert magazine["salvo"] == (2, 6) and magazine["er_salvo"] == (3, 9)
    assert magazine["af_salvo"] == (1, 3) and magazine["needle"] == (1, 3)
