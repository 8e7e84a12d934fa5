"""The design routes over HTTP: the systems table, validate, save and read back, and the copies
of its designs a game keeps.

- ``GET /api/v1/systems`` lists every row of ``app.rules.systems.SYSTEMS`` (in order) with the
  numbers the table's own functions give: each variant's mass and points (``system_mass`` /
  ``system_cost``), each firing profile (``profile``), hull points and threshold numbers per
  row count, stealth, and both arc orientations (``geometry.arc_span``);
- validate / save / get carry the newer fields (``weak_arcs``, ``mode``, ``stealth``) and their
  mass and points; every fault comes back as one problem+json 422 listing every problem, and
  nothing is saved;
- a game keeps its own copy of each design: changing the preset (or the saved design's row)
  afterwards never changes a game that already exists, while a new game takes the new one.
"""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from app.rules import systems as T
from app.rules.designs import PRESET_DESIGNS, Design, design_summary, preset
from app.rules.geometry import ARCS, BROADSIDE_ARCS, arc_span
from app.store.models import SavedDesign
from tests.conftest import ADMIN

API = "/api/v1"
ADMIN_AUTH = {"Authorization": f"Bearer {ADMIN}"}
PROBLEM = "application/problem+json"


def rich_design() -> dict[str, Any]:
    """A legal design using every newer field: weak arcs, a multi-fusion mode, stealth."""
    return {
        "id": "shadow",
        "name": "Shadow",
        "class": "stealth frigate",
        "mass": 40,
        "thrust": 4,
        "hull": 10,
        "hull_rows": 5,
        "armour": 2,
        "broadside": False,
        "stealth": 1,
        "systems": [
            {"id": "fc-1", "type": "fire_control"},
            {"id": "beam-1", "type": "beam", "class": 2, "arcs": ["FP", "F"], "weak_arcs": ["A"]},
            {"id": "mf-1", "type": "multi_fusion", "arcs": ["F"], "mode": "torpedo"},
            {"id": "screen-1", "type": "screen", "level": 1},
            {"id": "sensors-1", "type": "sensors", "grade": "enhanced"},
        ],
    }


