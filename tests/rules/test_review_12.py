"""Final review of issue 12: defects found in the ordnance engine, each a failing test."""

from __future__ import annotations

from dataclasses import replace

from app.rules import ScriptedDice, decide, view
from app.rules.builder import Builder
from app.rules.designs import Design, SystemSpec
from app.rules.errors import RulesError
from app.rules.geometry import Vec
from app.rules.ordnance.window import open_or_strike
from app.rules.state import Attack, GameState, MarkerState
from tests.rules.helpers import ecm_window, gunship, setup_game

PLACES = {"a1": (36.0, 4.0, 0, 0), "b1": (30.0, 40.0, 6, 0)}


def _launcher_ship() -> Design:
    return gunship(
        "launcher",
        mass=60,
        hull=18,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("sml-1", "salvo_launcher", arcs=("F",), magazine="mag-1"),
            SystemSpec("mag-1", "magazine", loads=(("salvo", 2),)),
        ),
    )


def _twin_af_ship() -> Design:
    """Two SMLs fed from one magazine that holds a single anti-fighter salvo."""
    return gunship(
        "twin_af",
        mass=60,
        hull=18,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("sml-1", "salvo_launcher", arcs=("F",), magazine="mag-1"),
            SystemSpec("sml-2", "salvo_launcher", arcs=("F",), magazine="mag-1"),
            SystemSpec("mag-1", "magazine", loads=(("af_salvo", 1),)),
        ),
    )


def _salvo_at_b1(b_design: Design) -> GameState:
    state = setup_game((_launcher_ship(),), (b_design,), dict(PLACES))
    marker = MarkerState(
        id="m-salvo",
        side="A",
        mother="a1",
        kind="salvo",
        position=Vec(30.0, 41.0),
        aim=Vec(30.0, 41.0),
        launched_turn=1,
        launched_seq=5,
        strength=6,
    )
    state = replace(state, markers=(marker,))
    b = Builder(state, ScriptedDice([]))
    open_or_strike(b, (Attack("m-salvo", "A", "salvo", "b1"),))
    return b.state


def test_one_af_load_cannot_feed_two_launchers_in_one_window() -> None:
    """Decision 8: an AF salvo uses one load. Two SMLs sharing a magazine with one AF load must
    not both fire it: the second allocation is refused (``no_load``), not accepted to leave the
    magazine at -1 (launches in a fire window count loads across the declaration; the window's
    ``check_allocations`` does not)."""
    state = _salvo_at_b1(_twin_af_ship())
    window = state.phase.defence
    assert window is not None and window.awaiting == ("B",)
    cmd = {
        "type": "defend",
        "window": window.window,
        "allocations": [
            {"ship": "b1", "system": "sml-1", "against": "m-salvo"},
            {"ship": "b1", "system": "sml-2", "against": "m-salvo"},
        ],
    }
    try:
        decision = decide(state, "B", cmd, ScriptedDice([3] * 40))
    except RulesError as refusal:
        assert refusal.code == "no_load", refusal.detail
        return
    left = decision.state.ship("b1").loads["mag-1"]["af_salvo"]
    raise AssertionError(f"both AF salvos fired from one load; the magazine now holds {left}")


def test_the_defenders_view_lists_ecm_counters_in_id_order_among_the_markers() -> None:
    """RULES §9.1 (markers listed in id order) and decision 14 (an ECM missile's counters look
    like heavy missiles until the allocations are in). The window's entries are sorted by shown
    id, but the defender's ``markers`` view puts the three counters as one block where the ECM
    missile's own id sorts: the only run of the list that is out of order is the ECM's."""
    state = ecm_window()
    shown = [m["id"] for m in view(state, "B")["markers"]]
    assert len(shown) == 5 and {m["kind"] for m in view(state, "B")["markers"]} == {"heavy_missile"}
    assert shown == sorted(shown), f"the ECM's counters stand out by their order: {shown}"
