"""The captain's point defence and its groups: beams fire as PDS and groups intercept beside
the default allocation, interceptors stay with the ships, spent fighters go home to land.
Unit cases on hand-made views, then the engine's own windows in carrier-hunt games (every
allocation it sends must be one the engine takes, or the runner raises ``BotRefused``)."""

from __future__ import annotations

from typing import Any

from app.bot import escort, step2
from app.bot.captain import Captain
from app.bot.runner import play_game
from app.bot.strategy import strategy
from app.rules.geometry import Vec
from app.rules.state import GameState


def _window_view() -> dict[str, Any]:
    """a1 attacked by a group (m-g) and a salvo (m-s); a2 beside it with an ADFC pairing."""
    pairings = [
        {"ship": "a1", "system": "pds-1", "against": "m-g", "odds": 0.5},
        {"ship": "a1", "system": "pds-1", "against": "m-s", "odds": 0.5},
        {"ship": "a1", "system": "beam-2", "against": "m-g", "odds": 0.5},
        {"ship": "a1", "system": "beam-2", "against": "m-s", "odds": 0.5},
        {"ship": "a2", "system": "pds-1", "against": "m-g", "odds": 0.5},  # through an ADFC
        {"group": "m-i", "against": "m-g", "odds": 1.2},
        {"group": "m-i", "against": "m-s", "odds": 1.9},
    ]
    return {
        "you": "A",
        "phase": {
            "legal": {
                "commands": ["defend"],
                "defend": {
                    "window": 7,
                    "pairings": pairings,
                    "default": [{"ship": "a1", "system": "pds-1", "against": "m-s"}],
                },
            },
            "defence": {
                "attacks": [
                    {"marker": "m-g", "side": "B", "kind": "fighters", "target": "a1"},
                    {"marker": "m-s", "side": "B", "kind": "salvo", "target": "a1"},
                ]
            },
        },
    }


def test_beams_and_groups_defend_beside_the_default() -> None:
    sent = escort.defend(_window_view())
    assert sent["type"] == "defend" and sent["window"] == 7
    assert sent["allocations"] == [
        {"ship": "a1", "system": "pds-1", "against": "m-s"},  # the default, first and whole
        {"ship": "a1", "system": "beam-2", "against": "m-g"},  # at the attack left undefended
        {"group": "m-i", "against": "m-g"},  # a group's craft strike a ship: kill them first
    ]  # and no PDS of a2 firing for a1: that would reveal a2


def _step2_view(own: list[dict[str, Any]], items: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "you": "A",
        "table": {"width": 72.0, "height": 48.0},
        "markers": own,
        "phase": {"legal": {"commands": ["markers"], "markers": items, "launch": []}},
    }


def _group(marker: str, kind: str, kind_type: str, cef: int) -> dict[str, Any]:
    return {"id": marker, "side": "A", "kind": kind, "type": kind_type, "cef": cef}


def _item(marker: str, kind: str, at: Vec, can_land: bool) -> dict[str, Any]:
    return {
        "marker": marker,
        "kind": kind,
        "from": at.to_dict(),
        "reach": 24.0,
        "can_land": can_land,
    }


def test_interceptors_guard_spent_fighters_land_and_the_rest_go_at_the_enemy() -> None:
    far = Vec(30.0, 20.0)
    view = _step2_view(
        [
            _group("m-i", "fighters", "interceptor", 6),
            _group("m-a", "fighters", "attack", 5),
            _group("m-x", "fighters", "standard", 0),
            _group("m-y", "fighters", "standard", 0),
            _group("m-d", "drones", "standard", 0),
        ],
        [
            _item("m-i", "fighters", far, True),
            _item("m-a", "fighters", far, True),
            _item("m-x", "fighters", far, True),
            _item("m-y", "fighters", Vec(60.0, 20.0), False),
            _item("m-d", "drones", far, False),
        ],
    )
    active = {"id": "a1", "position": {"x": 10.0, "y": 20.0}}
    enemy = Vec(50.0, 20.0)
    sent = step2.markers_command(view, active, lambda here, reach: enemy, escort=Vec(12.0, 20.0))
    assert sent is not None
    orders = {o["marker"]: o for o in sent["orders"]}
    assert orders["m-i"]["to"] == {"x": 12.0, "y": 20.0}  # with the ships
    assert orders["m-a"]["to"] == {"x": 50.0, "y": 20.0}  # at the enemy
    assert orders["m-x"] == {"marker": "m-x", "land": True}  # 0 CEF: home
    assert Vec.from_dict(orders["m-y"]["to"]).x < 60.0  # too far to land: towards its mother
    assert orders["m-d"]["to"] == {"x": 50.0, "y": 20.0}  # drones never land: they go on


def test_the_guard_stands_by_the_ship_nearest_the_enemy() -> None:
    view = {
        "you": "A",
        "movement": "cinematic",
        "ships": [
            {
                "id": "a1",
                "side": "A",
                "status": "active",
                "position": {"x": 5.0, "y": 5.0},
                "heading": 3,
                "velocity": 0,
            },
            {
                "id": "a2",
                "side": "A",
                "status": "active",
                "position": {"x": 20.0, "y": 30.0},
                "heading": 3,
                "velocity": 4,
            },
        ],
    }
    assert escort.guarded(view, [Vec(40.0, 30.0)]) == Vec(22.0, 30.0)  # a2, half a turn on
    assert escort.guarded(view, []) is None


def test_in_carrier_hunts_the_captain_intercepts_and_fires_beams_as_pds() -> None:
    kinds: set[str] = set()

    def look(state: GameState, seat: str, command: dict[str, Any]) -> None:
        if seat != "A" or command["type"] != "defend":
            return
        for a in command["allocations"]:
            if "group" in a:
                kinds.add("intercept")
            elif a["system"].startswith("beam"):
                kinds.add("beam")

    for seed in range(6):
        movement = ("cinematic", "vector")[seed % 2]
        players = {"A": Captain(), "B": strategy("naive")}
        play_game(players, "carrier_hunt", movement, 900 + seed, on_command=look)
    assert kinds == {"intercept", "beam"}
