"""Fighter combat through the engine (RULES §9.5): attack runs, dogfights, point defence and
interception in the defence window, the folds (strength, CEF, engagement, drones gone), and
what the events tell: never a group's mother ship."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.rules import ScriptedDice, decide
from app.rules.builder import Builder
from app.rules.designs import SystemSpec
from app.rules.errors import RulesError
from app.rules.events import Event
from app.rules.geometry import Vec
from app.rules.ordnance.defence import awaited
from app.rules.ordnance.defence_view import legal_defend
from app.rules.ordnance.window import open_or_strike
from app.rules.state import DEFEND, DOGFIGHT, FIGHTERS_ATTACK, Attack, GameState, MarkerState
from tests.rules.helpers import gunship, play, setup_game

PLACES = {"a1": (10.0, 4.0, 0, 0), "b1": (36.0, 40.0, 6, 0), "b2": (60.0, 40.0, 6, 0)}


def carrier():  # type: ignore[no-untyped-def]
    return gunship(
        "carrier",
        mass=60,
        hull=30,
        hull_rows=3,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("bay-1", "fighter_bay", load="standard"),
            SystemSpec("bay-2", "drone_bay", load="standard"),
        ),
    )


def picket(pds: int = 1):  # type: ignore[no-untyped-def]
    """A ship with point defence and a fighter bay, no screens, no armour, a long hull."""
    return gunship(
        "picket",
        mass=60,
        hull=30,
        hull_rows=3,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            *(SystemSpec(f"pds-{i}", "pds") for i in range(1, pds + 1)),
            SystemSpec("bay-1", "fighter_bay", load="interceptor"),
        ),
    )


def group(
    mid: str, side: str, kind: str, name: str, at: Vec, strength: int = 6, cef: int = 6
) -> MarkerState:
    return MarkerState(
        id=mid,
        side=side,
        mother="a1" if side == "A" else "b1",
        kind=kind,
        position=at,
        aim=at,
        launched_turn=1,
        launched_seq=5,
        strength=strength,
        group=name,
        bay="bay-1",
        cef=cef,
    )


def game(*markers: MarkerState, b_design: Any = None) -> GameState:
    state = setup_game((carrier(),), (b_design or picket(), picket()), PLACES)
    return replace(state, markers=tuple(sorted(markers, key=lambda m: m.id)))


def strike(state: GameState, attacks: tuple[Attack, ...], dice: list[int]) -> tuple[Any, ...]:
    """Open the window for ``attacks`` (or strike at once when nobody is awaited)."""
    b = Builder(state, ScriptedDice(dice))
    open_or_strike(b, attacks)
    return b.state, list(b.events)


def defend(
    state: GameState, allocations: list[dict[str, str]], dice: list[int]
) -> tuple[GameState, list[Event]]:
    window = state.phase.defence
    assert window is not None
    cmd = {"type": "defend", "window": window.window, "allocations": allocations}
    return play(state, "B", cmd, dice)


def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == kind]


def marker(state: GameState, mid: str) -> MarkerState | None:
    return next((m for m in state.markers if m.id == mid), None)


B1 = Vec(36.0, 40.0)
RUN = (Attack("g-a", "A", FIGHTERS_ATTACK, "b1"),)


def test_an_attack_run_survives_point_defence_rolls_and_engages() -> None:
    state, events = strike(game(group("g-a", "A", "fighters", "standard", Vec(36, 41))), RUN, [])
    assert state.phase.step == DEFEND and state.phase.defence.awaiting == ("B",)  # type: ignore[union-attr]
    legal = legal_defend(state, "B")["defend"]
    # the PDS at the group: 1BD* at standard fighters (DRM 0): 4/5 expected kills
    assert {"ship": "b1", "system": "pds-1", "against": "g-a", "odds": 0.8} in legal["pairings"]
    assert legal["default"] == [{"ship": "b1", "system": "pds-1", "against": "g-a"}]
    # the PDS rolls a 5: one fighter killed; five roll 1BD* at b1 (no screens):
    # 6 (2, and a further 4: 1 to the hull), 5, 4, 3, 1 -> armour-first 4, hull 1
    state, events = defend(
        state, [{"ship": "b1", "system": "pds-1", "against": "g-a"}], [5, 6, 4, 5, 4, 3, 1]
    )
    resolved = of(events, "defence_resolved")[0]
    assert resolved["kills"] == {"g-a": 1}
    run = of(events, "fighters_attack")[0]
    assert (run["killed"], run["fighters"], run["run"], run["notation"]) == (1, 5, "beam", "1BD*")
    assert (run["armour_damage"], run["hull_damage"]) == (4, 1)
    assert run["rolled"] == [6, 4, 5, 4, 3, 1] and len(run["rolls"]) == 6
    assert "ship" not in run and "mother" not in run  # never the mother ship (RULES §9.4)
    damage = of(events, "damage")[0]
    assert damage["ship"] == "b1" and damage["hull_lost"] == 5
    g = marker(state, "g-a")
    assert g is not None
    assert (g.strength, g.cef, g.engaged_with, g.position) == (5, 5, "b1", B1)
    assert g.live and g.type_shown


def test_a_run_with_nobody_awaited_strikes_at_once_and_the_last_fighter_killed_ends_it() -> None:
    bare = gunship("bare", hull=30, hull_rows=3, systems=(SystemSpec("fc-1", "fire_control"),))
    one = group("g-a", "A", "fighters", "attack", Vec(36, 41), strength=1)
    state = game(one, b_design=bare)
    assert awaited(state, RUN) == ("B",)  # b2 still has a PDS and a bay (public hardware)
    state, events = strike(state, RUN, [])
    state, events = defend(state, [], [4])
    run = of(events, "fighters_attack")[0]
    # 1BD+1*: 4 + 1 = 5 -> one hit on armour first
    assert (run["fighters"], run["armour_damage"], run["hull_damage"]) == (1, 1, 0)


def test_point_defence_killing_every_fighter_stops_the_run() -> None:
    two = group("g-a", "A", "fighters", "heavy", Vec(36, 41), strength=2)
    state, _ = strike(game(two, b_design=picket(2)), RUN, [])
    allocs = [{"ship": "b1", "system": f"pds-{i}", "against": "g-a"} for i in (1, 2)]
    # heavy fighters: -1 on each PD die; 6 -> 5 one kill (its further 6 -> 5 one more, and 1)
    state, events = defend(state, allocs, [6, 6, 1, 2])
    assert of(events, "defence_resolved")[0]["kills"] == {"g-a": 2}
    run = of(events, "fighters_attack")[0]
    assert run["fighters"] == 0 and run["destroyed"] and run["rolled"] == []
    assert marker(state, "g-a") is None and not of(events, "damage")


def test_a_drone_group_out_of_endurance_is_gone_after_its_attack() -> None:
    drones = group("g-a", "A", "drones", "standard", Vec(36, 41), cef=1)
    state, _ = strike(game(drones), RUN, [])
    state, events = defend(state, [], [1, 1, 1, 1, 1, 1])
    run = of(events, "fighters_attack")[0]
    assert run["exhausted"] and run["kind"] == "drones"
    assert marker(state, "g-a") is None


def test_a_needle_run_names_its_system_and_its_sixes_destroy_it() -> None:
    needle = group("g-a", "A", "fighters", "needle", Vec(36, 41), strength=2)
    attack = (Attack("g-a", "A", FIGHTERS_ATTACK, "b1", system="pds"),)
    state, events = strike(game(needle), attack, [])
    assert of(events, "defence_window")[0]["attacks"][0]["system"] == "pds"
    state, events = defend(state, [], [6, 2])
    run = of(events, "fighters_attack")[0]
    assert (run["system"], run["needle_system"], run["sixes"], run["hull_damage"]) == (
        "pds",
        "pds-1",
        1,
        1,
    )
    lost = of(events, "system_damaged")
    assert lost[0]["system"] == "pds-1" and lost[0]["by"] == "g-a"


def test_a_dogfight_is_simultaneous_and_both_pay_endurance() -> None:
    mine = group("g-a", "A", "fighters", "interceptor", Vec(30, 30))
    theirs = group("g-b", "B", "fighters", "heavy", Vec(31, 30), strength=4)
    theirs = replace(theirs, live=True)
    fight = (Attack("g-a", "A", DOGFIGHT, "g-b"),)
    state, events = strike(game(mine, theirs), fight, [])
    assert state.phase.defence.awaiting == ("B",)  # type: ignore[union-attr]
    # interceptors 1BD+1* at heavies (-1): 4, 5 -> 1 each, 6 -> 2 and a further 3; 1, 2, 3
    # heavies 1BD* back: 6 -> 2 (further 2), 5 -> 1, 4 -> 1, 1
    dice = [4, 5, 6, 3, 1, 2, 3, 6, 2, 5, 4, 1]
    state, events = defend(state, [], dice)
    fought = of(events, "dogfight")[0]
    assert fought["attacker"]["kills"] == 4 and fought["defender"]["kills"] == 4
    assert fought["gone"] == ["g-b"] and fought["target_group"] == "heavy"
    a = marker(state, "g-a")
    assert a is not None and (a.strength, a.cef, a.engaged_with) == (2, 5, None)
    assert marker(state, "g-b") is None


def test_an_own_group_within_twelve_mu_intercepts_an_attack_run_before_it_rolls() -> None:
    attacker = group("g-a", "A", "fighters", "standard", Vec(36, 41))
    guard = group("g-b", "B", "fighters", "interceptor", Vec(36, 30))  # 10 mu from b1
    far = group("g-c", "B", "fighters", "interceptor", Vec(60, 20))
    state, _ = strike(game(attacker, guard, far), RUN, [])
    pairings = legal_defend(state, "B")["defend"]["pairings"]
    # 6 dice of 1BD+1* at standard fighters: 6 × 6/5, capped at the 6 there
    assert {"group": "g-b", "against": "g-a", "odds": 6.0} in pairings
    assert not any(p.get("group") == "g-c" for p in pairings)
    # the interceptors: 4, 4, 4, 1, 1, 1 -> +1: 3 kills; the standards back (1BD* at 0): 5, 1 x5
    # -> 1 loss; then the three left run at b1: 1, 1, 1
    dice = [4, 4, 4, 1, 1, 1, 5, 1, 1, 1, 1, 1, 1, 1, 1]
    state, events = defend(state, [{"group": "g-b", "against": "g-a"}], dice)
    entry = of(events, "defence_resolved")[0]["defences"][0]
    assert (entry["group"], entry["role"], entry["kills"], entry["losses"]) == (
        "g-b",
        "intercept",
        3,
        1,
    )
    assert of(events, "fighters_attack")[0]["fighters"] == 3
    guard_after = marker(state, "g-b")
    assert guard_after is not None
    assert (guard_after.strength, guard_after.cef, guard_after.position) == (5, 5, B1)
    assert guard_after.live and guard_after.type_shown


def _refused(state: GameState, allocations: list[dict[str, str]]) -> RulesError:
    window = state.phase.defence
    assert window is not None
    cmd = {"type": "defend", "window": window.window, "allocations": allocations}
    with pytest.raises(RulesError) as caught:
        decide(state, "B", cmd, ScriptedDice([]))
    return caught.value


def test_interception_refusals_name_what_to_change() -> None:
    attacker = group("g-a", "A", "fighters", "standard", Vec(36, 41))
    far = group("g-c", "B", "fighters", "interceptor", Vec(60, 20))
    tired = group("g-d", "B", "fighters", "interceptor", Vec(36, 35), cef=0)
    state, _ = strike(game(attacker, far, tired), RUN, [])
    out = _refused(state, [{"group": "g-c", "against": "g-a"}])
    assert out.code == "out_of_range" and "secondary move (12 mu)" in out.detail
    out = _refused(state, [{"group": "g-d", "against": "g-a"}])
    assert out.code == "illegal_pairing" and "endurance" in out.detail
    out = _refused(state, [{"group": "g-a", "against": "g-a"}])
    assert out.code == "not_your_ship"
    out = _refused(state, [{"group": "g-zz", "against": "g-a"}])
    assert out.code == "invalid_command"


def test_ship_fire_at_a_live_group_rolls_to_hit_dice_with_its_drm_and_kills_one_per_hit() -> None:
    heavies = replace(group("g-b", "B", "fighters", "heavy", Vec(10, 10)), live=True)
    state = setup_game((gunship(),), (picket(),), {"a1": PLACES["a1"], "b1": PLACES["b1"]})
    state = replace(state, markers=(heavies,))
    state, _ = play(state, "A", {"type": "ping", "ship": "a1"}, [6] * 10, all_dice=False)
    assert state.phase.step == "fire" and state.phase.awaiting == ("A",)
    from app.rules.fire_options import fire_options

    at_group = [o for o in fire_options(state, "A") if o["target"] == "g-b"]
    # the class-4 beam at 6 mu: 4BD* in its first band; the DRM shown is the kind's until the
    # type is shown (F11), so the heavies' -1 is not told
    assert at_group == [
        {"ship": "a1", "weapon": "beam-1", "target": "g-b", "range": 6.0, "band": 1}
        | {"dice": "4BD*", "drm": 0}
    ]
    shot = {"ship": "a1", "weapon": "beam-1", "target": "g-b"}
    cmd = {"type": "fire", "window": state.phase.window, "shots": [shot]}
    # 5, 5, 5 -> 4 each (one kill), 1 -> 0: three kills; no damage dice
    state, events = play(state, "A", cmd, [5, 5, 5, 1])
    resolved = of(events, "fire_resolved")[0]["shots"][0]
    assert (resolved["target"], resolved["drm"], resolved["hits"], resolved["kills"]) == (
        "g-b",
        -1,
        3,
        3,
    )
    assert of(events, "groups_hit")[0]["groups"] == [{"marker": "g-b", "killed": 3, "strength": 3}]
    g = marker(state, "g-b")
    assert g is not None and g.strength == 3 and g.type_shown
    assert not of(events, "damage")


def test_fire_at_a_group_not_live_is_refused() -> None:
    heavies = replace(group("g-b", "B", "fighters", "heavy", Vec(10, 10)), live=True)
    state = setup_game((gunship(),), (picket(),), {"a1": PLACES["a1"], "b1": PLACES["b1"]})
    state = replace(state, markers=(heavies,))
    state, _ = play(state, "A", {"type": "ping", "ship": "a1"}, [6] * 10, all_dice=False)
    assert state.phase.step == "fire"
    # forgotten since (as at its mother's next activation): no longer a target, and refused
    # like an id that does not exist (RULES §9.1: the refusal must not tell it still flies)
    state = replace(state, markers=tuple(replace(m, live=False) for m in state.markers))
    shot = {"ship": "a1", "weapon": "beam-1", "target": "g-b"}
    cmd = {"type": "fire", "window": state.phase.window, "shots": [shot]}
    with pytest.raises(RulesError) as caught:
        decide(state, "A", cmd, ScriptedDice([]))
    assert caught.value.code == "unknown_ship" and "g-b" in caught.value.detail


def test_an_anti_fighter_salvo_kills_one_d6_fighters_of_an_attack_run() -> None:
    af = gunship(
        "af_picket",
        mass=60,
        hull=30,
        hull_rows=3,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("sml-1", "salvo_launcher", arcs=("F",), magazine="mag-1"),
            SystemSpec("mag-1", "magazine", loads=(("af_salvo", 1),)),
        ),
    )
    state, _ = strike(
        game(group("g-a", "A", "fighters", "standard", Vec(36, 41)), b_design=af), RUN, []
    )
    pairs = legal_defend(state, "B")["defend"]["pairings"]
    assert {"ship": "b1", "system": "sml-1", "against": "g-a", "odds": 3.5} in pairs
    # the AF salvo's die: 4 killed; the two left roll 5, 5 at b1
    state, events = defend(state, [{"ship": "b1", "system": "sml-1", "against": "g-a"}], [4, 5, 5])
    assert of(events, "defence_resolved")[0]["kills"] == {"g-a": 4}
    run = of(events, "fighters_attack")[0]
    assert (run["fighters"], run["armour_damage"]) == (2, 2)
    assert state.ship("b1").loads["mag-1"]["af_salvo"] == 0


def test_a_dogfight_awaits_the_side_whose_group_is_attacked() -> None:
    mine = group("g-a", "A", "fighters", "standard", Vec(30, 30))
    theirs = replace(group("g-b", "B", "fighters", "standard", Vec(31, 30)), live=True)
    fight = (Attack("g-a", "A", DOGFIGHT, "g-b"),)
    bare = gunship("bare", hull=30, hull_rows=3, systems=(SystemSpec("fc-1", "fire_control"),))
    # B's ships defend (PDS, bays): awaited although no ship of B's is attacked
    assert awaited(game(mine, theirs), fight) == ("B",)
    state = setup_game((carrier(),), (bare, bare), PLACES)
    state = replace(state, markers=(mine, theirs))
    assert awaited(state, fight) == ()  # nothing of B's could defend: the dogfight is at once
    state, events = strike(state, fight, [1] * 12)
    assert of(events, "dogfight")[0]["attacker"]["kills"] == 0


def test_a_shot_at_a_group_whose_mother_dumps_its_core_before_the_volley_is_cancelled() -> None:
    """A shot declared at a live group whose mother's crew dumps its core before the volley (a
    command allowed at any time) finds no group: the engine read it as a ship and failed."""
    from tests.rules.helpers import with_system

    heavies = replace(group("g-b", "B", "fighters", "heavy", Vec(10, 10)), live=True)
    places = {"a1": PLACES["a1"], "a2": (60.0, 4.0, 0, 0), "b1": PLACES["b1"], "b2": PLACES["b2"]}
    state = setup_game((gunship(), gunship()), (picket(), gunship()), places)
    state = replace(state, markers=(heavies,), marker_count=1)
    state = with_system(state, "b1", "core", "damaged")
    state, _ = play(state, "A", {"type": "ping", "ship": "a1"}, [6] * 10, all_dice=False)
    assert state.phase.step == "fire" and "B" in state.phase.awaiting
    shot = {"ship": "a1", "weapon": "beam-1", "target": "g-b"}
    state, _ = play(state, "A", {"type": "fire", "window": state.phase.window, "shots": [shot]})
    state, events = play(state, "B", {"type": "core_action", "ship": "b1", "action": "dump"})
    assert marker(state, "g-b") is None  # gone with its mother's crew
    assert state.phase.step == "fire" and state.phase.awaiting == ("B",)
    hold = {"type": "fire", "window": state.phase.window, "shots": []}
    state, events = play(state, "B", hold, [], all_dice=False)
    assert of(events, "fire_resolved")[0]["shots"] == [shot | {"cancelled": True}]
    assert not of(events, "groups_hit")
    assert state.ship("a1").fired == frozenset()
