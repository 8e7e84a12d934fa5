"""The fighter and drone presets and the "Carrier hunt" scenario (issue 13): what each carries,
that its bays hold legal groups kept out of the public copy, and the scenario's numbers."""

from __future__ import annotations

from app.rules.designs import PRESET_DESIGNS, preset
from app.rules.scenarios import PRESET_SCENARIOS
from app.rules.systems import DRONE_GROUPS, FIGHTER_GROUPS


def bays(design_id: str, bay_type: str) -> list[str | None]:
    return [s.load for s in preset(design_id).systems if s.type == bay_type]


def test_the_light_carrier_has_two_fighter_bays() -> None:
    loads = bays("light_carrier", "fighter_bay")
    assert loads == ["standard", "attack"]
    assert all(load in FIGHTER_GROUPS for load in loads if load)
    assert not bays("light_carrier", "drone_bay")


def test_the_drone_tender_has_drone_bays_only() -> None:
    loads = bays("drone_tender", "drone_bay")
    assert len(loads) == 3 and all(load in DRONE_GROUPS for load in loads if load)
    assert not bays("drone_tender", "fighter_bay")


def test_the_escort_carrier_carries_interceptors_and_an_adfc() -> None:
    assert bays("escort_carrier", "fighter_bay") == ["interceptor", "interceptor"]
    types = [s.type for s in preset("escort_carrier").systems]
    assert "adfc" in types and types.count("pds") == 2


def test_the_public_copy_drops_every_group_type_and_its_points() -> None:
    # the groups' points (6 × per fighter) would tell the type apart, so the public copy has none
    for design_id, groups in (
        ("light_carrier", 18 + 24),
        ("drone_tender", 18 + 24 + 24),
        ("escort_carrier", 18 + 18),
    ):
        d = preset(design_id)
        public = d.public()
        assert all(s.load is None for s in public.systems if s.type.endswith("_bay"))
        assert public.points() == d.points() - groups


def test_the_carrier_hunt() -> None:
    s = PRESET_SCENARIOS["carrier_hunt"]
    assert s.name == "Carrier hunt" and s.ping_range == 36.0
    totals = {
        side: sum(PRESET_DESIGNS[d].points() for _, d in ships) for side, ships in s.ships.items()
    }
    # 269 + 249 against 260 + 240: within 4% of each other
    assert totals == {"A": 269 + 249, "B": 260 + 240}
    assert {d for _, d in s.ships["A"]} == {"light_carrier", "escort_carrier"}
    assert {d for _, d in s.ships["B"]} == {"hunter", "drone_tender"}
    # the zones are 42 mu apart: more than a fighter group's first two moves (12 + 24)
    assert s.zones["B"].x0 - s.zones["A"].x1 == 42.0
