"""The ``Strategy`` protocol and the one dispatch every strategy shares.

A strategy is asked only when its seat's view says the game awaits the seat; it answers with
the JSON body of the command the view's ``phase.legal`` offers for that moment. What each step
awaits, and so which of the player's methods answers it:

==================  =========================================================================
``deploy``          ``deploy``: every own ship placed in the seat's zone
``fire`` window     ``fire``: shots and launches from ``fire_options`` (an empty list holds)
``defend`` window   ``defend``: point defence and interceptions (the engine's default offered)
``fighters`` step   ``fighters``: each group that must choose, a target or none
``activate``        ``activate``, ``ping`` or ``move`` naming a ship that may still activate
``start``           step 2 by ``markers`` orders, a ``ping`` before the move, or the ``move``
``after_ping``      step 2 by ``markers`` orders, or the ``move``
``after_move``      a ``ping`` after the move, or ``end_activation`` (on overwatch)
==================  =========================================================================

A core choice (``core_action``) is never awaited but is offered while a core is critical: a
player may make it first, whenever it is asked anything.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, TypeVar

from app.bot.seat import Command, View, awaited, commands, legal, ship


class Strategy(Protocol):
    """Decides from the seat's view and a random source alone: no clock, no I/O, no state."""

    name: str

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        """The seat's events since the last call, as ``GET …/events`` gives them to the seat
        (redacted for it), oldest first. A host calls it before each ``decide``; a strategy
        with a memory (the captain's belief) builds it from these and nothing else."""
        ...

    def decide(self, view: View, rng: random.Random) -> Command | None:
        """The command to send now, or None when the view does not await the seat."""
        ...


class SeatPlayer(ABC):
    """A strategy by parts: one method per decision the game can await a seat for."""

    name = "seat player"

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        """Kept by nothing: the cadet and the naive baseline decide from the view alone."""
        return None

    def decide(self, view: View, rng: random.Random) -> Command | None:
        if not awaited(view):
            return None
        offered = commands(view)
        if "core_action" in offered:
            core = self.core(view, rng)
            if core is not None:
                return core
        step = view["phase"]["step"]
        if "deploy" in offered:
            return self.deploy(view, rng)
        if "fire" in offered:
            return self.fire(view, rng)
        if "defend" in offered:
            return self.defend(view, rng)
        if "fighters" in offered:
            return self.fighters(view, rng)
        if step == "activate":
            return self.activate(view, rng)
        active = ship(view, view["phase"]["ship"])
        if step in ("start", "after_ping"):
            if "markers" in offered:
                step2 = self.markers(view, active, rng)
                if step2 is not None:
                    return step2
            if "ping" in offered and self.pings(view, active, rng):
                return {"type": "ping", "ship": active["id"]}
            return self.move(view, active, rng)
        if step == "after_move":
            if "ping" in offered and self.pings(view, active, rng):
                return {"type": "ping", "ship": active["id"]}
            return {"type": "end_activation", "ship": active["id"]}
        return None

    # -- the parts (a strategy overrides what it plays differently) ------------------------------
    def core(self, view: View, rng: random.Random) -> Command | None:
        return None  # the core is left to its fate: the rolls are the rules' own

    @abstractmethod
    def deploy(self, view: View, rng: random.Random) -> Command:
        """Every strategy plays this decision its own way (no shared default)."""

    def fire(self, view: View, rng: random.Random) -> Command:
        return {"type": "fire", "window": legal(view)["window"], "shots": []}

    def defend(self, view: View, rng: random.Random) -> Command:
        """The engine's own default allocation, which it offers in the view."""
        offer = legal(view)["defend"]
        allocations = [dict(a) for a in offer["default"]]
        return {"type": "defend", "window": offer["window"], "allocations": allocations}

    def fighters(self, view: View, rng: random.Random) -> Command:
        choices = [{"marker": g["marker"], "attack": None} for g in legal(view)["fighters"]]
        return {"type": "fighters", "choices": choices}

    @abstractmethod
    def activate(self, view: View, rng: random.Random) -> Command:
        """Every strategy plays this decision its own way (no shared default)."""

    def markers(self, view: View, active: Mapping[str, Any], rng: random.Random) -> Command | None:
        return None  # None: step 2 runs on standing orders when the ship moves

    def pings(self, view: View, active: Mapping[str, Any], rng: random.Random) -> bool:
        return False

    @abstractmethod
    def move(self, view: View, active: Mapping[str, Any], rng: random.Random) -> Command:
        """Every strategy plays this decision its own way (no shared default)."""


STRATEGIES: dict[str, type[SeatPlayer]] = {}


P = TypeVar("P", bound=SeatPlayer)


def registered(cls: type[P]) -> type[P]:
    STRATEGIES[cls.name] = cls
    return cls


def strategy(name: str) -> SeatPlayer:
    """A fresh strategy by its name (``cadet``, ``naive``)."""
    try:
        return STRATEGIES[name]()
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise ValueError(f"unknown strategy {name!r}; known: {known}") from None
