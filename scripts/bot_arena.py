"""The bot arena: N games between two strategies, in-process at the engine level.

    .venv/bin/python scripts/bot_arena.py --a cadet --b naive --games 20

The games go round the combinations in turn — every preset scenario, both movement systems,
and ``--a`` as side A then as side B — so 20 games play each of the 20 combinations once; a
game's seed is ``--seed`` plus its number. Each strategy sees only its seat's view
(``app.bot.runner``). Prints ``--a``'s wins, draws and losses with 95% Wilson intervals, in
all and per scenario, and each strategy's thinking time per command (median and p99).

``--calibration`` also checks the belief of a strategy that keeps one (the captain): at each of
its activations, for each enemy ship on the table that is not live, whether the ship's true
position (read here, by the referee; never handed to the strategy) lies in the belief's 90%
credible region (the fewest heaviest cells of ``belief_map()`` holding 90% of the mass), and
that region's area; per scenario, the share inside and the mean area.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from app.bot import STRATEGIES, Captain, strategy
from app.bot.runner import GameResult, play_game
from app.bot.strategy import Strategy
from app.rules import GameState, view
from app.rules.geometry import Vec
from app.rules.scenarios import PRESET_SCENARIOS

Z95 = 1.959964


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share k/n (sound near 0 and 1, unlike p ± z·se)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k:4d} {k / n if n else 0:6.1%} [{lo:5.1%}, {hi:5.1%}]"


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)] if ordered else 0.0


# scenario and movement -> (true position inside the 90% region?, the region's area in mu²)
Calibration = dict[str, list[tuple[bool, float]]]


# per game, for each command sent: whether its decision had more than one legal choice
CHOICES: dict[int, list[bool]] = {}


def make(name: str, budget: tuple[int, int] | None = None) -> Strategy:
    """A fresh strategy; a captain with ``budget`` (particles per cloud, particles scored)."""
    if name == "captain" and budget is not None:
        return Captain(particles=budget[0], scored=budget[1])
    return strategy(name)


def play(
    a: str,
    b: str,
    games: int,
    seed: int,
    calibration: Calibration | None = None,
    budget: tuple[int, int] | None = None,
) -> list[tuple[str, GameResult]]:
    """(the seat ``a`` played, the result) of each game; with ``calibration``, every belief
    check of the games is added to it."""
    combos = list(itertools.product(sorted(PRESET_SCENARIOS), ("cinematic", "vector"), "AB"))
    out = []
    for i in range(games):
        scenario, movement, seat_a = combos[i % len(combos)]
        players = {seat_a: make(a, budget), ("B" if seat_a == "A" else "A"): make(b, budget)}
        checks = None
        if calibration is not None:
            checks = calibration.setdefault(f"{scenario} {movement}", [])
        hook = _hook(players, checks, CHOICES.setdefault(seed + i, []))
        out.append((seat_a, play_game(players, scenario, movement, seed + i, on_command=hook)))
    return out


def _has_choice(seen: dict[str, Any]) -> bool:
    """More than one legal answer: two commands offered (resigning aside), or one with options
    (a placement, orders, step 2, a fire window with options, groups to send)."""
    legal = seen["phase"]["legal"]
    offered = set(legal["commands"]) - {"resign"}
    if len(offered) > 1 or offered & {"deploy", "move", "markers", "fighters"}:
        return True
    return "fire" in offered and bool(legal.get("fire_options"))


def _hook(
    players: dict[str, Strategy], checks: list[tuple[bool, float]] | None, choices: list[bool]
) -> Callable[[GameState, str, dict[str, Any]], None]:
    """The runner's hook: whether the decision had a choice; and after a believer named the ship
    of an activation, its belief against the truth (the state before the command, which the
    strategy never saw)."""

    def check(state: GameState, seat: str, command: dict[str, Any]) -> None:
        choices.append(_has_choice(view(state, seat)))
        believer = players[seat]
        maps = getattr(believer, "belief_map", None)
        if checks is None or maps is None or state.phase.step != "activate":
            return
        if command["type"] not in ("activate", "ping", "move"):
            return
        for ship_id, grid in maps().items():
            truth = state.ship(ship_id)
            if not truth.on_table or truth.position is None or truth.revealed == "live":
                continue
            region = grid.credible(0.9)
            inside = grid.cell_of(Vec(truth.position.x, truth.position.y)) in region
            checks.append((inside, len(region) * grid.cell * grid.cell))

    return check


def report_calibration(calibration: Calibration) -> None:
    print("belief calibration: enemy ships not live, at each of the believer's activations")
    print(f"{'':24} {'checks':>7} {'inside 90% region':>18} {'mean area (mu²)':>16}")
    every = [c for checks in calibration.values() for c in checks]
    for key, checks in [("all", every), *sorted(calibration.items())]:
        n = len(checks)
        k = sum(1 for inside, _ in checks if inside)
        area = statistics.mean(a for _, a in checks) if checks else 0.0
        lo, hi = wilson(k, n)
        print(f"{key:24} {n:7d} {k / n if n else 0:7.1%} [{lo:5.1%}, {hi:5.1%}] {area:10.0f}")


def report(a: str, b: str, results: list[tuple[str, GameResult]]) -> None:
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    times: dict[str, list[float]] = defaultdict(list)
    for seat_a, r in results:
        outcome = r.outcome_for(seat_a)
        rows["all"][outcome] += 1
        rows[f"{r.scenario} {r.movement}"][outcome] += 1
        flags = CHOICES.get(r.seed, [])
        for k, sent in enumerate(r.sent):
            if k < len(flags) and not flags[k]:
                continue  # a decision with one legal answer: nothing to think about
            name = a if sent.seat == seat_a else b
            times[name if a != b else f"{name} ({'a' if sent.seat == seat_a else 'b'})"].append(
                sent.seconds
            )
    print(f"{a} (a) against {b} (b): {len(results)} games; {a}'s results, 95% Wilson intervals")
    print(f"{'':24} {'wins':>28} {'draws':>28} {'losses':>28}")
    for key in ["all", *sorted(k for k in rows if k != "all")]:
        c = rows[key]
        n = sum(c.values())
        print(f"{key:24} {share(c['win'], n)} {share(c['draw'], n)} {share(c['loss'], n)}")
    print("thinking time per decision with more than one legal choice:")
    for name, values in sorted(times.items()):
        median, p99 = statistics.median(values) * 1e3, quantile(values, 0.99) * 1e3
        print(f"  {name:14} {len(values):6d} commands  median {median:7.3f} ms  p99 {p99:7.3f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="cadet", choices=sorted(STRATEGIES))
    parser.add_argument("--b", default="naive", choices=sorted(STRATEGIES))
    parser.add_argument("--games", type=int, default=20, help="games in all (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument(
        "--budget",
        default=None,
        help="the captain's budget: particles per cloud,particles scored (default 300,24)",
    )
    parser.add_argument(
        "--calibration", action="store_true", help="check the captain's belief against the truth"
    )
    args = parser.parse_args(argv)
    calibration: Calibration | None = {} if args.calibration else None
    budget: tuple[int, int] | None = None
    if args.budget:
        particles, scored = (int(x) for x in args.budget.split(","))
        budget = (particles, scored)
    results = play(args.a, args.b, args.games, args.seed, calibration, budget)
    report(args.a, args.b, results)
    if calibration is not None:
        report_calibration(calibration)
    return 0


if __name__ == "__main__":
    sys.exit(main())
