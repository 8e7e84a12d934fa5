"""Secrets of fighter groups (issue 13, RULES §9.1): a group's position while unseen, what a
bay holds, launches and landings, the fighters step's choices — never in the other side's view
or in the events as the other side receives them."""

from __future__ import annotations

from typing import Any

from app.rules import view
from app.rules.events import Event
from app.rules.fog import redact
from app.rules.state import GameState
from tests.rules.fighter_setup import (
    carrier,
    carrier_game,
    group,
    launch,
    launched_last_turn,
    markers_cmd,
    with_marker,
)
from tests.rules.helpers import activate, new_game, play


def _points(obj: Any) -> set[tuple[float, float]]:
    """Every point (a mapping with x and y) in ``obj``, rounded to 1 decimal."""
    found: set[tuple[float, float]] = set()
    if isinstance(obj, dict):
        if "x" in obj and "y" in obj:
            found.add((round(obj["x"], 1), round(obj["y"], 1)))
        for v in obj.values():
            found |= _points(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            found |= _points(v)
    return found


def _as_b(events: list[Event], state: GameState) -> list[dict[str, Any]]:
    return [redact(e, "B", state) for e in events]


def _words(obj: Any) -> str:
    return repr(obj)


def test_an_unseen_groups_position_and_launch_never_reach_the_other_side() -> None:
    state, events = launch(carrier_game(), to=(33.0, 19.0))
    g = group(state)
    received = _as_b(events, state)
    assert received == [
        {
            "seq": events[0].seq,
            "turn": 1,
            "type": "ordnance_acted",
            "data": {"ship": "a1"},
            "redacted": True,
        }
    ]
    seen = view(state, "B")
    assert (33.0, 19.0) not in _points(seen) and (33.0, 19.0) not in _points(received)
    assert g.id not in _words(seen) and g.id not in _words(received)
    assert seen["markers"] == []


def test_bay_contents_are_the_owners_alone() -> None:
    state, started = new_game([carrier(fighters="needle")], ["scout"])
    public = redact(started, "B", state)["data"]["designs"]
    bays = [s for d in public.values() for s in d["systems"] if s["type"] == "fighter_bay"]
    assert bays and all("load" not in s for s in bays)
    state = carrier_game(fighters="needle")
    b_view = view(state, "B")["ships"][0]
    assert "bays" not in b_view and "needle" not in _words(b_view)
    a_view = view(state, "A")["ships"][0]
    assert a_view["bays"]["bay-1"] == {"group": "needle", "strength": 6, "cef": 6, "ready_turn": 0}


def test_an_empty_bay_looks_like_a_full_one_to_the_other_side() -> None:
    full = view(carrier_game(), "B")["ships"][0]
    state, _ = launch(carrier_game())
    emptied = view(state, "B")["ships"][0]
    for key in ("design", "systems", "conditions"):
        assert emptied[key] == full[key]


def test_a_landing_never_reaches_the_other_side() -> None:
    state = launched_last_turn(carrier_game())
    g = group(state)
    before = view(state, "B")
    state, _ = play(state, "A", activate("a1"))
    state, events = play(state, "A", markers_cmd([{"marker": g.id, "land": True}]))
    received = _as_b(events, state)
    assert [(e["type"], e["data"]) for e in received] == [("ordnance_acted", {"ship": "a1"})]
    after = view(state, "B")
    assert after["markers"] == before["markers"] == []
    assert after["ships"][0]["design"] == before["ships"][0]["design"]


def test_the_fighters_step_choices_are_redacted_to_the_ship() -> None:
    state, _ = launch(carrier_game(b_at=(30.0, 26.0)), to=(30.0, 21.0))
    g = group(state).id
    state, events = play(
        state, "A", {"type": "fighters", "choices": [{"marker": g, "attack": None}]}
    )
    chosen = redact(events[0], "B", state)
    assert chosen["data"] == {"ship": "a1"} and chosen["redacted"] is True


def test_what_the_other_side_receives_does_not_depend_on_a_groups_secrets() -> None:
    """Two games differing only in what the group is (type, bay, CEF): B receives the same."""

    def run(fighters: str, cef: int) -> list[dict[str, Any]]:
        state = launched_last_turn(carrier_game(b_at=(30.0, 40.0), fighters=fighters))
        state = with_marker(state, group(state).id, cef=cef)
        state, _ = play(state, "A", activate("a1"))
        order = [{"marker": group(state).id, "to": {"x": 30.0, "y": 36.0}}]
        state, events = play(state, "A", markers_cmd(order))
        return [{k: v for k, v in e.items() if k != "seq"} for e in _as_b(events, state)]

    assert run("standard", 6) == run("heavy", 2)


def test_a_live_enemy_group_shows_only_its_public_fields() -> None:
    state, _ = launch(carrier_game())
    g = group(state)
    state = with_marker(state, g.id, live=True)
    shown = view(state, "B")["markers"]
    assert shown == [
        {
            "id": g.id,
            "side": "A",
            "kind": "fighters",
            "strength": 6,
            "position": {"x": 30.0, "y": 10.0},
            "live": True,
            "engaged_with": None,
        }
    ]
    state = with_marker(state, g.id, type_shown=True)
    assert view(state, "B")["markers"][0]["type"] == "standard"
