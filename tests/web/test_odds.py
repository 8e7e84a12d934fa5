"""The fire window's odds (issue 16, "Orders and fire"): expected hits and damage of each choice,
from the public dice rules only, checked against numbers worked out by hand.

Beam dice (C1.i): one die in the screen-0 column scores 0, 0, 0, 1, 1, 2 for faces 1…6; at
screen 1 a 4 scores nothing, at screen 2 a 6 scores 1. A natural 6 of a ``*`` notation earns a
further die read at screen 0, itself rerolled on a 6: worth (0+0+0+1+1+2)/5 = 4/5 hits, so each
starred die adds 1/6 · 4/5 = 2/15. Primary hits hit armour first; further dice go past it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from app.rules.systems import profile
from app.web.odds import fire_odds, option_odds, shot_odds

F = Fraction


def beam_option(cls: int, band: int, screen: int = 0, **extra: Any) -> dict[str, Any]:
    dice = profile("beam", cls)[band - 1].describe()
    return {
        "ship": "a1",
        "weapon": "beam-1",
        "target": "b1",
        "range": 10.0,
        "band": band,
        "dice": dice,
        "screen": screen,
        "weapon_type": "beam",
        "path": "standard",
        "class": cls,
        **extra,
    }


def ship(armour: int = 0, lost: int = 0) -> dict[str, Any]:
    return {"id": "b1", "armour": {"total": armour, "lost": lost}, "hull": {"total": 10}}


def test_a_class_2_beam_in_band_1_against_no_screen() -> None:
    """2BD*: per die 0,0,0,1,1,2 → 2/3, plus 2/15 from its 6's further dice: 4/5; two dice 8/5."""
    odds = option_odds(beam_option(2, 1), ship())
    assert odds is not None
    assert (odds.hits, odds.damage, odds.hull) == (F(8, 5), F(8, 5), F(8, 5))


def test_screens_take_the_fours_and_halve_the_sixes() -> None:
    """Screen 1: per die 1/2 + 2/15 = 19/30; screen 2: 1/3 + 2/15 = 7/15 (further dice ignore
    the screen)."""
    one = option_odds(beam_option(2, 1, screen=1), ship())
    two = option_odds(beam_option(2, 1, screen=2), ship())
    assert one is not None and two is not None
    assert one.hits == F(19, 15) and two.hits == F(14, 15)


def test_the_band_sets_the_dice() -> None:
    """A class-3 beam rolls 3, 2, 1 dice in bands 1, 2, 3: 12/5, 8/5, 4/5 hits."""
    hits = [option_odds(beam_option(3, b), ship()) for b in (1, 2, 3)]
    assert [o.hits for o in hits if o] == [F(12, 5), F(8, 5), F(4, 5)]


def test_armour_takes_the_primary_hits_first() -> None:
    """1BD* at armour 1: primary hits 0, 1, 2 with 1/2, 1/3, 1/6, so 1/6 gets past the armour,
    plus the further dice's 2/15 straight to the hull: 3/10. Damage in all stays 4/5."""
    odds = option_odds(beam_option(1, 1), ship(armour=2, lost=1))
    assert odds is not None
    assert (odds.hits, odds.damage, odds.hull) == (F(4, 5), F(4, 5), F(3, 10))


def test_a_pulse_torpedo_hit_does_its_dice_to_the_hull() -> None:
    """One to-hit die: band 2 hits on 3+ (4/6); a hit does 1d6 (7/2), whatever the armour."""
    band = profile("pulse_torpedo")[1]
    odds = shot_odds(band, "torpedo", 0, armour=3)
    assert band.hit_on == 3
    assert (odds.hits, odds.damage, odds.hull) == (F(2, 3), F(7, 3), F(7, 3))


def test_a_shot_at_a_group_counts_kills() -> None:
    """A group target: 1BD* with the group's DRM 0, each hit kills one: 4/5."""
    option = {"ship": "a1", "weapon": "beam-1", "target": "m-1", "dice": "1BD*", "drm": 0}
    odds = option_odds(option, None)
    assert odds is not None and odds.kills and odds.hits == F(4, 5)


def test_the_words_by_choice_and_nothing_for_a_launch() -> None:
    options = [beam_option(2, 1), {"ship": "a1", "weapon": "sml-1", "launch": True}]
    words = fire_odds(options, [ship(armour=1)])
    assert list(words) == ["a1|beam-1|b1"]
    assert words["a1|beam-1|b1"].startswith("expect 1.60 hits, 1.60 damage ("), words


def test_an_option_the_profile_does_not_match_gets_no_odds() -> None:
    """Odds are shown only for what the window says the shot rolls: a mismatch gives none."""
    assert option_odds({**beam_option(2, 1), "dice": "5BD*"}, ship()) is None
