"""The map's measuring data and animations (``app/web/mapfx.py``), from a seat's view and the
events it receives — nothing else.

- Leak oracle: two games that differ only in hidden facts (where B's unseen ship went) give A
  and a spectator the very same data; B's own data differs (the pair is meaningful). Over every
  golden scenario, no seat's data holds a point it may not know (the rules' ``PointTracker``:
  an enemy's hidden position, aim point or heavy missile's end point), and an engine-side slip
  that animates every ship's move is caught by the same check.
- Own moves only: an enemy's path is never drawn, even fed the referee's unredacted events.
- Beam lines only where both ends are public; damage numbers at a public position (or the
  seat's own ship); measuring only from ships the seat sees truly, with their weapons' bands.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from app.rules import evolve, redact, start_state, view
from app.rules.events import Event
from app.rules.state import GameState
from app.web import mapfx
from tests.rules.golden_runner import golden_files, load
from tests.rules.golden_runner import play as play_golden
from tests.rules.helpers import end, fire, move, ping, play, setup_log
from tests.rules.test_properties import PointTracker

DICE = [3, 5, 2, 6, 1, 4] * 3
SEATS = ("A", "B", "spectator")


def _received(state: GameState, log: list[Event], seat: str) -> list[dict[str, Any]]:
    return [redact(e, seat, state) for e in log]


def fx_of(state: GameState, log: list[Event], seat: str, **kw: Any) -> dict[str, Any]:
    """What the seat's page would get: its view and the events as it receives them."""
    v = view(state, seat)
    if kw:
        h = float(v["table"]["height"])
        return {
            "ships": mapfx.measurable(v, h),
            "fx": mapfx.effects(v, _received(state, log, seat), **kw),
        }
    return mapfx.build(v, _received(state, log, seat))


def quiet_game(b_orders: tuple[int, int]) -> tuple[GameState, list[Event]]:
    """Scouts far apart with a 12 mu ping range: A moves and pings (B stays unseen), then B
    moves by ``b_orders`` (speed change, turn) without a ping: where it went is hidden."""
    state, log = setup_log(
        ("scout",), ("scout",), {"a1": (10.0, 4.0, 0, 2), "b1": (60.0, 44.0, 6, 2)}, ping_range=12.0
    )
    steps = [
        ("A", move("a1", 1, 1)),
        ("A", ping("a1")),
        ("A", end("a1")),
        ("B", move("b1", *b_orders)),
        ("B", end("b1")),
    ]
    for seat, command in steps:
        if command["type"] == "end_activation" and state.phase.ship != command["ship"]:
            continue  # the ping after the move ended it
        state, events = play(state, seat, command, DICE, all_dice=False)
        log += events
        while state.phase.step == "fire":  # the window the ping opened: nobody fires
            window = fire(state.phase.window)
            state, events = play(state, state.phase.awaiting[0], window, DICE, all_dice=False)
            log += events
    return state, log


# -- the leak oracle ------------------------------------------------------------------------------
def test_hidden_facts_do_not_change_what_a_seat_is_shown() -> None:
    one, other = quiet_game((1, 1)), quiet_game((-1, -2))
    b_one, b_other = one[0].ship("b1"), other[0].ship("b1")
    assert b_one.position != b_other.position and b_one.revealed == b_other.revealed == "unseen"
    for seat in ("A", "spectator"):
        assert fx_of(*one, seat) == fx_of(*other, seat), seat
    # the pair is meaningful: the seat that knows the hidden facts gets other data
    assert fx_of(*one, "B") != fx_of(*other, "B")
    a = fx_of(*one, "A")["fx"]
    assert [i["kind"] for i in a] == ["move", "ping"] and a[0]["ship"] == "a1"


def _table_points(obj: Any, h: float) -> Iterator[dict[str, float]]:
    """Every point of the data as table coordinates (its items hold [x, svg y] pairs)."""
    if isinstance(obj, Mapping):
        for key, value in obj.items():
            if key in ("at", "from", "to") and isinstance(value, list):
                yield {"x": value[0], "y": h - value[1]}
            elif key == "points":
                yield from ({"x": p[0], "y": h - p[1]} for p in value)
            else:
                yield from _table_points(value, h)
    elif isinstance(obj, list):
        for value in obj:
            yield from _table_points(value, h)


def _golden_games() -> list[tuple[str, GameState, list[Event]]]:
    return [(path.stem, *play_golden(load(path))) for path in golden_files()]


GOLDEN = _golden_games()


