"""The captain's reckoning: it keeps only orders it can brake out of on the table, and it rates
a weapon's band by the hits the rules' beam dice should score; it hunts an enemy that seldom
pings."""

from __future__ import annotations

from app.bot import gunnery, tactics
from app.bot.captain import HUNT_RATE, Captain
from app.bot.moves import Candidate
from app.rules.geometry import Table, Vec
from app.rules.systems import profile


def _order(x: float, speed: float) -> Candidate:
    """An order that ends at (x, 24) heading east at ``speed`` mu a turn."""
    return Candidate({}, Vec(x, 24.0), Vec(x + speed, 24.0), 3)


def test_only_orders_it_can_brake_out_of_on_the_table_are_kept() -> None:
    table = Table()
    slow, fast = _order(50.0, 6.0), _order(50.0, 20.0)  # fast: 17 + 14 + ... mu more to stop
    assert tactics.stoppable([slow, fast], 6, table) == [slow]
    # when no order can stop on the table, the choice is left to the score
    assert tactics.stoppable([fast], 6, table) == [fast]


def test_it_brakes_on_half_its_thrust_in_case_the_drive_is_hit() -> None:
    table = Table()  # 72 mu wide
    # at x 58 going 12: 6 more mu to stop on its whole thrust of 6, 9 + 6 + 3 on half of it
    tight = _order(58.0, 12.0)
    assert tactics.BRAKE_SHARE == 0.5
    assert tactics.stoppable([tight, _order(50.0, 12.0)], 6, table) == [_order(50.0, 12.0)]


def test_a_ship_without_thrust_must_coast_on_the_table() -> None:
    table = Table()
    # no thrust: it never slows, so it must coast on the table for a few turns more
    assert tactics.stoppable([_order(10.0, 2.0), _order(70.0, 2.0)], 0, table) == [
        _order(10.0, 2.0)
    ]


def test_a_class_two_beam_scores_more_up_close() -> None:
    near, far = profile("beam", 2)
    assert gunnery.expected_hits(near) > gunnery.expected_hits(far) > 0
    assert gunnery.expected_hits(near, screen=1) < gunnery.expected_hits(near)


def test_a_quiet_enemy_is_hunted_and_a_pinging_one_waited_for() -> None:
    captain = Captain()
    captain.belief.enemy_activations, captain.belief.enemy_pings = 20, 20  # pings every time
    assert captain._eager() == 0.0
    captain.belief.enemy_pings = 0  # never pings: the captain must ping for a fight
    assert 0.0 < captain._eager() <= 1.0
    captain.belief.enemy_pings = 12
    assert captain.belief.ping_rate() < HUNT_RATE
    assert 0.0 < captain._eager() < 1.0


def test_when_no_order_stops_on_half_its_thrust_those_that_stop_on_all_of_it_are_kept() -> None:
    table = Table()
    tight, fast = _order(58.0, 12.0), _order(50.0, 20.0)  # tight stops on 6, never on 3
    assert tactics.stoppable([tight, fast], 6, table) == [tight]
