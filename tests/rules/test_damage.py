"""Damage (RULES §8; compendium C8.1, C8.2; app/rules/damage.py).

Hull rows, armour before hull, threshold checks, what a failed check does to each system,
damage control at the end of a turn and the power core's explosion rolls.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import ScriptedDice, decide
from app.rules.capabilities import thrust
from app.rules.damage import (
    CORE_GROUP,
    apply_hits,
    damage_control,
    damage_control_parties,
    explosion_needed,
    hull_rows,
    repair_priority,
    row_view,
    rows_finished,
    system_hit,
    threshold_candidates,
    threshold_check,
    threshold_number,
)
from app.rules.dice import Roller
from app.rules.errors import NoCriticalCore
from app.rules.state import GameState, ShipState
from app.rules.systems import core_threshold_numbers
from tests.rules.helpers import (
    activate,
    all_of,
    end,
    fire,
    gunship,
    move,
    only,
    ping,
    play,
    quiet_turn,
    setup_game,
    types,
    with_ship,
    with_system,
)


def roller(*dice: int) -> tuple[Roller, ScriptedDice]:
    source = ScriptedDice(dice)
    return Roller(source, 0), source


# -- hull rows ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("total", "rows", "expected"),
    [
        (12, 4, [3, 3, 3, 3]),
        (10, 4, [3, 3, 2, 2]),  # the frigate: extra boxes in the first rows to be lost
        (14, 4, [4, 4, 3, 3]),
        (6, 4, [2, 2, 1, 1]),
        (27, 5, [6, 6, 5, 5, 5]),
        (15, 3, [5, 5, 5]),
        (16, 3, [6, 5, 5]),
        (13, 6, [3, 2, 2, 2, 2, 2]),
        (3, 4, [1, 1, 1, 0]),
    ],
)
def test_hull_rows(total: int, rows: int, expected: list[int]) -> None:
    assert hull_rows(total, rows) == expected
    assert sum(hull_rows(total, rows)) == total


@pytest.mark.parametrize(
    ("lost", "finished"), [(0, 0), (2, 0), (3, 1), (5, 1), (6, 2), (7, 2), (8, 3), (9, 3), (10, 4)]
)
def test_rows_finished(lost: int, finished: int) -> None:
    assert rows_finished(10, 4, lost) == finished  # rows of 3, 3, 2, 2


def test_row_view() -> None:
    assert row_view(10, 4, 0) == [[3, 0], [3, 0], [2, 0], [2, 0]]
    assert row_view(10, 4, 4) == [[3, 3], [3, 1], [2, 0], [2, 0]]
    assert row_view(10, 4, 10) == [[3, 3], [3, 3], [2, 2], [2, 2]]


@pytest.mark.parametrize(("row", "number"), [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2)])
def test_threshold_numbers(row: int, number: int) -> None:
    assert threshold_number(row) == number


# -- armour, then hull -----------------------------------------------------------------------
def _frigate() -> tuple[GameState, ShipState]:
    state = setup_game(["frigate"], ["frigate"])  # armour 2, hull 10 in rows 3, 3, 2, 2
    return state, state.ship("b1")


def test_hits_take_armour_first() -> None:
    state, b1 = _frigate()
    assert apply_hits(state, b1, 1, 0) == {
        "ship": "b1",
        "hits": 1,
        "hull_hits": 0,
        "armour_lost": 1,
        "hull_lost": 0,
        "hull_lost_total": 0,
        "rows_finished": [],
        "destroyed": False,
    }
    batch = apply_hits(state, b1, 5, 0)
    assert (batch["armour_lost"], batch["hull_lost"], batch["rows_finished"]) == (2, 3, [1])


def test_reroll_hits_go_past_armour() -> None:
    state, b1 = _frigate()
    batch = apply_hits(state, b1, 1, 2)
    assert (batch["armour_lost"], batch["hull_lost"]) == (1, 2)
    batch = apply_hits(state, b1, 0, 3)
    assert (batch["armour_lost"], batch["hull_lost"], batch["rows_finished"]) == (0, 3, [1])


def test_armour_already_lost() -> None:
    state, _ = _frigate()
    state = with_ship(state, "b1", armour_lost=2, hull_lost=2)
    batch = apply_hits(state, state.ship("b1"), 5, 0)
    assert (batch["armour_lost"], batch["hull_lost"], batch["hull_lost_total"]) == (0, 5, 7)
    assert batch["rows_finished"] == [1, 2]


def test_the_last_hull_box_destroys_and_damage_is_capped() -> None:
    state, _ = _frigate()
    state = with_ship(state, "b1", armour_lost=1, hull_lost=7)
    batch = apply_hits(state, state.ship("b1"), 9, 4)
    assert (batch["armour_lost"], batch["hull_lost"], batch["hull_lost_total"]) == (1, 3, 10)
    assert batch["rows_finished"] == [3, 4]
    assert batch["destroyed"] is True
    almost = apply_hits(state, state.ship("b1"), 3, 0)
    assert (almost["hull_lost_total"], almost["destroyed"]) == (9, False)


# -- threshold checks -----------------------------------------------------------------------
def test_candidates_are_working_systems_and_the_core_group_once() -> None:
    state, b1 = _frigate()
    assert threshold_candidates(b1) == [
        "fc-1",
        "beam-1",
        "beam-2",
        "beam-3",
        "pds-1",
        "ecm-1",
        "drive",
        CORE_GROUP,
    ]
    state = with_system(state, "b1", "beam-2", "damaged")
    state = with_system(state, "b1", "pds-1", "destroyed")
    state = with_system(state, "b1", "drive", "damaged")  # half-damaged: it rolls again
    state = with_system(state, "b1", "bridge", "damaged")
    assert threshold_candidates(state.ship("b1")) == [
        "fc-1",
        "beam-1",
        "beam-3",
        "ecm-1",
        "drive",
        CORE_GROUP,
    ]
    state = with_system(state, "b1", "drive", "destroyed")
    assert "drive" not in threshold_candidates(state.ship("b1"))


def test_a_threshold_check_rolls_one_die_per_candidate() -> None:
    _, b1 = _frigate()
    # row 2 finished: 5+ fails; the core systems need one more (6)
    r, source = roller(5, 4, 1, 6, 2, 3, 4, 6, 3, 2)
    check, failures = threshold_check(b1, [2], r)
    assert source.remaining == 0  # 8 checks, then the failed core group's pick and effect
    assert check["row"] == 2 and check["number"] == 5 and check["bonus"] == 0
    results = {x["system"]: (x["die"], x["modified"], x["failed"]) for x in check["results"]}
    assert results == {
        "fc-1": (5, 5, True),
        "beam-1": (4, 4, False),
        "beam-2": (1, 1, False),
        "beam-3": (6, 6, True),
        "pds-1": (2, 2, False),
        "ecm-1": (3, 3, False),
        "drive": (4, 4, False),
        CORE_GROUP: (6, 6, True),
    }
    assert [x["needed"] for x in check["results"]] == [5] * 7 + [6]
    assert check["rolls"] == list(range(8))
    # the core group picks the bridge (3): out of control for 2 turns
    assert [f["system"] for f in failures] == ["fc-1", "beam-3", "bridge"]
    assert failures[2]["rolls"] == [8, 9]
    assert (failures[2]["core_roll"], failures[2]["out_of_control"]) == (3, 2)


def test_several_rows_in_one_batch_add_one_per_further_row() -> None:
    _, b1 = _frigate()
    r, _ = roller(3, 3, 3, 3, 3, 3, 3, 3, 1)
    check, failures = threshold_check(b1, [1, 2, 3], r)
    # the last row finished (3) checks on 4+ (the core systems on 5+); +2 for the two further
    # rows, the core systems' die included
    assert (check["row"], check["number"], check["bonus"]) == (3, 4, 2)
    assert all(x["modified"] == 5 and x["failed"] for x in check["results"][:-1])
    core = check["results"][-1]
    assert (core["die"], core["modified"], core["needed"], core["failed"]) == (3, 5, 5, True)
    assert failures[-1]["system"] == "core"  # picked with a 1
    assert [f["system"] for f in failures[:-1]] == [
        "fc-1",
        "beam-1",
        "beam-2",
        "beam-3",
        "pds-1",
        "ecm-1",
        "drive",
    ]


@pytest.mark.parametrize(
    ("rows", "finished", "die", "needed", "failed"),
    [
        (4, [1], 6, 7, False),  # never at the first threshold of a 4-row hull
        (4, [2], 5, 6, False),
        (4, [2], 6, 6, True),
        (4, [3], 4, 5, False),
        (4, [3], 5, 5, True),
        (4, [1, 2], 4, 6, False),  # 4 + 1 (a further row) = 5 < 6
        (4, [1, 2], 5, 6, True),
        (4, [1, 2, 3], 3, 5, True),  # 3 + 2 = 5
        (3, [1], 6, 7, False),  # C8.2: 3 rows check on 6+ and 5+ only
        (3, [2], 6, 6, True),
        (6, [5], 3, 3, True),  # 6 rows: the fifth threshold is 2+, the core systems 3+
        (6, [5], 2, 3, False),
    ],
)
def test_core_systems_fail_on_one_more_than_the_rows_number(
    rows: int, finished: list[int], die: int, needed: int, failed: bool
) -> None:
    """RULES §8 (corrected) and C8.1: the core systems roll as one system and fail only on the
    row's number + 1; the bonus for further rows of the same batch is added to their die."""
    design = gunship("hauler", hull=2 * rows, hull_rows=rows, systems=())
    b1 = setup_game([gunship()], [design]).ship("b1")
    assert threshold_candidates(b1) == ["drive", CORE_GROUP]
    effects = (1,) if failed else ()  # the C8.1 pick: 1 = power core, no further die
    r, source = roller(1, die, *effects)
    check, failures = threshold_check(b1, finished, r)
    assert source.remaining == 0
    bonus = len(finished) - 1
    drive, core = check["results"]
    assert drive["needed"] == check["number"] == threshold_number(finished[-1])
    assert core == {
        "system": CORE_GROUP,
        "die": die,
        "modified": die + bonus,
        "needed": needed,
        "failed": failed,
    }
    assert [f["system"] for f in failures] == (["core"] if failed else [])
    # the systems table (docs/systems.md) says the same
    assert needed == core_threshold_numbers(rows)[finished[-1] - 1]


