"""Micro-benchmark of the rules engine (prints numbers, asserts nothing).

    .venv/bin/python scripts/bench_rules.py                  # everything below
    .venv/bin/python scripts/bench_rules.py --duels-only     # the headline figures alone
    .venv/bin/python scripts/bench_rules.py --against abae1a8 --pairs 5

0. Random duels per second, decide + evolve, one core: 60 random duels (30 cinematic, 30
   vector, fixed seeds) recorded with the random player, then their command sequences replayed
   through ``decide`` alone (it folds each event with ``evolve``) ``--rounds`` times; the
   median round, by the wall clock and by CPU time (``time.process_time``: less disturbed on a
   shared machine). Next to it the ping-and-volley commands of 3. (ping; fire; fire + volley)
   replayed alone, median of their sum. ``--against REV`` measures a commit's tree and this
   one alternately: it checks REV out in a temporary ``git worktree``, runs this script with
   ``--tree`` on each in turn (``--pairs`` times, the order swapped every pair), prints both
   medians and their ratio, checks that both engines wrote the same events and final states
   (a digest), and removes the worktree. ``--save-commands`` / ``--load-commands FILE`` keep
   the recorded sequences in a JSON file, so that a fixed workload can run under
   ``valgrind --tool=callgrind`` with nothing of the random player in it: ``--replay-only N``
   loads them and replays them N times, nothing else, so that the instructions of N=1 less
   those of N=0 are one replay's.
1. Full random games per second (duel and skirmish, both movement systems, fixed seeds), played
   by the random player of ``tests/rules/randplay.py``: once with the player (views, order
   enumeration, everything), then the same command sequences again through ``decide`` +
   ``evolve`` alone — the engine's own share.
2. One ping with its volley: two destroyers (no ECM, so the ping always reveals) 10 mu apart,
   bows on; the pinger pings, both sides declare every shot they may, the volley resolves.
   Median and p90 of ``decide`` + ``evolve`` over many repetitions, in parts and in total.
3. Missiles against point defence: a missile cruiser launches two salvos and two heavy missiles
   in turn 1 (through its fire window) at an ECM picket with an ADFC and a heavy cruiser; its step
   2 in turn 2 opens a defence window; the defender plays its default allocation; the defences
   roll and the strikes resolve. Timed per
   command, alternating with the ping-and-volley commands of 2 (and, for scale, a move and a
   ping) so all see the same machine load; the median per command of each and their ratio
   (target at most 1.5 against the volley's commands).
4. Whole random games of the "Missile duel" scenario next to the duel's, replayed through
   ``decide`` + ``evolve`` in turn ``--rounds`` times: the median time per command of each and
   their ratio, by CPU time and by the wall clock (issue 12's target: at most 1.5).
   ``--scenarios-only`` runs 4 and 5 alone.
5. The same for the "Carrier hunt" scenario (four fighter groups against three drone groups:
   launches, group moves, line of sight, the fighters step, attack runs, dogfights and
   interception, as the random player plays them) next to the duel (issue 13's target: at most
   1.5).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# the source tree whose engine is measured: this one, or ``--tree DIR`` (another commit's
# worktree, for before/after runs), put first on the path before the engine is imported
sys.path.insert(
    0,
    sys.argv[sys.argv.index("--tree") + 1]
    if "--tree" in sys.argv[:-1]
    else str(Path(__file__).resolve().parent.parent),
)

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
from app.rules.snapshot import state_to_dict
from app.rules.state import GameState
from tests.rules.randplay import play, setup_of

SEED = bytes(range(32))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


# -- 0. random duels per second, decide + evolve -------------------------------------------------
DUELS = (("cinematic", 30), ("vector", 30))
Recorded = list[tuple[GameState, DiceSource, list[tuple[str, dict[str, Any]]]]]


def _duel_start(movement: str, seed: int) -> tuple[GameState, DiceSource]:
    gid = f"bench-duel-{movement}-{seed}"
    return start_state(game_started(gid, setup_of("duel", movement))), SeededDice(SEED, gid)


def record_duels() -> Recorded:
    """The 60 random duels: each one's start, dice and the commands the random player sent."""
    games: Recorded = []
    for movement, n in DUELS:
        for seed in range(n):
            start, dice = _duel_start(movement, seed)
            gid = start.game_id
            steps = play(random.Random(seed), setup_of("duel", movement), dice, game_id=gid)
            games.append((start, dice, [(step.seat, step.command) for step in steps]))
    return games


