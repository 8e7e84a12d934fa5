"""What every event body shares: reading its JSON form, checking it, and writing it back.

A body is a frozen dataclass whose fields are the keys of the event's ``data``; a field may
stand for another key (``field(metadata={"key": "from"})`` or ``opt(key="class")``: Python's
words). The field types say how each value is read: ``str``, ``int``, ``float``, ``bool``,
``X | None``, ``tuple[X, ...]`` (a JSON list), ``Mapping[str, X]`` (a JSON object), a ``Part``
(a nested object) or ``Json`` (kept as it is). A field without a default is required (the
rules need it to fold the event); an ``opt`` field may be absent, and a typed construction
leaves it out when it is None. Fields stand in the order of their keys in the JSON form, and
bodies are built by keyword (``KW_ONLY``), so an optional key may stand before a required one.

A key the type does not declare is kept in ``extra``, unread, and written back as it came (a
later version's key, say): reading a log never rewrites it, and the fog treats such a key like
the others of its event.

Round trip: ``to_data(from_data(d)) == d`` key for key and in the same order. ``given`` keeps
the keys the JSON form had, in order, so a log read back from either database is delivered
exactly as stored (PostgreSQL's JSONB reorders keys; an old log may lack a key that is now
always written).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from types import MappingProxyType, UnionType
from typing import TYPE_CHECKING, Any, ClassVar, ParamSpec, Self, TypeVar

from app.rules.events.secrecy import Secrecy

Json = Any  # a JSON value, as the log stores it (a field of this type is kept as it is)


class BadEvent(ValueError):
    """An event whose data does not fit its type (a missing or mistyped key): a log the rules
    cannot read, never a player's refusal (those are ``RulesError``s)."""


class UnknownEventType(BadEvent):
    """An event type this version of the rules does not know, or has no rule to fold."""


def opt(default: Any = None, *, key: str | None = None, written: bool = False) -> Any:
    """An optional key: absent, it reads as ``default``. A typed body writes it unless it is
    None, or always with ``written`` (a key the log has always carried, if only as null).
    Keyword-only, so that it can stand where the key stands in the JSON form."""
    return field(default=default, kw_only=True, metadata={"key": key, "written": written})


_NO_EXTRA: Mapping[str, Json] = MappingProxyType({})
Decode = Callable[[Any], Any]  # raises _Misfit
Encode = Callable[[Any], Any] | None  # None: written as it is


class _Misfit(Exception):
    """A value that does not fit its field; ``path`` grows as it comes out of nested values."""

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message, self.path = message, path


@dataclass(frozen=True)
class _Slot:
    attr: str
    key: str
    required: bool
    written: bool
    decode: Decode
    encode: Encode
    plain: frozenset[type]  # the types of values kept as they are, without calling ``decode``


# how ``_read`` takes one key: (attribute, value types kept as they are, item types of a list
# kept as a tuple of them or None, the decoder for anything else)
_Reader = tuple[str, frozenset[type], frozenset[type] | None, Decode]


@dataclass(frozen=True)
class _Layout:
    """A part type's fields as its JSON form has them, worked out once per type."""

    slots: tuple[_Slot, ...]
    by_key: Mapping[str, _Slot]
    required: frozenset[str]
    readers: Mapping[str, _Reader]  # by key


@dataclass(frozen=True)
class Part:
    """A JSON object with typed fields (the base of event bodies and of their nested items)."""

    given: tuple[str, ...] | None = field(default=None, kw_only=True, compare=False, repr=False)
    extra: Mapping[str, Json] = field(default_factory=dict, kw_only=True, repr=False)

    # each part type's layout, built on first use (when every type name is defined)
    _layouts: ClassVar[dict[type[Part], _Layout]] = {}

    @classmethod
    def layout(cls) -> _Layout:
        if cls not in cls._layouts:
            cls._layouts[cls] = _build_layout(cls)
        return cls._layouts[cls]

    @classmethod
    def slots(cls) -> tuple[_Slot, ...]:
        return cls.layout().slots

    @classmethod
    def from_data(cls, data: Any) -> Self:
        """The part read from its JSON form; ``BadEvent`` says where it does not fit."""
        try:
            return cls._read(data)
        except _Misfit as misfit:
            raise BadEvent(f"{cls.__name__}{misfit.path}: {misfit.message}") from None

    @classmethod
    def _read(cls, data: Any) -> Self:
        if type(data) is not dict and not isinstance(data, Mapping):
            raise _Misfit(f"expected an object, got {data!r}")
        try:
            layout = cls._layouts[cls]
        except KeyError:
            layout = cls._layouts.setdefault(cls, _build_layout(cls))
        # an absent optional field reads as its default: the dataclass's class attribute
        values: dict[str, object] = {}
        extra: dict[str, Json] = {}
        readers = layout.readers
        for k, v in data.items():
            # an index, not ``readers.get``: a key the type does not declare is rare
            try:
                attr, plain, items, decode = readers[k]
            except KeyError:
                extra[k] = v
                continue
            # the common cases are checked inline, without a call: a number, a string, a list of
            # numbers (this runs for every event the engine emits)
            if type(v) in plain:
                values[attr] = v
                continue
            if items is not None and type(v) is list:
                for x in v:
                    if type(x) not in items:
                        break
                else:
                    values[attr] = tuple(v)
                    continue
            try:
                values[attr] = decode(v)
            except _Misfit as misfit:
                raise _Misfit(misfit.message, f".{k}{misfit.path}") from None
        if not data.keys() >= layout.required:  # one set test, not a count kept key by key
            missing = sorted(layout.required - data.keys())
            raise _Misfit(f"{missing[0]!r} is missing")
        # built without __init__: every field is set here, checked, once per event read
        values["given"], values["extra"] = tuple(data), extra or _NO_EXTRA
        body = object.__new__(cls)
        object.__setattr__(body, "__dict__", values)
        return body

    def to_data(self) -> dict[str, Json]:
        layout = self.layout()
        keys = self.given
        if keys is None:
            keys = tuple(
                s.key
                for s in layout.slots
                if s.required or s.written or getattr(self, s.attr) is not None
            )
        elif len(keys) != len(layout.slots) + len(self.extra):
            # a field set since it was read (``dataclasses.replace``) is written too
            keys += tuple(
                s.key
                for s in layout.slots
                if s.key not in keys and getattr(self, s.attr) is not None
            )
        out = {}
        for k in keys:
            s = layout.by_key.get(k)
            if s is None:
                out[k] = self.extra[k]
            else:
                value = getattr(self, s.attr)
                out[k] = value if s.encode is None or value is None else s.encode(value)
        return out


