"""Beam dice (compendium C1.i–C1.iii, C1.1, C1.5; RULES.md §8)."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.beams import BeamDice, BeamDie, BeamRoll, beam_hits, roll_beam_dice
from app.rules.dice import Roller, ScriptedDice
from app.rules.errors import NotationError

# C1.i, written out cell by cell: modified roll -> hits at screen level 0 / 1 / 2.
C1_TABLE: dict[int, tuple[int, int, int]] = {
    -2: (0, 0, 0),
    -1: (0, 0, 0),
    0: (0, 0, 0),
    1: (0, 0, 0),
    2: (0, 0, 0),
    3: (0, 0, 0),
    4: (1, 0, 0),
    5: (1, 1, 1),
    6: (2, 2, 1),
    7: (2, 2, 1),
    8: (2, 2, 1),
    9: (2, 2, 1),
}


def roll(bd: str | BeamDice, screen: int, naturals: list[int]) -> BeamRoll:
    """Roll with fixed naturals, checking every scripted die was used."""
    dice = ScriptedDice(naturals)
    roller = Roller(dice, start=0)
    spec = bd if isinstance(bd, BeamDice) else BeamDice.parse(bd)
    result = roll_beam_dice(spec, screen, roller.d6)
    assert dice.remaining == 0, "the roll used fewer dice than scripted"
    return result


def standard_beam_dice(beam_class: int, range_mu: float) -> BeamDice:
    """C1.1: class n rolls n BD* in band 1 (0–12 mu), one fewer per further 12 mu band."""
    band = max(1, math.ceil(range_mu / 12))
    return BeamDice(count=max(0, beam_class - (band - 1)), reroll=True)


# -- the C1.i table ------------------------------------------------------------------------------


@pytest.mark.parametrize("modified", sorted(C1_TABLE))
@pytest.mark.parametrize("screen", [0, 1, 2])
def test_c1_table_every_cell(modified: int, screen: int) -> None:
    assert beam_hits(modified, screen) == C1_TABLE[modified][screen]


@pytest.mark.parametrize("modified", sorted(C1_TABLE))
def test_screen_levels_clamp_to_0_through_2(modified: int) -> None:
    # At most two screen levels are active; nothing reads a negative column.
    assert beam_hits(modified, 3) == beam_hits(modified, 2)
    assert beam_hits(modified, 7) == beam_hits(modified, 2)
    assert beam_hits(modified, -1) == beam_hits(modified, 0)


# -- notation (C1.ii) ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3BD*", BeamDice(3, 0, True)),
        ("1BD-2", BeamDice(1, -2, False)),
        ("6BD+1*", BeamDice(6, 1, True)),
        ("0BD", BeamDice(0)),
        ("1BD", BeamDice(1)),
        ("BD", BeamDice(1)),
        ("BD*", BeamDice(1, 0, True)),
        ("BD+1*", BeamDice(1, 1, True)),
        ("  2BD+1*\t", BeamDice(2, 1, True)),
        ("2BD+0", BeamDice(2)),
        ("2BD-0*", BeamDice(2, 0, True)),
        ("12BD-10", BeamDice(12, -10)),
        ("02BD", BeamDice(2)),
    ],
)
def test_parse(text: str, expected: BeamDice) -> None:
    assert BeamDice.parse(text) == expected


@pytest.mark.parametrize(
    ("bd", "text"),
    [
        (BeamDice(3, reroll=True), "3BD*"),
        (BeamDice(1, -2), "1BD-2"),
        (BeamDice(6, 1, True), "6BD+1*"),
        (BeamDice(0), "0BD"),
        (BeamDice(1), "1BD"),
        (BeamDice(2, 0), "2BD"),
    ],
)
def test_canonical_print(bd: BeamDice, text: str) -> None:
    assert str(bd) == text
    assert str(BeamDice.parse(text)) == text


@pytest.mark.parametrize(
    ("text", "canonical"), [("BD", "1BD"), ("2BD+0*", "2BD*"), (" 3BD ", "3BD")]
)
def test_non_canonical_input_prints_canonically(text: str, canonical: str) -> None:
    assert str(BeamDice.parse(text)) == canonical


def test_bad_notation_message_says_what_is_expected() -> None:
    with pytest.raises(NotationError) as info:
        BeamDice.parse("3XD")
    assert str(info.value) == (
        "'3XD' is not beam-dice notation: expected [n]BD[±DRM][*], e.g. 2BD+1*"
    )
    assert info.value.code == "bad_notation"


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "3XD",
        "3bd",
        "3 BD",
        "-1BD",
        "+1BD",
        "3BD+",
        "3BD-",
        "3BD+*",
        "3BD**",
        "3BD*+1",
        "3BD+1.5",
        "3BD+ 1",
        "3BD++1",
        "BD1",
        "3B D",
        "3DB*",
        "1.5BD",
        "٣BD",  # a non-ASCII digit
        "3BD−1",  # a Unicode minus sign
        "3BD\n*",
    ],
)
def test_parse_rejects_garbage(text: str) -> None:
    with pytest.raises(NotationError, match="is not beam-dice notation"):
        BeamDice.parse(text)


def test_negative_count_is_refused() -> None:
    with pytest.raises(NotationError, match="cannot be negative"):
        BeamDice(-1)


@given(
    count=st.integers(min_value=0, max_value=20),
    drm=st.integers(min_value=-5, max_value=5),
    reroll=st.booleans(),
)
def test_round_trip_property(count: int, drm: int, reroll: bool) -> None:
    bd = BeamDice(count, drm, reroll)
    text = str(bd)
    assert BeamDice.parse(text) == bd
    assert str(BeamDice.parse(text)) == text


_CANONICAL = re.compile(r"[0-9]+BD([+-][1-9][0-9]*)?\*?")


@given(st.text(alphabet="0123456789BDXbd+-*. \t", max_size=12) | st.text(max_size=12))
def test_parse_accepts_or_refuses_with_notation_error(text: str) -> None:
    try:
        bd = BeamDice.parse(text)
    except NotationError as exc:
        assert "is not beam-dice notation" in str(exc)
    else:
        printed = str(bd)
        assert _CANONICAL.fullmatch(printed)
        assert BeamDice.parse(printed) == bd


# -- rolling ---------------------------------------------------------------------------------------


def test_attack_fighter_example_c1_iii() -> None:
    # 1BD+1* vs level-1 screens: a natural 5 is a 6 on the level-1 column: 2 hits, no reroll.
    result = roll("1BD+1*", 1, [5])
    assert result.dice == (BeamDie(natural=5, modified=6, hits=2, is_reroll=False),)
    assert (result.hits, result.reroll_hits, result.total) == (2, 0, 2)


def test_attack_fighter_reroll_keeps_drm_and_ignores_the_screen() -> None:
    # Natural 6 (+1 = 7): 2 hits at level 1, and a reroll. The reroll's 3 (+1 = 4) is read at
    # screen 0 for 1 hit; at level 1 it would have been 0.
    result = roll("1BD+1*", 1, [6, 3])
    assert result.dice == (
        BeamDie(natural=6, modified=7, hits=2, is_reroll=False),
        BeamDie(natural=3, modified=4, hits=1, is_reroll=True),
    )
    assert (result.hits, result.reroll_hits, result.total) == (2, 1, 3)
    assert result.notation == "1BD+1*"
    assert result.screen == 1


@pytest.mark.parametrize(("natural", "hits"), [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 1)])
def test_one_bd_minus_two_hits_only_on_a_natural_six(natural: int, hits: int) -> None:
    result = roll("1BD-2", 0, [natural])
    assert result.total == hits
    assert len(result.dice) == 1  # no reroll without *


def test_six_bd_plus_one_reroll() -> None:
    # 6BD+1*: every die gets +1; the natural 6 earns a reroll, which also gets +1.
    result = roll("6BD+1*", 0, [1, 2, 3, 4, 5, 6, 2])
    assert [d.modified for d in result.dice] == [2, 3, 4, 5, 6, 7, 3]
    assert [d.hits for d in result.dice] == [0, 0, 1, 1, 2, 2, 0]
    assert [d.is_reroll for d in result.dice] == [False] * 6 + [True]
    assert (result.hits, result.reroll_hits) == (6, 0)


def test_reroll_chain_six_six_three() -> None:
    result = roll("1BD*", 0, [6, 6, 3])
    assert [(d.natural, d.hits, d.is_reroll) for d in result.dice] == [
        (6, 2, False),
        (6, 2, True),
        (3, 0, True),
    ]
    assert (result.hits, result.reroll_hits, result.total) == (2, 2, 4)


def test_reroll_chain_is_read_at_screen_zero_behind_a_level_2_screen() -> None:
    result = roll("1BD*", 2, [6, 6, 4])
    assert [d.hits for d in result.dice] == [1, 2, 1]
    assert (result.hits, result.reroll_hits) == (1, 3)


def test_rerolls_follow_their_own_primary_die() -> None:
    result = roll("3BD*", 0, [6, 5, 4, 6, 6, 1])
    assert [(d.natural, d.is_reroll) for d in result.dice] == [
        (6, False),
        (5, True),
        (4, False),
        (6, False),
        (6, True),
        (1, True),
    ]
    assert (result.hits, result.reroll_hits) == (2 + 1 + 2, 1 + 2 + 0)


def test_a_reroll_chain_has_no_limit() -> None:
    result = roll("1BD*", 0, [6] * 10 + [1])
    assert len(result.dice) == 11
    assert result.reroll_hits == 9 * 2


def test_no_reroll_without_asterisk() -> None:
    result = roll("3BD", 0, [6, 6, 6])
    assert all(not d.is_reroll for d in result.dice)
    assert (result.hits, result.reroll_hits) == (6, 0)


def test_only_natural_sixes_earn_rerolls() -> None:
    # 5 + 1 = 6 scores like a six but is not a natural 6.
    result = roll("1BD+1*", 0, [5])
    assert len(result.dice) == 1
    assert result.total == 2


def test_negative_drm_six_still_rerolls() -> None:
    result = roll("1BD-2*", 0, [6, 6, 5])
    assert [d.modified for d in result.dice] == [4, 4, 3]
    assert (result.hits, result.reroll_hits) == (1, 1)


def test_emp_example_c1_5() -> None:
    # Reaver's two EMP-2 batteries at 19 mu (band 2: 1BD* each, rolled together as 2BD*) vs
    # Roma's level-1 screen: 4 is blocked, 6 does 2 hits and a reroll, the reroll 5 does 1.
    result = roll("2BD*", 1, [4, 6, 5])
    assert [(d.natural, d.hits, d.is_reroll) for d in result.dice] == [
        (4, 0, False),
        (6, 2, False),
        (5, 1, True),
    ]
    assert (result.hits, result.reroll_hits, result.total) == (2, 1, 3)


def test_emp_example_c1_5_beam_part() -> None:
    # Reaver's two class-2 beams at 19 mu roll a 2 (miss) and a 4 (blocked by the level-1 screen).
    bd = standard_beam_dice(2, 19)
    assert str(bd) == "1BD*"
    assert roll(bd, 1, [2]).total == 0
    assert roll(bd, 1, [4]).total == 0


def test_ignoring_screens_is_screen_zero() -> None:
    assert roll("1BD", 0, [4]).total == 1
    assert roll("1BD", 1, [4]).total == 0


@pytest.mark.parametrize(
    ("range_mu", "notation"),
    [
        (0.0, "3BD*"),
        (12.0, "3BD*"),
        (12.01, "2BD*"),
        (24.0, "2BD*"),
        (30.0, "1BD*"),
        (36.0, "1BD*"),
        (36.5, "0BD*"),
        (60.0, "0BD*"),
    ],
)
def test_standard_class_3_by_band(range_mu: float, notation: str) -> None:
    assert str(standard_beam_dice(3, range_mu)) == notation


def test_standard_class_3_rolls_one_die_per_bd() -> None:
    for range_mu, naturals in ((6.0, [4, 5, 3]), (18.0, [4, 5]), (30.0, [4])):
        result = roll(standard_beam_dice(3, range_mu), 0, naturals)
        assert len(result.dice) == len(naturals)
    assert roll(standard_beam_dice(3, 40.0), 0, []).dice == ()


def test_zero_dice_rolls_nothing() -> None:
    dice = ScriptedDice([6])
    result = roll_beam_dice(BeamDice(0, reroll=True), 0, Roller(dice, 0).d6)
    assert result.dice == ()
    assert result.total == 0
    assert dice.requested == []


def test_roll_numbers_are_drawn_in_rolling_order() -> None:
    dice = ScriptedDice([6, 2, 5])
    roller = Roller(dice, start=40)
    mark = roller.mark()
    roll_beam_dice(BeamDice.parse("2BD*"), 1, roller.d6)
    assert roller.since(mark) == [40, 41, 42]
    assert roller.next == 43


def test_screen_is_recorded_clamped() -> None:
    assert roll("1BD", 5, [6]).screen == 2
    assert roll("1BD", -1, [6]).screen == 0