def load_duels(path: str) -> Recorded:
    """The duels of ``record_duels`` from their commands saved by ``--save-commands``."""
    sent = json.loads(Path(path).read_text())
    starts = [_duel_start(movement, seed) for movement, n in DUELS for seed in range(n)]
    return [(start, dice, [tuple(c) for c in commands]) for (start, dice), commands in
            zip(starts, sent, strict=True)]  # fmt: skip


def replay_duels(games: Recorded) -> None:
    for start, dice, sent in games:
        state = start
        for seat, command in sent:
            state = decide(state, seat, command, dice).state
        assert state.status == "finished"


def duels_digest(games: Recorded) -> str:
    """SHA-256 of every event the duels wrote and of their final states: equal digests from two
    trees mean both engines decided exactly the same games."""
    h = hashlib.sha256()
    for start, dice, sent in games:
        state = start
        for seat, command in sent:
            decision = decide(state, seat, command, dice)
            for event in decision.events:
                h.update(json.dumps(event.to_dict(), sort_keys=True).encode())
            state = decision.state
        h.update(json.dumps(state_to_dict(state), sort_keys=True).encode())
    return h.hexdigest()


def _timed(work: Any) -> tuple[float, float]:
    c0, t0 = time.process_time(), time.perf_counter()
    work()
    return time.perf_counter() - t0, time.process_time() - c0


def headline(rounds: int, load: str | None = None, save: str | None = None) -> dict[str, Any]:
    """The duels' rounds and the volley's repetitions, wall and CPU seconds of each."""
    games = load_duels(load) if load else record_duels()
    if save:
        Path(save).write_text(json.dumps([sent for _, _, sent in games]))
    wall, cpu = zip(*(_timed(lambda: replay_duels(games)) for _ in range(rounds)), strict=True)
    volley, volley_dice = _volley_commands()
    volley_wall, volley_cpu = [], []
    for _ in range(50 * rounds):
        w, c = _timed(lambda: [decide(at, seat, cmd, volley_dice) for at, seat, cmd in volley])
        volley_wall.append(w)
        volley_cpu.append(c)
    return {
        "duels": len(games),
        "commands": sum(len(sent) for _, _, sent in games),
        "wall": list(wall),
        "cpu": list(cpu),
        "volley_wall": volley_wall,
        "volley_cpu": volley_cpu,
        "digest": duels_digest(games),
        "load": os.getloadavg()[0],
    }


def _rates(figures: dict[str, Any], clock: str) -> tuple[float, float]:
    """(duels per second, µs a command) of the median round by ``clock`` (wall | cpu)."""
    seconds = statistics.median(figures[clock])
    return figures["duels"] / seconds, 1e6 * seconds / figures["commands"]


def print_headline(figures: dict[str, Any]) -> None:
    rounds, duels = len(figures["cpu"]), figures["duels"]
    print(
        f"Random duels per second, decide + evolve, one core ({duels} duels: 30 cinematic and "
        f"30 vector, {figures['commands'] / duels:.0f} commands a duel; median of {rounds} "
        "rounds):"
    )
    for clock, name in (("cpu", "CPU time (process_time)"), ("wall", "wall clock")):
        rate, per_command = _rates(figures, clock)
        print(
            f"  random duels per second, decide + evolve: {rate:6.1f}  by {name} "
            f"({per_command:5.1f} µs a command)"
        )
    for clock, name in (("volley_cpu", "CPU time"), ("volley_wall", "wall clock")):
        print(
            f"  volley (ping; fire; fire + volley) median "
            f"{1e6 * statistics.median(figures[clock]):6.1f} µs by {name} "
            f"({len(figures[clock])} repetitions)"
        )
    print(f"  events and final states digest {figures['digest'][:16]}; load {figures['load']:.1f}")