def _make(cls: type[Part], /, **values: Any) -> Part:
    """A part from its fields in the order its JSON form has them: what ``_read`` gives for that
    form, without building it and reading it back (the engine's events are made so). Unchecked:
    each value in its read form (a tuple for a list, a part for an object, a plain ``str``)."""
    try:
        renamed = _RENAMED[cls]
    except KeyError:
        slots = cls.layout().slots
        renamed = _RENAMED.setdefault(cls, {s.attr: s.key for s in slots if s.attr != s.key})
    # ``given``: the keys as the JSON form would have had them, for ``to_data``'s order
    values["given"] = tuple([renamed.get(a, a) for a in values]) if renamed else tuple(values)
    values["extra"] = _NO_EXTRA
    part = object.__new__(cls)
    object.__setattr__(part, "__dict__", values)
    return part


_RENAMED: dict[type[Part], dict[str, str]] = {}  # per part type: attribute -> its other key
_P = ParamSpec("_P")
_T = TypeVar("_T")

if TYPE_CHECKING:
    # mypy checks the fields' names and types against the dataclass, as a call to it

    def make(cls: Callable[_P, _T], /, *args: _P.args, **kwargs: _P.kwargs) -> _T: ...

else:
    make = _make


def _build_layout(cls: type[Part]) -> _Layout:
    hints = typing.get_type_hints(cls)
    slots = []
    for f in fields(cls):
        if f.name in ("given", "extra"):
            continue
        decode, encode = _codec(hints[f.name])
        key = f.metadata.get("key") or f.name
        required = f.default is MISSING and f.default_factory is MISSING
        if not required and getattr(cls, f.name, MISSING) is not f.default:
            # ``_read`` leaves absent fields to the class attribute the dataclass sets
            raise TypeError(f"{cls.__name__}.{f.name}: an optional field needs a plain default")
        written = f.metadata.get("written", False)
        slots.append(_Slot(f.name, key, required, written, decode, encode, _plain(hints[f.name])))
    required_keys = frozenset(s.key for s in slots if s.required)
    readers = {s.key: _reader(s, hints[s.attr]) for s in slots}
    return _Layout(tuple(slots), {s.key: s for s in slots}, required_keys, readers)


def _reader(slot: _Slot, tp: Any) -> _Reader:
    args = typing.get_args(tp)
    if typing.get_origin(tp) is UnionType:  # None is plain: the decoder sees only the rest
        tp = next(a for a in args if a is not type(None))
        args = typing.get_args(tp)
    decode = _codec(tp)[0]
    items = _plain(args[0]) if typing.get_origin(tp) is tuple and _plain(args[0]) else None
    return slot.attr, slot.plain, items, decode


def _plain(tp: Any) -> frozenset[type]:
    """The value types of ``tp`` that need no decoding (``Json`` needs none at all)."""
    if tp is Any:
        return frozenset({str, int, float, bool, type(None), list, dict})
    if tp in _PLAIN:
        return _PLAIN[tp]
    args = typing.get_args(tp)
    if typing.get_origin(tp) is UnionType and type(None) in args:
        inner = [a for a in args if a is not type(None)]
        return _PLAIN.get(inner[0], frozenset()) | {type(None)}
    return frozenset()


