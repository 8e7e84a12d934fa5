"""Fog of war (RULES §6; API.md "The view" and "Events"; app/rules/fog.py).

A player sees public facts plus the truth about their own ships; a spectator public facts only;
the referee everything. ``revealed`` and ``last_known`` are the same for every seat. Every seat
gets every event, in full or redacted (``"redacted": true``) to what it may know.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from app.rules import redact, replay, view, visible
from app.rules.designs import SystemSpec
from app.rules.events import Event
from app.rules.state import GameState
from tests.rules.golden_runner import GOLDEN_DIR
from tests.rules.golden_runner import load as golden_load
from tests.rules.golden_runner import play as golden_play
from tests.rules.helpers import (
    activate,
    all_of,
    at,
    beam,
    deploy_command,
    end,
    fire,
    gunship,
    hold,
    live,
    move,
    new_game,
    only,
    ping,
    play,
    resign,
    setup_game,
    setup_log,
    stale,
    with_ship,
    with_system,
)

SEATS = ("A", "B", "referee", "spectator")
PLAYERS = ("A", "B")

# API.md "The view" fields the engine fills in; `paused`, `seed_commitment` and `seed` are the
# server's (the engine knows neither pauses nor seeds). The engine adds a few public extras.
VIEW_KEYS = {
    "game_id",
    "status",
    "you",
    "turn",
    "turn_limit",
    "seq",
    "movement",
    "table",
    "deployment_zones",
    "phase",
    "ships",
    "winner",
}
VIEW_EXTRAS = {
    "rules_version",
    "ping_range",
    "side_names",
    "finish_reason",
    "markers",
    "auto_defend",
}
PHASE_KEYS = {"step", "side", "ship", "awaiting", "fire", "legal"}
PHASE_EXTRAS = {"deployed", "defence"}
SHIP_KEYS = {
    "id",
    "name",
    "side",
    "design",
    "status",
    "activated",
    "overwatch",
    "revealed",
    "last_known",
    "hull",
    "armour",
    "systems",
    "conditions",
}
SHIP_EXTRAS = {"fired", "stealth", "modes"}  # every shot, stealth (C8.2), weapon modes are public
TRUTH_KEYS = {"position", "heading", "velocity", "thrust", "orders", "weapons"}
TRUTH_EXTRAS = {
    "sensors",
    "screen",
    "fire_controls",
    "locks",
    "orders_log",
    "trail",
    "max_speed",
}
WEAPON_KEYS = {"id", "type", "class", "arcs", "bands", "status", "fired", "path", "screens"}
# only for weapons that have them: weak arcs (C1.3), modes (C1.16), needle target systems
WEAPON_OPTIONAL_KEYS = {"weak_arcs", "weak_bands", "mode", "offline", "offline_until"}
WEAPON_OPTIONAL_KEYS |= {"targets_system"}
STUBBED = {"deployed", "fire_declared", "ship_moved"}
SECRET_OF_ENEMY = {"velocity", "thrust", "orders", "orders_log", "trail", "weapons", "locks"}


# -- invariants checked on every state of a played game --------------------------------------
def check_view_shape(state: GameState) -> None:
    for seat in SEATS:
        v = view(state, seat)
        assert set(v) == VIEW_KEYS | VIEW_EXTRAS, seat
        assert v["you"] == seat
        assert set(v["phase"]) == PHASE_KEYS | PHASE_EXTRAS
        assert set(v["table"]) == {"width", "height"}
        assert set(v["deployment_zones"]) == {"A", "B"}
        for zone in v["deployment_zones"].values():
            assert set(zone) == {"x0", "y0", "x1", "y1"}
        for ship in v["ships"]:
            truth = seat == "referee" or seat == ship["side"]
            keys = SHIP_KEYS | SHIP_EXTRAS
            if truth:
                keys |= TRUTH_KEYS | TRUTH_EXTRAS
            elif ship["revealed"] == "live":
                keys |= {"position", "heading"}
            assert set(ship) == keys, (seat, ship["id"], set(ship) ^ keys)
            assert set(ship["hull"]) == {"total", "lost", "rows"}
            assert set(ship["armour"]) == {"total", "lost"}
            assert all(set(s) == {"id", "type", "status"} for s in ship["systems"])
            assert {"class", "mass", "thrust", "systems"} <= set(ship["design"])
            if truth:
                for weapon in ship["weapons"]:
                    assert WEAPON_KEYS <= set(weapon) <= WEAPON_KEYS | WEAPON_OPTIONAL_KEYS
                    assert all(set(b) == {"to", "dice"} for b in weapon["bands"])
            if ship["last_known"] is not None:
                assert set(ship["last_known"]) == {"x", "y", "heading", "turn", "seq"}


def check_public_facts_agree(state: GameState) -> None:
    views = {seat: {s["id"]: s for s in view(state, seat)["ships"]} for seat in SEATS}
    for ship in state.ships:
        seen = [views[seat][ship.id] for seat in SEATS]
        for key in ("revealed", "last_known", "status", "hull", "armour", "systems", "conditions"):
            assert all(v[key] == seen[0][key] for v in seen), (ship.id, key)
        for seat in PLAYERS:
            mine = views[seat][ship.id]
            if ship.side == seat:
                continue
            assert not SECRET_OF_ENEMY & set(mine), (seat, ship.id)
            if ship.revealed == "live":
                assert ship.last_known is not None
                assert mine["position"] == {"x": ship.last_known.x, "y": ship.last_known.y}
                assert mine["heading"] == ship.last_known.heading
            else:
                assert "position" not in mine and "heading" not in mine


def check_spectator_sees_no_more(state: GameState) -> None:
    spectator = view(state, "spectator")
    for seat in PLAYERS:
        player = view(state, seat)
        for key in VIEW_KEYS | VIEW_EXTRAS:
            if key in ("you", "ships", "phase"):
                continue
            assert spectator[key] == player[key], key
        for key in PHASE_KEYS | PHASE_EXTRAS:
            if key != "legal":
                assert spectator["phase"][key] == player["phase"][key], key
        for mine, theirs in zip(spectator["ships"], player["ships"], strict=True):
            assert set(mine) <= set(theirs), (seat, mine["id"])
            assert all(mine[k] == theirs[k] for k in mine), (seat, mine["id"])
    assert spectator["phase"]["legal"] == {"commands": []}
    assert view(state, "referee")["phase"]["legal"] == {"commands": []}


def check_events(log: list[Event], state: GameState) -> None:
    """Every seat gets every seq, with the same types; redaction agrees with ``visible``."""
    for event in log:
        forms = {seat: redact(event, seat, state) for seat in SEATS}
        assert {f["seq"] for f in forms.values()} == {event.seq}
        assert {f["type"] for f in forms.values()} == {event.type}
        assert {f["turn"] for f in forms.values()} == {event.turn}
        assert forms["referee"] == event.to_dict()
        for seat in SEATS:
            full = forms[seat]["data"] == dict(event.data)
            assert visible(event, seat, state) == full, (event.type, seat)
            # a stub says so; a ping without the ECM dice is not a stub (docs/rules.md)
            stub = not full and event.type in STUBBED
            assert forms[seat].get("redacted", False) is stub, (event.type, seat)
            if stub:
                assert forms[seat]["redacted"] is True
        # the spectator never gets more than either player
        for seat in PLAYERS:
            assert _subset(forms["spectator"]["data"], forms[seat]["data"]), (event.type, seat)


def _subset(small: Any, big: Any) -> bool:
    if isinstance(small, dict):
        return isinstance(big, dict) and all(
            k in big and _subset(v, big[k]) for k, v in small.items()
        )
    if isinstance(small, list):
        return (
            isinstance(big, list)
            and len(small) == len(big)
            and all(_subset(a, b) for a, b in zip(small, big, strict=True))
        )
    return bool(small == big)


def check_all(state: GameState, log: list[Event]) -> None:
    check_view_shape(state)
    check_public_facts_agree(state)
    check_spectator_sees_no_more(state)
    check_events(log, state)
    if state.status == "active":
        assert view(state, "spectator")["phase"]["awaiting"]


# -- a played game, checked at every step --------------------------------------------------------
PLACES = {
    "a1": (30.0, 10.0, 0, 0),
    "a2": (50.0, 4.0, 0, 2),
    "b1": (30.0, 20.0, 6, 2),
    "b2": (36.0, 20.0, 6, 0),
}


def played_game() -> Iterator[tuple[str, GameState, list[Event]]]:
    """A short game with deployment, moves, a ping, a volley with damage and stale markers."""
    state, started = new_game(["scout", "frigate"], ["frigate", "scout"])
    log = [started]
    yield "nobody deployed", state, log
    steps: list[tuple[str, str, dict[str, Any] | None, list[int]]] = [
        ("A deployed", "A", deploy_command(state, "A", PLACES), []),
        ("turn 1", "B", deploy_command(state, "B", PLACES), [6, 1]),
        ("a1 activating", "A", {"type": "activate", "ship": "a1"}, []),
        ("a1 moved", "A", move("a1"), []),
        # a1 (enhanced) pings: b1 (ECM) 6 > 3, b2 (no ECM) revealed
        ("fire window", "A", ping("a1"), [6, 6, 3, 4, 5, 5, 1, 1]),
        ("B declared", "B", None, []),
        # a1's 1BD* at b2: 5 -> 1 hit; b1's 2BD* at a1: 6 (reroll 2), 4 -> 3 hits: row 1 of a1
        ("volley", "A", None, [5, 6, 2, 4, 1, 1, 1, 1, 1, 1]),
        ("b1 moved", "B", move("b1"), []),
        ("b1 on overwatch", "B", end("b1"), []),
        ("a2 moved", "A", move("a2", 1, 1), []),
        ("a2 on overwatch", "A", end("a2"), []),
        ("B resigned", "B", resign(), []),
    ]
    for name, seat, command, dice in steps:
        if name == "B declared":
            command = fire(state.phase.window, ("b1", "beam-1", "a1"))
        elif name == "volley":
            command = fire(state.phase.window, ("a1", "beam-1", "b2"))
        assert command is not None
        state, events = play(state, seat, command, dice)
        log = log + events
        yield name, state, log


STEPS = [name for name, _, _ in played_game()]


@pytest.mark.parametrize("step", STEPS)
def test_fog_invariants_hold_at_every_step(step: str) -> None:
    for name, state, log in played_game():
        if name == step:
            check_all(state, log)
            return
    raise AssertionError(step)


def test_the_played_game_is_what_the_fog_tests_think() -> None:
    states = {name: (state, log) for name, state, log in played_game()}
    state, _ = states["fire window"]
    assert state.phase.step == "fire" and state.phase.awaiting == ("A", "B")
    assert [state.ship(s).revealed for s in ("a1", "a2", "b1", "b2")] == [
        "live",
        "unseen",
        "live",
        "live",
    ]
    state, _ = states["volley"]
    assert state.ship("a1").hull_lost == 3 and state.ship("b2").hull_lost == 1
    assert state.ship("b1").revealed == "live"  # revealed by firing too
    state, _ = states["b1 moved"]
    assert state.ship("b1").revealed == "stale"
    state, _ = states["a2 on overwatch"]
    assert state.phase.side == "B" and state.phase.step == "activate"
    state, _ = states["B resigned"]
    assert state.status == "finished" and state.winner == "A"


# -- the view, seat by seat ------------------------------------------------------------------
def _ships(state: GameState, seat: str) -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in view(state, seat)["ships"]}


def test_own_ships_show_their_truth() -> None:
    state = setup_game(["destroyer"], ["frigate"], {"a1": (20.0, 5.0, 2, 6)})
    a1 = _ships(state, "A")["a1"]
    assert a1["position"] == {"x": 20.0, "y": 5.0}
    assert (a1["heading"], a1["velocity"], a1["thrust"]) == (2, 6, 6)
    assert a1["orders"] == []
    assert a1["weapons"][0] == {
        "id": "beam-1",
        "type": "beam",
        "class": 3,
        "arcs": ["FP", "F", "FS"],
        "bands": [
            {"to": 12.0, "dice": "3BD*"},
            {"to": 24.0, "dice": "2BD*"},
            {"to": 36.0, "dice": "1BD*"},
        ],
        "status": "ok",
        "fired": False,
        "path": "standard",
        "screens": True,
    }
    assert [w["id"] for w in a1["weapons"]] == ["beam-1", "beam-2", "beam-3", "beam-4"]
    assert _ships(state, "referee")["a1"] == a1
    # the enemy's ship: public facts only
    b1 = _ships(state, "A")["b1"]
    assert b1["revealed"] == "unseen" and b1["last_known"] is None
    assert not {"position", "heading"} & set(b1)


def test_orders_and_thrust_of_own_ships() -> None:
    state = setup_game(["scout", "scout"], ["frigate"], {"a1": (20.0, 5.0, 0, 4)})
    state, _ = play(state, "A", move("a1", 2, -1))
    a1 = _ships(state, "A")["a1"]
    assert a1["velocity"] == 6
    assert [o["orders"] for o in a1["orders"]] == [{"speed_change": 2, "turn": -1}]
    assert "orders" not in _ships(state, "B")["a1"]
    damaged = with_system(state, "a1", "drive", "damaged")
    assert _ships(damaged, "A")["a1"]["thrust"] == 4
    assert _ships(damaged, "B")["a1"]["systems"][-4] == {
        "id": "drive",
        "type": "main_drive",
        "status": "damaged",
    }


def test_vector_velocity_is_a_vector_and_secret() -> None:
    state = setup_game(["scout"], ["scout"], movement="vector")
    state, events = play(state, "A", move("a1") | {"orders": {"rotate": 1, "thrust": 3}})
    a1 = _ships(state, "A")["a1"]
    assert set(a1["velocity"]) == {"x", "y"}
    assert "velocity" not in _ships(state, "B")["a1"]
    moved = only(events, "ship_moved")
    assert "velocity" in moved.data
    for seat in ("B", "spectator"):
        seen = redact(moved, seat, state)
        assert seen["data"] == {"ship": "a1", "drift": False} and seen["redacted"] is True


def test_enemy_position_only_while_live() -> None:
    state = setup_game(["scout", "scout"], ["scout"], {"b1": (40.0, 40.0, 7, 0)})
    assert "position" not in _ships(state, "A")["b1"]
    state, _ = play(state, "A", ping("a1"), [6, 6, 1, 1])
    b1 = _ships(state, "A")["b1"]
    assert b1["revealed"] == "live"
    assert (b1["position"], b1["heading"]) == ({"x": 40.0, "y": 40.0}, 7)
    assert b1["last_known"] == {"x": 40.0, "y": 40.0, "heading": 7, "turn": 1, "seq": state.seq - 1}
    assert _ships(state, "spectator")["b1"]["position"] == {"x": 40.0, "y": 40.0}
    # it moves: the marker goes stale, the position disappears, last_known stays
    later = with_ship(stale(state, "b1"), "b1", last_known=state.ship("b1").last_known)
    b1 = _ships(later, "A")["b1"]
    assert b1["revealed"] == "stale" and "position" not in b1
    assert b1["last_known"]["x"] == 40.0


def test_a_live_position_is_the_revealed_one() -> None:
    # the view shows where the ship was seen, never its current true position
    state = live(setup_game(["scout"], ["scout"]), "b1")
    elsewhere = at(state, "b1", 50.0, 30.0)
    for seat in ("A", "spectator"):
        assert _ships(elsewhere, seat)["b1"]["position"] == {"x": 10.0, "y": 44.0}
    assert _ships(elsewhere, "B")["b1"]["position"] == {"x": 50.0, "y": 30.0}


def test_destroyed_and_out_of_play_ships_keep_their_public_facts() -> None:
    state = live(setup_game(["scout", "scout"], ["scout", "scout"]), "b1")
    state = with_ship(state, "b1", status="destroyed", hull_lost=6)
    state = with_ship(state, "b2", status="out_of_play", abandoned=True)
    state = with_system(state, "b2", "core", "damaged")
    for seat in SEATS:
        ships = _ships(state, seat)
        assert ships["b1"]["status"] == "destroyed"
        assert ships["b1"]["hull"] == {
            "total": 6,
            "lost": 6,
            "rows": [[2, 2], [2, 2], [1, 1], [1, 1]],
        }
        assert ships["b2"]["conditions"] == [{"type": "core_critical"}, {"type": "abandoned"}]
    check_public_facts_agree(state)


def test_conditions() -> None:
    state = setup_game(["scout"], ["scout"])
    state = with_ship(state, "a1", out_of_control=2, life_support_turns=3)
    for seat in SEATS:
        assert _ships(state, seat)["a1"]["conditions"] == [
            {"type": "out_of_control", "turns_left": 2},
            {"type": "life_support_failing", "turns_left": 3},
        ]


# -- legal, step by step -------------------------------------------------------------------
def _legal(state: GameState, seat: str) -> dict[str, Any]:
    legal: dict[str, Any] = view(state, seat)["phase"]["legal"]
    return legal


def test_legal_during_deployment() -> None:
    state, _ = new_game(["scout"], ["frigate"])
    assert _legal(state, "A") == {
        "commands": ["deploy", "resign"],
        "deploy": {"a1": {"max_speed": 16}},
    }
    assert _legal(state, "B") == {
        "commands": ["deploy", "resign"],
        "deploy": {"b1": {"max_speed": 12}},
    }
    state, _ = play(state, "A", deploy_command(state, "A", {"a1": (1.0, 1.0, 0, 0)}))
    assert _legal(state, "A") == {"commands": ["resign"]}
    assert view(state, "A")["phase"]["awaiting"] == ["B"]
    assert view(state, "A")["phase"]["deployed"] == ["A"]


def test_legal_through_an_activation() -> None:
    state = setup_game(["scout", "scout"], ["frigate", "frigate"])
    legal = _legal(state, "A")
    limits = {"thrust": 8, "max_speed_change": 8, "max_turn": 4, "max_rotate": 0, "speed": 0}
    assert legal == {
        "commands": ["activate", "ping", "move", "resign"],
        "activatable": ["a1", "a2"],
        "ship_limits": {"a1": {"ship": "a1", **limits}, "a2": {"ship": "a2", **limits}},
    }
    assert _legal(state, "B") == {"commands": ["resign"]}
    state, _ = play(state, "A", activate("a1"))
    assert _legal(state, "A") == {
        "commands": ["ping", "move", "resign"],
        "order_limits": {
            "ship": "a1",
            "speed": 0,
            "thrust": 8,
            "max_speed_change": 8,
            "max_turn": 4,
            "max_rotate": 0,
        },
    }
    state, _ = play(state, "A", move("a1"))
    assert _legal(state, "A") == {"commands": ["ping", "end_activation", "resign"]}
    state, _ = play(state, "A", ping("a1"), [1, 1, 6, 6, 1, 1, 6, 6])
    assert state.phase.awaiting == ("B",)
    assert _legal(state, "A") == {"commands": ["resign"]}
    legal = _legal(state, "B")
    assert legal["commands"] == ["fire", "resign"] and legal["window"] == state.phase.window
    assert {(o["ship"], o["target"]) for o in legal["fire_options"]} <= {("b1", "a1"), ("b2", "a1")}


def test_legal_after_a_ping_before_the_move() -> None:
    state = setup_game(["scout", "scout"], ["frigate", "frigate"])
    state = with_ship(with_ship(state, "b1", overwatch=False), "b2", overwatch=False)
    state, _ = play(state, "A", ping("a1"), [1, 1, 6, 6, 1, 1, 6, 6])
    assert state.phase.step == "after_ping"
    legal = _legal(state, "A")
    assert legal["commands"] == ["move", "resign"] and legal["order_limits"]["ship"] == "a1"


def test_legal_core_action_for_a_critical_core() -> None:
    state = with_system(setup_game(["scout"], ["scout"]), "b1", "core", "damaged")
    assert _legal(state, "B") == {"commands": ["core_action", "resign"]}
    assert _legal(state, "A")["commands"] == ["activate", "ping", "move", "resign"]


def test_legal_when_finished() -> None:
    state, _ = play(setup_game(), "A", resign())
    for seat in SEATS:
        assert _legal(state, seat) == {"commands": []}
        assert view(state, seat)["phase"]["awaiting"] == []
        assert view(state, seat)["winner"] == "B"


def test_fire_options_use_only_the_callers_knowledge() -> None:
    # b1 is live where it was seen; b2 (hidden) sits right in front of a1: not an option
    jammer = gunship("jammer", systems=(*gunship().systems, SystemSpec("ecm-1", "ecm")))
    state = setup_game(
        [gunship(), gunship("unarmed", systems=())],
        [gunship(), jammer],
        {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 30.0, 6, 0), "b2": (36.0, 12.0, 6, 0)},
    )
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", ping("a1"), [6, 1, 1, 1, 1, 1])  # b2's ECM ties: hidden
    assert state.ship("b2").revealed == "unseen"
    options = _legal(state, "A")["fire_options"]
    assert options == [
        {"ship": "a1", "weapon": "beam-1", "target": "b1", "range": 20.0, "band": 2,
         "dice": "3BD*", "screen": 0, "weapon_type": "beam", "path": "standard", "class": 4},
    ]  # fmt: skip


# -- events, type by type ---------------------------------------------------------------------
def test_deployed_is_secret_to_the_other_side() -> None:
    state, _ = new_game()
    state, (deployed,) = play(state, "A", deploy_command(state, "A", {"a1": (3.0, 4.0, 1, 2)}))
    assert redact(deployed, "A", state) == deployed.to_dict()
    assert redact(deployed, "referee", state) == deployed.to_dict()
    for seat in ("B", "spectator"):
        assert redact(deployed, seat, state) == {
            "seq": deployed.seq,
            "turn": 0,
            "type": "deployed",
            "data": {"side": "A"},
            "redacted": True,
        }
        assert not visible(deployed, seat, state)


def test_ship_moved_is_secret_to_the_owner() -> None:
    state = setup_game(["scout"], ["scout"])
    state, (_, moved) = play(state, "A", move("a1", 1, 1))
    assert set(moved.data) == {"ship", "from", "to", "heading", "orders", "path", "drift", "speed"}
    assert redact(moved, "A", state)["data"] == dict(moved.data)
    for seat in ("B", "spectator"):
        assert redact(moved, seat, state) == {
            "seq": moved.seq,
            "turn": 1,
            "type": "ship_moved",
            "data": {"ship": "a1", "drift": False},
            "redacted": True,
        }


def test_fire_declared_is_secret_until_the_volley() -> None:
    state = setup_game(
        [gunship()], [gunship()], {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)}
    )
    state, _ = play(state, "A", ping("a1"), [6, 1, 1])
    window = state.phase.window
    state, (declared,) = play(state, "B", fire(window, ("b1", "beam-1", "a1")))
    for seat in ("A", "spectator"):
        seen = redact(declared, seat, state)
        assert seen["data"] == {"side": "B", "window": window} and seen["redacted"] is True
    assert redact(declared, "B", state)["data"]["shots"] == [
        {"ship": "b1", "weapon": "beam-1", "target": "a1"}
    ]
    state, events = play(state, "A", hold(state), [1, 1, 1, 1])
    resolved = only(events, "fire_resolved")
    for seat in SEATS:  # the volley is public
        assert redact(resolved, seat, state)["data"]["shots"][0]["ship"] == "b1"


def test_ping_ecm_dice_go_to_the_targets_owner_and_the_referee() -> None:
    jammer = gunship("jammer", systems=(SystemSpec("ecm-1", "ecm"),))
    state = setup_game(["scout", "scout"], [jammer, jammer])
    state, events = play(state, "A", ping("a1"), [5, 2, 4, 6, 1, 1, 1, 3])
    event = only(events, "ping")
    assert [d["ecm_dice"] for d in event.data["detections"]] == [[4], [1]]
    assert [d["ecm_drawn"] for d in event.data["detections"]] == [[4, 6], [1, 3]]
    assert [d["revealed"] for d in event.data["detections"]] == [True, False]
    for seat in ("B", "referee"):
        assert redact(event, seat, state)["data"] == dict(event.data)
        assert "redacted" not in redact(event, seat, state)
        assert visible(event, seat, state)
    for seat in ("A", "spectator"):
        seen = redact(event, seat, state)
        assert "redacted" not in seen  # not a stub: only the ECM dice are left out
        assert seen["data"]["detections"] == [
            {"target": "b1", "ping_dice": [5, 2], "revealed": True},
            {"target": "b2", "ping_dice": [1, 1], "revealed": False},
        ]
        # everything else of the ping is public
        assert {k: v for k, v in seen["data"].items() if k != "detections"} == {
            k: v for k, v in event.data.items() if k != "detections"
        }
        assert not visible(event, seat, state)


def test_ping_range_verdicts_go_to_the_targets_owner_and_the_referee() -> None:
    """RULES §5: whether an unrevealed target was beyond the ping range (``in_range``) is for
    its owner, the referee and the record; the pinger and spectators see "not revealed" only,
    or the range limit would tell the pinger which hidden ship is near."""
    jammer = gunship("jammer", systems=(SystemSpec("ecm-1", "ecm"),))
    state = setup_game(
        [jammer, jammer, "scout"],
        ["scout"],
        {
            "b1": (10.0, 24.0, 3, 0),
            "a1": (30.0, 24.0, 9, 0),  # 20 mu: within the range, its ECM wins
            "a2": (70.0, 24.0, 9, 0),  # 60 mu: the ping die beats its ECM, but too far
            "a3": (20.0, 30.0, 9, 0),  # no ECM, within the range: revealed
        },
        ping_range=36.0,
    )
    assert state.phase.side == "A"
    state, _ = play(state, "A", move("a1"))
    state, _ = play(state, "A", end("a1"))
    state, events = play(state, "B", ping("b1"), [2, 1, 5, 1, 6, 2, 1, 3, 1, 1, 4, 4])
    event = only(events, "ping")
    full = event.data["detections"]
    assert [(d["in_range"], d["revealed"]) for d in full] == [
        (True, False),
        (False, False),
        (True, True),
    ]
    for seat in ("A", "referee"):
        assert redact(event, seat, state)["data"] == dict(event.data)
    for seat in ("B", "spectator"):
        seen = redact(event, seat, state)
        assert seen["data"]["detections"] == [
            {"target": "a1", "ping_dice": [2, 1], "revealed": False},
            {"target": "a2", "ping_dice": [6, 2], "revealed": False},
            {"target": "a3", "ping_dice": [1, 1], "revealed": True},
        ]
        assert "in_range" not in json.dumps(seen)
        assert not visible(event, seat, state)


def test_a_cancelled_shot_is_its_owners_secret() -> None:
    """RULES §7: a shot whose ship's crew dumped the core (or abandoned ship) after declaring
    does not fire; the other side and spectators never learn it was declared, nor its weapon or
    target (it would say that a hidden ship had the target in arc and range)."""
    jammed = gunship(
        "jammed",
        systems=(SystemSpec("fc-1", "fire_control"), SystemSpec("ecm-1", "ecm"), beam("beam-1", 4)),
    )
    state = setup_game(
        [jammed, gunship()],
        [gunship()],
        {"a1": (36.0, 10.0, 0, 0), "a2": (20.0, 10.0, 0, 0), "b1": (36.0, 20.0, 6, 0)},
    )
    state = with_system(state, "a1", "core", "damaged")
    state, _ = play(state, "A", move("a2"))
    state, _ = play(state, "A", end("a2"))
    # b1 pings: a1's ECM 6 beats the ping's 1, a1 stays hidden; a2 has no ECM
    state, events = play(state, "B", ping("b1"), [1, 6, 1, 3, 1, 1])
    assert [d["revealed"] for d in only(events, "ping").data["detections"]] == [False, True]
    assert state.ship("a1").revealed == "unseen"
    assert state.phase.awaiting == ("A", "B")
    state, _ = play(state, "A", fire(state.phase.window, ("a1", "beam-1", "b1")))
    state, _ = play(state, "A", {"type": "core_action", "ship": "a1", "action": "dump"})
    state, events = play(state, "B", hold(state))
    resolved = only(events, "fire_resolved")
    cancelled = {"ship": "a1", "weapon": "beam-1", "target": "b1", "cancelled": True}
    assert resolved.data["shots"] == [cancelled]
    for seat in ("A", "referee"):
        assert redact(resolved, seat, state) == resolved.to_dict()
        assert visible(resolved, seat, state)
    for seat in ("B", "spectator"):
        seen = redact(resolved, seat, state)
        assert seen["data"] == {**resolved.data, "shots": []}, seat
        assert "a1" not in json.dumps(seen)
        assert not visible(resolved, seat, state)
    # nothing else of the volley tells it either: no reveal, nothing fired
    assert all_of(events, "ship_revealed") == []
    assert state.ship("a1").revealed == "unseen" and state.ship("a1").fired == frozenset()


def test_public_events_reach_everyone_in_full() -> None:
    state, log = setup_log(["scout"], ["scout"])
    state, events = play(state, "A", ping("a1"), [6, 6, 1, 1])
    for event in [*log[-1:], *events]:
        if event.type == "ping":
            continue
        for seat in SEATS:
            assert redact(event, seat, state) == event.to_dict(), (event.type, seat)
            assert visible(event, seat, state)


def test_unknown_seats_are_refused() -> None:
    state, log = setup_log()
    with pytest.raises(ValueError):
        view(state, "C")
    with pytest.raises(ValueError):
        redact(log[-1], "admin", state)
    with pytest.raises(ValueError):
        visible(log[-1], "", state)


def test_a_replayed_state_has_the_same_views() -> None:
    *_, (_, state, log) = played_game()
    again = replay(log)
    assert again == state
    for seat in SEATS:
        assert view(again, seat) == view(state, seat)


def test_a_hulks_drift_is_secret_like_any_move() -> None:
    """RULES §3: the drift at the end of the turn reaches the other side and spectators as a
    redacted move; its owner and the referee get it in full. The enemy's marker goes stale."""
    state, log = golden_play(golden_load(GOLDEN_DIR / "040_hulk_drifts_in_secret.json"))
    (drift,) = [e for e in log if e.type == "ship_moved" and e.data["ship"] == "b1"]
    assert drift.data["drift"] is True and drift.data["from"] != drift.data["to"]
    for seat in ("B", "referee"):
        assert redact(drift, seat, state) == drift.to_dict()
    for seat in ("A", "spectator"):
        assert redact(drift, seat, state) == {
            **drift.to_dict(),
            "data": {"ship": "b1", "drift": True},
            "redacted": True,
        }
        seen = _ships(state, seat)["b1"]
        assert seen["revealed"] == "stale" and "position" not in seen
        assert seen["last_known"]["x"] == 36.0 and seen["last_known"]["y"] == 28.0
    assert _ships(state, "B")["b1"]["position"] == drift.data["to"]