def against(rev: str, pairs: int, rounds: int) -> None:
    """This tree and ``rev``'s measured alternately in subprocesses (see the module's text)."""
    script = Path(__file__).resolve()
    here = script.parent.parent
    before = Path(tempfile.mkdtemp(prefix="bench-rules-")) / rev
    git = ["git", "-C", str(here), "worktree"]
    subprocess.run([*git, "add", "--detach", str(before), rev], check=True, capture_output=True)
    runs: dict[str, list[dict[str, Any]]] = {"before": [], "after": []}
    try:
        for i in range(pairs):
            order = [("before", before), ("after", here)]
            for name, tree in order if i % 2 == 0 else order[::-1]:
                command = [sys.executable, str(script), "--duels-only", "--json"]
                command += ["--rounds", str(rounds), "--tree", str(tree)]
                out = subprocess.run(command, check=True, capture_output=True, text=True)
                runs[name].append(json.loads(out.stdout))
    finally:
        subprocess.run([*git, "remove", "--force", str(before)], check=False)
        before.parent.rmdir()
    pooled = {
        name: {
            "duels": found[0]["duels"],
            "commands": found[0]["commands"],
            **{
                k: [x for f in found for x in f[k]]
                for k in ("wall", "cpu", "volley_wall", "volley_cpu")
            },
        }
        for name, found in runs.items()
    }
    print(
        f"{rev} (before) and this tree (after), alternately: {pairs} pairs of subprocesses, "
        f"{rounds} rounds each; medians over all rounds"
    )
    for clock in ("cpu", "wall"):
        b, a = (_rates(pooled[name], clock)[0] for name in ("before", "after"))
        pair = statistics.median(
            _rates(y, clock)[0] / _rates(x, clock)[0]
            for x, y in zip(runs["before"], runs["after"], strict=True)
        )
        print(
            f"  random duels per second, decide + evolve ({clock}): before {b:6.1f}  after {a:6.1f}"
            f"  ×{a / b:.2f} (median of the pairs' ratios ×{pair:.2f})"
        )
    for clock in ("volley_cpu", "volley_wall"):
        b, a = (1e6 * statistics.median(pooled[name][clock]) for name in ("before", "after"))
        print(
            f"  volley median ({clock[7:]}): before {b:6.1f} µs  after {a:6.1f} µs  "
            f"×{b / a:.2f} faster"
        )
    digests = {f["digest"] for found in runs.values() for f in found}
    same = "identical" if len(digests) == 1 else f"DIFFERENT ({len(digests)} digests)"
    loads = [f["load"] for found in runs.values() for f in found]
    print(
        f"  events and final states of the 60 duels: {same}; "
        f"load average {min(loads):.1f}–{max(loads):.1f}"
    )


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--duels-only", action="store_true", help="part 0 alone")
    parser.add_argument("--scenarios-only", action="store_true", help="parts 4 and 5 alone")
    parser.add_argument("--rounds", type=int, default=7, help="replays of the 60 duels")
    parser.add_argument("--json", action="store_true", help="part 0's raw figures as JSON")
    parser.add_argument("--tree", help="measure the engine of this source tree")
    parser.add_argument("--against", metavar="REV", help="before/after against a commit")
    parser.add_argument("--pairs", type=int, default=5, help="subprocess pairs for --against")
    parser.add_argument(
        "--replay-only", type=int, metavar="N", help="replay the 60 duels N times, print nothing"
    )
    parser.add_argument("--save-commands", metavar="FILE")
    parser.add_argument("--load-commands", metavar="FILE")
    return parser.parse_args()


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


def volley_position() -> tuple[GameState, str, str, DiceSource]:
    """Turn 2 of two destroyers 20 mu apart after the pinger closed another 10 mu: its ping,
    both sides' every shot and the volley come next. Returns (state, pinger side, other, dice)."""
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
    move = {"type": "move", "ship": f"{pinger_side.lower()}1"}
    move |= {"orders": {"speed_change": 4, "turn": 0}}
    state = decide(state, pinger_side, move, dice).state
    return state, pinger_side, other, dice


