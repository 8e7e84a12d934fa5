"""Property: every command outside ``legal`` is refused (RULES §3, API.md "The view").

Random games (random legal commands from a seeded start, ``tests/rules/randplay.py``) are
stopped at random points; there each seat sends, of every command type that its
``phase.legal`` does not list, one well-formed command aimed as well as it can be (its own
activating ship, the open window, a critical core, a launcher's other mode). ``decide`` must
refuse each with a ``RulesError``, drawing no dice and leaving the state as it was.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules import SeededDice, decide, fog
from app.rules import capabilities as cap
from app.rules.commands import COMMANDS, CoreAction, Deploy, Fire, Move, Resign, SetMode
from app.rules.errors import RulesError
from app.rules.snapshot import state_to_dict
from app.rules.state import GameState, ShipState
from app.rules.systems import SYSTEMS
from tests.rules.randplay import Style, play, random_setup, setup_of

SCENARIOS = ("duel", "skirmish", "hunt")
MAX_STEPS = 120  # a game is probed along its first steps; enough to reach fire and damage


class CountingDice:
    """Dice that count what was drawn: a refusal draws none."""

    def __init__(self) -> None:
        self.inner = SeededDice(bytes(32), "probe")
        self.drawn = 0

    def d6(self, k: int) -> int:
        self.drawn += 1
        return self.inner.d6(k)


def _own_ship(state: GameState, seat: str, rng: random.Random) -> ShipState:
    """The seat's likeliest ship: the activating one, else one that may still activate."""
    phase = state.phase
    if phase.ship is not None and state.ship(phase.ship).side == seat and rng.random() < 0.7:
        return state.ship(phase.ship)
    ready = [s for s in state.ships_of(seat) if s.in_play and not s.activated]
    return rng.choice(ready if ready and rng.random() < 0.7 else list(state.ships_of(seat)))


def _multi_mode_weapon(state: GameState, ship: ShipState) -> tuple[str, str]:
    """A weapon of the ship with modes (destroyed or not) and a mode it is not in."""
    for spec in state.design_of(ship).all_systems():
        modes = SYSTEMS[spec.type].modes if spec.type in SYSTEMS else ()
        if modes:
            current = cap.weapon_mode(ship, spec)
            return spec.id, next((m for m in modes if m != current), modes[0])
    return "weapon-1", "torpedo"


def attempt(state: GameState, seat: str, kind: str, rng: random.Random) -> dict[str, Any]:
    """A well-formed command of ``kind`` for ``seat``, as close to acceptable as it gets."""
    if kind == Deploy.type:
        zone = state.zones[seat]
        x, y = (zone.x0 + zone.x1) / 2, (zone.y0 + zone.y1) / 2
        motion = "velocity" if state.movement == "vector" else "speed"
        still: Any = {"x": 0.0, "y": 0.0} if state.movement == "vector" else 0
        ships = [
            {"ship": s.id, "position": {"x": x, "y": y}, "heading": 0, motion: still}
            for s in state.ships_of(seat)
        ]
        return {"type": kind, "ships": ships}
    if kind == Fire.type:
        window = state.phase.window if state.phase.window is not None else state.seq
        return {"type": kind, "window": window, "shots": []}
    ship = _own_ship(state, seat, rng)
    if kind == Move.type:
        zero = {"rotate": 0, "thrust": 0} if state.movement == "vector" else {}
        return {"type": kind, "ship": ship.id, "orders": zero or {"speed_change": 0, "turn": 0}}
    if kind == CoreAction.type:
        critical = [s for s in state.ships_of(seat) if s.core_critical]
        target = rng.choice(critical) if critical else ship
        return {"type": kind, "ship": target.id, "action": rng.choice(CoreAction.ACTIONS)}
    if kind == SetMode.type:
        weapon, mode = _multi_mode_weapon(state, ship)
        return {"type": kind, "ship": ship.id, "weapon": weapon, "mode": mode}
    return {"type": kind} if kind == Resign.type else {"type": kind, "ship": ship.id}


def probe(state: GameState, rng: random.Random) -> int:
    """Send every seat's commands outside its legal list; the number sent."""
    sent = 0
    before = state_to_dict(state)
    for seat in ("A", "B"):
        open_now = set(fog.legal(state, seat)["commands"])
        for kind in COMMANDS:
            if kind in open_now:
                continue
            command = attempt(state, seat, kind, rng)
            dice = CountingDice()
            try:
                decide(state, seat, command, dice)
            except RulesError:
                pass
            else:
                raise AssertionError(
                    f"{command} from {seat} was accepted at {state.phase} "
                    f"though legal lists only {sorted(open_now)}"
                )
            assert dice.drawn == 0, f"refusing {command} drew dice"
            sent += 1
    assert state_to_dict(state) == before, "a refused command changed the state"
    return sent


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    movement=st.sampled_from(("cinematic", "vector")),
    kind=st.sampled_from((*SCENARIOS, "random", "fusion")),
    rate=st.floats(min_value=0.2, max_value=1.0),
)
def test_every_command_outside_legal_is_refused(
    seed: int, movement: str, kind: str, rate: float
) -> None:
    rng, probes = random.Random(seed), random.Random(seed ^ 0x5EED)
    if kind in SCENARIOS:
        setup = setup_of(kind, movement)
    else:
        setup = random_setup(rng, movement, ["multi_fusion"] if kind == "fusion" else None)
    style = Style(core_action_rate=0.2, resign_rate=0.002)
    state = None
    for i, step in enumerate(play(rng, setup, style=style)):
        if probes.random() < rate:
            probe(step.before, probes)
        state = step.after
        if i >= MAX_STEPS:
            break
    assert state is not None
    probe(state, probes)
