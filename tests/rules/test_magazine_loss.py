"""A magazine's loads are lost with it when it fails a threshold check or is destroyed; the owner's
event says which (decision 3, C2.3). Whether the event comes depends only on the public failure,
never on whether the magazine still held anything."""

from __future__ import annotations

from dataclasses import replace

from app.rules import fog
from app.rules.builder import Builder
from app.rules.designs import SystemSpec
from app.rules.dice import ScriptedDice
from app.rules.geometry import Vec
from app.rules.ordnance.loads import system_damaged
from app.rules.ordnance.strike import resolve_strikes
from app.rules.state import Attack, GameState, MarkerState
from tests.rules.helpers import gunship, setup_game

_HOLDER = gunship(
    "holder",
    hull=20,
    systems=(
        SystemSpec("fc-1", "fire_control"),
        SystemSpec("hml-1", "heavy_missile_launcher", arcs=("F",), magazine="mag-1"),
        SystemSpec("mag-1", "magazine", loads=(("standard", 1), ("needle", 1))),
    ),
)


def _game() -> GameState:
    places = {"a1": (36.0, 4.0, 0, 0), "b1": (36.0, 24.0, 6, 0)}
    state = setup_game(("scout",), (_HOLDER,), places)
    needle = MarkerState(
        id="m-n",
        side="A",
        mother="a1",
        kind="heavy_missile",
        position=Vec(36.0, 22.0),
        aim=Vec(36.0, 22.0),
        launched_turn=0,
        launched_seq=1,
        missile="needle",
        endurance=2,
        system="magazine",
    )
    return replace(state, markers=(needle,), marker_count=1)


def test_a_destroyed_magazine_loses_its_loads_and_tells_its_owner_which() -> None:
    state = _game()
    assert state.ship("b1").loads == {"mag-1": {"standard": 1, "needle": 1}}
    b = Builder(state, ScriptedDice([1, 6]))  # one needle die: a 6, the magazine destroyed
    resolve_strikes(b, (Attack("m-n", "A", "heavy_missile", "b1"),), {}, frozenset(), False)
    kinds = [e.type for e in b.events]
    assert kinds[-2:] == ["system_damaged", "loads_lost"]
    lost = b.events[-1]
    assert lost.data == {"ship": "b1", "magazine": "mag-1", "loads": {"needle": 1, "standard": 1}}
    # the other side learns only what system_damaged already says: that mag-1 is gone
    shown = fog.redact(lost, "A", b.state)
    assert shown["data"] == {"ship": "b1", "magazine": "mag-1"} and shown["redacted"]
    assert b.state.ship("b1").loads == {"mag-1": {"needle": 0, "standard": 0}}
    assert b.state.ship("b1").system("mag-1").status == "destroyed"


def _threshold_failure(state: GameState) -> tuple[Builder, dict[str, object]]:
    from app.rules.damage import system_hit

    b = Builder(state, ScriptedDice([]))
    hit = system_hit(state.ship("b1"), "mag-1", "threshold", b.roller)
    assert hit["status"] == "damaged"  # a failed check damages; damage control may repair it
    return b, hit


def test_a_magazine_that_fails_a_threshold_check_loses_its_loads() -> None:
    b, hit = _threshold_failure(_game())
    system_damaged(b, hit)
    assert [e.type for e in b.events] == ["system_damaged", "loads_lost"]
    assert b.events[-1].data["loads"] == {"needle": 1, "standard": 1}
    assert b.state.ship("b1").loads == {"mag-1": {"needle": 0, "standard": 0}}


def test_an_empty_magazine_that_fails_tells_the_other_side_the_same() -> None:
    """The other side must not learn from the event's presence that the magazine held loads."""
    full = _game()
    b1 = full.ship("b1")
    empty = full.with_ship(replace(b1, loads={"mag-1": {"standard": 0, "needle": 0}}))
    seen = []
    for state in (full, empty):
        b, hit = _threshold_failure(state)
        system_damaged(b, hit)
        seen.append([fog.redact(e, "A", b.state) for e in b.events])
    for events in seen:
        for event in events:
            event.pop("seq", None)
    assert seen[0] == seen[1]
    assert [e["type"] for e in seen[1]] == ["system_damaged", "loads_lost"]