def bench_ping(reps: int) -> None:
    state, pinger_side, other, dice = volley_position()
    pinger = f"{pinger_side.lower()}1"
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


# -- 3. missiles against point defence -----------------------------------------------------------
SALVO_AIMS = ({"x": 33.0, "y": 29.0}, {"x": 38.0, "y": 29.0})  # 1 mu from B1 and B2
HM_AIM = {"x": 36.0, "y": 22.0}  # 14 mu ahead of A1: its heavy missiles' first move
HM_TO = ({"x": 33.0, "y": 27.0}, {"x": 38.0, "y": 27.0})  # step 2: 1 mu short of B1 and B2


def _missile_cruiser() -> Any:
    """A destroyer refitted with a third fire control, two salvo racks and two standard
    heavy-missile racks, F arc."""
    from dataclasses import replace

    from app.rules.designs import SystemSpec

    cruiser = preset("destroyer")
    racks = (
        SystemSpec("fc-3", "fire_control"),  # three aim points
        SystemSpec("rack-1", "salvo_rack", arcs=("F",), load="salvo"),
        SystemSpec("rack-2", "salvo_rack", arcs=("F",), load="salvo"),
        SystemSpec("hmr-1", "heavy_missile_rack", arcs=("F",), load="standard"),
        SystemSpec("hmr-2", "heavy_missile_rack", arcs=("F",), load="standard"),
    )
    return replace(cruiser, id="bench_missile_cruiser", mass=70, systems=(*cruiser.systems, *racks))


def _still(state: GameState, side: str, dice: DiceSource) -> GameState:
    """Every ship of ``side`` still to activate moves nowhere, while it is that side's turn."""
    while state.phase.side == side:
        ship = next(s for s in state.ships_of(side) if s.in_play and not s.activated)
        move = {"type": "move", "ship": ship.id, "orders": {"speed_change": 0, "turn": 0}}
        state = decide(state, side, move, dice).state
        if state.phase.step == "after_move":
            state = decide(state, side, {"type": "end_activation", "ship": ship.id}, dice).state
    return state


def missile_position() -> tuple[GameState, DiceSource]:
    """Played the real way: in turn 1 A1 pings and launches two salvos (one aim point each,
    near B1 and B2) and two heavy missiles (one shared aim point: fire controls are per point);
    B stays on overwatch and holds its fire. Turn 2 stops at A1's activation, its markers due."""
    from app.rules.geometry import Zone

    setup = GameSetup(
        ships={
            "A": [ShipEntry("Harpoon", _missile_cruiser())],
            "B": [
                ShipEntry("Aegis", preset("ecm_picket")),
                ShipEntry("Bastion", preset("heavy_cruiser")),
            ],
        },
        zones={side: Zone(0, 0, 72, 48) for side in ("A", "B")},
    )
    dice = SeededDice(SEED, "bench-missiles")
    state = start_state(game_started("bench-missiles", setup))
    places = {"A": [(36.0, 8.0, 0)], "B": [(33.0, 28.0, 6), (38.0, 28.0, 6)]}
    for side in ("A", "B"):
        ships = [
            {"ship": f"{side.lower()}{i + 1}", "heading": h, "position": {"x": x, "y": y}}
            | {"speed": 0}
            for i, (x, y, h) in enumerate(places[side])
        ]
        state = decide(state, side, {"type": "deploy", "ships": ships}, dice).state
    state = _still(state, "B", dice)
    state = decide(state, "A", {"type": "ping", "ship": "a1"}, dice).state
    # three aim points: the salvos' two and the heavy missiles' shared one
    launches = [
        {"ship": "a1", "weapon": w, "aim": a}
        for w, a in zip(("rack-1", "rack-2"), SALVO_AIMS, strict=True)
    ]
    launches += [{"ship": "a1", "weapon": w, "aim": HM_AIM} for w in ("hmr-1", "hmr-2")]
    window = state.phase.window
    state = decide(state, "A", {"type": "fire", "window": window, "shots": launches}, dice).state
    if state.phase.step == "fire":  # B's overwatch may answer A's ping: it holds
        state = decide(state, "B", {"type": "fire", "window": window, "shots": []}, dice).state
    move = {"type": "move", "ship": "a1", "orders": {"speed_change": 0, "turn": 0}}
    state = decide(state, "A", move, dice).state
    if state.phase.side == "A":
        state = decide(state, "A", {"type": "end_activation", "ship": "a1"}, dice).state
    state = _still(state, "B", dice)  # B's others in turn 1, B's first in turn 2
    assert state.turn == 2 and state.phase.side == "A", (state.turn, state.phase)
    assert len(state.markers) == 4, state.markers
    state = decide(state, "A", {"type": "activate", "ship": "a1"}, dice).state
    return state, dice