def _codec(tp: Any) -> tuple[Decode, Encode]:
    """How a value of type ``tp`` is read from JSON (checked) and written back."""
    if tp is Any:
        return _same, None
    if isinstance(tp, type) and issubclass(tp, Part):
        return tp._read, _write_part
    if tp in _PRIMITIVES:
        return _PRIMITIVES[tp], None
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is UnionType or origin is typing.Union:
        inner = [a for a in args if a is not type(None)]
        if len(inner) != 1 or len(args) != 2:
            raise TypeError(f"only X | None unions are supported, not {tp!r}")
        return _optional(*_codec(inner[0]))
    if origin is tuple:
        return _sequence(*_codec(args[0]), _plain(args[0]))
    if origin is Mapping:
        return _mapping(*_codec(args[1]))
    raise TypeError(f"no JSON codec for {tp!r}")


def _same(value: Any) -> Any:
    return value


def _write_part(value: Part) -> dict[str, Json]:
    return value.to_data()


def _optional(decode: Decode, encode: Encode) -> tuple[Decode, Encode]:
    # None is written as None by ``to_data`` and the containers
    return (lambda v: None if v is None else decode(v)), encode


def _sequence(decode: Decode, encode: Encode, plain: frozenset[type]) -> tuple[Decode, Encode]:
    def read(v: Any) -> tuple[Any, ...]:
        # exact type tests first: a JSON list is a list (an ABC or union isinstance costs more)
        if type(v) is not list and not isinstance(v, list | tuple):
            raise _Misfit(f"expected a list, got {v!r}")
        if plain:
            for x in v:
                if type(x) not in plain:
                    break
            else:
                return tuple(v)
        try:
            return tuple([decode(x) for x in v])
        except _Misfit:
            pass
        for i, x in enumerate(v):  # again, to say which item does not fit (decoding is pure)
            try:
                decode(x)
            except _Misfit as misfit:
                raise _Misfit(misfit.message, f"[{i}]{misfit.path}") from None
        raise AssertionError("an item misfit once and fit the second time")  # pragma: no cover

    def write(v: Any) -> list[Any]:
        return list(v) if encode is None else [x if x is None else encode(x) for x in v]

    return read, write


def _mapping(decode: Decode, encode: Encode) -> tuple[Decode, Encode]:
    def read(v: Any) -> Mapping[str, object]:
        if type(v) is not dict and not isinstance(v, Mapping):
            raise _Misfit(f"expected an object, got {v!r}")
        out = {}
        for k, x in v.items():
            if type(k) is not str and not isinstance(k, str):
                raise _Misfit(f"expected string keys, got {k!r}")
            try:
                out[k] = decode(x)
            except _Misfit as misfit:
                raise _Misfit(misfit.message, f".{k}{misfit.path}") from None
        return out

    def write(v: Any) -> dict[str, Json]:
        if encode is None:
            return dict(v)
        return {k: x if x is None else encode(x) for k, x in v.items()}

    return read, write


def _exact(kind: type, name: str) -> Decode:
    def read(v: Any) -> Any:
        if type(v) is not kind:  # bool is an int in Python, never in the log
            raise _Misfit(f"expected {name}, got {v!r}")
        return v

    return read


def _string(v: Any) -> str:
    if type(v) is str:
        return v
    if isinstance(v, str):  # a StrEnum member (a step, a status): the log holds its value
        return str.__str__(v)
    raise _Misfit(f"expected a string, got {v!r}")


def _number(v: Any) -> Any:
    if type(v) is not float and type(v) is not int:  # kept as written: 36 stays 36
        raise _Misfit(f"expected a number, got {v!r}")
    return v


_PLAIN: dict[Any, frozenset[type]] = {
    str: frozenset({str}),
    int: frozenset({int}),
    float: frozenset({int, float}),
    bool: frozenset({bool}),
}
_PRIMITIVES: dict[Any, Decode] = {
    str: _string,
    int: _exact(int, "an integer"),
    float: _number,
    bool: _exact(bool, "true or false"),
}


# -- event bodies --------------------------------------------------------------------------------
EVENT_TYPES: dict[str, type[EventBody]] = {}  # every event type the log may hold, by its name


@dataclass(frozen=True)
class EventBody(Part):
    """The ``data`` of one event type. ``kind`` is the type's name in the log; ``secrecy`` who
    receives it in full and what the others receive (``app.rules.events.secrecy``)."""

    kind: ClassVar[str]
    secrecy: ClassVar[Secrecy]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "kind" in cls.__dict__:
            if cls.kind in EVENT_TYPES:
                raise TypeError(f"event type {cls.kind!r} is declared twice")
            EVENT_TYPES[cls.kind] = cls

    def roll_numbers(self) -> tuple[int, ...]:
        """The roll numbers (the k of each die) this event used; none unless it rolled."""
        return ()


def body_class(kind: str) -> type[EventBody]:
    try:
        return EVENT_TYPES[kind]
    except KeyError:
        raise UnknownEventType(f"unknown event type {kind!r}") from None


def read_body(kind: str, data: Mapping[str, Json]) -> EventBody:
    """The typed body of an event of type ``kind`` read from its JSON ``data``."""
    try:
        return EVENT_TYPES[kind]._read(data)
    except KeyError:
        if kind in EVENT_TYPES:
            raise
        raise UnknownEventType(f"unknown event type {kind!r}") from None
    except _Misfit as misfit:
        raise BadEvent(f"{kind}{misfit.path}: {misfit.message}") from None