# -- what a failure does -------------------------------------------------------------------
def _hit(state: GameState, ship_id: str, system_id: str, *dice: int) -> dict[str, Any]:
    r, source = roller(*dice)
    data = system_hit(state.ship(ship_id), system_id, "threshold", r)
    assert source.remaining == 0
    return data


def test_drive_ok_then_damaged_then_destroyed() -> None:
    state, _ = _frigate()
    data = _hit(state, "b1", "drive")
    assert data == {
        "ship": "b1",
        "cause": "threshold",
        "system": "drive",
        "type": "main_drive",
        "status": "damaged",
        "rolls": [],
    }
    assert thrust(state, state.ship("b1")) == 6
    state = with_system(state, "b1", "drive", "damaged")
    assert thrust(state, state.ship("b1")) == 3
    assert _hit(state, "b1", "drive")["status"] == "destroyed"
    state = with_system(state, "b1", "drive", "destroyed")
    assert thrust(state, state.ship("b1")) == 0


def test_half_thrust_rounds_down() -> None:
    state = setup_game(["light_cruiser"], ["frigate"])  # thrust 5
    state = with_system(state, "a1", "drive", "damaged")
    assert thrust(state, state.ship("a1")) == 2


def test_ordinary_systems_are_damaged() -> None:
    state, _ = _frigate()
    for system_id, kind in (("fc-1", "fire_control"), ("beam-2", "beam"), ("ecm-1", "ecm")):
        data = _hit(state, "b1", system_id)
        assert (data["system"], data["type"], data["status"]) == (system_id, kind, "damaged")


