"""Review of issue 12's ordnance engine against RULES §9 and the brief's decisions: each test
names the rule or secret it checks and what a fix must do. They play real commands through
``decide`` (tests/rules/helpers.py) wherever a short game reaches the case."""

from __future__ import annotations

import json
from dataclasses import replace

from app.rules import ScriptedDice, view
from app.rules import damage as dmg
from app.rules.builder import Builder
from app.rules.errors import RulesError
from app.rules.events import Event
from app.rules.fog import redact
from app.rules.geometry import Vec
from app.rules.ordnance.launch import check_launch
from app.rules.ordnance.strike import resolve_strikes
from app.rules.state import DEFEND, Attack, GameState, MarkerState, Shot, SystemStatus
from tests.rules.helpers import (
    activate,
    ecm_window,
    launch_in_ping,
    move,
    ping,
    play,
    setup_game,
    to_next_turn,
)


# -- RULES §9.1: enemy markers are live while they attack ------------------------------------
def test_attacking_salvo_is_live_in_the_defenders_view_during_the_window() -> None:
    # RULES §9.1 "Enemy markers are live while they attack" and API.md "enemy markers only
    # while live": while the defence window is open the defender must see the attacking salvo
    # in its view's `markers` (with its public kind and position). Today no marker is ever
    # made live, so the defender's `markers` stays empty. Fix: the window marks its attacking
    # markers live (ECM: its counters), and step 2 forgets them again.
    state = setup_game(
        ("missile_frigate",),
        ("pd_escort",),
        {"a1": (36.0, 4.0, 0, 0), "b1": (36.0, 24.0, 6, 0)},
    )
    state = launch_in_ping(state, [{"ship": "a1", "weapon": "smr-1", "aim": {"x": 36, "y": 24}}])
    state = to_next_turn(state)
    state, _ = play(state, "A", activate("a1"))
    state, _ = play(state, "A", {"type": "markers", "ship": "a1", "orders": []})
    assert state.phase.step == DEFEND
    (salvo,) = [m.id for m in state.markers]
    shown = [m["id"] for m in view(state, "B")["markers"]]
    assert salvo in shown, f"the attacking salvo is not in B's view: {shown}"


# -- decision 14 / RULES §9.5: an ECM missile's counters look like heavy missiles ------------------
def test_window_lists_ecm_counters_in_id_order_among_real_heavy_missiles() -> None:
    # Decision 14: an ECM missile's three counters are shown in the window as three heavy
    # missiles, its nature secret until the allocations are in; RULES §9.1: markers are listed
    # in id order. Today the window lists the real attacks first and then the ECM's counters
    # as one block in counter order (not id order), so B, who saw three heavy missiles
    # launched, can tell which three entries are the ECM's and spend its PDS on the others.
    # Fix: list the window's shown entries in shown-id order.
    state = ecm_window()
    window = view(state, "B")["phase"]["defence"]
    shown = [a["marker"] for a in window["attacks"]]
    assert len(shown) == 5 and {a["kind"] for a in window["attacks"]} == {"heavy_missile"}
    assert shown == sorted(shown), f"the ECM's counters stand out by their order: {shown}"


# -- decision 3 / C2.3: a magazine's loads are lost with it --------------------------------------
def _cruiser_with_failed_magazine() -> tuple[GameState, list[Event]]:
    """A's missile cruiser hit by B's salvo: 2 missiles of 6 (12 damage: 4 armour, 8 hull) finish
    its first hull row, every threshold die is a 6 (its magazine fails with the rest); then
    damage control repairs the magazine first."""
    state = setup_game(
        ("missile_cruiser",),
        ("pd_escort",),
        {"a1": (36.0, 4.0, 0, 0), "b1": (36.0, 24.0, 6, 0)},
    )
    salvo = MarkerState(
        id="m-salvo",
        side="B",
        mother="b1",
        kind="salvo",
        position=Vec(36.0, 4.0),
        aim=Vec(36.0, 4.0),
        launched_turn=1,
        launched_seq=5,
        strength=6,
    )
    state = replace(state, markers=(salvo,))
    b = Builder(state, ScriptedDice([2, 6, 6] + [6] * 40))
    resolve_strikes(b, (Attack("m-salvo", "B", "salvo", "a1"),), {}, frozenset(), False)
    assert b.state.ship("a1").system("mag-1").status == "damaged", b.events
    struck = list(b.events)
    # damage control repairs systems in the published order: keep only the magazine damaged
    ship = b.state.ship("a1")
    systems = tuple(
        s if s.id == "mag-1" else replace(s, status=SystemStatus.OK) for s in ship.systems
    )
    b.state = b.state.with_ship(replace(ship, systems=systems, hull_lost=0))
    repairs = dmg.damage_control(b.state, b.state.ship("a1"), b.roller)
    assert repairs is not None and repairs["attempts"][0]["system"] == "mag-1"
    assert repairs["attempts"][0]["repaired"]
    b.emit("damage_control", repairs)
    assert b.state.ship("a1").system("mag-1").working
    return b.state, struck


def test_a_magazine_that_failed_a_threshold_check_holds_nothing_after_its_repair() -> None:
    # Decision 3 and C2.3 ("all the SM capability could be lost with one bad threshold roll"):
    # a magazine's loads are lost with it. Today a failed magazine keeps its loads in
    # ShipState.loads, so once damage control repairs it its launchers fire them again.
    # Fix: the failure empties the magazine's loads (in the owner's secret state).
    state, _ = _cruiser_with_failed_magazine()
    ship = state.ship("a1")
    shot = Shot("a1", "sml-1", None, None, Vec(36.0, 20.0), "salvo")
    try:
        check_launch(state, ship, shot, {})
    except RulesError as refused:
        assert refused.code == "weapon_spent"
    else:
        raise AssertionError(f"the repaired magazine still fires its lost loads: {ship.loads}")


def test_the_owner_learns_which_loads_a_failed_magazine_took_with_it() -> None:
    # Decision 3: "its loads lost with it (the owner's form of the event says what)". Today the
    # magazine's failure is the public `system_damaged` only, which names no loads. Fix: the
    # owner's form of the event names what was lost (salvo, er_salvo, af_salvo here), and the
    # other side's form does not.
    state, events = _cruiser_with_failed_magazine()
    owners = json.dumps([redact(e, "A", state) for e in events])
    others = json.dumps([redact(e, "B", state) for e in events])
    assert "er_salvo" in owners, f"A is not told what mag-1 lost: {owners}"
    assert "er_salvo" not in others


# -- RULES §4: a ship pings before or after its move; step 2 forfeits only the first ping --------
def test_a_ship_with_launchers_may_still_ping_after_its_move() -> None:
    # RULES §4 / decision 16: step 2 runs before the move and after it "the first ping is
    # forfeit" — the ping after the move stays. Today `phase.step2_done` is never cleared by
    # the move, so every ship whose design has a launcher is refused its ping after moving
    # (wrong_step), while `legal.commands` offers it. Fix: forfeit only the ping before the move.
    state = setup_game(
        ("missile_frigate",),
        ("pd_escort",),
        {"a1": (36.0, 4.0, 0, 0), "b1": (36.0, 24.0, 6, 0)},
    )
    state, _ = play(state, "A", move("a1"))  # step 2 on standing orders, then the move
    assert state.phase.step == "after_move"
    assert "ping" in view(state, "A")["phase"]["legal"]["commands"]
    state, events = play(state, "A", ping("a1"), [6] * 10, all_dice=False)
    assert "ping" in [e.type for e in events]
