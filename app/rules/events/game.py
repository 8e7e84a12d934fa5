"""The game's own events: its start and finish, its seats, and the referee's actions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass

from app.rules.events.body import EventBody, Json, Part, opt
from app.rules.events.secrecy import PUBLIC


@dataclass(frozen=True)
class TableSize(Part):
    width: float
    height: float


@dataclass(frozen=True)
class ZoneBox(Part):
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True)
class RosterEntry(Part):
    """One ship of the game: its id, name, side and the key of its design in ``designs``."""

    id: str
    name: str
    side: str
    design: str


@dataclass(frozen=True)
class GameStarted(EventBody):
    kind = "game_started"
    secrecy = PUBLIC

    _: KW_ONLY
    game_id: str
    rules_version: str
    scenario: str | None
    movement: str
    table: TableSize
    zones: Mapping[str, ZoneBox]
    turn_limit: int
    ping_range: float | None = opt(written=True)
    side_names: Mapping[str, str]
    designs: Mapping[str, Json]  # each a design's JSON form (``Design.from_dict`` reads it)
    ships: tuple[RosterEntry, ...]


@dataclass(frozen=True)
class SeatClaimed(EventBody):
    kind = "seat_claimed"
    secrecy = PUBLIC

    _: KW_ONLY
    side: str
    name: str | None
    game_active: bool  # this claim started the game


@dataclass(frozen=True)
class SeatReplaced(EventBody):
    kind = "seat_replaced"
    secrecy = PUBLIC

    _: KW_ONLY
    side: str
    reason: str


@dataclass(frozen=True)
class Paused(EventBody):
    kind = "paused"
    secrecy = PUBLIC

    _: KW_ONLY
    reason: str


@dataclass(frozen=True)
class Resumed(EventBody):
    kind = "resumed"
    secrecy = PUBLIC

    _: KW_ONLY
    reason: str


@dataclass(frozen=True)
class Reveal(Part):
    """A stale marker a voided reveal leaves (``app.rules.rewind``)."""

    x: float
    y: float
    heading: int
    turn: int
    seq: int


@dataclass(frozen=True)
class Rewound(EventBody):
    kind = "rewound"
    secrecy = PUBLIC

    _: KW_ONLY
    to_seq: int
    voided: tuple[int, ...] | None  # [first, last] seq voided, or None
    reason: str
    next_roll: int
    last_known: Mapping[str, Reveal] | None = opt()


@dataclass(frozen=True)
class GameFinished(EventBody):
    kind = "game_finished"
    secrecy = PUBLIC

    _: KW_ONLY
    winner: str
    reason: str
    score: Mapping[str, float]
    resigned: str | None = opt()
    note: str | None = opt()  # the referee's reason
    seed: str | None = opt()  # added by the server: the game's dice may now be checked