@pytest.mark.parametrize(
    ("pick", "system"),
    [(1, "core"), (2, "bridge"), (3, "bridge"), (4, "bridge"), (5, "bridge"), (6, "life_support")],
)
def test_the_core_group_picks_a_core_system(pick: int, system: str) -> None:
    state, _ = _frigate()
    dice = [pick] if system == "core" else [pick, 3]
    data = _hit(state, "b1", CORE_GROUP, *dice)
    assert data["core_roll"] == pick and data["system"] == system
    assert data["rolls"] == list(range(len(dice)))
    assert data["status"] == "damaged"


@pytest.mark.parametrize("duration", [1, 2, 3, 4, 5])
def test_bridge_out_of_control_for_d6_turns(duration: int) -> None:
    state, _ = _frigate()
    data = _hit(state, "b1", "bridge", duration)
    assert data["status"] == "damaged" and data["out_of_control"] == duration
    assert data["effect_roll"] == duration and "permanent" not in data


def test_bridge_keeps_the_longer_countdown() -> None:
    state, _ = _frigate()
    state = with_ship(with_system(state, "b1", "bridge", "damaged"), "b1", out_of_control=4)
    assert _hit(state, "b1", "bridge", 2)["out_of_control"] == 4
    assert _hit(state, "b1", "bridge", 5)["out_of_control"] == 5


