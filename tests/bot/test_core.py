"""The captain's core choice: the chance a critical core explodes before the game ends, damage
control trying first, and a dump when that chance is worse than giving half the points."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.bot.captain import Captain
from app.bot.core import explosion_chance, parties
from app.rules import view
from app.rules.state import ShipStatus
from tests.rules.helpers import gunship, play, setup_game, with_ship, with_system


def _ship(mass: int, total: int, lost: int) -> dict[str, object]:
    return {"design": {"mass": mass}, "hull": {"total": total, "lost": lost}}


def test_parties_and_the_chance_of_an_explosion() -> None:
    assert parties(_ship(50, 14, 7)) == 2  # rules.md §8's example: 3 x 7 / 14 = 1.5, up
    assert parties(_ship(30, 10, 0)) == 2 and parties(_ship(30, 10, 6)) == 1
    assert parties(_ship(30, 10, 10)) == 0
    assert explosion_chance(_ship(30, 10, 0), 0) == 0.0  # no roll left: it cannot explode
    none = _ship(10, 10, 10)  # no party: each roll explodes on 5+
    assert explosion_chance(none, 1) == pytest.approx(1 / 3)
    assert explosion_chance(none, 2) == pytest.approx(1 / 3 + 2 / 3 * 1 / 3)
    one = _ship(20, 10, 0)  # one party repairs on a 6 before each roll
    assert explosion_chance(one, 1) == pytest.approx(5 / 6 * 1 / 3)
    assert explosion_chance(one, 3) > explosion_chance(one, 2) > explosion_chance(one, 1)


def _critical(hull_lost: int, turn: int, status: str = "active") -> dict[str, object]:
    state = setup_game([gunship(mass=30, hull=10)], [gunship()])
    state = with_system(state, "a1", "core", "damaged")
    state = replace(with_ship(state, "a1", hull_lost=hull_lost), turn=turn)
    if status != "active":
        state = with_ship(state, "a1", status=ShipStatus(status))
    return {"state": state, "view": view(state, "A")}


def test_a_core_is_dumped_when_it_would_more_likely_explode_and_the_engine_takes_it() -> None:
    captain = Captain()
    rng = random.Random(1)
    # two parties (an intact 30-mass ship), nine rolls to come: 40% to explode; it fights on
    assert captain.core(_critical(0, 3)["view"], rng) is None
    # one party left (6 of 10 hull boxes lost): 62%: dumped, and the engine accepts it
    worse = _critical(6, 3)
    dump = captain.core(worse["view"], rng)
    assert dump == {"type": "core_action", "ship": "a1", "action": "dump"}
    state, _ = play(worse["state"], "A", dump)
    assert state.ship("a1").out_reason == "core_dumped"
    # the last turn: no roll is left, so the core is kept
    assert captain.core(_critical(6, 12)["view"], rng) is None
    # a hulk gives half its points already: its core is dumped at any risk
    assert captain.core(_critical(0, 3, "out_of_play")["view"], rng) == dump