# -- the systems table ----------------------------------------------------------------------
async def test_systems_lists_every_row_of_the_table_with_its_numbers(
    client: httpx.AsyncClient,
) -> None:
    r = await client.get(f"{API}/systems")
    assert r.status_code == 200, r.text
    table = r.json()
    rows = table["systems"]
    assert [row["type"] for row in rows] == list(T.SYSTEMS)
    for row in rows:
        t = T.SYSTEMS[row["type"]]
        for key in (
            "label",
            "section",
            "family",
            "summary",
            "mass_rule",
            "cost_rule",
            "arcs_rule",
            "max_arcs",
            "all_arcs",
            "weak_arcs",
            "pending",
            "screens",
            "targets_system",
            "max_per_ship",
            "damage",
        ):
            assert row[key] == getattr(t, key), (t.type, key)
        assert row["classes"] == list(t.classes)
        assert row["modes"] == list(t.modes)
        assert row["decisions"] == list(t.decisions)
        assert row["damage_path"] == (T.DAMAGE_PATHS[t.damage] if t.damage else None)
        assert row["emp_vulnerable"] == (t.type in T.EMP_VULNERABLE)
        assert row["family"] in table["families"]
        # every variant's mass and points, from the table's functions
        for variant in row["masses"]:
            load = variant.get("load")
            mass = T.system_mass(
                t.type,
                0,
                cls=variant.get("class"),
                arcs=variant.get("arcs") or 0,
                adjacent=variant.get("adjacent", True) is not False,
                grade=variant.get("grade"),
                # a rack built with its load; a magazine holding one such load
                load=load if t.rack else None,
                contents=T.LOAD_MASS[load] if t.stores and load else 0,
            )
            assert variant["mass"] == mass, (t.type, variant)
            assert variant["points"] == T.system_cost(t.type, mass, grade=variant.get("grade"))
        if t.weak_arcs:
            for cls in (c for c in t.classes if c >= 2):
                base = T.system_mass(t.type, 0, cls=cls, arcs=1)
                two = T.system_mass(t.type, 0, cls=cls, arcs=1, weak_arcs=2) - base
                assert row["weak_arc_mass"][str(cls)] == two / 2, (t.type, cls)
        else:
            assert row["weak_arc_mass"] is None
        # firing bands per class and mode
        if t.is_weapon:
            expected = [
                (cls, mode, T.profile(t.type, cls, mode))
                for cls in (t.classes or (None,))
                for mode in (t.modes or (None,))
            ]
            assert len(row["profiles"]) == len(expected)
            for got, (cls, mode, bands) in zip(row["profiles"], expected, strict=True):
                assert (got["class"], got["mode"]) == (cls, mode)
                assert [b["to"] for b in got["bands"]] == [b.to for b in bands]
                assert [b["dice"] for b in got["bands"]] == [b.dice for b in bands]
                assert [b["hit_on"] for b in got["bands"]] == [b.hit_on for b in bands]
                assert [b["notation"] for b in got["bands"]] == [b.describe() for b in bands]
        else:
            assert row["profiles"] == []
    by_type = {row["type"]: row for row in rows}
    # point defence works against missiles and torpedoes (issue 12): nothing pending
    assert by_type["pds"]["pending"] is None and by_type["adfc"]["pending"] is None
    assert all(row["pending"] == T.SYSTEMS[row["type"]].pending for row in rows)
    assert by_type["screen"]["fields"] == ["level"] and by_type["screen"]["levels"] == [1, 2]
    assert by_type["sensors"]["grades"] == list(T.SENSOR_GRADES)
    assert {v["grade"]: v["mass"] for v in by_type["sensors"]["masses"]} == {
        g: m for g, (m, _) in T.SENSOR_GRADES.items()
    }
    assert by_type["multi_fusion"]["modes"] == ["flare", "torpedo"]
    # beam class 2 with three arcs apart weighs more than three in a row
    beam2 = {
        (v["arcs"], v["adjacent"]): v["mass"] for v in by_type["beam"]["masses"] if v["class"] == 2
    }
    assert beam2[(3, True)] == T.beam_mass(2, 3, True) and beam2[(3, False)] == T.beam_mass(
        2, 3, False
    )