def test_bridge_six_is_permanent() -> None:
    state, _ = _frigate()
    data = _hit(state, "b1", "bridge", 6)
    assert data["status"] == "destroyed" and data["permanent"] is True
    assert "out_of_control" not in data


def test_life_support_fails_after_d6_turns_the_shorter_wins() -> None:
    state, _ = _frigate()
    data = _hit(state, "b1", "life_support", 4)
    assert (data["status"], data["life_support_turns"], data["effect_roll"]) == ("damaged", 4, 4)
    state = with_ship(
        with_system(state, "b1", "life_support", "damaged"), "b1", life_support_turns=2
    )
    assert _hit(state, "b1", "life_support", 5)["life_support_turns"] == 2
    assert _hit(state, "b1", "life_support", 1)["life_support_turns"] == 1


def test_a_threshold_check_in_a_volley() -> None:
    """Six hull boxes in one volley finish rows 1 and 2 of the gunship: check on 5+, +1."""
    target = gunship("target", hull=12)  # rows 3, 3, 3, 3
    state = setup_game(
        [gunship(), gunship()],
        [target, target],
        {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)},
    )
    state = with_ship(with_ship(state, "b1", overwatch=False), "b2", overwatch=False)
    state, _ = play(state, "A", ping("a1"), [6, 1, 1, 1, 1, 1])
    assert state.phase.awaiting == ("A",)
    volley = [6, 5, 6, 1, 5, 2]  # 4BD*: 6 (reroll 5), 6 (reroll 1), 5, 2 -> 5 hits + 1 past armour
    checks = [4, 1, 3, 5]  # fc-1 4+1 = 5 fails; beam-1, drive pass; core 5+1 = 6 reaches its 6
    effects = [4, 3]  # the core group picks the bridge (4), out of control for 3 turns
    state, events = play(
        state, "A", fire(state.phase.window, ("a1", "beam-1", "b1")), volley + checks + effects
    )
    assert types(events)[-5:] == [
        "fire_resolved",
        "damage",
        "threshold_check",
        "system_damaged",
        "system_damaged",
    ]
    damage = only(events, "damage").data
    assert (damage["hull_lost"], damage["rows_finished"]) == (6, [1, 2])
    check = only(events, "threshold_check").data
    assert (check["row"], check["number"], check["bonus"]) == (2, 5, 1)
    fc, core = (e.data for e in all_of(events, "system_damaged"))
    assert (fc["system"], fc["status"], fc["rolls"]) == ("fc-1", "damaged", [])
    assert (core["system"], core["core_roll"], core["effect_roll"]) == ("bridge", 4, 3)
    b1 = state.ship("b1")
    assert b1.system("fc-1").status == "damaged" and b1.system("bridge").status == "damaged"
    assert b1.out_of_control == 3 and not b1.in_control
    assert b1.hull_lost == 6