def _volley_commands() -> tuple[list[tuple[GameState, str, dict[str, Any]]], DiceSource]:
    """The ping-and-volley commands of part 2, each with the state it is sent in."""
    state, pinger_side, other, dice = volley_position()
    ping = {"type": "ping", "ship": f"{pinger_side.lower()}1"}
    s1 = decide(state, pinger_side, ping, dice).state
    fire_a = {"type": "fire", "window": s1.phase.window, "shots": every_shot(s1, pinger_side)}
    s2 = decide(s1, pinger_side, fire_a, dice).state
    fire_b = {"type": "fire", "window": s1.phase.window, "shots": every_shot(s2, other)}
    return [(state, pinger_side, ping), (s1, pinger_side, fire_a), (s2, other, fire_b)], dice


def bench_missiles(reps: int) -> None:
    state, dice = missile_position()
    heavy = [m.id for m in state.markers if m.kind == "heavy_missile"]
    orders = [{"marker": m, "to": to} for m, to in zip(heavy, HM_TO, strict=True)]
    step2 = {"type": "markers", "ship": "a1", "orders": orders}
    s1 = decide(state, "A", step2, dice).state
    assert s1.phase.defence is not None, "the window did not open"
    attacks = len(s1.phase.defence.attacks)
    default = view(s1, "B")["phase"]["legal"]["defend"]["default"]
    defend = {"type": "defend", "window": s1.phase.defence.window, "allocations": default}
    struck = decide(s1, "B", defend, dice)
    assert "defence_resolved" in [e.type for e in struck.events] and struck.state.markers == ()
    volley, volley_dice = _volley_commands()
    light_state, first, light_dice = ping_position()
    light = [
        {"type": "move", "ship": f"{first.lower()}1", "orders": {"speed_change": 1, "turn": 0}}
    ]
    light.append({"type": "ping", "ship": f"{first.lower()}1"})
    times: dict[str, list[float]] = {"missiles": [], "volley": [], "light": []}
    for _ in range(reps):
        t0 = time.perf_counter()
        s1 = decide(state, "A", step2, dice).state
        decide(s1, "B", defend, dice)
        t1 = time.perf_counter()
        for at, seat, command in volley:
            decide(at, seat, command, volley_dice)
        t2 = time.perf_counter()
        for command in light:
            decide(light_state, first, command, light_dice)
        t3 = time.perf_counter()
        times["missiles"].append((t1 - t0) / 2)
        times["volley"].append((t2 - t1) / len(volley))
        times["light"].append((t3 - t2) / len(light))
    m, v, li = (statistics.median(times[k]) for k in ("missiles", "volley", "light"))
    print(
        f"  {attacks} attacks launched in turn 1, {len(default)} defences by default, "
        f"{len(struck.events)} events in the strike; {reps} repetitions, alternating:\n"
        f"    missiles (step 2; defend + strike)  median {1e6 * m:7.1f} µs a command\n"
        f"    duel (ping; fire; fire + volley)    median {1e6 * v:7.1f} µs a command\n"
        f"    duel (move; ping), for scale        median {1e6 * li:7.1f} µs a command\n"
        f"    ratio to the duel's volley commands {m / v:.2f} (target at most 1.5); "
        f"to its move and ping {m / li:.2f}"
    )


