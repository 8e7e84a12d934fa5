"""The ``fighters`` command (issue 13): in the fighters step, what each group of the activating
ship's side that must choose attacks — a ship, an enemy group, or nothing (``attack: null``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from app.rules.commands import Command, _fields, _str, registered
from app.rules.errors import InvalidCommand
from app.rules.state import GameState, Step

MODES = ("anti_ship", "pd")  # a multi-role group's two ways to attack (lost note 2)


@dataclass(frozen=True)
class FighterChoice:
    """One group's choice: ``attack`` names a ship or an enemy group (None: no attack; an
    engaged group breaks off); ``system`` for needle groups, ``mode`` for multi-role groups."""

    marker: str
    attack: str | None
    system: str | None = None
    mode: str | None = None

    @classmethod
    def from_json(cls, data: Any, index: int) -> FighterChoice:
        where = f"choices[{index}]"
        if not isinstance(data, Mapping):
            raise InvalidCommand(f"{where} must be an object")
        _fields(data, where, {"marker"}, {"attack", "system", "mode"})
        # null or left out: no attack (the API's schema drops a null)
        attack = None if data.get("attack") is None else _str(data, "attack", where)
        system = _str(data, "system", where) if "system" in data else None
        mode = _str(data, "mode", where) if "mode" in data else None
        if mode is not None and mode not in MODES:
            raise InvalidCommand(f"{where}: 'mode' must be 'anti_ship' or 'pd', not {mode!r}")
        return cls(_str(data, "marker", where), attack, system, mode)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"marker": self.marker, "attack": self.attack}
        if self.system is not None:
            out["system"] = self.system
        if self.mode is not None:
            out["mode"] = self.mode
        return out


@registered
@dataclass(frozen=True)
class Fighters(Command):
    """The fighters step's answer: one choice for every group that must choose."""

    choices: tuple[FighterChoice, ...]
    type: ClassVar[str] = "fighters"
    steps: ClassVar[frozenset[str]] = frozenset({Step.FIGHTERS})

    @classmethod
    def open_to(cls, state: GameState, seat: str, details: Mapping[str, Any]) -> bool:
        return state.phase.side == seat and state.phase.fighters is not None

    @classmethod
    def from_json(cls, data: Mapping[str, Any], movement: str) -> Self:
        _fields(data, cls.type, {"type", "choices"}, set())
        items = data["choices"]
        if not isinstance(items, list):
            raise InvalidCommand(f"{cls.type}: 'choices' must be a list, one item per group")
        return cls(tuple(FighterChoice.from_json(c, i) for i, c in enumerate(items)))

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "choices": [c.to_dict() for c in self.choices]}
