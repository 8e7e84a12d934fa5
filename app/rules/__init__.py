"""The game itself, pure: dice, geometry, designs, movement, the PING flow and fog of war.

Standard library only, no I/O, no clock, no global randomness: dice come in as an argument.
"""

from app.rules.decide import Decision, check_at_seq, decide
from app.rules.dice import DiceSource, ScriptedDice, SeededDice, seed_commitment
from app.rules.events import Event
from app.rules.evolve import evolve, replay, start_state
from app.rules.fog import redact, view, visible
from app.rules.game import GameSetup, ShipEntry, game_started
from app.rules.state import GameState
from app.rules.winning import score

__all__ = [
    "Decision",
    "DiceSource",
    "Event",
    "GameSetup",
    "GameState",
    "ScriptedDice",
    "SeededDice",
    "ShipEntry",
    "check_at_seq",
    "decide",
    "evolve",
    "game_started",
    "redact",
    "replay",
    "score",
    "seed_commitment",
    "start_state",
    "view",
    "visible",
]
