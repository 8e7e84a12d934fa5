"""Fighter combat end to end through ``decide`` (issue 13): a launch, the fighters step, the one
defence window with point defence and interception, the attack run and the engaged group's
next run on standing orders, a dogfight chosen in the fighters step; what the other side
receives never names the group's mother; the log replays to the same state (where no group
was put in flight by hand)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from app.rules.designs import SystemSpec
from app.rules.events import Event
from app.rules.evolve import replay
from app.rules.fog import redact
from app.rules.geometry import Vec
from app.rules.state import DEFEND, MarkerState, Step
from tests.rules.fighter_setup import carrier, group, markers_cmd
from tests.rules.helpers import activate, end, gunship, move, play, setup_log, types


def picket():  # type: ignore[no-untyped-def]
    return gunship(
        "picket",
        mass=60,
        hull=30,
        hull_rows=3,
        systems=(
            SystemSpec("fc-1", "fire_control"),
            SystemSpec("pds-1", "pds"),
            SystemSpec("bay-1", "fighter_bay", load="interceptor"),
        ),
    )


class Game:
    """A's carrier a1 at (30, 10), B's picket b1 at (30, 26); every event kept in the log."""

    def __init__(self) -> None:
        places = {"a1": (30.0, 10.0, 0, 0), "b1": (30.0, 26.0, 6, 0)}
        self.state, self.log = setup_log([carrier()], [picket()], placements=places)

    def play(
        self, seat: str, command: dict[str, Any], dice: list[int] | None = None
    ) -> list[Event]:
        self.state, events = play(self.state, seat, command, dice or [])
        self.log.extend(events)
        return events

    def add(self, m: MarkerState) -> None:
        self.state = replace(self.state, markers=tuple(sorted((*self.state.markers, m), key=_id)))

    def launch_at_b1(self) -> str:
        self.play("A", activate("a1"))
        events = self.play("A", markers_cmd(launch=[{"bay": "bay-1", "to": {"x": 30, "y": 21}}]))
        assert types(events)[-1] == "fighters_step" and self.state.phase.step == Step.FIGHTERS
        return group(self.state).id


def _id(m: MarkerState) -> str:
    return m.id


def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == kind]


def seen_by_b(events: list[Event], state: Any) -> str:
    return json.dumps([redact(e, "B", state) for e in events])


def test_an_attack_run_meets_point_defence_then_attacks_again_engaged() -> None:
    g = Game()
    gid = g.launch_at_b1()
    events = g.play("A", {"type": "fighters", "choices": [{"marker": gid, "attack": "b1"}]})
    assert types(events) == ["fighters_chosen", "defence_window"]
    assert g.state.phase.step == DEFEND and g.state.phase.defence.awaiting == ("B",)  # type: ignore[union-attr]
    window = g.state.phase.defence.window  # type: ignore[union-attr]
    alloc = [{"ship": "b1", "system": "pds-1", "against": gid}]
    # the PDS: a 4 kills one; five fighters roll 1BD*: 5, 5, 4, 1, 1 -> 3 on armour first
    events = g.play(
        "B", {"type": "defend", "window": window, "allocations": alloc}, [4, 5, 5, 4, 1, 1]
    )
    run = of(events, "fighters_attack")[0]
    assert (run["killed"], run["fighters"], run["armour_damage"], run["hull_damage"]) == (
        1,
        5,
        3,
        0,
    )
    runs = [e for e in events if e.type in ("fighters_attack", "defence_resolved")]
    assert '"a1"' not in seen_by_b(runs, g.state)
    m = g.state.marker(gid)
    assert (m.strength, m.cef, m.engaged_with) == (5, 5, "b1")
    assert g.state.ship("b1").hull_lost == 3
    g.play("A", move("a1"))
    g.play("A", end("a1"))
    g.play("B", move("b1"))  # standing still: contact is kept
    g.play("B", end("b1"), [6, 1])
    assert g.state.turn == 2 and g.state.phase.side == "A"
    # turn 2, standing orders: the engaged group attacks again in the one window
    g.play("A", activate("a1"))
    events = g.play("A", move("a1"))
    assert "defence_window" in types(events)
    window = g.state.phase.defence.window  # type: ignore[union-attr]
    events = g.play("B", {"type": "defend", "window": window, "allocations": []}, [1] * 5)
    assert of(events, "fighters_attack")[0]["fighters"] == 5
    assert g.state.marker(gid).cef == 4
    assert replay(g.log) == g.state


def test_an_own_group_intercepts_the_attack_run_in_the_window() -> None:
    g = Game()
    guard = MarkerState(
        id="m-guard",
        side="B",
        mother="b1",
        kind="fighters",
        position=Vec(40.0, 26.0),  # 10 mu from b1, out of the attackers' sight
        aim=Vec(30.0, 26.0),
        launched_turn=1,
        launched_seq=1,
        strength=6,
        group="interceptor",
        bay="bay-1",
        cef=6,
    )
    g.add(guard)
    gid = g.launch_at_b1()
    g.play("A", {"type": "fighters", "choices": [{"marker": gid, "attack": "b1"}]})
    window = g.state.phase.defence.window  # type: ignore[union-attr]
    alloc = [{"group": "m-guard", "against": gid}]
    # the interceptors (1BD+1* at standard): six 4s -> six kills; the standards back: six 1s
    dice = [4] * 6 + [1] * 6
    events = g.play("B", {"type": "defend", "window": window, "allocations": alloc}, dice)
    entry = of(events, "defence_resolved")[0]["defences"][0]
    assert (entry["role"], entry["kills"], entry["losses"], entry["destroyed"]) == (
        "intercept",
        6,
        0,
        True,
    )
    run = of(events, "fighters_attack")[0]
    assert run["fighters"] == 0 and run["destroyed"]
    assert all(m.id != gid for m in g.state.markers)
    kept = g.state.marker("m-guard")
    assert (kept.cef, kept.live, kept.position) == (5, True, g.state.ship("b1").position)


def test_a_dogfight_chosen_in_the_fighters_step() -> None:
    g = Game()
    enemy = MarkerState(
        id="m-enemy",
        side="B",
        mother="b1",
        kind="fighters",
        position=Vec(33.0, 21.0),  # 3 mu from where A's group will stop
        aim=Vec(30.0, 26.0),
        launched_turn=1,
        launched_seq=1,
        strength=6,
        group="standard",
        bay="bay-1",
        cef=6,
    )
    g.add(enemy)
    gid = g.launch_at_b1()
    assert g.state.marker("m-enemy").live  # sighted (F5)
    events = g.play("A", {"type": "fighters", "choices": [{"marker": gid, "attack": "m-enemy"}]})
    assert types(events) == ["fighters_chosen", "defence_window"]
    window = g.state.phase.defence.window  # type: ignore[union-attr]
    # standard 1BD* both ways: A's 5 5 5 1 1 1 -> 3 kills; B's 1 x6 -> none
    dice = [5, 5, 5, 1, 1, 1] + [1] * 6
    events = g.play("B", {"type": "defend", "window": window, "allocations": []}, dice)
    fought = of(events, "dogfight")[0]
    assert (fought["attacker"]["kills"], fought["defender"]["kills"]) == (3, 0)
    assert '"a1"' not in json.dumps(fought)
    assert g.state.marker("m-enemy").strength == 3 and g.state.marker(gid).cef == 5
    assert g.state.marker(gid).engaged_with is None
