"""Fire windows and volleys (RULES §7, §8; app/rules/fire.py).

Who a window waits for comes from public facts only; a declaration is checked shot by shot with
a stable code; the volley rolls side A's shots, then side B's, each in declared order.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.rules import ScriptedDice, decide, evolve, redact
from app.rules.designs import SystemSpec
from app.rules.errors import RulesError
from app.rules.fire import awaited_sides, live_enemies, may_fire_now
from app.rules.fire_options import fire_options
from app.rules.state import GameState
from tests.rules.helpers import (
    Placement,
    all_of,
    at,
    beam,
    fire,
    gunship,
    hold,
    live,
    move,
    only,
    ping,
    play,
    setup_game,
    setup_log,
    stale,
    types,
    with_ship,
    with_system,
)


def fire_state(state: GameState, pinger: str | None = "a1") -> GameState:
    """Pretend a window is open for ``pinger`` (for the pure functions that read the phase)."""
    return replace(state, phase=replace(state.phase, step="fire", pinger=pinger, window=state.seq))


# -- who a window waits for -------------------------------------------------------------------
def test_awaited_sides_needs_a_live_enemy() -> None:
    state = setup_game(["destroyer"], ["destroyer"])
    # everyone starts on overwatch, but nothing is live
    assert awaited_sides(state, None) == ()
    assert awaited_sides(live(state, "b1"), None) == ("A",)
    assert awaited_sides(live(state, "a1"), None) == ("B",)
    assert awaited_sides(live(state, "a1", "b1"), None) == ("A", "B")
    # a stale marker is not a target
    assert awaited_sides(stale(state, "a1", "b1"), None) == ()


def _ping_game(b_at: Placement, a_at: Placement = (36.0, 10.0, 0, 0)) -> list[list[dict[str, Any]]]:
    """A scout moves and pings; B's frigate (ECM, on overwatch) stays hidden by its ECM die.

    Returns the events from A's first command on, as each seat receives them.
    """
    state, _ = setup_log(["scout"], ["frigate"], {"a1": a_at, "b1": b_at})
    seen: list[list[dict[str, Any]]] = []
    for seat, command, dice in (("A", move("a1"), []), ("A", ping("a1"), [2, 3, 4, 1])):
        before = state
        state, events = play(state, seat, command, dice)
        assert state.seq == before.seq + len(events)
        folded = before
        per_seat = []
        for event in events:
            folded = evolve(folded, event)
            per_seat.append({s: redact(event, s, folded) for s in ("A", "spectator")})
        seen.append(per_seat)
    assert state.phase.step == "fire"
    assert state.phase.awaiting == ("B",)
    return seen


@pytest.mark.parametrize(
    "b_at",
    [
        (36.0, 20.0, 6, 0),  # 10 mu dead ahead, a1 in its fore arcs: it could fire
        (70.0, 47.0, 0, 0),  # 46 mu away facing away: its class-1 beam cannot reach
        (36.0, 46.0, 0, 12),  # far, and fast
    ],
)
def test_awaiting_never_depends_on_a_hidden_position(b_at: Placement) -> None:
    """The B frigate's hidden position decides whether it could reach a1, but the window waits
    for B either way: what A and a spectator receive is the same event for event."""
    baseline = _ping_game((10.0, 40.0, 3, 0))
    other = _ping_game(b_at)
    assert other == baseline
    window = baseline[-1][-1]["A"]
    assert window["type"] == "fire_window"
    assert window["data"]["awaiting"] == ["B"]


@pytest.mark.parametrize("a_x", [2.0, 36.0, 70.0])
@pytest.mark.parametrize("b_x", [2.0, 36.0, 70.0])
def test_awaited_sides_is_the_same_wherever_hidden_ships_are(a_x: float, b_x: float) -> None:
    state = setup_game(["destroyer", "scout"], ["destroyer", "frigate"])
    # a1 and b1 are live where everyone saw them; a2 and b2 are hidden somewhere
    state = live(state, "a1", "b1")
    for heading in (0, 3, 6):
        moved = at(at(state, "a2", a_x, 24.0, heading), "b2", b_x, 30.0, heading)
        assert awaited_sides(moved, "a1") == ("A", "B")
        assert [s.id for s in live_enemies(moved, "A")] == ["b1"]


def test_a_live_ship_out_of_everyones_reach_is_still_waited_for() -> None:
    # b1 is live at the far end of the table: A's ships cannot reach it, but A is awaited:
    # the window must not tell B where A's hidden ships are not
    state = setup_game(["scout"], ["scout"], {"a1": (1.0, 1.0, 6, 0), "b1": (71.0, 47.0, 0, 0)})
    state = live(state, "b1")
    assert awaited_sides(state, None) == ("A",)
    assert fire_options(fire_state(state, None), "A") == []


# -- may_fire_now --------------------------------------------------------------------------
def _duel() -> GameState:
    """A destroyer and B frigate 10 mu apart, face to face, both live."""
    state = setup_game(
        ["destroyer"], ["frigate"], {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)}
    )
    return live(state, "a1", "b1")


def test_may_fire_on_overwatch_or_as_the_pinger() -> None:
    state = _duel()
    a1 = state.ship("a1")
    assert a1.overwatch
    assert may_fire_now(state, a1, None)
    off = with_ship(state, "a1", overwatch=False)
    assert not may_fire_now(off, off.ship("a1"), None)
    assert not may_fire_now(off, off.ship("a1"), "b1")
    assert may_fire_now(off, off.ship("a1"), "a1")


def test_out_of_control_or_out_of_play_ships_do_not_fire() -> None:
    state = _duel()
    cases: list[tuple[dict[str, Any], tuple[str, ...]]] = [
        ({"out_of_control": 1}, ("B",)),
        ({"status": "out_of_play"}, ("B",)),  # a drifting hulk is still a target
        ({"status": "destroyed"}, ()),  # a wreck is not
    ]
    for changes, awaited in cases:
        changed = with_ship(state, "a1", **changes)
        assert not may_fire_now(changed, changed.ship("a1"), "a1"), changes
        assert awaited_sides(changed, "a1") == awaited


def test_no_unfired_working_weapon_no_fire() -> None:
    state = _duel()
    weapons = ("beam-1", "beam-2", "beam-3", "beam-4")
    spent = with_ship(state, "a1", fired=frozenset(weapons))
    assert not may_fire_now(spent, spent.ship("a1"), None)
    one_left = with_ship(state, "a1", fired=frozenset(weapons[:3]))
    assert may_fire_now(one_left, one_left.ship("a1"), None)
    broken = state
    for w in weapons:
        broken = with_system(broken, "a1", w, "damaged")
    assert not may_fire_now(broken, broken.ship("a1"), None)
    broken = with_system(broken, "a1", "beam-4", "ok")
    assert may_fire_now(broken, broken.ship("a1"), None)
    destroyed = with_system(broken, "a1", "beam-4", "destroyed")
    assert not may_fire_now(destroyed, destroyed.ship("a1"), None)


def test_fire_control_locks() -> None:
    # the frigate has one fire control
    state = setup_game(
        ["destroyer", "frigate"],
        ["frigate", "frigate"],
        {"b1": (36.0, 20.0, 6, 0), "b2": (40.0, 20.0, 6, 0), "a1": (36.0, 10.0, 0, 0)},
    )
    state = live(state, "a1", "a2", "b1", "b2")
    b1 = state.ship("b1")
    assert may_fire_now(state, b1, None)
    # locked on a live enemy: still allowed (it may keep engaging that target)
    locked = with_ship(state, "b1", locks=("a1",), fired=frozenset({"beam-1"}))
    assert may_fire_now(locked, locked.ship("b1"), None)
    # locked on an enemy that is no longer live, with its only fire control: not allowed
    gone = stale(locked, "a1")
    assert not may_fire_now(gone, gone.ship("b1"), None)
    # ... though a free fire control would do
    destroyer = with_ship(gone, "a1", locks=("b2",))
    assert may_fire_now(destroyer, destroyer.ship("a1"), None)  # 2 FCs, one used
    one_fc = with_system(stale(destroyer, "b2"), "a1", "fc-2", "damaged")
    assert not may_fire_now(one_fc, one_fc.ship("a1"), None)  # its one FC holds stale b2
    # the fire control damaged: nothing to aim with
    blind = with_system(state, "b1", "fc-1", "damaged")
    assert not may_fire_now(blind, blind.ship("b1"), None)
    assert awaited_sides(blind, None) == ("A", "B")  # b2 still may


def test_locked_on_a_destroyed_enemy_is_not_a_live_lock() -> None:
    state = _duel()
    state = with_ship(state, "b1", status="destroyed")
    state = with_ship(state, "a1", locks=("b1",), fired=frozenset({"beam-1"}))
    assert live_enemies(state, "A") == ()
    assert not may_fire_now(state, state.ship("a1"), None)


def test_drifting_hulks_are_targets() -> None:
    # a ship out of play (crew abandoned it) may still be shot while live
    state = with_ship(_duel(), "b1", status="out_of_play", abandoned=True)
    assert [s.id for s in live_enemies(state, "A")] == ["b1"]
    assert may_fire_now(state, state.ship("a1"), None)
    assert not may_fire_now(state, state.ship("b1"), None)


# -- fire options --------------------------------------------------------------------------
def test_fire_options_items() -> None:
    state = fire_state(_duel())
    options = fire_options(state, "A")
    # destroyer: beam-1 class 3 fore, beam-2 class 2 fore, beam-3 class 2 aft, beam-4 class 1 all
    assert options == [
        {"ship": "a1", "weapon": "beam-1", "target": "b1", "range": 10.0, "band": 1,
         "dice": "3BD*", "screen": 0, "weapon_type": "beam", "path": "standard", "class": 3},
        {"ship": "a1", "weapon": "beam-2", "target": "b1", "range": 10.0, "band": 1,
         "dice": "2BD*", "screen": 0, "weapon_type": "beam", "path": "standard", "class": 2},
        {"ship": "a1", "weapon": "beam-4", "target": "b1", "range": 10.0, "band": 1,
         "dice": "1BD*", "screen": 0, "weapon_type": "beam", "path": "standard", "class": 1},
    ]  # fmt: skip
    # B's frigate against the destroyer's level-1 screen
    b_options = fire_options(state, "B")
    assert {o["weapon"] for o in b_options} == {"beam-1", "beam-2", "beam-3"}
    assert all(o["screen"] == 1 and o["target"] == "a1" for o in b_options)
    assert {o["weapon"]: o["dice"] for o in b_options} == {
        "beam-1": "2BD*",
        "beam-2": "2BD*",
        "beam-3": "1BD*",
    }


@pytest.mark.parametrize(
    ("distance", "band", "dice"),
    [
        (0.0, 1, "4BD*"),
        (12.0, 1, "4BD*"),
        (12.01, 2, "3BD*"),
        (24.0, 2, "3BD*"),
        (35.5, 3, "2BD*"),
        (47.99, 4, "1BD*"),
    ],
)
def test_fire_options_range_bands(distance: float, band: int, dice: str) -> None:
    table_y = 1.0
    state = setup_game(
        [gunship()],
        [gunship()],
        {"a1": (1.0, table_y, 3, 0), "b1": (1.0 + distance, table_y, 9, 0)},
    )
    state = fire_state(live(state, "a1", "b1"))
    (option,) = fire_options(state, "A")
    assert option["band"] == band
    assert option["dice"] == dice
    assert option["range"] == round(distance, 2)


def test_fire_options_out_of_range() -> None:
    state = setup_game([gunship()], [gunship()], {"a1": (1.0, 1.0, 3, 0), "b1": (49.5, 1.0, 9, 0)})
    assert fire_options(fire_state(live(state, "a1", "b1")), "A") == []


def test_fire_options_only_live_targets_in_arc() -> None:
    state = setup_game(
        ["frigate"],
        ["scout", "scout", "scout", "scout"],
        {
            "a1": (36.0, 20.0, 0, 0),
            "b1": (36.0, 30.0, 6, 0),  # dead ahead
            "b2": (36.0, 10.0, 0, 0),  # dead astern: only the all-arc class-1 beam
            "b3": (40.0, 30.0, 6, 0),  # ahead, but only stale
            "b4": (30.0, 30.0, 6, 0),  # ahead, never seen
        },
    )
    state = stale(live(state, "a1", "b1", "b2"), "b3")
    assert state.ship("b4").revealed == "unseen"
    options = fire_options(fire_state(state), "A")
    # frigate: beam-1 and beam-2 class 2 fore arcs, beam-3 class 1 all arcs
    assert [(o["weapon"], o["target"]) for o in options] == [
        ("beam-1", "b1"),
        ("beam-2", "b1"),
        ("beam-3", "b1"),
        ("beam-3", "b2"),
    ]


def test_fire_options_skip_spent_broken_and_locked() -> None:
    state = setup_game(
        ["frigate"],
        ["scout", "scout"],
        {"a1": (36.0, 20.0, 0, 0), "b1": (36.0, 30.0, 6, 0), "b2": (36.0, 10.0, 0, 0)},
    )
    state = fire_state(live(state, "a1", "b1", "b2"))
    state = with_ship(state, "a1", fired=frozenset({"beam-1"}))
    state = with_system(state, "a1", "beam-2", "damaged")
    pairs = {(o["weapon"], o["target"]) for o in fire_options(state, "A")}
    assert pairs == {("beam-3", "b1"), ("beam-3", "b2")}
    # its one fire control is locked on b1: b2 is not an option any more
    locked = with_ship(state, "a1", locks=("b1",))
    assert {(o["weapon"], o["target"]) for o in fire_options(locked, "A")} == {("beam-3", "b1")}


def test_fire_options_of_a_ship_not_allowed_to_fire() -> None:
    state = fire_state(with_ship(_duel(), "a1", overwatch=False), pinger="b1")
    assert fire_options(state, "A") == []


# -- declarations ------------------------------------------------------------------------
def _window() -> GameState:
    """a1 (destroyer, two fire controls) pinged and revealed b1 and b2; both sides awaited."""
    state = setup_game(
        ["destroyer", "frigate"],
        ["scout", "scout"],
        {
            "a1": (36.0, 20.0, 0, 0),
            "a2": (10.0, 4.0, 0, 0),
            "b1": (36.0, 30.0, 6, 0),
            "b2": (36.0, 45.0, 6, 0),
        },
    )
    state, _ = play(state, "A", ping("a1"), [6, 1, 1, 6, 1, 1])
    assert state.phase.step == "fire"
    assert state.phase.awaiting == ("A", "B")
    assert state.ship("b1").revealed == "live" and state.ship("b2").revealed == "live"
    return state


def declare_error(state: GameState, seat: str, *shots: tuple[str, str, str]) -> RulesError:
    dice = ScriptedDice([])
    with pytest.raises(RulesError) as caught:
        decide(state, seat, fire(state.phase.window, *shots), dice)
    assert caught.value.kind in ("illegal", "forbidden", "conflict")
    return caught.value


@pytest.mark.parametrize(
    ("shots", "code", "detail"),
    [
        ([("a9", "beam-1", "b1")], "unknown_ship", "there is no ship 'a9' in this game"),
        ([("b1", "beam-1", "a1")], "not_your_ship", "B1 is not your ship"),
        ([("a1", "beam-9", "b1")], "unknown_weapon", "A1 has no weapon 'beam-9'"),
        ([("a1", "fc-1", "b1")], "unknown_weapon", "A1 has no weapon 'fc-1'"),
        ([("a1", "drive", "b1")], "unknown_weapon", "A1 has no weapon 'drive'"),
        ([("a1", "beam-1", "b9")], "unknown_ship", "there is no ship 'b9' in this game"),
        ([("a1", "beam-1", "a2")], "invalid_command", "A2 is on your own side"),
        (
            [("a1", "beam-1", "b1"), ("a1", "beam-1", "b1")],
            "duplicate_weapon",
            "A1's beam-1 was given two targets in one declaration (B1 twice): a weapon fires "
            "once a turn, so give it one target or hold it",
        ),
        (
            [("a1", "beam-4", "b1"), ("a1", "beam-4", "b2")],
            "duplicate_weapon",
            "A1's beam-4 was given two targets in one declaration (B1, then B2): a weapon fires "
            "once a turn, so give it one target or hold it",
        ),
        (
            [("a1", "beam-3", "b1")],
            "out_of_arc",
            "B1 is outside the arcs of A1's beam-3 (AS, A, AP)",
        ),
        ([("a1", "beam-2", "b2")], "out_of_range", "B2 is 25.0 mu away, beyond beam-2's reach"),
        (
            [("a1", "beam-1", "b1"), ("a1", "beam-4", "b1"), ("a2", "beam-3", "b1")],
            "not_allowed_to_fire",
            "A2 is not on overwatch: only the pinger and ships on overwatch fire",
        ),
    ],
)
def test_declaration_errors(shots: list[tuple[str, str, str]], code: str, detail: str) -> None:
    state = with_ship(_window(), "a2", overwatch=False)
    err = declare_error(state, "A", *shots)
    assert (err.code, err.detail) == (code, detail)


def test_declaration_needs_a_live_target() -> None:
    state = stale(_window(), "b2")
    err = declare_error(state, "A", ("a1", "beam-4", "b2"))
    assert (err.code, err.detail) == (
        "target_not_revealed",
        "B2 is not revealed: fire only at live ships",
    )


def test_declaration_of_a_spent_or_broken_weapon() -> None:
    state = with_ship(_window(), "a1", fired=frozenset({"beam-4"}))
    err = declare_error(state, "A", ("a1", "beam-4", "b1"))
    assert err.code == "weapon_spent"
    state = with_system(state, "a1", "beam-1", "damaged")
    err = declare_error(state, "A", ("a1", "beam-1", "b1"))
    assert (err.code, err.detail) == ("weapon_not_working", "A1's beam-1 is damaged")


def test_declaration_from_a_ship_out_of_play_or_out_of_control() -> None:
    state = with_ship(_window(), "a2", out_of_control=3)
    err = declare_error(state, "A", ("a2", "beam-3", "b1"))
    assert (err.code, err.detail) == ("out_of_control", "A2 is out of control and may not fire")
    state = with_ship(state, "a2", status="out_of_play")
    err = declare_error(state, "A", ("a2", "beam-3", "b1"))
    assert (err.code, err.detail) == ("ship_not_in_play", "A2 is out of play and cannot fire")


def test_one_target_per_fire_control() -> None:
    state = _window()
    # the destroyer has two fire controls: two targets are fine
    play(state, "A", fire(state.phase.window, ("a1", "beam-2", "b1"), ("a1", "beam-1", "b2")))
    one = with_system(state, "a1", "fc-2", "damaged")
    err = declare_error(one, "A", ("a1", "beam-2", "b1"), ("a1", "beam-1", "b2"))
    assert (err.code, err.detail) == (
        "no_fire_control",
        "A1 has 1 working fire control(s) and would engage 2 targets this turn",
    )
    # locks from an earlier window this turn count
    locked = with_ship(one, "a1", locks=("b2",))
    err = declare_error(locked, "A", ("a1", "beam-2", "b1"))
    assert err.code == "no_fire_control"
    play(locked, "A", fire(locked.phase.window, ("a1", "beam-1", "b2")))
    none = with_system(one, "a1", "fc-1", "damaged")
    assert declare_error(none, "A", ("a1", "beam-1", "b1")).code == "no_fire_control"


def test_a_declaration_is_secret_until_the_volley() -> None:
    state = _window()
    state, events = play(state, "A", fire(state.phase.window, ("a1", "beam-1", "b1")))
    (declared,) = events
    assert declared.type == "fire_declared"
    assert declared.data["shots"] == [{"ship": "a1", "weapon": "beam-1", "target": "b1"}]
    for seat in ("B", "spectator"):
        seen = redact(declared, seat, state)
        assert seen["redacted"] is True
        assert seen["data"] == {"side": "A", "window": state.phase.window}
    assert redact(declared, "A", state)["data"]["shots"] == declared.data["shots"]
    assert state.phase.awaiting == ("B",)


# -- the volley ----------------------------------------------------------------------------
def test_volley_dice_order_reveals_and_damage() -> None:
    state = setup_game(
        [gunship()], ["frigate"], {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)}
    )
    # basic sensors: 1 ping die, 2 ECM dice drawn; the frigate's ECM counts one: 6 > 5
    state, events = play(state, "A", ping("a1"), [6, 5, 2])
    assert only(events, "ping").data["detections"][0]["revealed"] is True
    assert state.phase.awaiting == ("A", "B")
    window = state.phase.window
    state, _ = play(state, "B", fire(window, ("b1", "beam-1", "a1")))
    a_dice = [6, 3, 5, 4, 1]  # 4BD*: a 6 (rerolled: 3), 5, 4, 1 -> 2+1+1 = 4 hits, 0 past armour
    b_dice = [2, 6, 6, 4]  # 2BD*: 2, then a 6 rerolled to 6 and again to 4 -> 2 hits + 3 past
    threshold = [1, 1, 1, 1]  # a1 lost its first row: fc-1, beam-1, drive, core group all pass
    state, events = play(
        state, "A", fire(window, ("a1", "beam-1", "b1")), a_dice + b_dice + threshold
    )
    assert types(events) == [
        "fire_declared",
        "ship_revealed",
        "ship_revealed",
        "fire_resolved",
        "damage",
        "damage",
        "threshold_check",
    ]
    assert [(e.data["ship"], e.data["cause"]) for e in all_of(events, "ship_revealed")] == [
        ("a1", "fire"),
        ("b1", "fire"),
    ]
    resolved = only(events, "fire_resolved").data
    assert resolved["window"] == window
    first, second = resolved["shots"]
    assert first == {
        "ship": "a1",
        "weapon": "beam-1",
        "target": "b1",
        "range": 10.0,
        "band": 1,
        "dice": "4BD*",
        "screen": 0,
        "rolled": [6, 3, 5, 4, 1],
        "rerolled": [False, True, False, False, False],
        "hits": 4,
        "reroll_hits": 0,
        "weapon_type": "beam",
        "path": "standard",
        "class": 4,
        "damage_rolled": [],
        "armour_damage": 4,
        "hull_damage": 0,
    }
    assert (second["ship"], second["rolled"], second["hits"], second["reroll_hits"]) == (
        "b1",
        [2, 6, 6, 4],
        2,
        3,
    )
    assert second["rerolled"] == [False, False, True, True]
    assert len(resolved["rolls"]) == 9
    damage = {e.data["ship"]: e.data for e in all_of(events, "damage")}
    assert (damage["b1"]["armour_lost"], damage["b1"]["hull_lost"]) == (2, 2)
    assert (damage["a1"]["armour_lost"], damage["a1"]["hull_lost"]) == (0, 5)
    assert damage["a1"]["rows_finished"] == [1] and damage["b1"]["rows_finished"] == []
    check = only(events, "threshold_check").data
    assert check["ship"] == "a1" and check["number"] == 6
    # the pinger pinged before moving: its move is due now
    assert state.phase.step == "after_ping" and state.phase.ship == "a1"
    assert state.ship("a1").fired == frozenset({"beam-1"}) and state.ship("a1").locks == ("b1",)
    assert state.ship("b1").fired == frozenset({"beam-1"}) and state.ship("b1").locks == ("a1",)
    assert state.ship("b1").armour_lost == 2 and state.ship("b1").hull_lost == 2
    assert state.ship("a1").hull_lost == 5


def test_screens_read_the_primary_dice_in_their_column() -> None:
    state = setup_game(
        [gunship()], ["heavy_cruiser"], {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)}
    )
    state = with_ship(state, "b1", overwatch=False)
    # the heavy cruiser's ECM holds one die: 6 beats 1
    state, _ = play(state, "A", ping("a1"), [6, 1, 1])
    assert state.phase.awaiting == ("A",)
    # screen 2: 4 -> 0, 5 -> 1, 6 -> 1 (+ reroll read at screen 0: 6 -> 2, then 1 -> 0)
    state, events = play(
        state, "A", fire(state.phase.window, ("a1", "beam-1", "b1")), [4, 5, 6, 6, 1, 3]
    )
    shot = only(events, "fire_resolved").data["shots"][0]
    assert shot["screen"] == 2
    assert (shot["hits"], shot["reroll_hits"]) == (2, 2)
    damage = only(events, "damage").data
    assert (damage["armour_lost"], damage["hull_lost"]) == (2, 2)


def test_nobody_awaited_the_window_closes_with_an_empty_volley() -> None:
    state = setup_game(["scout"], ["frigate"])
    state = with_ship(state, "b1", overwatch=False)
    state, events = play(state, "A", ping("a1"), [1, 1, 6, 6])  # b1's ECM hides it
    assert types(events) == [
        "activation_started",
        "ping",
        "ship_revealed",
        "fire_window",
        "fire_resolved",
    ]
    assert only(events, "fire_window").data["awaiting"] == []
    assert only(events, "fire_resolved").data == {
        "window": only(events, "fire_window").seq,
        "shots": [],
        "rolls": [],
    }
    assert state.phase.step == "after_ping"


def test_empty_declarations_reveal_nobody() -> None:
    state = setup_game(["scout"], ["scout"])
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", ping("a1"), [6, 6, 1, 1])
    state, _ = play(state, "B", hold(state))
    state, events = play(state, "A", hold(state))
    assert types(events) == ["fire_declared", "fire_resolved", "activation_ended"]
    assert only(events, "fire_resolved").data["shots"] == []
    assert only(events, "activation_ended").data == {
        "ship": "a1",
        "overwatch": False,
        "reason": "pinged",
    }


def test_overwatch_ships_of_the_pingers_side_fire_too() -> None:
    state = setup_game(
        [gunship(), gunship()],
        [gunship()],
        {"a1": (36.0, 10.0, 0, 0), "a2": (20.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)},
    )
    state, _ = play(state, "A", ping("a1"), [6, 1, 1])
    shots = fire(state.phase.window, ("a1", "beam-1", "b1"), ("a2", "beam-1", "b1"))
    state, _ = play(state, "B", hold(state))
    # a1 at 10 mu rolls 4BD*, a2 at 18.9 mu 3BD*: all ones, the volley misses
    state, events = play(state, "A", shots, [1] * 7)
    assert [s["dice"] for s in only(events, "fire_resolved").data["shots"]] == ["4BD*", "3BD*"]
    assert [s["ship"] for s in only(events, "fire_resolved").data["shots"]] == ["a1", "a2"]
    assert {e.data["ship"] for e in all_of(events, "ship_revealed")} == {"a1", "a2"}
    assert state.ship("a2").revealed == "live"


def test_each_weapon_fires_once_per_turn_and_resets() -> None:
    unarmed = gunship("target", systems=())
    state = setup_game(
        [
            gunship(
                systems=(SystemSpec("fc-1", "fire_control"), beam("beam-1", 4), beam("beam-2", 1))
            )
        ],
        [unarmed, unarmed],
        {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0), "b2": (40.0, 20.0, 6, 0)},
    )
    assert state.phase.side == "B"  # two ships against one
    # b1 pings and reveals itself; a1 on overwatch fires beam-1 at it
    state, _ = play(state, "B", move("b1"))
    state, _ = play(state, "B", ping("b1"), [1, 1, 1])
    assert state.phase.awaiting == ("A",)
    state, _ = play(state, "A", fire(state.phase.window, ("a1", "beam-1", "b1")), [1, 1, 1, 1])
    assert state.ship("a1").fired == frozenset({"beam-1"})
    assert state.ship("a1").locks == ("b1",)
    assert state.phase.side == "A"
    # a1 goes back on overwatch; b2 pings: a1 may fire beam-2, at b1 only (its one FC is locked)
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", {"type": "end_activation", "ship": "a1"})
    state, _ = play(state, "B", move("b2"))
    state, _ = play(state, "B", ping("b2"), [1, 1, 1])
    assert state.phase.awaiting == ("A",)
    options = fire_options(state, "A")
    assert [(o["weapon"], o["target"]) for o in options] == [("beam-2", "b1")]
    err = declare_error(state, "A", ("a1", "beam-1", "b1"))
    assert err.code == "weapon_spent"
    err = declare_error(state, "A", ("a1", "beam-2", "b2"))
    assert err.code == "no_fire_control"
    state, events = play(state, "A", hold(state))
    # end of turn: fired and locks reset
    assert "turn_ended" in types(events)
    assert state.turn == 2
    assert state.ship("a1").fired == frozenset() and state.ship("a1").locks == ()


def test_a_shot_of_a_ship_abandoned_before_the_volley_is_cancelled() -> None:
    state = setup_game(
        [gunship(), gunship()],
        [gunship()],
        {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)},
    )
    state = with_system(state, "a1", "core", "damaged")
    state, _ = play(state, "A", ping("a1"), [6, 1, 1])
    state, _ = play(state, "A", fire(state.phase.window, ("a1", "beam-1", "b1")))
    state, _ = play(state, "A", {"type": "core_action", "ship": "a1", "action": "abandon"})
    assert state.phase.step == "fire" and state.phase.awaiting == ("B",)
    state, events = play(state, "B", hold(state))
    resolved = only(events, "fire_resolved").data
    assert resolved["shots"] == [
        {"ship": "a1", "weapon": "beam-1", "target": "b1", "cancelled": True}
    ]
    assert all_of(events, "ship_revealed") == []
    assert state.ship("a1").fired == frozenset()
    # the abandoned pinger's activation ends there
    assert only(events, "activation_ended").data == {
        "ship": "a1",
        "overwatch": False,
        "reason": "out_of_play",
    }
    assert state.phase.side == "B"


def test_locks_beyond_the_working_fire_controls() -> None:
    """A lock held by a fire control that has since been damaged is no lock: with its one fire
    control gone, a ship locked on a live enemy cannot fire (the declaration would be refused),
    so the window must not wait for it."""
    state = with_ship(_duel(), "b1", locks=("a1",), fired=frozenset({"beam-1"}))
    assert may_fire_now(state, state.ship("b1"), None)
    blind = with_system(state, "b1", "fc-1", "damaged")
    assert not may_fire_now(blind, blind.ship("b1"), None)
    assert awaited_sides(blind, None) == ("A",)
    assert fire_options(fire_state(blind, None), "B") == []
    # a destroyer locked on two targets that lost one of its two fire controls: same
    two = setup_game(
        ["destroyer"],
        ["scout", "scout"],
        {"a1": (36.0, 20.0, 0, 0), "b1": (36.0, 30.0, 6, 0), "b2": (40.0, 30.0, 6, 0)},
    )
    two = live(two, "b1", "b2")
    two = with_ship(two, "a1", locks=("b1", "b2"), fired=frozenset({"beam-1", "beam-2"}))
    assert may_fire_now(two, two.ship("a1"), None)
    assert {o["target"] for o in fire_options(fire_state(two, None), "A")} == {"b1", "b2"}
    half = with_system(two, "a1", "fc-2", "damaged")
    assert not may_fire_now(half, half.ship("a1"), None)
    assert fire_options(fire_state(half, None), "A") == []