def test_no_threshold_check_for_a_destroyed_ship() -> None:
    state = setup_game(
        [gunship(), gunship()],
        [gunship("target", hull=4), gunship("target", hull=4)],
        {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)},
    )
    state = with_ship(with_ship(state, "b1", overwatch=False), "b2", overwatch=False)
    state, _ = play(state, "A", ping("a1"), [6, 1, 1, 1, 1, 1])
    state, events = play(
        state, "A", fire(state.phase.window, ("a1", "beam-1", "b1")), [6, 1, 6, 1, 1, 1]
    )
    assert types(events)[-3:] == ["fire_resolved", "damage", "ship_destroyed"]
    assert only(events, "ship_destroyed").data == {"ship": "b1", "cause": "volley"}
    assert state.ship("b1").status == "destroyed"


def test_permanently_out_of_control_is_out_of_play() -> None:
    state = setup_game(
        [gunship(), gunship()],
        [gunship("target", hull=12), gunship("target", hull=12)],
        {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)},
    )
    state = with_ship(with_ship(state, "b1", overwatch=False), "b2", overwatch=False)
    state, _ = play(state, "A", ping("a1"), [6, 1, 1, 1, 1, 1])
    # 6 (reroll 5), 6 (reroll 1), 5, 5: 7 hull boxes, rows 1 and 2 finished: 5+ with +1; the
    # core group (5 + 1) reaches its 6 and fails: bridge 2, then a 6
    state, events = play(
        state,
        "A",
        fire(state.phase.window, ("a1", "beam-1", "b1")),
        [*(6, 5, 6, 1, 5, 5), *(1, 1, 1, 5), 2, 6],
    )
    bridge = only(events, "system_damaged").data
    assert bridge["permanent"] is True and bridge["status"] == "destroyed"
    b1 = state.ship("b1")
    assert (b1.status, b1.out_reason) == ("out_of_play", "permanently_out_of_control")


# -- damage control ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("design", "hull_lost", "parties"),
    [
        ("frigate", 0, 2),  # mass 30: ceil(30 / 20) = 2
        ("frigate", 5, 1),  # 2 x 5/10 = 1
        ("frigate", 6, 1),  # 2 x 4/10 = 0.8 -> 1
        ("frigate", 9, 1),  # 2 x 1/10 -> 1
        ("frigate", 10, 0),
        ("heavy_cruiser", 0, 5),  # mass 100
        ("heavy_cruiser", 14, 3),  # 5 x 13/27 = 2.4 -> 3
        ("heavy_cruiser", 16, 3),  # 5 x 11/27 = 2.04 -> 3
        ("heavy_cruiser", 17, 2),  # 5 x 10/27 = 1.85 -> 2
        ("scout", 0, 1),  # mass 16
        ("light_cruiser", 10, 2),  # mass 70: 4 x 10/20 = 2
        ("light_cruiser", 11, 2),  # 4 x 9/20 = 1.8 -> 2
    ],
)
def test_damage_control_parties(design: str, hull_lost: int, parties: int) -> None:
    state = with_ship(setup_game([design], ["scout"]), "a1", hull_lost=hull_lost)
    assert damage_control_parties(state, state.ship("a1")) == parties


