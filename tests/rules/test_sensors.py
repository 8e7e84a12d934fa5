"""PING detection (RULES §5; app/rules/sensors.py).

The pinger rolls 1/2/3 dice (basic/enhanced/superior) per enemy ship in play, in roster order;
every target then always draws exactly two ECM dice, of which 0, 1 or 2 count. Highest single
die against highest single die: only a greater ping die reveals, a tie hides.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import ScriptedDice
from app.rules.capabilities import sensors
from app.rules.designs import SystemSpec
from app.rules.dice import Roller
from app.rules.sensors import detect, ecm_dice_count
from app.rules.state import GameState
from tests.rules.helpers import (
    DesignLike,
    all_of,
    at,
    gunship,
    move,
    only,
    ping,
    play,
    setup_game,
    types,
    with_ship,
    with_system,
)

ECM = SystemSpec("ecm-1", "ecm")
AREA = SystemSpec("area-1", "area_ecm")
PLAIN = gunship("plain", systems=())
JAMMER = gunship("jammer", systems=(ECM,))
AREA_SHIP = gunship("area_ship", systems=(AREA,))
ENHANCED = gunship("enhanced", systems=(SystemSpec("sensors-1", "sensors", grade="enhanced"),))
SUPERIOR = gunship("superior", systems=(SystemSpec("sensors-1", "sensors", grade="superior"),))


def _ecm_state(*b_positions: tuple[float, float], designs: list[DesignLike]) -> GameState:
    placements = {f"b{i}": (x, y, 0, 0) for i, (x, y) in enumerate(b_positions, start=1)}
    return setup_game(["scout"], designs, placements)


# -- how many ECM dice count ---------------------------------------------------------------------
def test_no_ecm_counts_no_dice() -> None:
    state = _ecm_state((10.0, 40.0), (12.0, 40.0), designs=[PLAIN, AREA_SHIP])
    assert ecm_dice_count(state, state.ship("b1")) == 0


def test_ecm_counts_one_die() -> None:
    state = _ecm_state((10.0, 40.0), designs=[JAMMER])
    assert ecm_dice_count(state, state.ship("b1")) == 1


def test_area_ecm_is_ecm_itself_but_not_a_second_die_for_its_carrier() -> None:
    state = _ecm_state((10.0, 40.0), designs=[AREA_SHIP])
    assert ecm_dice_count(state, state.ship("b1")) == 1
    # two area-ECM ships within 12 mu cover each other
    state = _ecm_state((10.0, 40.0), (20.0, 40.0), designs=[AREA_SHIP, AREA_SHIP])
    assert ecm_dice_count(state, state.ship("b1")) == 2
    assert ecm_dice_count(state, state.ship("b2")) == 2


@pytest.mark.parametrize(
    ("friend_at", "count"),
    [
        ((10.0, 40.0), 2),  # same spot
        ((22.0, 40.0), 2),  # exactly 12 mu: within
        ((10.0 + 12.0 * 0.6, 40.0 - 12.0 * 0.8), 2),  # 12 mu on a slant (float noise)
        ((22.01, 40.0), 1),
        ((60.0, 10.0), 1),
    ],
)
def test_area_ecm_friend_within_12_mu(friend_at: tuple[float, float], count: int) -> None:
    state = _ecm_state((10.0, 40.0), friend_at, designs=[JAMMER, AREA_SHIP])
    assert ecm_dice_count(state, state.ship("b1")) == count


def test_damaged_ecm_counts_as_none() -> None:
    state = _ecm_state((10.0, 40.0), (15.0, 40.0), designs=[JAMMER, AREA_SHIP])
    assert ecm_dice_count(state, state.ship("b1")) == 2
    # the friend's area ECM damaged: only b1's own ECM
    friend_down = with_system(state, "b2", "area-1", "damaged")
    assert ecm_dice_count(friend_down, friend_down.ship("b1")) == 1
    assert ecm_dice_count(friend_down, friend_down.ship("b2")) == 0
    # b1's own ECM damaged: no ECM at all, the friend's area ECM does not help it
    own_down = with_system(state, "b1", "ecm-1", "damaged")
    assert ecm_dice_count(own_down, own_down.ship("b1")) == 0
    destroyed = with_system(state, "b1", "ecm-1", "destroyed")
    assert ecm_dice_count(destroyed, destroyed.ship("b1")) == 0


def test_only_friends_on_the_table_lend_area_ecm() -> None:
    state = _ecm_state((10.0, 40.0), (15.0, 40.0), designs=[JAMMER, AREA_SHIP])
    for status in ("destroyed", "left"):
        gone = with_ship(state, "b2", status=status)
        assert ecm_dice_count(gone, gone.ship("b1")) == 1, status
    # a hulk is still on the table: its area ECM works while the system does (RULES §5)
    hulk = with_ship(state, "b2", status="out_of_play")
    assert ecm_dice_count(hulk, hulk.ship("b1")) == 2
    hulk_down = with_system(hulk, "b2", "area-1", "damaged")
    assert ecm_dice_count(hulk_down, hulk_down.ship("b1")) == 1


def test_enemy_area_ecm_does_not_help() -> None:
    state = setup_game([AREA_SHIP], [JAMMER], {"a1": (10.0, 36.0, 0, 0), "b1": (10.0, 40.0, 0, 0)})
    assert ecm_dice_count(state, state.ship("b1")) == 1


# -- detection --------------------------------------------------------------------------------
def _detect(state: GameState, pinger: str, dice: list[int]) -> dict[str, Any]:
    source = ScriptedDice(dice)
    data = detect(state, state.ship(pinger), Roller(source, state.next_roll)).to_data()
    assert source.remaining == 0
    return dict(data)


@pytest.mark.parametrize(
    ("design", "ping_dice", "ecm_drawn", "counted", "revealed"),
    [
        (PLAIN, [1], [6, 6], [], True),  # no ECM: always revealed, even by a 1
        (JAMMER, [5], [4, 6], [4], True),  # only the first drawn die counts
        (JAMMER, [4], [4, 1], [4], False),  # a tie hides
        (JAMMER, [3], [4, 1], [4], False),
        (JAMMER, [6], [6, 6], [6], False),  # even sixes tie
    ],
)
def test_basic_sensors_against_ecm(
    design: DesignLike,
    ping_dice: list[int],
    ecm_drawn: list[int],
    counted: list[int],
    revealed: bool,
) -> None:
    state = setup_game(["frigate"], [design])
    data = _detect(state, "a1", ping_dice + ecm_drawn)
    assert data["sensors"] == "basic"
    (item,) = data["detections"]
    assert item == {
        "target": "b1",
        "ping_dice": ping_dice,
        "ecm_dice": counted,
        "ecm_drawn": ecm_drawn,  # both drawn dice, for the record (target's owner only)
        "revealed": revealed,
    }


@pytest.mark.parametrize(
    ("ping_dice", "ecm_drawn", "revealed"),
    [
        ([2, 5], [4, 3], True),  # highest single die: 5 > 4
        ([2, 4], [4, 3], False),  # 4 = 4
        ([6, 1], [5, 6], False),  # 6 = 6 (both dice count with an area-ECM friend near)
        ([3, 6], [5, 5], True),
        ([1, 1], [1, 1], False),
    ],
)
def test_highest_single_die_against_two_ecm_dice(
    ping_dice: list[int], ecm_drawn: list[int], revealed: bool
) -> None:
    state = setup_game(
        [ENHANCED], [JAMMER, AREA_SHIP], {"b1": (10.0, 40.0, 0, 0), "b2": (14.0, 40.0, 0, 0)}
    )
    state = with_ship(state, "b2", status="destroyed")  # b2 is not pinged...
    data = _detect(state, "a1", ping_dice + ecm_drawn)
    (item,) = data["detections"]
    assert item["ecm_dice"] == ecm_drawn[:1]  # ... and lends b1 nothing: one die counts
    assert len(data["rolls"]) == 4
    state = with_ship(state, "b2", status="active")
    data = _detect(state, "a1", [*ping_dice, *ecm_drawn, 1, 1, 1, 1])
    first, second = data["detections"]
    assert first == {
        "target": "b1",
        "ping_dice": ping_dice,
        "ecm_dice": ecm_drawn,
        "ecm_drawn": ecm_drawn,
        "revealed": revealed,
    }
    assert second["target"] == "b2" and second["ecm_dice"] == [1]


def test_area_ecm_friend_needed_for_two_dice() -> None:
    state = setup_game(
        [ENHANCED], [JAMMER, AREA_SHIP], {"b1": (10.0, 40.0, 0, 0), "b2": (40.0, 40.0, 0, 0)}
    )
    data = _detect(state, "a1", [2, 4, 3, 5, 6, 1, 1, 1])
    first, second = data["detections"]
    # b1 is 30 mu from the area-ECM ship: one die counts (3), so 4 > 3 reveals it
    assert first == {
        "target": "b1",
        "ping_dice": [2, 4],
        "ecm_dice": [3],
        "ecm_drawn": [3, 5],
        "revealed": True,
    }
    assert second == {
        "target": "b2",
        "ping_dice": [6, 1],
        "ecm_dice": [1],
        "ecm_drawn": [1, 1],
        "revealed": True,
    }


@pytest.mark.parametrize(
    ("design", "grade", "per_target"),
    [
        ("scout", "enhanced", 2),
        ("frigate", "basic", 1),
        ("hunter", "superior", 3),
        (PLAIN, "basic", 1),
    ],
)
@pytest.mark.parametrize("enemies", [1, 2, 3])
def test_always_n_plus_two_dice_per_target(
    design: DesignLike, grade: str, per_target: int, enemies: int
) -> None:
    state = setup_game([design], [JAMMER, PLAIN, AREA_SHIP][:enemies])
    dice = [(i % 6) + 1 for i in range((per_target + 2) * enemies)]
    data = _detect(state, "a1", dice)
    assert data["sensors"] == grade
    assert data["rolls"] == list(range(state.next_roll, state.next_roll + len(dice)))
    assert [d["target"] for d in data["detections"]] == [f"b{i}" for i in range(1, enemies + 1)]
    for item in data["detections"]:
        assert len(item["ping_dice"]) == per_target


def test_the_dice_drawn_never_depend_on_hidden_ecm() -> None:
    """Whatever ECM the targets carry and wherever they are, the same dice are drawn, and the
    ping dice are the same for the same rolls; only the ECM dice that count differ."""
    designs = ([PLAIN, PLAIN], [JAMMER, AREA_SHIP], [AREA_SHIP, JAMMER])
    dice = [3, 4, 5, 6, 2, 1, 6, 5]
    seen = []
    for pair in designs:
        for b2_x in (12.0, 60.0):
            state = setup_game(
                [ENHANCED], pair, {"b1": (10.0, 40.0, 0, 0), "b2": (b2_x, 40.0, 0, 0)}
            )
            data = _detect(state, "a1", dice)
            seen.append([(d["target"], d["ping_dice"]) for d in data["detections"]])
            assert len(data["rolls"]) == 8
    assert all(s == seen[0] for s in seen)


def test_only_enemies_in_play_are_pinged() -> None:
    state = setup_game(["scout"], [PLAIN, PLAIN, PLAIN])
    for ship_id, status in (("b1", "destroyed"), ("b3", "left")):
        state = with_ship(state, ship_id, status=status)
    data = _detect(state, "a1", [6, 6, 1, 1])
    assert [d["target"] for d in data["detections"]] == ["b2"]


def test_damaged_enhanced_or_superior_sensors_roll_as_basic() -> None:
    for design, grade in ((ENHANCED, "enhanced"), (SUPERIOR, "superior")):
        state = setup_game([design], [PLAIN])
        assert sensors(state, state.ship("a1")) == grade
        for status in ("damaged", "destroyed"):
            down = with_system(state, "a1", "sensors-1", status)
            assert sensors(down, down.ship("a1")) == "basic"
            data = _detect(down, "a1", [2, 1, 1])
            assert data["sensors"] == "basic"
            assert data["detections"][0]["ping_dice"] == [2]


def test_ping_range_is_applied_after_the_rolls() -> None:
    state = setup_game(
        ["scout"],
        [PLAIN, PLAIN],
        {"a1": (10.0, 4.0, 0, 0), "b1": (10.0, 28.0, 0, 0), "b2": (10.0, 28.01, 0, 0)},
        ping_range=24.0,
    )
    data = _detect(state, "a1", [6, 6, 1, 1, 6, 6, 1, 1])
    first, second = data["detections"]
    assert first == {
        "target": "b1",
        "ping_dice": [6, 6],
        "ecm_dice": [],
        "ecm_drawn": [1, 1],
        "in_range": True,
        "revealed": True,
    }
    assert second["in_range"] is False and second["revealed"] is False
    assert second["ping_dice"] == [6, 6]
    # without a range limit there is no in_range field
    plain = setup_game(["scout"], [PLAIN])
    assert "in_range" not in _detect(plain, "a1", [1, 1, 1, 1])["detections"][0]


# -- the ping command ------------------------------------------------------------------------
def test_a_ping_reveals_the_pinger_and_the_detected() -> None:
    state = setup_game(
        ["scout", "scout"],
        [PLAIN, JAMMER],
        {"a1": (30.0, 4.0, 1, 0), "b1": (5.0, 40.0, 3, 0), "b2": (60.0, 44.0, 9, 0)},
    )
    state, events = play(state, "A", move("a1", 2, 0))
    state, events = play(state, "A", ping("a1"), [1, 2, 6, 6, 3, 3, 3, 1])
    assert types(events) == ["ping", "ship_revealed", "ship_revealed", "fire_window"]
    assert state.phase.awaiting == ("A",)  # B's unarmed ships cannot fire back
    a1 = state.ship("a1")
    assert a1.position is not None
    revealed = all_of(events, "ship_revealed")
    assert revealed[0].data == {
        "ship": "a1",
        "position": a1.position.to_dict(),
        "heading": 1,
        "cause": "ping",
    }
    assert revealed[1].data == {
        "ship": "b1",
        "position": {"x": 5.0, "y": 40.0},
        "heading": 3,
        "cause": "ping",
        "by": "a1",
    }
    assert only(events, "ping").data["detections"][1]["revealed"] is False  # a tie (3 = 3) hides b2
    assert (state.ship("b1").revealed, state.ship("b2").revealed) == ("live", "unseen")
    assert a1.revealed == "live" and a1.last_known is not None
    assert (a1.last_known.x, a1.last_known.y, a1.last_known.heading) == (
        a1.position.x,
        a1.position.y,
        1,
    )
    assert not a1.overwatch


def test_a_ping_finds_ships_where_they_truly_are() -> None:
    state = setup_game(["scout"], [PLAIN])
    state = at(state, "b1", 50.0, 30.0, 4)
    state, events = play(state, "A", ping("a1"), [1, 1, 1, 1])
    assert all_of(events, "ship_revealed")[1].data["position"] == {"x": 50.0, "y": 30.0}
    known = state.ship("b1").last_known
    assert known is not None and known.heading == 4