def _recorded_games(scenario: str, n: int) -> list[tuple[GameState, DiceSource, list[Any]]]:
    """``n`` random games of the scenario (cinematic), as their starts and command sequences."""
    setup = setup_of(scenario, "cinematic")
    games = []
    for seed in range(n):
        gid = f"bench-{scenario}-cinematic-{seed}"
        dice: DiceSource = SeededDice(SEED, gid)
        start = start_state(game_started(gid, setup))
        sent = [(s.seat, s.command) for s in play(random.Random(seed), setup, dice, game_id=gid)]
        games.append((start, dice, sent))
    return games


def _per_command(games: list[tuple[GameState, DiceSource, list[Any]]]) -> tuple[float, float]:
    """(wall, CPU) seconds a command of one replay of ``games``."""
    commands, c0, t0 = 0, time.process_time(), time.perf_counter()
    for start, dice, sent in games:
        state = start
        for seat, command in sent:
            state = decide(state, seat, command, dice).state
        commands += len(sent)
    return (time.perf_counter() - t0) / commands, (time.process_time() - c0) / commands


def bench_scenario_games(scenario: str, n: int, rounds: int, issue: int) -> None:
    """Whole random games of ``scenario`` against the duel's, replayed through decide + evolve,
    the two measured in turn ``rounds`` times so both see the same machine load (the issue's
    target: within 1.5×)."""
    games = {name: _recorded_games(name, k) for name, k in (("duel", 30), (scenario, n))}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in games}
    for _ in range(rounds):
        for name, recorded in games.items():
            times[name].append(_per_command(recorded))
    for i, clock in ((1, "CPU time"), (0, "wall clock")):
        duel, other = (statistics.median(t[i] for t in times[name]) for name in ("duel", scenario))
        print(
            f"    by {clock}: duel median {1e6 * duel:6.1f} µs a command, {scenario} "
            f"{1e6 * other:6.1f} µs; ratio {other / duel:.2f} (issue {issue}'s target: at most "
            f"1.5); {rounds} rounds, alternating"
        )


def main() -> None:
    args = _arguments()
    if args.against:
        against(args.against, args.pairs, args.rounds)
        return
    if args.replay_only is not None:  # a fixed workload for instruction counts (callgrind)
        games = load_duels(args.load_commands) if args.load_commands else record_duels()
        for _ in range(args.replay_only):
            replay_duels(games)
        return
    if args.scenarios_only:  # parts 4 and 5 alone
        bench_scenario_games("missile_duel", 12, rounds=args.rounds, issue=12)
        bench_scenario_games("carrier_hunt", 12, rounds=args.rounds, issue=13)
        print(f"  load average {os.getloadavg()[0]:.1f}")
        return
    if args.duels_only:
        figures = headline(args.rounds, args.load_commands, args.save_commands)
        if args.json:
            print(json.dumps(figures))
        else:
            print_headline(figures)
        return
    t0 = time.perf_counter()
    print_headline(headline(args.rounds, args.load_commands, args.save_commands))
    print("Full random games (fixed seeds):")
    for scenario, n in (("duel", 30), ("skirmish", 12)):
        for movement in ("cinematic", "vector"):
            bench_games(scenario, movement, n)
    print("decide + evolve for a ping with its volley (destroyer vs destroyer, no ECM):")
    bench_ping(2000)
    print("Missiles against point defence, per command, next to the duel's:")
    bench_missiles(500)
    print("Whole random games, missile duel next to duel (decide + evolve, alternating):")
    bench_scenario_games("missile_duel", 12, rounds=5, issue=12)
    print("Whole random games, carrier hunt next to duel (decide + evolve, alternating):")
    bench_scenario_games("carrier_hunt", 12, rounds=5, issue=13)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"(benchmark ran {time.perf_counter() - t0:.1f} s; load average {load:.1f})")


if __name__ == "__main__":
    main()
