"""Micro-benchmark of the rules engine (prints numbers, asserts nothing).

    .venv/bin/python scripts/bench_rules.py

1. Full random games per second (duel and skirmish, both movement systems, fixed seeds), played
   by the random player of ``tests/rules/randplay.py``: once with the player (views, order
   enumeration, everything), then the same command sequences again through ``decide`` +
   ``evolve`` alone — the engine's own share.
2. One ping with its volley: two destroyers (no ECM, so the ping always reveals) 10 mu apart,
   bows on; the pinger pings, both sides declare every shot they may, the volley resolves.
   Median and p90 of ``decide`` + ``evolve`` over many repetitions, in parts and in total.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.rules import (
    GameSetup,
    SeededDice,
    ShipEntry,
    decide,
    game_started,
    start_state,
    view,
)
from app.rules.designs import preset
from app.rules.dice import DiceSource
from app.rules.state import GameState
from tests.rules.randplay import play, setup_of

SEED = bytes(range(32))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


# -- 1. whole games ------------------------------------------------------------------------------
def bench_games(scenario: str, movement: str, n: int) -> None:
    setup = setup_of(scenario, movement)
    games: list[tuple[GameState, DiceSource, list[tuple[str, dict[str, Any]]]]] = []
    commands = events = 0
    t0 = time.perf_counter()
    for seed in range(n):
        gid = f"bench-{scenario}-{movement}-{seed}"
        dice: DiceSource = SeededDice(SEED, gid)
        start = start_state(game_started(gid, setup))
        sent = []
        for step in play(random.Random(seed), setup, dice, game_id=gid):
            sent.append((step.seat, step.command))
            events += len(step.events)
        games.append((start, dice, sent))
        commands += len(sent)
    with_player = time.perf_counter() - t0
    t0 = time.perf_counter()
    for start, dice, sent in games:
        state = start
        for seat, command in sent:
            state = decide(state, seat, command, dice).state
        assert state.status == "finished"
    engine = time.perf_counter() - t0
    print(
        f"  {scenario:8} {movement:9} {n:3} games, {commands / n:5.0f} commands and "
        f"{events / n:5.0f} events a game: {n / with_player:6.1f} games/s with the random "
        f"player, {n / engine:6.1f} games/s decide+evolve only "
        f"({1e6 * engine / commands:5.0f} µs a command)"
    )


# -- 2. a ping and its volley --------------------------------------------------------------------
def ping_position() -> tuple[GameState, str, DiceSource]:
    """Both destroyers deployed 10 mu apart, bows on; the side to activate first is returned."""
    destroyer = preset("destroyer")
    assert not any(s.type in ("ecm", "area_ecm") for s in destroyer.all_systems())
    setup = GameSetup(
        ships={"A": [ShipEntry("Resolute", destroyer)], "B": [ShipEntry("Nightjar", destroyer)]},
    )
    dice = SeededDice(SEED, "bench-ping")
    state = start_state(game_started("bench-ping", setup))
    zone_edge = 8.0
    for side, y, heading in (("A", zone_edge, 0), ("B", 48 - zone_edge, 6)):
        placement: dict[str, Any] = {"ship": f"{side.lower()}1", "heading": heading}
        placement |= {"position": {"x": 36.0, "y": y}, "speed": 0}
        command = {"type": "deploy", "ships": [placement]}
        state = decide(state, side, command, dice).state
    return state, state.phase.side or "A", dice


def every_shot(state: GameState, seat: str) -> list[dict[str, str]]:
    v = view(state, seat)
    shots, used = [], set()
    for o in v["phase"]["legal"].get("fire_options", []):
        if (o["ship"], o["weapon"]) not in used:
            used.add((o["ship"], o["weapon"]))
            shots.append({"ship": o["ship"], "weapon": o["weapon"], "target": o["target"]})
    return shots


def bench_ping(reps: int) -> None:
    state, first, dice = ping_position()
    second = "B" if first == "A" else "A"
    # turn 1: each destroyer (32 mu apart) goes to speed 6 and closes 6 mu, then overwatch
    for side in (first, second):
        ship = f"{side.lower()}1"
        move = {"type": "move", "ship": ship, "orders": {"speed_change": 6, "turn": 0}}
        state = decide(state, side, move, dice).state
        state = decide(state, side, {"type": "end_activation", "ship": ship}, dice).state
    # turn 2: 20 mu apart; the side first to act closes another 10 mu, then pings
    pinger_side = state.phase.side or "A"
    other = "B" if pinger_side == "A" else "A"
    pinger = f"{pinger_side.lower()}1"
    move = {"type": "move", "ship": pinger, "orders": {"speed_change": 4, "turn": 0}}
    state = decide(state, pinger_side, move, dice).state
    a, b = state.ship("a1").position, state.ship("b1").position
    assert a is not None and b is not None
    distance = abs(b.y - a.y)
    ping = {"type": "ping", "ship": pinger}
    parts: dict[str, list[float]] = {"ping": [], "fire 1": [], "fire 2 + volley": [], "all": []}
    cpu: list[float] = []
    volley_events = 0
    for _ in range(reps):
        c0 = time.process_time()
        t0 = time.perf_counter()
        s1 = decide(state, pinger_side, ping, dice).state
        t1 = time.perf_counter()
        window = s1.phase.window
        assert s1.phase.awaiting == ("A", "B"), s1.phase.awaiting
        shots_a = every_shot(s1, pinger_side)
        fire_a = {"type": "fire", "window": window, "shots": shots_a}
        t2 = time.perf_counter()
        s2 = decide(s1, pinger_side, fire_a, dice).state
        t3 = time.perf_counter()
        shots_b = every_shot(s2, other)
        fire_b = {"type": "fire", "window": window, "shots": shots_b}
        t4 = time.perf_counter()
        volley = decide(s2, other, fire_b, dice)
        t5 = time.perf_counter()
        c5 = time.process_time()
        parts["ping"].append(t1 - t0)
        parts["fire 1"].append(t3 - t2)
        parts["fire 2 + volley"].append(t5 - t4)
        parts["all"].append((t1 - t0) + (t3 - t2) + (t5 - t4))
        cpu.append(c5 - c0)  # CPU time of the whole repetition (view calls for shots included)
        volley_events = len(volley.events)
    shots = len(shots_a) + len(shots_b)
    print(
        f"  ping at {distance:.1f} mu revealing the target, {shots} shots declared, "
        f"volley of {volley_events} events; {reps} repetitions:"
    )
    for name, values in parts.items():
        print(
            f"    {name:16} median {1e6 * statistics.median(values):7.1f} µs   "
            f"p90 {1e6 * percentile(values, 0.9):7.1f} µs   (wall clock, perf_counter)"
        )
    print(
        f"    {'CPU time':16} median {1e6 * statistics.median(cpu):7.1f} µs   "
        f"p90 {1e6 * percentile(cpu, 0.9):7.1f} µs   (process_time, whole repetition; "
        "less noisy on a busy machine)"
    )


def main() -> None:
    t0 = time.perf_counter()
    print("Full random games (fixed seeds):")
    for scenario, n in (("duel", 30), ("skirmish", 12)):
        for movement in ("cinematic", "vector"):
            bench_games(scenario, movement, n)
    print("decide + evolve for a ping with its volley (destroyer vs destroyer, no ECM):")
    bench_ping(2000)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(benchmark ran {time.perf_counter() - t0:.1f} s; load average {load:.1f})")


if __name__ == "__main__":
    main()
