"""Attacks on the fighter and drone rules (issue 13), through ``decide``: each test shows a
defect a player could use to break the game or cheat, and fails until it is fixed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.rules.decide import decide
from app.rules.dice import ScriptedDice
from app.rules.errors import RulesError
from app.rules.fighters.fold import engage
from app.rules.geometry import Vec
from app.rules.ordnance.defence_view import legal_defend
from app.rules.state import FIGHTERS_ATTACK, Attack, GameState
from tests.rules.fighter_setup import carrier_game, launched_last_turn, markers_cmd, with_marker
from tests.rules.fighter_setup import group as fighter_group
from tests.rules.helpers import (
    activate,
    at,
    end,
    gunship,
    move,
    play,
    setup_game,
    with_ship,
    with_system,
)
from tests.rules.test_fighter_combat import PLACES, RUN, defend, game, picket, strike
from tests.rules.test_fighter_combat import group as group_at


def _craft(state: GameState, side: str = "A") -> int:
    """Craft of ``side`` in flight plus those aboard its bays."""
    flying = sum(
        m.strength for m in state.markers if m.side == side and m.kind in ("fighters", "drones")
    )
    aboard = sum(b.strength for s in state.ships_of(side) for b in s.bays.values())
    return flying + aboard


def _both_launched() -> GameState:
    """A1 launches both fighter bays on turn 1 (to its own position); turn 2 begins."""
    state = carrier_game()
    state, _ = play(state, "A", activate("a1"))
    state, _ = play(state, "A", markers_cmd(launch=[{"bay": "bay-1"}, {"bay": "bay-2"}]))
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", end("a1"))
    state, _ = play(state, "B", move("b1"))
    state, _ = play(state, "B", end("b1"), [6, 1])
    assert state.turn == 2 and state.phase.side == "A", state.phase
    return state


def _orders(state: GameState, **extra: Any) -> list[dict[str, Any]]:
    return [
        {"marker": m.id, **extra} for m in state.markers if m.side == "A" and m.kind == "fighters"
    ]


def test_two_groups_cannot_land_in_one_bay() -> None:
    """Defect: two groups ordered to land in the same step 2 are each checked against the bays
    as they were before either landed, so both are sent to the one empty working bay and the
    second overwrites the first — six fighters vanish. Rule (docs/rules.md F3 and the
    conservation line of Losses): a group lands in an empty working bay, and with none left the
    order is refused; craft launched = craft in flight + lost + landed."""
    state = _both_launched()
    state = with_system(state, "a1", "bay-2", "damaged")  # only bay-1 works and is empty
    before = _craft(state)
    assert before == 12
    state, _ = play(state, "A", activate("a1"))
    try:
        state, _ = play(state, "A", markers_cmd(orders=_orders(state, land=True)))
    except RulesError:  # a refusal of the second landing is the fix
        return
    assert _craft(state) == before, "a landing overwrote another group in the same bay"


def test_two_exhausted_groups_going_home_do_not_share_a_bay() -> None:
    """Defect: on standing orders each exhausted group (0 CEF) flies home and lands if
    ``landing_bay`` finds a bay — read from the state before either landed — so two of them
    land in the one empty working bay and the first is overwritten: craft vanish. Rule (F4, F3,
    conservation): an exhausted group lands only in a working empty bay, else it stays in
    flight; no craft disappear."""
    state = _both_launched()
    state = with_system(state, "a1", "bay-2", "damaged")
    for m in [m for m in state.markers if m.kind == "fighters"]:
        state = with_marker(state, m.id, cef=0)
    before = _craft(state)
    state, _ = play(state, "A", activate("a1"))
    state, _ = play(state, "A", move("a1"))  # standing orders: exhausted groups go home
    assert _craft(state) == before, "two groups landed in one bay: one of them vanished"


def _fire_refusal(state: GameState, target: str) -> RulesError:
    shot = {"ship": "a1", "weapon": "beam-1", "target": target}
    cmd = {"type": "fire", "window": state.phase.window, "shots": [shot]}
    with pytest.raises(RulesError) as caught:
        decide(state, "A", cmd, ScriptedDice([]))
    return caught.value


def test_fire_at_a_forgotten_group_is_refused_like_a_made_up_id() -> None:
    """Defect: a shot at an enemy group that is in flight but no longer live is refused with
    ``target_not_revealed`` ("group … is not live"), while a made-up id gets another refusal.
    A player who saw a group once keeps its id and, by firing at it, learns whether it is still
    flying or has landed or been removed — secrets (RULES §9.1: "an id the caller may not see
    is refused exactly like an unknown one"; landing stays secret)."""
    heavies = replace(group_at("g-b", "B", "fighters", "heavy", Vec(10, 10)), live=True)
    state = setup_game((gunship(),), (picket(),), {"a1": PLACES["a1"], "b1": PLACES["b1"]})
    state = replace(state, markers=(heavies,))
    state, _ = play(state, "A", {"type": "ping", "ship": "a1"}, [6] * 10, all_dice=False)
    assert state.phase.step == "fire"
    state = replace(state, markers=tuple(replace(m, live=False) for m in state.markers))
    hidden = _fire_refusal(state, "g-b")
    made_up = _fire_refusal(state, "g-zz")
    assert (hidden.code, hidden.detail.replace("g-b", "ID")) == (
        made_up.code,
        made_up.detail.replace("g-zz", "ID"),
    )


def test_a_group_intercepts_once_per_turn() -> None:
    """Defect: a group that intercepted in one defence window is offered (and may fly) another
    interception in a second window of the same turn — interception is checked once per
    window only (``intercept.check``'s ``used``), so one group defends against every attack of
    the turn while it has CEF. Rule (RULES §9.5): "Legal defences, each firing once per turn",
    an own fighter group's interception among them."""
    first = group_at("g-a", "A", "fighters", "standard", Vec(36, 41))
    second = group_at("g-e", "A", "fighters", "standard", Vec(37, 41))
    guard = group_at("g-b", "B", "fighters", "interceptor", Vec(36, 30))
    state, _ = strike(game(first, second, guard), RUN, [])
    dice = [1] * 6 + [1] * 6 + [1] * 6  # nobody hits: the guard lives, the run misses
    state, _ = defend(state, [{"group": "g-b", "against": "g-a"}], dice)
    assert state.phase.defence is None
    turn = state.turn
    again = (Attack("g-e", "A", FIGHTERS_ATTACK, "b1"),)
    state, _ = strike(state, again, [])
    assert state.turn == turn and state.phase.defence is not None
    offered = [p for p in legal_defend(state, "B")["defend"]["pairings"] if "group" in p]
    assert not any(p["group"] == "g-b" for p in offered), "g-b intercepts a second time"


def test_an_out_of_control_mothers_engaged_group_does_not_attack() -> None:
    """Defect: when the mother ship is out of control its step 2 runs as standing orders, and
    standing orders make an engaged group attack its ship again — so the group still attacks
    (a ``defence_window`` opens with its run). Rule (RULES §9.3; docs/rules.md, Moving): "If the
    mother ship is out of control ... its heavy missiles and groups hold, nothing launches,
    lands or attacks"."""
    state = launched_last_turn(carrier_game())
    g = fighter_group(state).id
    state = engage(at(state, "b1", 30.0, 30.0), g, "b1")
    state = with_ship(state, "a1", out_of_control=1)
    state, events = play(state, "A", activate("a1"))
    attacks = [a for e in events if e.type == "defence_window" for a in e.data["attacks"]]
    assert not [a for a in attacks if a["marker"] == g], "a held group attacked"