async def test_systems_gives_hull_options_stealth_and_arc_orientations(
    client: httpx.AsyncClient,
) -> None:
    table = (await client.get(f"{API}/systems")).json()
    rows = table["hull"]["rows"]
    assert [r["rows"] for r in rows] == [3, 4, 5, 6]
    for r in rows:
        n = r["rows"]
        assert r["threshold_numbers"] == list(T.threshold_numbers(n))
        for boxes in (10, 15, 27):
            num, den = r["cost_fraction"]
            assert -(-num * boxes // den) == T.hull_cost(boxes, n)
        assert r["cost_per_box"] == pytest.approx(T.hull_cost(100, n) / 100)
        lost = r["stealth_lost_after_rows"]
        assert (lost["level_1_lost"], lost["level_2_becomes_1"], lost["level_2_lost"]) == (
            T.STEALTH_LOST_AT[n]
        )
    stealth = table["stealth"]
    assert stealth["levels"] == [0, 1, 2]
    for level in stealth["levels"]:
        assert stealth["cost_per_box_per_level"] * level * (10 + 2) == T.stealth_cost(level, 10, 2)
    assert {f["level"]: (f["num"], f["den"]) for f in stealth["band_factor"]} == dict(
        T.STEALTH_BAND_FACTOR
    )
    for name, ring in (("standard", ARCS), ("broadside", BROADSIDE_ARCS)):
        orientation = table["orientations"][name]
        assert orientation["arcs"] == list(ring)
        assert [(s["arc"], s["from"], s["to"]) for s in orientation["spans"]] == [
            (a, *arc_span(a)) for a in ring
        ]
    assert table["limits"]["hull_rows"] == {"min": 3, "max": 6, "default": 4}


async def test_systems_is_in_the_openapi_document(client: httpx.AsyncClient) -> None:
    doc = (await client.get(f"{API}/openapi.json")).json()
    op = doc["paths"][f"{API}/systems"]["get"]
    ref = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert ref.endswith("/SystemsOut")
    row = doc["components"]["schemas"]["SystemRowOut"]["properties"]
    assert {"pending", "weak_arcs", "modes", "profiles", "damage_path", "masses"} <= set(row)
    assert doc["paths"][f"{API}/designs/{{design_id}}"]["get"]["responses"]["200"]


# -- validate, save, read back --------------------------------------------------------------
async def test_validate_reads_weak_arcs_mode_and_stealth(client: httpx.AsyncClient) -> None:
    body = rich_design()
    r = await client.post(f"{API}/designs/validate", json=body)
    assert r.status_code == 200, r.text
    got = r.json()
    assert got == design_summary(Design.from_dict(body))
    assert got["problems"] == []
    rows = {row["id"]: row for row in got["systems"]}
    assert rows["beam-1"]["mass"] == T.beam_mass(2, 2, True) + 1  # one weak arc
    assert rows["mf-1"]["mass"] == T.SYSTEMS["multi_fusion"].fixed_mass
    assert got["stealth"] == 1 and got["stealth_cost"] == T.stealth_cost(1, 10, 2) > 0


async def test_save_and_get_round_trip_every_field(client: httpx.AsyncClient) -> None:
    body = rich_design()
    r = await client.post(f"{API}/designs", json=body)
    assert r.status_code == 201, r.text
    saved = r.json()
    assert saved["id"].startswith("d-") and len(saved["owner_token"]) >= 22
    r = await client.get(f"{API}/designs/{saved['id']}")
    assert r.status_code == 200, r.text
    got = r.json()
    design = {k: v for k, v in got.items() if k not in ("points", "summary")}
    assert design == {**body, "id": saved["id"]}
    assert Design.from_dict(design) == Design.from_dict({**body, "id": saved["id"]})
    assert got["points"] == Design.from_dict(body).points()
    assert got["summary"]["stealth_cost"] > 0
    # a preset reads back the same way, without a stealth key (0 is left out)
    frigate = (await client.get(f"{API}/designs/frigate")).json()
    assert "stealth" not in frigate and frigate["points"] == preset("frigate").points()


async def test_every_problem_in_one_problem_json_and_nothing_saved(
    client: httpx.AsyncClient, db_url: str
) -> None:
    # wrong JSON types: every one named at once
    typed = {**rich_design(), "mass": "forty", "thrust": True, "armor": 2}
    typed["systems"] = [{"id": "b", "type": "beam", "class": "2", "arcs": "F"}]
    # rule problems: unknown type, bad arc, weak arc on class 1, bad mode, too heavy
    ruled = rich_design()
    ruled["systems"] = [
        {"id": "x-1", "type": "laser"},
        {"id": "beam-1", "type": "beam", "class": 2, "arcs": ["Q"]},
        {"id": "beam-2", "type": "beam", "class": 1, "weak_arcs": ["A"]},
        {"id": "mf-1", "type": "multi_fusion", "arcs": ["F"], "mode": "sideways"},
        {"id": "beam-3", "type": "beam", "class": 4, "arcs": list(ARCS)},
    ]
    for body, expected in (
        (
            typed,
            [
                "mass must be a whole number",
                "thrust must be a whole number",
                "unknown field 'armor'",
                "systems[0].class must be a whole number",
                "systems[0].arcs must be a list",
            ],
        ),
        (
            ruled,
            [
                "unknown type 'laser'",
                "arc 'Q' is not one of this design's standard arcs",
                "weak arcs fire one class lower",
                "has mode 'sideways': choose 'flare' or 'torpedo'",
                "mass used",
            ],
        ),
    ):
        for path in ("/designs/validate", "/designs"):
            r = await client.post(f"{API}{path}", json=body)
            assert r.status_code == 422, r.text
            assert r.headers["content-type"].startswith(PROBLEM)
            problem = r.json()
            assert problem["code"] == "invalid_design" and problem["status"] == 422
            for fragment in expected:
                assert any(fragment in p for p in problem["problems"]), (fragment, problem)
    for bad in (b"{not json", b"[1, 2]", b'"a string"'):
        r = await client.post(
            f"{API}/designs", content=bad, headers={"Content-Type": "application/json"}
        )
        assert 400 <= r.status_code < 500 and r.headers["content-type"].startswith(PROBLEM)
    r = await client.get(f"{API}/designs/d-nothere")
    assert r.status_code == 404 and r.json()["code"] == "unknown_design"
    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.db.session() as session:
        assert await session.scalar(sa.select(sa.func.count()).select_from(SavedDesign)) == 0


async def test_more_hull_rows_than_boxes_is_refused_and_not_saved(
    client: httpx.AsyncClient,
) -> None:
    """RULES §13: at least one box in every hull row. 3 boxes in 6 rows would pay 1 point a box
    (the 6-row price) for a hull that behaves like 3 rows of 1."""
    body = {
        "id": "sliver",
        "name": "Sliver",
        "class": "courier",
        "mass": 20,
        "thrust": 2,
        "hull": 3,
        "hull_rows": 6,
        "armour": 0,
        "broadside": False,
        "systems": [{"id": "fc-1", "type": "fire_control"}],
    }
    for path in ("/designs/validate", "/designs"):
        r = await client.post(f"{API}{path}", json=body)
        assert r.status_code == 422, r.text
        assert r.headers["content-type"].startswith(PROBLEM)
        problem = r.json()
        assert problem["code"] == "invalid_design"
        assert problem["problems"] == [
            "hull 3 is spread over 6 rows, but every row needs a box: use at least 6 boxes or "
            "at most 3 rows"
        ]
    assert (await client.get(f"{API}/designs/sliver")).status_code == 404
    # the same hull in 3 rows is fine
    r = await client.post(f"{API}/designs/validate", json={**body, "hull_rows": 3})
    assert r.status_code == 200 and r.json()["problems"] == [], r.text


# -- games keep copies ----------------------------------------------------------------------
async def _game_with(client: httpx.AsyncClient, a: str, b: str) -> str:
    body = {
        "sides": {
            "A": {"ships": [{"name": "Vigilant", "design": a}]},
            "B": {"ships": [{"name": "Shade", "design": b}]},
        },
        "creator": "referee",
    }
    r = await client.post(f"{API}/games", json=body)
    assert r.status_code == 201, r.text
    game_id: str = r.json()["game_id"]
    return game_id


async def _designs_of(client: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    view = (await client.get(f"{API}/games/{game_id}", headers=ADMIN_AUTH)).json()
    record = (await client.get(f"{API}/games/{game_id}/record", headers=ADMIN_AUTH)).json()
    return {"view": {s["id"]: s["design"] for s in view["ships"]}, "record": record["designs"]}


async def test_a_game_keeps_its_own_copies_of_its_designs(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = (await client.post(f"{API}/designs", json=rich_design())).json()["id"]
    game_id = await _game_with(client, "frigate", saved)
    before = await _designs_of(client, game_id)
    assert before["record"]["frigate"] == preset("frigate").to_dict()
    assert before["record"][saved] == {**rich_design(), "id": saved}

    # the preset changes (a new release) and the saved design's row is edited in place
    heavier = Design.from_dict({**preset("frigate").to_dict(), "mass": 36, "thrust": 4})
    import app.play.service as service

    monkeypatch.setattr(service, "PRESET_DESIGNS", {**PRESET_DESIGNS, "frigate": heavier})
    app = client._transport.app  # type: ignore[attr-defined]
    async with app.state.db.session() as session, session.begin():
        row = await session.get(SavedDesign, saved)
        assert row is not None
        changed = copy.deepcopy(row.data)
        changed["name"], changed["armour"] = "Renamed", 0
        row.data = changed

    after = await _designs_of(client, game_id)
    assert after == before, "an existing game's designs changed with the preset or saved row"
    assert after["view"]["a1"]["mass"] == 30 and after["view"]["b1"]["name"] == "Shadow"

    # a new game takes the designs as they are now (so the change above did take effect)
    fresh = await _designs_of(client, await _game_with(client, "frigate", saved))
    assert fresh["view"]["a1"]["mass"] == 36 and fresh["view"]["b1"]["name"] == "Renamed"


async def test_the_presets_cover_every_weapon_of_the_table(client: httpx.AsyncClient) -> None:
    # issue 6: GET /api/v1/designs lists presets whose systems cover every weapon family
    r = await client.get(f"{API}/designs")
    assert r.status_code == 200
    fitted = {s["type"] for d in r.json()["designs"] for s in d["systems"]}
    assert fitted >= T.WEAPON_TYPES, sorted(T.WEAPON_TYPES - fitted)
    assert any(s.get("weak_arcs") for d in r.json()["designs"] for s in d["systems"])
    assert any(d.get("stealth") for d in r.json()["designs"])


# -- what a client read, sent back --------------------------------------------------------------
async def _read_designs(client: httpx.AsyncClient) -> list[dict[str, Any]]:
    """Every design as the API gives it out: the preset list, each preset by id, and each
    preset saved and read back by its new id."""
    listed = (await client.get(f"{API}/designs")).json()["designs"]
    assert {d["id"] for d in listed} == set(PRESET_DESIGNS)
    out = list(listed)
    for design in listed:
        one = await client.get(f"{API}/designs/{design['id']}")
        assert one.status_code == 200 and "points" in one.json() and "summary" in one.json()
        out.append(one.json())
        saved = await client.post(
            f"{API}/designs",
            json=Design.from_dict(
                {k: v for k, v in design.items() if k not in ("points", "summary")}
            ).to_dict(),
        )
        assert saved.status_code == 201, saved.text
        out.append((await client.get(f"{API}/designs/{saved.json()['id']}")).json())
    return out


async def test_a_design_read_from_the_api_can_be_sent_back_as_it_is(
    client: httpx.AsyncClient,
) -> None:
    """``points`` and ``summary`` (read-only) come back with a design a client read: the
    design is taken as it is, the two recomputed from it (docs/designs.md)."""
    for read in await _read_designs(client):
        r = await client.post(f"{API}/designs/validate", json=read)
        assert r.status_code == 200, (read["id"], r.text)
        assert r.json() == read["summary"], read["id"]
        r = await client.post(f"{API}/designs", json=read)
        assert r.status_code == 201, (read["id"], r.text)
        again = (await client.get(f"{API}/designs/{r.json()['id']}")).json()
        assert {
            **again,
            "id": read["id"],
            "summary": {**again["summary"], "id": read["id"]},
        } == read
        body = {
            "sides": {
                "A": {"ships": [{"name": "Sent back", "design": read}]},
                "B": {"ships": [{"name": "Preset", "design": "frigate"}]},
            }
        }
        r = await client.post(f"{API}/games", json=body)
        assert r.status_code == 201, (read["id"], r.text)


async def test_read_only_values_that_disagree_are_recomputed_not_trusted(
    client: httpx.AsyncClient,
) -> None:
    frigate = (await client.get(f"{API}/designs/frigate")).json()
    stale = {**frigate, "points": 1, "summary": {"points": 1, "anything": True}}
    r = await client.post(f"{API}/designs/validate", json=stale)
    assert r.status_code == 200 and r.json()["points"] == frigate["points"], r.text
    r = await client.post(f"{API}/designs", json=stale)
    assert r.status_code == 201
    got = (await client.get(f"{API}/designs/{r.json()['id']}")).json()
    assert got["points"] == frigate["points"] and got["summary"]["points"] == frigate["points"]
    # the rest of the design is still read strictly
    r = await client.post(f"{API}/designs/validate", json={**frigate, "cost": 5})
    assert r.status_code == 422 and "unknown field 'cost'" in r.json()["detail"]
