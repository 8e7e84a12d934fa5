"""The clock's events: a timeout the server played for a side, time the referee added. Both
public: a clock runs on public facts only, so everything it does may be told to everyone."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from app.rules.events.body import EventBody
from app.rules.events.secrecy import PUBLIC


@dataclass(frozen=True)
class TimedOut(EventBody):
    """A side's time ran out: the server played its pending decision (``played``: the command
    types, in order; they follow as ordinary events). ``count``: its timeouts in a row."""

    kind = "timed_out"
    secrecy = PUBLIC

    _: KW_ONLY
    side: str
    count: int
    played: tuple[str, ...]


@dataclass(frozen=True)
class TimeAdded(EventBody):
    kind = "time_added"
    secrecy = PUBLIC

    _: KW_ONLY
    side: str
    seconds: int
    reason: str
