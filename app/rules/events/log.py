"""``Event``: one entry of the game's log, a typed body with its place (``seq``) and turn."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from app.rules.events.body import BadEvent, EventBody, Json, read_body


@dataclass(frozen=True, init=False)
class Event:
    """``Event.of(seq, turn, body)`` from a typed body, or ``Event(seq, turn, type, data)``
    from the JSON form (its data read into the type's body class, and checked)."""

    seq: int
    turn: int
    body: EventBody

    def __init__(
        self,
        seq: int,
        turn: int,
        type: str | None = None,
        data: Mapping[str, Json] | None = None,
        *,
        body: EventBody | None = None,
    ) -> None:
        if body is None:
            if type is None:
                raise BadEvent("an event needs a type and its data, or a body")
            body = read_body(type, {} if data is None else data)  # checked: BadEvent
        elif type is not None or data is not None:
            raise BadEvent("give an event either its type and data or its body, not both")
        # frozen: set once, here (the dataclass's own __init__ is not used)
        self.__dict__.update(seq=seq, turn=turn, body=body)

    @classmethod
    def of(cls, seq: int, turn: int, body: EventBody) -> Event:
        # built without ``__init__``, which has nothing to check here: the engine makes every
        # event it emits this way
        event = object.__new__(cls)
        object.__setattr__(event, "__dict__", {"seq": seq, "turn": turn, "body": body})
        return event

    @property
    def type(self) -> str:
        return self.body.kind

    @cached_property
    def data(self) -> Mapping[str, Json]:
        """The body's JSON form (read often: written once)."""
        return self.body.to_data()

    def to_dict(self) -> dict[str, Json]:
        return {"seq": self.seq, "turn": self.turn, "type": self.type, "data": dict(self.data)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Json]) -> Event:
        return cls(int(d["seq"]), int(d["turn"]), str(d["type"]), dict(d.get("data", {})))
