"""The bot arena: N games between two strategies, in-process at the engine level.

    .venv/bin/python scripts/bot_arena.py --a cadet --b naive --games 20

The games go round the combinations in turn — every preset scenario, both movement systems,
and ``--a`` as side A then as side B — so 20 games play each of the 20 combinations once; a
game's seed is ``--seed`` plus its number. Each strategy sees only its seat's view
(``app.bot.runner``). Prints ``--a``'s wins, draws and losses with 95% Wilson intervals, in
all and per scenario, and each strategy's thinking time per command (median and p99).
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import sys
from collections import Counter, defaultdict

from app.bot import STRATEGIES, strategy
from app.bot.runner import GameResult, play_game
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


def play(a: str, b: str, games: int, seed: int) -> list[tuple[str, GameResult]]:
    """(the seat ``a`` played, the result) of each game."""
    combos = list(itertools.product(sorted(PRESET_SCENARIOS), ("cinematic", "vector"), "AB"))
    out = []
    for i in range(games):
        scenario, movement, seat_a = combos[i % len(combos)]
        players = {seat_a: strategy(a), ("B" if seat_a == "A" else "A"): strategy(b)}
        out.append((seat_a, play_game(players, scenario, movement, seed + i)))
    return out


def report(a: str, b: str, results: list[tuple[str, GameResult]]) -> None:
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    times: dict[str, list[float]] = defaultdict(list)
    for seat_a, r in results:
        outcome = r.outcome_for(seat_a)
        rows["all"][outcome] += 1
        rows[f"{r.scenario} {r.movement}"][outcome] += 1
        for sent in r.sent:
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
    print("thinking time per command:")
    for name, values in sorted(times.items()):
        median, p99 = statistics.median(values) * 1e3, quantile(values, 0.99) * 1e3
        print(f"  {name:14} {len(values):6d} commands  median {median:7.3f} ms  p99 {p99:7.3f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="cadet", choices=sorted(STRATEGIES))
    parser.add_argument("--b", default="naive", choices=sorted(STRATEGIES))
    parser.add_argument("--games", type=int, default=20, help="games in all (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args(argv)
    report(args.a, args.b, play(args.a, args.b, args.games, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
