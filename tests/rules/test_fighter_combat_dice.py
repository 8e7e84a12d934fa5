"""The dice of fighter and drone combat (RULES §9.5, C1.i–iv, C5.0): hand arithmetic against the
C5.0 rows, and brute force for the odds."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from app.rules.beams import BeamDice, beam_hits
from app.rules.fighters import attack, dogfight
from app.rules.systems import DRONE_GROUPS, FIGHTER_GROUPS


class _Script:
    """Plays fixed d6 values and fails loudly when asked for one more."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.used = 0

    def __call__(self) -> int:
        assert self.used < len(self.values), "a die more than scripted was rolled"
        self.used += 1
        return self.values[self.used - 1]


def _all(values: list[int]) -> Callable[[], int]:
    return _Script(values)


F, D = FIGHTER_GROUPS, DRONE_GROUPS


def test_standard_fighters_roll_1bd_star_per_fighter_against_screens() -> None:
    roll = _Script([4, 5, 6, 6, 4, 3, 2, 1])
    r = attack.attack_run(F["standard"], 6, 1, roll)
    # level 1: 4 -> 0, 5 -> 1, 6 -> 2; the 6's further dice (6, then 4) in column 0: 2 + 1
    assert r.armour_damage == 3 and r.hull_damage == 3
    assert r.rolled == [4, 5, 6, 6, 4, 3, 2, 1]
    assert [d["further"] for d in r.dice] == [False, False, False, True, True, False, False, False]
    assert roll.used == 8 and r.how == attack.BEAM_RUN and r.notation == "1BD*"


def test_attack_fighters_add_one_to_each_die_rerolls_keep_it_but_ignore_screens() -> None:
    r = attack.attack_run(F["attack"], 6, 2, _all([3, 4, 5, 6, 5, 2, 1]))
    # level 2, +1: 4 -> 0, 5 -> 1, 6 -> 1, 7 -> 1; the 6's further die 5+1=6 in column 0 -> 2
    assert [d["modified"] for d in r.dice] == [4, 5, 6, 7, 6, 3, 2]
    assert (r.armour_damage, r.hull_damage) == (3, 2)


def test_a_weakened_group_rolls_one_die_per_fighter_left() -> None:
    roll = _Script([5, 5])
    r = attack.attack_run(D["heavy"], 2, 0, roll)
    assert r.fighters == 2 and roll.used == 2 and r.armour_damage == 2
    nothing = attack.attack_run(F["standard"], 0, 0, _Script([]))
    assert nothing.dice == () and nothing.armour_damage == nothing.hull_damage == 0


def test_a_torpedo_group_fires_one_pulse_torpedo_at_the_closest_band() -> None:
    assert attack.TORPEDO_BAND.hit_on == 2 and attack.TORPEDO_BAND.damage_dice == 1
    miss = attack.attack_run(F["torpedo"], 6, 2, _Script([1]))
    assert miss.how == attack.TORPEDO_RUN and miss.hull_damage == 0 and miss.rolled == [1]
    hit = attack.attack_run(F["stealth_torpedo"], 3, 2, _Script([2, 5]))
    # screens do not count; the damage die goes to the hull
    assert (hit.armour_damage, hit.hull_damage, hit.damage_rolled) == (0, 5, (5,))
    assert hit.to_dict()["damage_rolled"] == [5]


def test_a_needle_group_rolls_a_needle_die_per_fighter() -> None:
    r = attack.attack_run(D["needle"], 6, 2, _Script([5, 6, 4, 6, 1, 3]))
    assert r.how == attack.NEEDLE_RUN
    assert (r.armour_damage, r.hull_damage, r.sixes) == (0, 3, 2)
    assert r.to_dict()["sixes"] == 2


def test_groups_without_anti_ship_fire_cannot_attack_ships() -> None:
    assert not attack.can_attack_ships(F["interceptor"])
    assert not attack.can_attack_ships(F["pods"])
    assert attack.can_attack_ships(F["torpedo"]) and attack.can_attack_ships(F["needle"])
    # sent at a ship all the same, they roll nothing (C5.0's n/a)
    nothing = attack.attack_run(D["interceptor"], 6, 0, _Script([]))
    assert (nothing.notation, nothing.dice, nothing.armour_damage) == ("n/a", (), 0)


def test_a_multi_role_group_rolls_the_notation_of_its_mode() -> None:
    assert attack.run_notation(F["multi"], True, "anti_ship") == "1BD+1*"
    assert attack.run_notation(F["multi"], False, "pd") == "1BD+1*"
    assert attack.run_notation(F["attack"], True) == "1BD+1*"
    assert attack.run_notation(F["attack"], False) == "1BD-2*"
    assert attack.run_notation(F["torpedo"], True) is None  # a torpedo, not beam dice
    r = attack.attack_run(F["multi"], 2, 1, _Script([5, 1]), mode="pd")
    assert r.notation == "1BD+1*" and r.armour_damage == 2  # 5 + 1 = 6 in the level-1 column