def test_repair_priority() -> None:
    state = setup_game(["heavy_cruiser"], ["scout"])
    for system_id in (
        "ecm-1",
        "beam-5",
        "pds-2",
        "meson-1",
        "screen-1",
        "fc-3",
        "fc-1",
        "drive",
        "life_support",
        "bridge",
        "core",
        "sensors-1",
    ):
        state = with_system(state, "a1", system_id, "damaged")
    state = with_system(state, "a1", "beam-1", "destroyed")  # never repaired
    assert repair_priority(state, state.ship("a1")) == [
        "core",
        "bridge",
        "life_support",
        "drive",
        "fc-1",
        "fc-3",
        "screen-1",
        "meson-1",
        "beam-5",
        "pds-2",
        "sensors-1",
        "ecm-1",
    ]


@pytest.mark.parametrize(("parties", "needed"), [(1, 6), (2, 5), (3, 4)])
def test_parties_on_one_system(parties: int, needed: int) -> None:
    # a heavy cruiser with its hull shot down to the party count it needs: 5 x left/27
    hull_left = {1: 5, 2: 10, 3: 16}[parties]
    state = setup_game(["heavy_cruiser"], ["scout"])
    state = with_ship(with_system(state, "a1", "fc-1", "damaged"), "a1", hull_lost=27 - hull_left)
    assert damage_control_parties(state, state.ship("a1")) == parties
    for die in range(1, 7):
        r, _ = roller(die)
        data = damage_control(state, state.ship("a1"), r)
        assert data is not None
        assert data["attempts"] == [
            {
                "system": "fc-1",
                "parties": parties,
                "die": die,
                "needed": needed,
                "repaired": die >= needed,
            }
        ]


def test_parties_go_three_at_most_to_a_system_in_priority_order() -> None:
    state = setup_game(["heavy_cruiser"], ["scout"])  # 5 parties
    for system_id in ("beam-2", "core", "fc-1"):
        state = with_system(state, "a1", system_id, "damaged")
    r, _ = roller(4, 5)
    data = damage_control(state, state.ship("a1"), r)
    assert data == {
        "ship": "a1",
        "parties": 5,
        "attempts": [
            {"system": "core", "parties": 3, "die": 4, "needed": 4, "repaired": True},
            {"system": "fc-1", "parties": 2, "die": 5, "needed": 5, "repaired": True},
        ],
        "rolls": [0, 1],
    }


def test_no_damage_control_without_damage_parties_or_crew() -> None:
    state = setup_game(["frigate"], ["scout"])
    assert damage_control(state, state.ship("a1"), roller()[0]) is None
    broken = with_system(state, "a1", "drive", "destroyed")
    assert damage_control(broken, broken.ship("a1"), roller()[0]) is None
    damaged = with_system(state, "a1", "fc-1", "damaged")
    for changes in ({"status": "out_of_play", "abandoned": True}, {"status": "destroyed"}):
        gone = with_ship(damaged, "a1", **changes)
        assert damage_control(gone, gone.ship("a1"), roller()[0]) is None


def test_damage_control_at_the_end_of_the_turn() -> None:
    state = setup_game(["frigate"], ["frigate"])
    state = with_system(state, "a1", "fc-1", "damaged")
    state = with_system(state, "a1", "bridge", "damaged")
    state = with_ship(state, "a1", out_of_control=3)
    state = with_system(state, "b1", "beam-1", "damaged")
    state, _ = play(state, "A", {"type": "activate", "ship": "a1"})  # drifts
    state, _ = play(state, "B", move("b1"))
    # a1: 2 parties -> 2 on the bridge (5+: a 5 repairs); b1: 2 parties on beam-1 (a 4 fails)
    state, events = play(state, "B", end("b1"), [5, 4, 6, 1])
    assert types(events) == [
        "activation_ended",
        "damage_control",
        "damage_control",
        "turn_ended",
        "turn_started",
    ]
    first, second = (e.data for e in all_of(events, "damage_control"))
    assert first["ship"] == "a1"
    assert first["attempts"] == [
        {"system": "bridge", "parties": 2, "die": 5, "needed": 5, "repaired": True}
    ]
    assert second["attempts"][0]["repaired"] is False
    a1 = state.ship("a1")
    assert a1.system("bridge").status == "ok" and a1.out_of_control == 0
    assert a1.system("fc-1").status == "damaged"
    assert state.ship("b1").system("beam-1").status == "damaged"


