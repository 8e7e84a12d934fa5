"""Reading a command's JSON form: each helper raises ``InvalidCommand`` naming the wrong field.

Kept apart from ``app.rules.commands`` so that the parts of a command defined elsewhere (the
fighters' bay launches) read their fields the same way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from app.rules.errors import InvalidCommand
from app.rules.geometry import Vec


def _fields(data: Mapping[str, Any], where: str, required: set[str], optional: set[str]) -> None:
    keys = data.keys()
    # every command a player sends; most have exactly the required fields (no union to build)
    if keys == required or (keys >= required and keys <= required | optional):
        return
    missing = sorted(required - data.keys())
    if missing:
        raise InvalidCommand(f"{where}: missing field {', '.join(repr(m) for m in missing)}")
    extra = sorted(set(data.keys()) - required - optional)
    if extra:
        raise InvalidCommand(f"{where}: unknown field {', '.join(repr(e) for e in extra)}")


def _str(data: Mapping[str, Any], key: str, where: str) -> str:
    value = data[key]
    if not isinstance(value, str) or not value:
        raise InvalidCommand(f"{where}: {key!r} must be a non-empty string, got {value!r}")
    return value


def _int(data: Mapping[str, Any], key: str, where: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidCommand(f"{where}: {key!r} must be a whole number, got {value!r}")
    return value


def _vec(data: Mapping[str, Any], key: str, where: str) -> Vec:
    value = data[key]
    if (type(value) is not dict and not isinstance(value, Mapping)) or value.keys() != {"x", "y"}:
        raise InvalidCommand(f'{where}: {key!r} must be an object {{"x": number, "y": number}}')
    coords = []
    for axis in ("x", "y"):
        c = value[axis]
        if isinstance(c, bool) or not isinstance(c, int | float) or not math.isfinite(c):
            raise InvalidCommand(f"{where}: {key}.{axis} must be a finite number, got {c!r}")
        coords.append(float(c))
    return Vec(coords[0], coords[1])