def test_a_dogfight_is_simultaneous_and_each_hit_kills_one() -> None:
    # interceptors (1BD+1*) at heavy fighters (-1 to fire at them): net 0
    # 4 -> 1, 5 -> 1, 6 -> 2 and a further 3 -> 0; 1, 2, 3 -> 0: 4 hits, the heavies had 4
    # heavy fighters (1BD*) back at interceptors (0): 6 -> 2, 6 -> 2, 2 -> 0, 5 -> 1, 4 -> 1
    roll = _Script([4, 5, 6, 3, 1, 2, 3, 6, 6, 2, 5, 4, 1])
    r = dogfight.dogfight(F["interceptor"], 6, F["heavy"], 4, roll)
    assert r.attacker.drm == 0 and r.attacker.hits == 4 and r.attacker.kills == 4
    assert r.defender.fighters == 4 and r.defender.hits == 6 and r.defender.kills == 6
    assert roll.used == 13


def test_kills_never_exceed_the_group_and_drones_are_easier_to_hit() -> None:
    # PD 1BD* at standard drones (+1): 3 -> 4 is a hit; 6 -> 7 scores 2 with a further die
    r = dogfight.fire_at("1BD*", 3, D["standard"].drm, 2, _Script([3, 6, 1, 1]))
    assert r.drm == 1 and r.hits == 3 and r.kills == 2
    # needle fighters' 1BD-2* at super stealth heavy fighters (-1 -2): only a 6 -> 1, no hit
    r = dogfight.fire_at("1BD-2*", 1, F["super_stealth_heavy"].drm, 6, _Script([6, 2]))
    assert r.drm == -5 and r.hits == 0
    assert dogfight.fire_at(None, 6, 0, 6, _Script([])).dice == ()


def _chain(notation_drm: int, reroll: bool, depth: int) -> float:
    """Expected hits of one die (and its further dice) by enumeration to ``depth`` dice."""
    if depth == 0:
        return 0.0
    total = 0.0
    for face in range(1, 7):
        total += beam_hits(face + notation_drm, 0)
        if reroll and face == 6:
            total += _chain(notation_drm, reroll, depth - 1)
    return total / 6


@pytest.mark.parametrize("name", sorted(n for n in F if not F[n].boarding))
@pytest.mark.parametrize("target", ["standard", "heavy", "stealth_needle"])
def test_expected_hits_match_brute_force(name: str, target: str) -> None:
    notation = F[name].pd
    assert notation is not None
    one = BeamDice.parse(notation)
    drm = one.drm + D[target].drm
    exact = dogfight.expected_hits(notation, D[target].drm)
    assert float(exact) == pytest.approx(_chain(drm, one.reroll, 12), abs=1e-6)


def test_expected_hits_by_hand() -> None:
    assert dogfight.expected_hits("1BD*", 0) == Fraction(4, 5)  # (1 + 1 + 2) / 5
    assert dogfight.expected_hits("1BD*", 1) == Fraction(6, 5)  # faces 3..6: 1, 1, 2, 2
    assert dogfight.expected_hits("1BD-2*", 0) == Fraction(1, 5)  # only a 6 -> 4
    assert dogfight.expected_hits(None, 0) == 0
    assert dogfight.expected_kills("1BD+1*", 6, 0, 2) == 2  # capped at the two left
    assert dogfight.expected_kills("1BD+1*", 2, 0, 6) == Fraction(12, 5)


def test_a_weapon_at_a_group_rolls_only_its_to_hit_dice_with_the_group_drm() -> None:
    from app.rules.systems import SYSTEMS

    beam2 = SYSTEMS["beam"].bands(2)[0]  # 2BD* at 0-12 mu
    # heavy fighters: -1 on each die; 5 -> 4 one kill, 6 -> 5 one kill and a further 6 -> 5
    # (one more) and its further 1 -> 0
    r = dogfight.weapon_at_group(beam2, F["heavy"].drm, 6, _Script([5, 6, 6, 1]))
    assert (r.drm, r.hits, r.kills) == (-1, 3, 3)
    torpedo = SYSTEMS["pulse_torpedo"].bands()[1]  # hit on 3+ at 6-12 mu
    assert dogfight.weapon_at_group(torpedo, D["standard"].drm, 6, _Script([2])).kills == 1
    assert dogfight.weapon_at_group(torpedo, F["heavy"].drm, 6, _Script([3])).kills == 0
    needle = SYSTEMS["needle"].bands()[0]
    assert dogfight.weapon_at_group(needle, D["standard"].drm, 6, _Script([4])).kills == 1
    assert dogfight.weapon_at_group(needle, 0, 6, _Script([4])).kills == 0
