"""Preset scenarios: tables, zones, ships, JSON form."""

from __future__ import annotations

import json

import pytest

from app.rules.designs import PRESET_DESIGNS, validate_design
from app.rules.geometry import Table, Vec, Zone
from app.rules.scenarios import PRESET_SCENARIOS, Scenario, default_zones

SCENARIO_IDS = sorted(PRESET_SCENARIOS)


def corners(z: Zone) -> tuple[float, float, float, float]:
    return min(z.x0, z.x1), min(z.y0, z.y1), max(z.x0, z.x1), max(z.y0, z.y1)


def test_the_preset_scenarios_exist() -> None:
    assert set(PRESET_SCENARIOS) == {"duel", "skirmish", "hunt", "missile_duel", "carrier_hunt"}
    for key, s in PRESET_SCENARIOS.items():
        assert s.id == key
        assert s.name and s.description


@pytest.mark.parametrize("scenario_id", SCENARIO_IDS)
def test_table_and_turn_limit(scenario_id: str) -> None:
    s = PRESET_SCENARIOS[scenario_id]
    assert s.table == Table(72.0, 48.0)
    assert s.turn_limit == 12


@pytest.mark.parametrize("scenario_id", SCENARIO_IDS)
def test_zones_fit_inside_the_table_and_do_not_overlap(scenario_id: str) -> None:
    s = PRESET_SCENARIOS[scenario_id]
    assert set(s.zones) == {"A", "B"}
    for zone in s.zones.values():
        x0, y0, x1, y1 = corners(zone)
        assert 0.0 <= x0 < x1 <= s.table.width
        assert 0.0 <= y0 < y1 <= s.table.height
        assert s.table.contains(Vec(x0, y0)) and s.table.contains(Vec(x1, y1))
    ax0, ay0, ax1, ay1 = corners(s.zones["A"])
    bx0, by0, bx1, by1 = corners(s.zones["B"])
    assert ax1 < bx0 or bx1 < ax0 or ay1 < by0 or by1 < ay0


@pytest.mark.parametrize("scenario_id", SCENARIO_IDS)
def test_ships_use_existing_legal_designs(scenario_id: str) -> None:
    s = PRESET_SCENARIOS[scenario_id]
    assert set(s.ships) == {"A", "B"} == set(s.side_names)
    names = [name for ships in s.ships.values() for name, _ in ships]
    assert len(names) == len(set(names))
    assert all(name.strip() for name in names)
    for ships in s.ships.values():
        assert ships
        for _, design_id in ships:
            assert design_id in PRESET_DESIGNS
            validate_design(PRESET_DESIGNS[design_id])
    assert s.design_ids() <= set(PRESET_DESIGNS)


@pytest.mark.parametrize(
    ("scenario_id", "counts"),
    [
        ("duel", {"A": 1, "B": 1}),
        ("skirmish", {"A": 2, "B": 2}),
        ("hunt", {"A": 1, "B": 2}),
        ("missile_duel", {"A": 2, "B": 3}),
        ("carrier_hunt", {"A": 2, "B": 2}),
    ],
)
def test_ships_per_side(scenario_id: str, counts: dict[str, int]) -> None:
    s = PRESET_SCENARIOS[scenario_id]
    assert s.ships_per_side() == counts
    assert s.to_dict()["ships_per_side"] == counts


def test_duel_is_like_against_like() -> None:
    s = PRESET_SCENARIOS["duel"]
    (_, a), (_, b) = s.ships["A"][0], s.ships["B"][0]
    assert a == b and a in {"frigate", "destroyer"}
    assert s.zones == default_zones(s.table)


def test_skirmish_sides_are_even_on_points() -> None:
    s = PRESET_SCENARIOS["skirmish"]
    totals = {
        side: sum(PRESET_DESIGNS[d].points() for _, d in ships) for side, ships in s.ships.items()
    }
    assert totals["A"] == totals["B"]


def test_hunt_pits_superior_sensors_against_two_smaller_ships() -> None:
    s = PRESET_SCENARIOS["hunt"]
    ((_, hunter_id),) = s.ships["A"]
    hunter = PRESET_DESIGNS[hunter_id]
    assert any(x.type == "sensors" and x.grade == "superior" for x in hunter.systems)
    assert len(s.ships["B"]) == 2
    for _, design_id in s.ships["B"]:
        assert PRESET_DESIGNS[design_id].mass < hunter.mass
    assert s.ping_range == 36.0


@pytest.mark.parametrize("scenario_id", SCENARIO_IDS)
def test_to_dict(scenario_id: str) -> None:
    s = PRESET_SCENARIOS[scenario_id]
    d = s.to_dict()
    assert set(d) == {
        "id",
        "name",
        "description",
        "table",
        "zones",
        "ships",
        "side_names",
        "turn_limit",
        "ping_range",
        "ships_per_side",
    }
    assert d["table"] == {"width": 72.0, "height": 48.0}
    assert Table.from_dict(d["table"]) == s.table
    for side, zone in s.zones.items():
        assert Zone.from_dict(d["zones"][side]) == zone
    for side, ships in s.ships.items():
        assert d["ships"][side] == [{"name": n, "design": x} for n, x in ships]
    assert d["side_names"] == dict(s.side_names)
    assert json.loads(json.dumps(d)) == d


def test_default_zones() -> None:
    zones = default_zones(Table(72.0, 48.0))
    assert zones == {"A": Zone(0.0, 0.0, 72.0, 8.0), "B": Zone(0.0, 40.0, 72.0, 48.0)}
    shallow = default_zones(Table(30.0, 12.0))
    assert shallow == {"A": Zone(0.0, 0.0, 30.0, 6.0), "B": Zone(0.0, 6.0, 30.0, 12.0)}


def test_scenario_is_frozen() -> None:
    s = PRESET_SCENARIOS["duel"]
    with pytest.raises(AttributeError):
        s.turn_limit = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        s.ships["A"] = ()  # type: ignore[index]
    assert isinstance(s, Scenario)
