"""The defence window (RULES §9.5; decisions 8, 17): who is awaited, legal pairings, the default
allocation, the checks of ``defend``, the dice of the defences, and ``standing_orders``."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import ScriptedDice, decide
from app.rules.builder import Builder
from app.rules.designs import SystemSpec
from app.rules.dice import ScriptedDice as Dice
from app.rules.errors import RulesError
from app.rules.geometry import Vec
from app.rules.ordnance import defence
from app.rules.ordnance.defence_dice import roll_defences
from app.rules.ordnance.defence_view import legal_defend
from app.rules.ordnance.window import open_or_strike
from app.rules.state import DEFEND, Attack, GameState, MarkerState
from tests.rules.helpers import beam, gunship, setup_game

# b1 an ADFC picket, b2 a destroyer 5 mu from it, b3 a scout far away; A's a1 launched it all
PLACES = {
    "a1": (36.0, 4.0, 0, 0),
    "b1": (30.0, 40.0, 6, 0),
    "b2": (35.0, 40.0, 6, 0),
    "b3": (60.0, 30.0, 6, 0),
}
COUNTERS = ("c-1", "c-2", "c-3")


def missile_cruiser():  # type: ignore[no-untyped-def]
    return gunship(
        "missile_cruiser",
        mass=60,
        hull=18,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("sml-1", "salvo_launcher", arcs=("F",), magazine="mag-1"),
            SystemSpec("mag-1", "magazine", loads=(("salvo", 2), ("af_salvo", 1))),
            SystemSpec("pds-1", "pds"),
        ),
    )


def _marker(mid: str, kind: str, pos: Vec, counters: tuple[str, ...] = ()) -> MarkerState:
    return MarkerState(
        id=mid,
        side="A",
        mother="a1",
        kind=kind,
        position=pos,
        aim=pos,
        launched_turn=1,
        launched_seq=5,
        strength=6 if kind == "salvo" else 1,
        counters=counters,
        endurance=None if kind == "salvo" else 3,
        missile=None if kind == "salvo" else ("ecm" if counters else "standard"),
    )


def game(b_designs=("ecm_picket", "destroyer", "scout")) -> GameState:  # type: ignore[no-untyped-def]
    state = setup_game((missile_cruiser(),), b_designs, {k: v for k, v in PLACES.items()})
    markers = (
        _marker("m-ecm", "heavy_missile", Vec(30.0, 41.0), COUNTERS),
        _marker("m-hm", "heavy_missile", Vec(35.0, 41.0)),
        _marker("m-salvo", "salvo", Vec(35.0, 42.0)),
    )
    return replace(state, markers=markers)


ATTACKS = (
    Attack("m-ecm", "A", "heavy_missile", "b1", COUNTERS),
    Attack("m-hm", "A", "heavy_missile", "b2"),
    Attack("m-salvo", "A", "salvo", "b2"),
)


def opened(state: GameState) -> GameState:
    b = Builder(state, ScriptedDice([]))
    open_or_strike(b, ATTACKS)
    return b.state


def test_the_window_shows_ecm_counters_as_heavy_missiles_and_awaits_the_defender() -> None:
    state = opened(game())
    assert state.phase.step == DEFEND
    window = state.phase.defence
    assert window is not None and window.awaiting == ("B",)
    assert window.attacks == ATTACKS  # rebuilt from the public entries and the markers
    shown = [e.public() for e in defence.entries(window.attacks)]
    assert [(s["marker"], s["kind"]) for s in shown] == [
        ("c-1", "heavy_missile"),
        ("c-2", "heavy_missile"),
        ("c-3", "heavy_missile"),
        ("m-hm", "heavy_missile"),
        ("m-salvo", "salvo"),
    ]


def test_a_side_without_point_defence_in_its_designs_is_not_awaited() -> None:
    state = game(("scout", "torpedo_boat", "scout"))
    state = replace(state, markers=state.markers)
    # scouts carry class-1 beams: they count; torpedo boats do not
    assert defence.awaited(state, ATTACKS) == ("B",)
    bare = gunship("bare", systems=(SystemSpec("fc-1", "fire_control"), beam("beam-1", 2)))
    state = game((bare, bare, bare))
    assert defence.awaited(state, ATTACKS) == ()


def test_default_deals_each_attacked_ships_pds_round_salvos_first() -> None:
    state = opened(game())
    legal = legal_defend(state, "B")["defend"]
    assert legal["default"] == [
        {"ship": "b1", "system": "pds-1", "against": "c-1"},
        {"ship": "b1", "system": "pds-2", "against": "c-2"},
        {"ship": "b1", "system": "pds-3", "against": "c-3"},
        {"ship": "b2", "system": "pds-1", "against": "m-salvo"},
        {"ship": "b2", "system": "pds-2", "against": "m-hm"},
    ]
    assert legal_defend(state, "A") == {}


def test_pairings_hold_adfc_cover_class_one_beams_and_the_odds() -> None:
    state = opened(game())
    pairs = {
        (p["ship"], p["system"], p["against"]): p["odds"]
        for p in legal_defend(state, "B")["defend"]["pairings"]
    }
    assert pairs[("b2", "pds-1", "m-salvo")] == 0.8
    assert pairs[("b2", "pds-1", "m-hm")] == 0.3333
    # b1's PDS may fire for b2 through its ADFC (5 mu away); b2 has no ADFC to help b1
    assert ("b1", "pds-1", "m-salvo") in pairs
    assert ("b2", "pds-1", "c-1") not in pairs
    # the destroyer's class-1 beam defends its own ship only
    assert ("b2", "beam-4", "m-salvo") in pairs and ("b2", "beam-4", "c-1") not in pairs
    # the scout far away is not attacked and has no ADFC
    assert not any(k[0] == "b3" for k in pairs)


def _refusal(
    state: GameState, allocations: list[dict[str, str]], window: int | None = None
) -> RulesError:
    w = state.phase.defence
    assert w is not None
    cmd = {
        "type": "defend",
        "window": w.window if window is None else window,
        "allocations": allocations,
    }
    with pytest.raises(RulesError) as caught:
        decide(state, "B", cmd, ScriptedDice([]))
    return caught.value


def test_defend_refusals_are_narrow() -> None:
    state = opened(game())
    assert _refusal(state, [], window=3).code == "stale_state"
    assert (
        _refusal(state, [{"ship": "b2", "system": "pds-1", "against": "m-nope"}]).code
        == "unknown_marker"
    )
    assert _refusal(state, [{"group": "g-1", "against": "m-hm"}]).code == "invalid_command"
    assert (
        _refusal(state, [{"ship": "b2", "system": "beam-4", "against": "c-1"}]).code
        == "illegal_pairing"
    )
    assert (
        _refusal(state, [{"ship": "b2", "system": "beam-1", "against": "m-hm"}]).code
        == "illegal_pairing"
    )
    assert (
        _refusal(state, [{"ship": "a1", "system": "pds-1", "against": "m-hm"}]).code
        == "not_your_ship"
    )
    twice = [{"ship": "b2", "system": "pds-1", "against": "m-hm"}] * 2
    assert _refusal(state, twice).code == "duplicate_weapon"
    # b3 is 25 mu from b2: no ADFC cover, and no ADFC at all
    assert (
        _refusal(state, [{"ship": "b3", "system": "beam-1", "against": "m-hm"}]).code
        == "illegal_pairing"
    )
    fired = state.with_ship(replace(state.ship("b2"), fired=frozenset({"pds-1"})))
    assert (
        _refusal(fired, [{"ship": "b2", "system": "pds-1", "against": "m-hm"}]).code
        == "already_fired"
    )
    hurt = state.ship("b2")
    hurt = replace(
        hurt,
        systems=tuple(replace(s, status="damaged") if s.id == "pds-2" else s for s in hurt.systems),
    )
    refusal = _refusal(
        state.with_ship(hurt), [{"ship": "b2", "system": "pds-2", "against": "m-hm"}]
    )
    assert refusal.code == "weapon_not_working" and "damaged" in refusal.detail
    # with A's attack, A is not awaited
    with pytest.raises(RulesError) as caught:
        decide(
            state,
            "A",
            {"type": "defend", "window": state.phase.defence.window, "allocations": []},
            ScriptedDice([]),
        )
    assert caught.value.code == "wrong_step"


def test_adfc_out_of_reach_and_one_friend_per_adfc() -> None:
    state = opened(game())
    far = state.with_ship(replace(state.ship("b1"), position=Vec(20.0, 40.0)))
    refusal = _refusal(far, [{"ship": "b1", "system": "pds-1", "against": "m-hm"}])
    assert refusal.code == "out_of_range" and "15.0 mu" in refusal.detail


def test_a_declaration_is_the_sides_own_until_resolved() -> None:
    state = opened(game())
    w = state.phase.defence
    assert w is not None
    cmd = {
        "type": "defend",
        "window": w.window,
        "allocations": [{"ship": "b2", "system": "pds-1", "against": "m-salvo"}],
    }
    from app.rules import fog

    decision = decide(state, "B", cmd, ScriptedDice([1] * 40))
    declared = next(e for e in decision.events if e.type == "defence_declared")
    assert "allocations" not in fog.redact(declared, "A", decision.state)["data"]
    # the window closed, the defences rolled (a 1: no kill) and the attacks struck after them
    types = [e.type for e in decision.events]
    assert types[:2] == ["defence_declared", "defence_resolved"]
    assert types[2:5] == ["heavy_missile_attack", "heavy_missile_attack", "salvo_attack"]
    salvo = decision.events[4].data
    assert salvo["kills"] == 0 and salvo["missiles"] == 1  # 1D6 = 1 less no kills
    assert decision.state.markers == () and decision.state.phase.defence is None


def test_the_defences_roll_in_order_and_kill_or_destroy() -> None:
    state = opened(game())
    declared = {
        "B": (
            {"ship": "b2", "system": "pds-1", "against": "m-salvo"},
            {"ship": "b2", "system": "pds-2", "against": "m-hm"},
            {"ship": "b1", "system": "pds-1", "against": "c-2"},
            {"ship": "b1", "system": "pds-2", "against": "m-salvo"},
        )
    }
    dice = Dice([6, 5, 5, 6, 1, 4])
    out = roll_defences(state, ATTACKS, declared, lambda: dice.d6(0))
    assert out.kills == {"m-salvo": 4}  # 6 (2) + further 5 (1); b1's ADFC-directed 4 (1)
    assert out.destroyed == frozenset({"m-hm", "c-2"})
    assert out.dummies == COUNTERS
    assert out.firers_for_others == ("b1",)  # b1 fired for b2 (the salvo): it is shown
    assert dice.remaining == 0


_SHIPS = ("a1", "b1", "b2", "b3", "zz")
_SYSTEMS = ("pds-1", "pds-2", "pds-3", "beam-1", "beam-4", "adfc-1", "fc-1", "nope")
_AGAINST = (*COUNTERS, "m-hm", "m-salvo", "m-ecm", "m-x")
_alloc = st.fixed_dictionaries(
    {
        "ship": st.sampled_from(_SHIPS),
        "system": st.sampled_from(_SYSTEMS),
        "against": st.sampled_from(_AGAINST),
    }
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_alloc, max_size=8), st.lists(st.integers(1, 6), min_size=40, max_size=40))
def test_random_allocations_never_crash_nor_kill_more_than_attacked(allocs, faces) -> None:  # type: ignore[no-untyped-def]
    state = opened(game())
    window = state.phase.defence
    assert window is not None
    try:
        checked = defence.check_allocations(state, "B", window.attacks, allocs)
    except RulesError as refusal:
        assert refusal.detail and refusal.code != "rules_error"
        return
    dice = Dice(faces)
    out = roll_defences(state, window.attacks, {"B": tuple(checked)}, lambda: dice.d6(0))
    shown = {e.marker: e for e in defence.entries(window.attacks)}
    assert set(out.kills) <= {"m-salvo"} and all(0 <= k <= 6 for k in out.kills.values())
    assert out.destroyed <= {m for m, e in shown.items() if e.kind != "salvo"}
    assert len(out.defences) == len(checked)
    fired = {(a["ship"], a["system"]) for a in checked}
    assert len(fired) == len(checked)  # each system once


def test_standing_orders_are_public_and_auto_defend_plays_the_default() -> None:
    from app.rules import fog

    state = opened(game())
    off = decide(state, "B", {"type": "standing_orders", "auto_defend": False}, ScriptedDice([]))
    assert [e.type for e in off.events] == ["standing_orders"]
    assert fog.visible(off.events[0], "A") and off.state.auto_defend == frozenset()
    on = decide(
        state, "B", {"type": "standing_orders", "auto_defend": True}, ScriptedDice([1] * 40)
    )
    declared = next(e for e in on.events if e.type == "defence_declared")
    assert declared.data["auto"] is True
    assert len(declared.data["allocations"]) == 5  # the default: every PDS of b1 and b2
    assert "B" in on.state.auto_defend


def test_standing_orders_are_listed_only_for_a_side_a_window_could_await() -> None:
    from app.rules import fog

    # A's cruiser launches and has a PDS; B defends but launches nothing: only B is listed
    state = setup_game((missile_cruiser(),), ("ecm_picket", "destroyer", "scout"), dict(PLACES))
    assert "standing_orders" in fog.legal(state, "B")["commands"]
    assert "standing_orders" not in fog.legal(state, "A")["commands"]
    with pytest.raises(RulesError) as caught:
        decide(state, "A", {"type": "standing_orders", "auto_defend": True}, ScriptedDice([]))
    assert caught.value.code == "wrong_step" and "no defence window can wait" in caught.value.detail
    on = decide(state, "B", {"type": "standing_orders", "auto_defend": True}, ScriptedDice([]))
    for seat in ("A", "B"):
        assert fog.view(on.state, seat)["auto_defend"] == ["B"]
    # once the launcher's ship is gone, no window can open: B is not offered it either
    gone = replace(on.state.ship("a1"), status="destroyed")
    assert "standing_orders" not in fog.legal(on.state.with_ship(gone), "B")["commands"]
