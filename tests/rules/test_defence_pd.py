"""Point-defence dice and odds (RULES §9.5, C3.2; decision 8): hand arithmetic and brute force."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.beams import beam_hits
from app.rules.ordnance import pd


def _script(values: list[int]):  # type: ignore[no-untyped-def]
    it = iter(values)
    return lambda: next(it)


def test_a_pds_die_kills_salvo_missiles_as_beam_hits_with_a_further_die_on_six() -> None:
    r = pd.roll_pd("salvo", 0, _script([6, 4]))
    assert r.kills == 3  # the 6 scores 2, its further die a 4 scores 1
    assert [d["further"] for d in r.dice] == [False, True]
    assert not r.destroyed
    assert pd.roll_pd("salvo", 0, _script([3])).kills == 0
    assert pd.roll_pd("er_salvo", 0, _script([5])).kills == 1


def test_a_heavy_missile_is_destroyed_on_a_modified_five_or_more() -> None:
    assert not pd.roll_pd("heavy_missile", 0, _script([4])).destroyed
    assert pd.roll_pd("heavy_missile", 0, _script([5])).destroyed
    assert pd.roll_pd("amt", 0, _script([6, 1])).destroyed
    # with a DRM of -2 a 6 makes only 4: its further die may still do it (6 -> 4, 6 -> 4, ...)
    r = pd.roll_pd("heavy_missile", -2, _script([6, 6, 3]))
    assert [d["modified"] for d in r.dice] == [4, 4, 1] and not r.destroyed
    assert r.kills == 0


def test_an_af_salvo_kills_one_d6_or_destroys_on_four() -> None:
    assert pd.roll_af("salvo", _script([5])).kills == 5
    assert pd.roll_af("heavy_missile", _script([4])).destroyed
    assert not pd.roll_af("amt", _script([3])).destroyed


def test_odds_by_hand() -> None:
    # faces 4, 5 one hit, 6 two hits and a further die: E = 4/6 + E/6 -> E = 4/5
    assert pd.expected_pd_kills(0) == Fraction(4, 5)
    assert pd.pd_destroy_chance(0) == Fraction(1, 3)  # a 5 or a 6
    assert pd.pd_destroy_chance(1) == Fraction(1, 2)
    assert pd.pd_destroy_chance(-2) == Fraction(0)
    assert pd.af_odds("salvo") == Fraction(7, 2)
    assert pd.af_odds("heavy_missile") == Fraction(1, 2)
    assert pd.pd_odds("salvo", 0) == Fraction(4, 5)
    assert pd.pd_odds("heavy_missile", 0) == Fraction(1, 3)
    assert pd.odds_number(Fraction(1, 3)) == 0.3333


def _chain_expectation(drm: int, depth: int) -> float:
    """Expected hits of one die and its further dice, enumerated to ``depth`` dice."""
    if depth == 0:
        return 0.0
    total = 0.0
    for face in range(1, 7):
        total += beam_hits(face + drm, 0) + (_chain_expectation(drm, depth - 1) if face == 6 else 0)
    return total / 6


@pytest.mark.parametrize("drm", [-2, -1, 0, 1, 2])
def test_expected_kills_match_brute_force(drm: int) -> None:
    assert abs(float(pd.expected_pd_kills(drm)) - _chain_expectation(drm, 12)) < 1e-8


@pytest.mark.parametrize("drm", [-2, -1, 0, 1])
def test_destroy_chance_matches_enumeration(drm: int) -> None:
    # three dice deep is exact here: a chain can only go on through 6s
    hits = 0
    for faces in product(range(1, 7), repeat=3):
        dice = [faces[0]]
        for f in faces[1:]:
            if dice[-1] != 6:
                break
            dice.append(f)
        hits += any(d + drm >= 5 for d in dice)
    assert Fraction(hits, 216) == pd.pd_destroy_chance(drm)


@given(st.lists(st.integers(1, 6), min_size=30, max_size=30), st.integers(-2, 2))
def test_one_pds_never_kills_more_than_its_dice_allow(faces: list[int], drm: int) -> None:
    r = pd.roll_pd("salvo", drm, _script(faces))
    assert 0 <= r.kills <= 2 * len(r.dice)
    assert all(d["natural"] == 6 for d in r.dice[:-1])  # only 6s earn further dice


def test_missile_kinds_have_no_drm() -> None:
    for kind in ("salvo", "er_salvo", "af_salvo", "heavy_missile", "amt"):
        assert pd.marker_drm(kind) == 0
    with pytest.raises(ValueError):
        pd.marker_drm("fighters")
