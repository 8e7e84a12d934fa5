"""Hulks (RULES §3, C8.1): ships out of play but still on the table.

The golden scenarios 040–043 play the main cases through; these tests pin the details: which
ships drift and when, the crew's damage control, life support and core choice aboard a hulk,
and the ping's dice for hulks.
"""

from __future__ import annotations

from app.rules import fog
from app.rules.state import GameState
from tests.rules.helpers import (
    all_of,
    gunship,
    only,
    ping,
    play,
    quiet_turn,
    setup_game,
    types,
    with_ship,
    with_system,
)


def _hulk(state: GameState, ship_id: str, **changes: object) -> GameState:
    """A ship permanently out of control (its bridge lost), its crew aboard."""
    state = with_system(state, ship_id, "bridge", "destroyed")
    return with_ship(
        state, ship_id, status="out_of_play", out_reason="permanently_out_of_control", **changes
    )


def test_a_crewed_hulk_repairs_counts_its_life_support_down_and_is_abandoned() -> None:
    state = setup_game(
        [gunship(), gunship()],
        [gunship()],
        {"a2": (20.0, 10.0, 0, 3)},
    )
    state = _hulk(state, "a2", speed=3, life_support_turns=1)
    state = with_system(state, "a2", "core", "damaged")
    state = with_system(state, "a2", "life_support", "damaged")
    assert "core_action" in fog.legal(state, "A")["commands"]
    # damage control: 2 parties (mass 40), both on the core (priority), a 1; the life support
    # countdown then runs out: the crew abandons the hulk; turn 2: the core roll (4+: the first
    # roll without a crew, docs/rules.md §8), roll-off
    state, events = quiet_turn(state, [1, 1, 6, 1])
    assert types(events)[-6:] == [
        "activation_ended",
        "ship_moved",
        "damage_control",
        "turn_ended",
        "core_roll",
        "turn_started",
    ]
    moved = all_of(events, "ship_moved")[-1]
    assert moved.data["ship"] == "a2" and moved.data["drift"] is True
    assert moved.data["to"] == {"x": 20.0, "y": 13.0}
    repairs = only(events, "damage_control").data
    assert repairs["ship"] == "a2" and repairs["attempts"][0]["system"] == "core"
    assert only(events, "turn_ended").data["life_support_failed"] == ["a2"]
    assert only(events, "core_roll").data["needed"] == 4
    a2 = state.ship("a2")
    assert a2.status == "out_of_play" and a2.abandoned and a2.life_support_turns is None
    # it keeps the reason it went out of play; its conditions say both
    assert a2.out_reason == "permanently_out_of_control"
    kinds = [c["type"] for c in fog.conditions(a2)]
    assert kinds == ["out_of_control", "core_critical", "abandoned"]
    # nobody aboard: no core choice, and no damage control at the next turn's end
    assert "core_action" not in fog.legal(state, "A")["commands"]
    state, events = quiet_turn(state, [1, 6, 1])
    assert "damage_control" not in types(events)
    assert only(events, "core_roll").data["needed"] == 3  # 4+, then 3+: one lower a turn


def test_a_hulk_that_moved_this_turn_drifts_from_the_next_turn_on() -> None:
    """No ship moves twice in a turn: one that moved before it became a hulk waits a turn."""
    state = setup_game([gunship(), gunship()], [gunship()], {"a2": (20.0, 10.0, 0, 3)})
    state, _ = play(state, "A", {"type": "move", "ship": "a2", "orders": _still()})
    assert state.ship("a2").position is not None and state.ship("a2").position.y == 13.0
    state = _hulk(state, "a2")
    # a2's activation is over (it is out of play): B and then a1 move; no drift for a2 yet
    state, _ = play(state, "A", {"type": "end_activation", "ship": "a2"})
    state, events = quiet_turn(state, [6, 1])
    assert "turn_ended" in types(events) and not all_of(events, "ship_moved")
    assert state.ship("a2").position is not None and state.ship("a2").position.y == 13.0
    state, events = quiet_turn(state, [6, 1])
    drift = [e for e in all_of(events, "ship_moved") if e.data["ship"] == "a2"]
    assert len(drift) == 1 and drift[0].data["to"] == {"x": 20.0, "y": 16.0}


def test_a_ping_rolls_for_hulks_in_roster_order_not_for_the_destroyed_or_gone() -> None:
    state = setup_game(
        ["scout"],
        [gunship(), gunship(), gunship(), gunship()],
        first="B",
    )
    state = _hulk(state, "b2")
    state = with_ship(state, "b3", status="destroyed")
    state = with_ship(state, "b4", status="left")
    for ship_id in ("b1",):
        state, _ = play(state, "B", {"type": "move", "ship": ship_id, "orders": _still()})
        state, _ = play(state, "B", {"type": "end_activation", "ship": ship_id})
    state, events = play(state, "A", ping("a1"), [3, 1, 1, 1, 3, 1, 1, 1])
    detections = only(events, "ping").data["detections"]
    assert [d["target"] for d in detections] == ["b1", "b2"]
    assert state.ship("b2").revealed == "live"  # a live hulk: a target (RULES §3)


def _still() -> dict[str, int]:
    return {"speed_change": 0, "turn": 0}


def test_a_hulk_shows_no_frozen_countdowns_and_keeps_its_first_reason() -> None:
    """A hulk never activates, so an out-of-control count it carried would never run down: its
    conditions show none; a dumped hulk whose bridge a later volley destroys is still shown as
    dumped (it keeps the reason it went out of play); abandoning stops every countdown."""
    from app.rules.events import Event
    from app.rules.evolve import evolve

    state = setup_game([gunship(), gunship()], [gunship()], {"a2": (20.0, 10.0, 0, 3)})
    state = with_ship(state, "a2", out_of_control=2, life_support_turns=2, command_bridge_out=1)
    state = with_system(state, "a2", "core", "damaged")
    # the crew dumps the core while the ship is out of control: a hulk with a frozen count
    dumped = evolve(state, Event(90, 1, "core_action", {"ship": "a2", "action": "dump"}))
    kinds = [c["type"] for c in fog.conditions(dumped.ship("a2"))]
    assert "out_of_control" not in kinds and "core_dumped" in kinds
    # a later volley destroys its bridge: permanently out of control, still a dumped hulk
    bridge = {"ship": "a2", "system": "bridge", "type": "bridge", "status": "destroyed"}
    hit = evolve(dumped, Event(91, 1, "system_damaged", {**bridge, "permanent": True}))
    a2 = hit.ship("a2")
    assert a2.out_reason == "core_dumped" and a2.out_of_control == 0
    conditions = fog.conditions(a2)
    assert {"type": "out_of_control", "permanent": True} in conditions
    assert {"type": "core_dumped"} in conditions
    # abandoning a ship stops its countdowns: nobody is aboard to run out of air
    left = evolve(state, Event(92, 1, "core_action", {"ship": "a2", "action": "abandon"}))
    a2 = left.ship("a2")
    assert a2.life_support_turns is None and a2.command_bridge_out == 0
    assert a2.out_reason == "abandoned"
    assert not any("turns_left" in c for c in fog.conditions(a2))
