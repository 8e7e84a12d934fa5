"""``amend(value, **changes)``: ``dataclasses.replace`` for the engine's frozen values, fast.

Every event folds into a new state by replacing a few fields of a ship, a phase or the game.
``dataclasses.replace`` reads every field, builds keyword arguments and runs ``__init__``,
which sets each field through ``object.__setattr__``: for a ship of forty fields that cost
more than the rest of an evolve. A plain dataclass (no ``__post_init__``, no ``init=False``
field, no ``__slots__``, no cached property) holds exactly its fields in its ``__dict__``, so
a copy of that dict with the changes written over it is the same value ``replace`` would
build, field for field and in the same order. Anything else is left to ``replace``.

mypy sees ``dataclasses.replace`` itself, so that its dataclass plugin still checks the
names and types of the changes; at run time the names are checked against the fields too.
"""

from __future__ import annotations

import dataclasses
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

T = TypeVar("T")

# per class: its field names, or None where ``replace`` must do the work
_PLAIN: dict[type, frozenset[str] | None] = {}
_set_attr = object.__setattr__  # past the frozen dataclass's own __setattr__


def _plain_fields(cls: type) -> frozenset[str] | None:
    fields = dataclasses.fields(cls)
    plain = (
        "__slots__" not in cls.__dict__
        and not hasattr(cls, "__post_init__")
        # a cached property keeps its value in the instance's dict: not to be copied
        and not any(isinstance(v, cached_property) for c in cls.__mro__ for v in vars(c).values())
        and all(f.init for f in fields)
    )
    return frozenset(f.name for f in fields) if plain else None


def _amend(value: T, /, **changes: Any) -> T:
    cls = type(value)
    try:
        names = _PLAIN[cls]
    except KeyError:
        names = _PLAIN.setdefault(cls, _plain_fields(cls))
    if names is None:
        return dataclasses.replace(value, **changes)  # type: ignore[type-var]
    if not names.issuperset(changes):
        unknown = sorted(set(changes) - names)
        raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
    # a copy of the dict, then the changes, then the copy set as the new value's dict: copying a
    # whole dict is one block copy, where updating an empty ``new.__dict__`` from it inserts
    # key by key (half the instructions of an amend of a ship's forty fields)
    fields = value.__dict__.copy()
    fields.update(changes)
    new = object.__new__(cls)
    _set_attr(new, "__dict__", fields)
    return new


if TYPE_CHECKING:
    from dataclasses import replace as amend
else:
    amend = _amend

__all__ = ["amend"]