def test_repairing_life_support_stops_the_countdown() -> None:
    state = setup_game(["heavy_cruiser"], ["frigate"])
    state = with_system(state, "a1", "life_support", "damaged")
    state = with_ship(state, "a1", life_support_turns=1)
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", end("a1"))
    state, _ = play(state, "B", move("b1"))
    state, events = play(state, "B", end("b1"), [4, 6, 1])
    assert only(events, "damage_control").data["attempts"][0]["repaired"] is True
    assert only(events, "turn_ended").data["life_support_failed"] == []
    a1 = state.ship("a1")
    assert a1.life_support_turns is None and a1.status == "active"


# -- the power core ----------------------------------------------------------------------
def test_explosion_numbers() -> None:
    state = setup_game(["frigate"], ["scout"])
    a1 = state.ship("a1")
    assert explosion_needed(a1) == 5
    assert explosion_needed(with_ship(state, "a1", explosion_rolls=3).ship("a1")) == 5
    abandoned = [
        explosion_needed(with_ship(state, "a1", abandoned=True, explosion_rolls=n).ship("a1"))
        for n in range(5)
    ]
    # decision (C8.1): with no crew to damp it the number has dropped by the first roll
    assert abandoned == [4, 3, 2, 1, 1]


def _core_game() -> GameState:
    state = setup_game(["frigate", "frigate"], ["frigate"])
    return with_system(state, "a1", "core", "damaged")


def test_a_critical_core_rolls_at_the_start_of_each_turn() -> None:
    state = _core_game()
    assert state.ship("a1").core_critical
    # a1's 2 parties fail to repair it (4 < 5), then the core holds on a 4
    state, events = quiet_turn(state, [4, 4])
    assert types(events)[-4:] == ["damage_control", "turn_ended", "core_roll", "turn_started"]
    roll = only(events, "core_roll")
    assert roll.turn == 2
    assert roll.data == {"ship": "a1", "die": 4, "needed": 5, "exploded": False, "rolls": [1]}
    assert state.turn == 2


def test_a_core_explodes_on_5_or_6() -> None:
    state = _core_game()
    state, events = quiet_turn(state, [1, 5, 6, 1])  # then a roll-off: one ship each
    assert only(events, "core_roll").data["exploded"] is True
    assert only(events, "ship_destroyed").data == {"ship": "a1", "cause": "core_explosion"}
    assert state.ship("a1").status == "destroyed"
    assert only(events, "turn_started").data["ships_in_play"] == {"A": 1, "B": 1}


def test_damage_control_before_the_explosion_roll() -> None:
    state = _core_game()
    state, events = quiet_turn(state, [5])  # repaired: no core roll at all
    assert "core_roll" not in types(events)
    assert state.ship("a1").system("core").status == "ok"


def test_dumping_the_core() -> None:
    state = _core_game()
    state, events = play(state, "A", {"type": "core_action", "ship": "a1", "action": "dump"})
    assert types(events) == ["core_action"]
    a1 = state.ship("a1")
    assert (a1.status, a1.out_reason, a1.system("core").status) == (
        "out_of_play",
        "core_dumped",
        "destroyed",
    )
    assert not a1.core_critical
    state, events = quiet_turn(state, [6, 1])
    assert "core_roll" not in types(events)  # no power, no explosion
    assert "damage_control" not in types(events)


