"""A move sent without ``markers`` runs step 2 on standing orders first (RULES §4); when that
step opens a defence window the move is kept (secret, ``phase.pending_move``) and made when the
window closes, if the ship can still make it (decision 16; never lose a move)."""

from __future__ import annotations

from dataclasses import replace

from app.rules import fog
from app.rules.designs import SystemSpec
from app.rules.geometry import Vec
from app.rules.state import AFTER_MOVE, DEFEND, START, GameState, MarkerState
from tests.rules.helpers import gunship, play, setup_game, types, with_system


def _cruiser():  # type: ignore[no-untyped-def]
    return gunship(
        "missile_cruiser",
        mass=60,
        hull=18,
        thrust=4,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("rack-1", "salvo_rack", arcs=("F",), load="salvo"),
        ),
    )


def _game(b1: object = "destroyer") -> GameState:
    """A's a1 has a salvo in flight aimed next to B's b1 (a destroyer: two PDS): it acts now."""
    places = {"a1": (36.0, 4.0, 0, 2), "b1": (35.0, 40.0, 6, 0)}
    state = setup_game((_cruiser(),), (b1,), places)  # type: ignore[arg-type]
    salvo = MarkerState(
        id="m-s",
        side="A",
        mother="a1",
        kind="salvo",
        position=Vec(35.0, 41.0),
        aim=Vec(35.0, 41.0),
        launched_turn=0,
        launched_seq=1,
        strength=6,
    )
    a1 = replace(state.ship("a1"), launched_kinds={"rack-1": ("salvo",)}, spent={"rack-1"})
    return replace(state.with_ship(a1), markers=(salvo,), marker_count=1)


MOVE = {"type": "move", "ship": "a1", "orders": {"speed_change": 1, "turn": 1}}


def _moved_window() -> GameState:
    state, events = play(_game(), "A", MOVE)
    assert types(events) == ["activation_started", "ordnance_acted", "defence_window"]
    assert state.phase.step == DEFEND
    return state


def test_a_move_that_opens_a_defence_window_is_made_when_it_closes() -> None:
    state = _moved_window()
    assert state.phase.pending_move == {"speed_change": 1, "turn": 1}
    # the orders are the mover's: the other side's view and event never show them
    assert "pending_move" not in fog.view(state, "B")["phase"]["legal"]
    assert fog.view(state, "A")["phase"]["legal"]["pending_move"]["orders"] == MOVE["orders"]
    window = state.phase.defence
    assert window is not None
    defend = {"type": "defend", "window": window.window, "allocations": []}
    # the salvo: 1D6 = 2 missiles rolling 1 and 1 (1 on armour, 1 on the hull)
    state, events = play(state, "B", defend, [2, 1, 1], all_dice=False)
    kinds = types(events)
    assert kinds[:3] == ["defence_declared", "defence_resolved", "salvo_attack"]
    moved = next(e for e in events if e.type == "ship_moved")
    assert moved.data["ship"] == "a1" and moved.data["orders"] == MOVE["orders"]
    assert moved.data["speed"] == 3  # speed 2, +1
    assert state.phase.step == AFTER_MOVE and state.phase.pending_move is None


def test_a_pending_move_that_no_longer_fits_waits_for_a_new_one() -> None:
    state = _moved_window()
    # say the window cost a1 its drive's first box (thrust 4 -> 2): speed +1 and a turn of 1
    # still fit; a turn of 3 would not. Here the kept orders need 3 thrust.
    state = replace(state, phase=replace(state.phase, pending_move={"speed_change": 1, "turn": 2}))
    state = with_system(state, "a1", "drive", "damaged")
    window = state.phase.defence
    assert window is not None
    defend = {"type": "defend", "window": window.window, "allocations": []}
    state, events = play(state, "B", defend, [2, 1, 1], all_dice=False)
    assert "ship_moved" not in types(events)
    assert state.phase.step == START and state.phase.ship == "a1"
    pending = fog.view(state, "A")["phase"]["legal"]["pending_move"]
    assert pending["orders"] == {"speed_change": 1, "turn": 2}
    assert "thrust" in pending["refused"]
    # a new move replaces it, with no second step 2
    state, events = play(state, "A", {**MOVE, "orders": {"speed_change": 0, "turn": 1}})
    assert types(events) == ["ship_moved"]
    assert state.phase.pending_move is None


def test_a_move_whose_step_2_strikes_at_once_is_made_in_the_same_command() -> None:
    # a plain gunship (a class-4 beam) cannot defend: nobody is awaited, the salvo strikes at once
    state, events = play(_game(gunship("target")), "A", MOVE, [2, 1, 1], all_dice=False)
    kinds = types(events)
    assert "defence_window" not in kinds and "salvo_attack" in kinds
    assert kinds[-1] == "ship_moved" and state.phase.pending_move is None


# -- live markers (RULES §9.1): an enemy marker is live while it attacks -----------------------
def test_the_attacking_markers_are_live_in_the_defence_window_with_public_fields_only() -> None:
    state = _moved_window()
    assert state.marker("m-s").live
    seen = fog.view(state, "B")["markers"]
    assert seen == [
        {
            "id": "m-s",
            "side": "A",
            "kind": "salvo",  # no position: its aim point is A's secret (decision, RULES §9.1)
            "strength": 6,
            "live": True,
            "target": "b1",
        }
    ]
    own = fog.view(state, "A")["markers"]
    assert own[0]["mother"] == "a1" and own[0]["aim"] == {"x": 35.0, "y": 41.0}


def test_an_ecm_missile_is_live_as_three_plain_heavy_missiles() -> None:
    state = _game()
    ecm = replace(
        state.markers[0],
        id="m-e",
        kind="heavy_missile",
        missile="ecm",
        endurance=3,
        strength=1,
        counters=("c-1", "c-2", "c-3"),
    )
    state, _ = play(replace(state, markers=(ecm,)), "A", MOVE)
    assert state.phase.step == DEFEND and state.marker("m-e").live
    seen = fog.view(state, "B")["markers"]
    assert [(m["id"], m["kind"]) for m in seen] == [(c, "heavy_missile") for c in ecm.counters]
    for m in seen:
        assert not {"mother", "aim", "endurance", "type", "counters"} & set(m)


def test_a_live_marker_is_forgotten_at_its_mothers_next_step_2() -> None:
    from app.rules.builder import Builder
    from app.rules.dice import ScriptedDice
    from app.rules.ordnance.markers import run_step2

    state = _game()
    # a live heavy missile (say a ping saw it) that does not attack now: its mother's step 2
    # forgets it, whatever it does there
    hm = replace(
        state.markers[0],
        id="m-h",
        kind="heavy_missile",
        missile="standard",
        endurance=3,
        strength=1,
        position=Vec(10.0, 10.0),
        live=True,
    )
    state = replace(state, markers=(hm,))
    assert [m["id"] for m in fog.view(state, "B")["markers"]] == ["m-h"]
    b = Builder(replace(state, phase=replace(state.phase, ship="a1", step=START)), ScriptedDice([]))
    run_step2(b, b.state.ship("a1"), {}, standing=True)
    assert not b.state.marker("m-h").live
    assert fog.view(b.state, "B")["markers"] == []
