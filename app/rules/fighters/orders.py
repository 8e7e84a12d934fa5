"""A bay launch in the ``markers`` command (issue 13): which bay, and where its new group goes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.rules.command_json import _fields, _str, _vec
from app.rules.errors import InvalidCommand
from app.rules.geometry import Vec


@dataclass(frozen=True)
class BayLaunch:
    """Launch the group of ``bay``; it moves to ``to`` at once (decision F2) or, without it,
    stays at the launch point (the mother's position)."""

    bay: str
    to: Vec | None = None

    @classmethod
    def from_json(cls, data: Any, where: str) -> BayLaunch:
        if not isinstance(data, Mapping):
            raise InvalidCommand(f'{where} must be an object {{"bay": id, "to"?: point}}')
        _fields(data, where, {"bay"}, {"to"})
        to = _vec(data, "to", where) if "to" in data else None
        return cls(_str(data, "bay", where), to)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"bay": self.bay}
        if self.to is not None:
            out["to"] = self.to.to_dict()
        return out


def parse_launches(data: Any, where: str) -> tuple[BayLaunch, ...]:
    if not isinstance(data, list):
        raise InvalidCommand(f"{where}: 'launch' must be a list of bay launches")
    return tuple(BayLaunch.from_json(x, f"launch[{i}]") for i, x in enumerate(data))