def test_abandoned_ship_rolls_lower_each_turn_until_it_goes() -> None:
    state = _core_game()
    state, events = play(state, "A", {"type": "core_action", "ship": "a1", "action": "abandon"})
    a1 = state.ship("a1")
    assert (a1.status, a1.abandoned, a1.out_reason) == ("out_of_play", True, "abandoned")
    assert a1.core_critical  # still critical: it keeps rolling
    # no damage control for an abandoned ship; one ship in play each: a roll-off every turn
    rolled = []
    for die in (3, 2, 1, 1):
        state, events = quiet_turn(state, [die, 6, 1])
        roll = only(events, "core_roll").data
        rolled.append((roll["needed"], roll["die"], roll["exploded"]))
    assert rolled == [(4, 3, False), (3, 2, False), (2, 1, False), (1, 1, True)]
    assert state.ship("a1").status == "destroyed"
    assert "damage_control" not in types(events)


def test_core_action_needs_a_critical_core_in_play() -> None:
    state = _core_game()
    state, _ = play(state, "A", {"type": "core_action", "ship": "a1", "action": "abandon"})
    with pytest.raises(NoCriticalCore):
        decide(
            state, "A", {"type": "core_action", "ship": "a1", "action": "dump"}, ScriptedDice([])
        )


def test_life_support_failure_abandons_ship() -> None:
    state = setup_game(["scout", "scout"], ["scout"])
    state = with_system(state, "a1", "life_support", "damaged")
    state = with_ship(state, "a1", life_support_turns=2)
    # turn 1: damage control fails (1 party, a 1); the countdown goes to 1
    state, events = quiet_turn(state, [1])
    assert state.ship("a1").life_support_turns == 1
    assert only(events, "turn_ended").data["life_support_failed"] == []
    state, events = quiet_turn(state, [2, 6, 1])  # one ship each next turn: a roll-off
    assert only(events, "turn_ended").data["life_support_failed"] == ["a1"]
    a1 = state.ship("a1")
    assert (a1.status, a1.abandoned, a1.out_reason) == ("out_of_play", True, "life_support_failed")


def test_out_of_control_counts_the_ships_own_activations() -> None:
    """RULES §8: out of control for N drifts through the ship's next N activations; a hit
    after it activated this turn still costs it N, and the end of a turn counts nothing."""
    state = setup_game(["scout", "scout"], ["scout"])  # A first (2 v 1)
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", end("a1"))
    state = with_system(state, "a1", "bridge", "damaged")
    state = with_ship(state, "a1", out_of_control=2)  # hit after it activated
    damaged_dc = [1]  # a1's one party fails on the bridge
    state, events = quiet_turn(state, damaged_dc)
    assert only(events, "turn_ended").data["regained_control"] == []
    assert state.ship("a1").out_of_control == 2 and state.turn == 2
    for left in (1, 0):
        state, events = play(state, "A", activate("a1"))
        drifted = only(events, "activation_ended").data
        assert (drifted["reason"], drifted["out_of_control"]) == ("out_of_control", left)
        assert drifted.get("regained_control", False) is (left == 0)
        assert state.ship("a1").out_of_control == left
        state, _ = quiet_turn(state, damaged_dc if left else [])
    a1 = state.ship("a1")
    assert a1.in_control and a1.system("bridge").status == "ok" and state.turn == 4


def test_a_destroyed_bridge_stays_destroyed() -> None:
    """A hulk that lost its bridge for good is still a target; a later core hit on the bridge
    must not turn the destroyed bridge back into a damaged one with a countdown."""
    state, _ = _frigate()
    state = with_system(state, "b1", "bridge", "destroyed")
    state = with_ship(state, "b1", status="out_of_play", out_reason="permanently_out_of_control")
    data = _hit(state, "b1", "bridge", 3)
    assert data["status"] == "destroyed"
    assert "out_of_control" not in data
