"""The defence window's commands (API.md): ``defend`` answers an open window, and
``standing_orders`` sets a side's public standing order ``auto_defend``; with their handlers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from app.rules.builder import Builder
from app.rules.commands import PLAY_STEPS, Command, _fields, _int, registered
from app.rules.errors import InvalidCommand, StaleState, WrongStep
from app.rules.ordnance.defence import check_allocations, may_be_attacked
from app.rules.ordnance.window import declare
from app.rules.state import DEFEND, GameState

_ALLOCATION_KEYS = {"ship", "system", "group"}


@dataclass(frozen=True)
class DefendAllocation:
    against: str
    ship: str | None = None
    system: str | None = None
    group: str | None = None

    @classmethod
    def from_json(cls, data: Any, index: int) -> DefendAllocation:
        where = f"allocations[{index}]"
        if not isinstance(data, Mapping):
            raise InvalidCommand(f"{where} must be an object")
        _fields(data, where, {"against"}, _ALLOCATION_KEYS)
        values: dict[str, str] = {}
        for key in ("against", *sorted(_ALLOCATION_KEYS)):
            if key in data:
                value = data[key]
                if not isinstance(value, str) or not value:
                    raise InvalidCommand(f"{where}: {key!r} must be a non-empty string")
                values[key] = value
        return cls(**values)

    def to_dict(self) -> dict[str, str]:
        out = {k: getattr(self, k) for k in ("ship", "system", "group") if getattr(self, k)}
        return {**out, "against": self.against}


@registered
@dataclass(frozen=True)
class Defend(Command):
    """A side's allocation for the open defence window ``window``; ``[]`` allocates nothing."""

    window: int
    allocations: tuple[DefendAllocation, ...]
    type: ClassVar[str] = "defend"
    steps: ClassVar[frozenset[str]] = frozenset({DEFEND})

    @classmethod
    def open_to(cls, state: GameState, seat: str, details: Mapping[str, Any]) -> bool:
        return cls.type in details  # the seat is awaited in this window

    @classmethod
    def from_json(cls, data: Mapping[str, Any], movement: str) -> Self:
        _fields(data, cls.type, {"type", "window", "allocations"}, set())
        items = data["allocations"]
        if not isinstance(items, list):
            raise InvalidCommand(f"{cls.type}: 'allocations' must be a list (empty for none)")
        window = _int(data, "window", cls.type)
        return cls(window, tuple(DefendAllocation.from_json(a, i) for i, a in enumerate(items)))

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "window": self.window,
            "allocations": [a.to_dict() for a in self.allocations],
        }


@registered
@dataclass(frozen=True)
class StandingOrders(Command):
    """Public: with ``auto_defend`` on, the side's default allocation plays in every window."""

    auto_defend: bool
    type: ClassVar[str] = "standing_orders"
    steps: ClassVar[frozenset[str]] = PLAY_STEPS | {DEFEND}

    @classmethod
    def open_to(cls, state: GameState, seat: str, details: Mapping[str, Any]) -> bool:
        """Listed only for a seat a defence window could await (public hardware, decision 17)."""
        return may_be_attacked(state, seat)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], movement: str) -> Self:
        _fields(data, cls.type, {"type", "auto_defend"}, set())
        value = data["auto_defend"]
        if not isinstance(value, bool):
            raise InvalidCommand(f"{cls.type}: 'auto_defend' must be true or false, got {value!r}")
        return cls(value)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "auto_defend": self.auto_defend}


def defend(b: Builder, seat: str, cmd: Defend) -> None:
    phase = b.state.phase
    window = phase.defence
    if phase.step != DEFEND or window is None:
        raise StaleState(f"defence window {cmd.window} is closed: no defence window is open now")
    if cmd.window != window.window:
        raise StaleState(
            f"defence window {cmd.window} is closed; the open window is {window.window}"
        )
    if seat not in window.awaiting:
        if seat in window.declared:
            raise WrongStep(f"side {seat} has already allocated its defences in this window")
        raise WrongStep(f"defence window {window.window} does not wait for side {seat}")
    sent = [a.to_dict() for a in cmd.allocations]
    allocations = check_allocations(b.state, seat, window.attacks, sent)
    declare(b, seat, allocations, auto=False)


def standing_orders(b: Builder, seat: str, cmd: StandingOrders) -> None:
    if b.state.phase.step not in StandingOrders.steps:
        raise WrongStep("standing orders are given once both sides have deployed")
    if not may_be_attacked(b.state, seat):
        raise WrongStep(
            f"no defence window can wait for side {seat}: it needs a ship in control with a PDS,"
            " an ADFC, a class-1 beam or a salvo launcher, and the enemy a ship in play that"
            " launches missiles or torpedoes"
        )
    b.emit("standing_orders", {"side": seat, "auto_defend": cmd.auto_defend})
