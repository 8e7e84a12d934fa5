"""How much better the captain would score if its belief were perfect: a diagnostic, not a player.

For each seed it plays a scenario twice against the same opponent, once with the captain as it
is and once with a *seer*: the same captain whose sampled enemy particles are all put at the
enemy's true position and heading before each decision (it still treats a ship that is not
live as one its ping may miss, since the dice are not known). The two runs alternate seed by
seed, so the machine's noise falls on both alike. The gap between them is what a better belief
could still win; what the seer does not win is lost to the tactics or to the scenario itself.
The server never uses this: the seer reads the true state, which no seat may see.

    .venv/bin/python scripts/captain_ceiling.py --scenario duel --games 100 --seed 1000
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from collections.abc import Mapping
from typing import Any

from bot_arena import wilson  # the arena's interval (scripts/ is on the path of a script run)

from app.bot import runner, tactics
from app.bot.captain import Captain
from app.bot.runner import play_game
from app.bot.strategy import STRATEGIES, strategy
from app.rules.scenarios import PRESET_SCENARIOS
from app.rules.state import GameState


class Seer(Captain):
    """The captain with the true enemy positions in place of its sampled particles."""

    truth: GameState | None = None

    def decide(self, view: Mapping[str, Any], rng: random.Random) -> dict[str, Any] | None:
        sample = tactics.sample

        def seen(v: Any, belief: Any, n: int, r: random.Random) -> list[tactics.Enemy]:
            out = []
            for e in sample(v, belief, n, r):
                true = self.truth.ship(e.id) if self.truth is not None else None
                if true is None or true.position is None:
                    out.append(e)
                    continue
                p = dataclasses.replace(
                    e.particles[0], x=true.position.x, y=true.position.y, heading=true.heading
                )
                out.append(tactics.Enemy(e.view, (p,) * len(e.particles)))
            return out

        tactics.sample = seen  # type: ignore[assignment]
        try:
            return super().decide(view, rng)
        finally:
            tactics.sample = sample


def one(scenario: str, seed: int, i: int, opponent: str, seer: bool) -> str:
    movement = ("cinematic", "vector")[i % 2]
    seat = "AB"[(i // 2) % 2]
    captain = Seer() if seer else Captain()
    view = runner.view

    def watched(state: GameState, s: str) -> Any:  # the state each decision is made in
        if isinstance(captain, Seer):
            captain.truth = state
        return view(state, s)

    runner.view = watched  # type: ignore[assignment]
    try:
        players = {seat: captain, ("B" if seat == "A" else "A"): strategy(opponent)}
        return play_game(players, scenario, movement, seed).outcome_for(seat)
    finally:
        runner.view = view


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="duel", choices=sorted(PRESET_SCENARIOS))
    parser.add_argument("--opponent", default="cadet", choices=sorted(STRATEGIES))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    tally: dict[bool, dict[str, int]] = {False: {}, True: {}}
    for i in range(args.games):
        for seer in (False, True):
            out = one(args.scenario, args.seed + i, i, args.opponent, seer)
            tally[seer][out] = tally[seer].get(out, 0) + 1
    print(
        f"{args.scenario} against {args.opponent}: {args.games} games each, seeds from {args.seed}"
    )
    for seer, name in ((False, "captain"), (True, "seer (true positions)")):
        t = tally[seer]
        w, d, lost = t.get("win", 0), t.get("draw", 0), t.get("loss", 0)
        lo, hi = wilson(w, args.games)
        score = (w + d / 2) / args.games
        print(
            f"  {name:22} {w:4} W {d:4} D {lost:4} L  score {score:6.1%}  "
            f"wins {w / args.games:6.1%} [{lo:6.1%}, {hi:6.1%}]"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
