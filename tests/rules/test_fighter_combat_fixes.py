"""Fixes to fighter combat found in review (issue 13): a dogfight's target does not intercept its
own attacker, and the ``fighters`` command refuses a multi-role mode that does not fit the
target and says what to send. Through the real window and ``decide``."""

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
from app.rules.state import DOGFIGHT, Attack, GameState, Step
from tests.rules.fighter_setup import (
    carrier_game,
    group,
    launch,
    launched_last_turn,
    markers_cmd,
    with_marker,
)
from tests.rules.helpers import at, end, move, only, play
from tests.rules.test_fighter_combat import defend, game, strike
from tests.rules.test_fighter_combat import group as group_at


def test_the_group_a_dogfight_attacks_cannot_intercept_its_attacker() -> None:
    """Defect: the target of a dogfight was offered an interception of the very group that
    attacks it — a free first round, and it paid CEF twice. Decision (docs/rules.md §9.8): a
    group attacked in this window is already in that dogfight; it may intercept other
    attacks, and another group of its side may intercept this one."""
    mine = group_at("g-a", "A", "fighters", "standard", Vec(30, 30))
    theirs = replace(group_at("g-b", "B", "fighters", "interceptor", Vec(31, 30)), live=True)
    friend = group_at("g-c", "B", "fighters", "interceptor", Vec(32, 30))
    fight = (Attack("g-a", "A", DOGFIGHT, "g-b"),)
    state, _ = strike(game(mine, theirs, friend), fight, [])
    offered = [p for p in legal_defend(state, "B")["defend"]["pairings"] if "group" in p]
    assert not any(p["group"] == "g-b" for p in offered), offered
    assert any(p["group"] == "g-c" and p["against"] == "g-a" for p in offered), offered
    with pytest.raises(RulesError, match="g-b is the group g-a attacks"):
        defend(state, [{"group": "g-b", "against": "g-a"}], [1] * 30)


def _choosing(fighters: str, enemy_group: bool = False) -> tuple[GameState, str]:
    """A's group of type ``fighters`` engaged with b1 at (30, 30), A in the fighters step; with
    ``enemy_group``, a B group beside it (in its line of sight) as well."""
    state = launched_last_turn(carrier_game(fighters=fighters))
    g = group(state).id
    state = engage(at(state, "b1", 30.0, 30.0), g, "b1")
    if enemy_group:
        theirs = group_at("g-zb", "B", "fighters", "standard", Vec(31, 30))
        state = replace(state, markers=(*state.markers, theirs))
    state, _ = play(state, "A", {"type": "activate", "ship": "a1"})
    state, _ = play(state, "A", {"type": "markers", "ship": "a1", "orders": []})
    assert state.phase.step == Step.FIGHTERS, state.phase
    return state, g


def _refusal(state: GameState, choice: dict[str, Any]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        decide(state, "A", {"type": "fighters", "choices": [choice]}, ScriptedDice([1] * 40))
    return caught.value


def test_a_multi_role_group_in_pd_mode_cannot_make_an_attack_run() -> None:
    """A multi-role group chooses its role per attack (C5.0): anti-ship against a ship, point
    defence against a group. ``pd`` against a ship was taken and rolled as an attack run."""
    state, g = _choosing("multi")
    out = _refusal(state, {"marker": g, "attack": "b1", "mode": "pd"})
    assert out.code == "invalid_command"
    assert '"mode": "anti_ship"' in out.detail, out.detail


def test_a_multi_role_group_in_anti_ship_mode_cannot_dogfight() -> None:
    state, g = _choosing("multi", enemy_group=True)
    out = _refusal(state, {"marker": g, "attack": "g-zb", "mode": "anti_ship"})
    assert out.code == "invalid_command"
    assert '"mode": "pd"' in out.detail, out.detail


def test_choice_refusals_say_what_to_send() -> None:
    """A missing mode or system names the field to send and its value(s)."""
    state, g = _choosing("multi")
    out = _refusal(state, {"marker": g, "attack": "b1"})
    assert 'send "mode": "anti_ship"' in out.detail, out.detail
    state, g = _choosing("needle")
    out = _refusal(state, {"marker": g, "attack": "b1"})
    assert out.code == "bad_target_system" and 'send "system"' in out.detail, out.detail
    out = _refusal(state, {"marker": g, "attack": "b1", "system": "no_such_type"})
    assert 'send "system": one of' in out.detail, out.detail


def test_a_spent_torpedo_group_has_no_ship_to_attack_and_its_engagement_ends() -> None:
    """C5.0 (decided): one pulse torpedo per group per sortie. Once it fired (``torpedo_fired``,
    folded from its public ``fighters_attack``), the group is offered no ship; engaged, it
    loses contact at its next step 2 (``exhausted``), free to move and land."""
    state = launched_last_turn(carrier_game(fighters="torpedo"))
    g = group(state).id
    state = engage(at(state, "b1", 30.0, 30.0), g, "b1")
    state = with_marker(state, g, torpedo_fired=1)
    assert state.marker(g).to_dict()["torpedo_fired"] == 1
    state, _ = play(state, "A", {"type": "activate", "ship": "a1"})
    state, events = play(state, "A", {"type": "markers", "ship": "a1", "orders": []})
    lost = only(events, "contact_lost").data
    assert (lost["marker"], lost["reason"]) == (g, "exhausted")
    assert state.marker(g).engaged_with is None
    assert state.phase.fighters is not None and g not in state.phase.fighters.groups


def test_a_landed_torpedo_group_relaunches_with_a_new_torpedo() -> None:
    state = launched_last_turn(carrier_game(fighters="torpedo"))
    g = group(state).id
    state = with_marker(state, g, torpedo_fired=1)
    state, _ = play(state, "A", {"type": "activate", "ship": "a1"})
    state, _ = play(state, "A", markers_cmd([{"marker": g, "land": True}]))
    assert not any(m.id == g for m in state.markers)
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", end("a1"))
    state, _ = play(state, "B", move("b1"))
    state, _ = play(state, "B", end("b1"), [6, 1])
    state, _ = launch(state, "bay-1", (30.0, 22.0))
    fresh = group(state)
    assert fresh.torpedo_fired is None and "torpedo_fired" not in fresh.to_dict()