def _oracle(name: str, state: GameState, log: list[Event], fx_for: Any = None) -> None:
    """No seat's data holds a point it may not know, and moves are the seat's own."""
    tracker, before = PointTracker(), start_state(log[0])
    for event in log[1:]:  # the first made the state
        tracker.feed(event, before)
        before = evolve(before, event)
    tracker.see_public(view(state, "spectator"))
    h = state.table.height
    sides = {s.id: s.side for s in state.ships}
    for seat in SEATS:
        data = (fx_for or fx_of)(state, log, seat, turns=None)
        points = list(_table_points(data, h))
        tracker.check({"points": points}, seat, state, f"{name} for {seat}")
        moved = {i["ship"] for i in data["fx"] if i["kind"] == "move"}
        assert all(sides[s] == seat for s in moved), f"{name}: {seat} shown the moves of {moved}"
        assert all(sides[s["id"]] == seat for s in data["ships"]), name


@pytest.mark.parametrize(("name", "state", "log"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_no_seat_is_shown_a_point_it_may_not_know(
    name: str, state: GameState, log: list[Event]
) -> None:
    _oracle(name, state, log)


def test_the_oracle_catches_an_enemy_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Meta: data built from the referee's events with every ship counted as the seat's own
    (a slip that would draw enemy paths) fails the oracle in some golden game."""

    def leaky(state: GameState, log: list[Event], seat: str, **kw: Any) -> dict[str, Any]:
        v = view(state, seat)
        return {
            "ships": [],
            "fx": mapfx.effects(v, [redact(e, "referee", state) for e in log], **kw),
        }

    monkeypatch.setattr(
        mapfx,
        "_truly_seen",
        lambda v: {
            s["id"]: {**s, "position": s.get("position") or {"x": 0, "y": 0}} for s in v["ships"]
        },
    )
    caught = set()
    for name, state, log in GOLDEN:
        try:
            _oracle(name, state, log, leaky)
        except AssertionError as slip:
            caught.add("point" if "the true position of" in str(slip) else "move")
    # the point check alone would catch it, not only the moves' owner check
    assert caught == {"point", "move"}, caught


# -- own moves only ----------------------------------------------------------------------------
def test_an_enemy_path_is_never_drawn_even_from_unredacted_events() -> None:
    state, log = quiet_game((1, 1))
    truth = [redact(e, "referee", state) for e in log]  # B's move in full
    for seat, enemy in (("A", "b1"), ("B", "a1")):
        items = mapfx.effects(view(state, seat), truth)
        assert not [i for i in items if i["kind"] == "move" and i["ship"] == enemy], seat
        assert [i for i in items if i["kind"] == "move"], seat  # its own is there
    assert not [i for i in mapfx.effects(view(state, "spectator"), truth) if i["kind"] == "move"]


def test_an_own_move_follows_its_path_in_svg_coordinates() -> None:
    state, log = quiet_game((1, 1))
    moved = next(e for e in log if e.type == "ship_moved" and e.data["ship"] == "a1")
    item = next(i for i in fx_of(state, log, "A")["fx"] if i["kind"] == "move")
    assert item["points"] == [
        [round(p["x"], 3), round(48.0 - p["y"], 3)] for p in moved.data["path"]
    ]
    assert item["seq"] == moved.seq and item["heading"] == moved.data["heading"]
    ring = next(i for i in fx_of(state, log, "B")["fx"] if i["kind"] == "ping")
    assert ring["r"] == 12.0 and ring["at"] == item["points"][-1]  # pinged where it ended


# -- volleys, damage, arrivals: hand-made events --------------------------------------------------
def _view(seat: str = "A", turn: int = 3) -> dict[str, Any]:
    own = {
        "id": "a1",
        "name": "Lance",
        "side": "A",
        "status": "active",
        "position": {"x": 10.0, "y": 10.0},
        "heading": 0,
        "revealed": "unseen",
        "weapons": [
            {
                "id": "beam-1",
                "arcs": ["F"],
                "bands": [{"to": 12, "dice": "3BD*"}, {"to": 24, "dice": "2BD*"}],
                "status": "ok",
                "fired": False,
            },
        ],
    }
    enemy = {
        "id": "b1",
        "name": "Raider",
        "side": "B",
        "status": "active",
        "revealed": "live",
        "position": {"x": 20.0, "y": 30.0},
        "heading": 6,
    }
    return {
        "you": seat,
        "turn": turn,
        "table": {"width": 72, "height": 48},
        "ships": [own, enemy],
        "ping_range": None,
    }


def _event(
    seq: int, kind: str, data: dict[str, Any], turn: int = 3, **extra: Any
) -> dict[str, Any]:
    return {"seq": seq, "turn": turn, "type": kind, "data": data, **extra}


def test_beams_need_both_ends_public_and_damage_stands_where_the_map_shows() -> None:
    shots = [
        {"ship": "a1", "weapon": "beam-1", "target": "b1", "hits": 2},
        {"ship": "b2", "weapon": "beam-1", "target": "a1", "hits": 0},  # b2 never revealed
        {"ship": "a1", "weapon": "beam-2", "target": "g-7", "hits": 1},  # a group: no position
        {"ship": "a1", "weapon": "beam-3", "target": "b1", "cancelled": True},
    ]
    events = [
        _event(
            1, "ship_revealed", {"ship": "b1", "position": {"x": 20.0, "y": 30.0}, "heading": 6}
        ),
        _event(
            2, "ship_revealed", {"ship": "a1", "position": {"x": 10.0, "y": 10.0}, "heading": 0}
        ),
        _event(3, "fire_resolved", {"shots": shots}),
        _event(4, "damage", {"ship": "b1", "armour_lost": 1, "hull_lost": 2}),
        _event(5, "damage", {"ship": "a1", "armour_lost": 0, "hull_lost": 1, "destroyed": True}),
        _event(6, "salvo_attack", {"marker": "m1", "ship": "b1", "target": "a1"}),
        _event(7, "damage", {"ship": "b9", "armour_lost": 0, "hull_lost": 3}),  # shown nowhere
        _event(8, "fire_resolved", {"shots": shots[:1]}, voided=True),
        _event(9, "ping", {"ship": "b1", "position": {"x": 20.0, "y": 30.0}}, turn=1),  # too old
    ]
    items = mapfx.effects(_view(), events)
    assert [(i["seq"], i["kind"]) for i in items] == [
        (3, "beam"),
        (4, "damage"),
        (5, "damage"),
        (6, "arrive"),
    ]
    assert items[0]["from"] == [10.0, 38.0] and items[0]["to"] == [20.0, 18.0] and items[0]["hit"]
    assert items[1]["amount"] == 3 and items[1]["at"] == [20.0, 18.0]
    assert items[2]["destroyed"] and items[2]["at"] == [10.0, 38.0]
    assert items[3]["at"] == [10.0, 38.0]
    # a beam needs the firer revealed before the volley: the same volley first, then reveals
    late = [events[2], events[0], events[1]]
    assert not [i for i in mapfx.effects(_view(), late) if i["kind"] == "beam"]


def test_own_markers_fly_and_the_others_only_arrive() -> None:
    acted = {
        "ship": "a1",
        "markers": [
            {
                "marker": "m1",
                "kind": "salvo",
                "from": {"x": 10, "y": 10},
                "to": {"x": 14, "y": 20},
                "result": "moved",
            }
        ],
    }
    stub = {"ship": "b1"}
    events = [
        _event(1, "ordnance_acted", acted),
        _event(2, "ordnance_acted", stub, redacted=True),
        _event(3, "amt_detonated", {"marker": "m2", "ship": "b1", "point": {"x": 11, "y": 12}}),
    ]
    items = mapfx.effects(_view(), events)
    assert [i["kind"] for i in items] == ["fly", "arrive"]
    assert items[0]["points"] == [[10.0, 38.0], [14.0, 28.0]]
    # the other side's full event, were it ever handed over, is not its seat's to draw
    assert not mapfx.effects(_view("B"), events[:1])


# -- measuring ----------------------------------------------------------------------------------
def test_measuring_starts_only_from_ships_seen_truly() -> None:
    ships = mapfx.measurable(_view(), 48.0)
    assert [s["id"] for s in ships] == ["a1"]  # the live enemy is not one to measure from
    assert ships[0]["at"] == [10.0, 38.0] and ships[0]["heading"] == 0
    beam = ships[0]["weapons"][0]
    assert beam == {
        "id": "beam-1",
        "arcs": ["F"],
        "bands": [{"to": 12.0, "dice": "3BD*"}, {"to": 24.0, "dice": "2BD*"}],
        "ready": True,
    }
    assert mapfx.measurable(_view("spectator"), 48.0) == []
    state, _ = quiet_game((1, 1))
    referee = mapfx.measurable(view(state, "referee"), 48.0)
    assert {s["id"] for s in referee} == {"a1", "b1"}
    assert all(s["weapons"] == [] or s["weapons"][0]["bands"] for s in referee)
