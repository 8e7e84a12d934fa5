"""Events: the game's log. Each is a fact that happened; ``evolve`` folds it into the state.

An ``Event`` holds ``seq`` (its place in the log), ``turn`` and ``body``: a typed body, one
frozen dataclass per event type (``ShipMoved``, ``FireResolved``, …; ``EVENT_TYPES`` lists them
by name). Its JSON form, ``{"seq", "turn", "type", "data"}``, is what the log stores and the
API delivers; an event that rolled dice lists its roll numbers under ``data["rolls"]``.

Two ways to build one, giving the same event::

    Event.of(seq, turn, ShipLeft(ship="a1"))       # typed: mypy checks the fields
    Event(seq, turn, "ship_left", {"ship": "a1"})  # from the JSON form: the data is checked
                                                   # when read (BadEvent; UnknownEventType for
                                                   # a type the rules do not know)

``event.type`` and ``event.data`` give the JSON form's parts, ``event.to_dict()`` /
``Event.from_dict(d)`` the whole, round trip exact (``app.rules.events.body``). Each type
declares once, as its ``secrecy``, who receives it in full and what the others receive
(``app.rules.events.secrecy``); ``fog.visible`` and ``fog.redact`` read that.

Adding an event type: one class in the module of its kind (``turn``, ``fire``, ``game``) with
its ``kind``, ``secrecy`` and fields (its nested objects are ``Part``s), and one handler in
``app.rules.evolve`` (``@_folds(TheType)``); a type without a handler cannot be folded.
"""

from app.rules.events.body import (
    EVENT_TYPES,
    BadEvent,
    EventBody,
    Part,
    UnknownEventType,
    body_class,
    make,
    read_body,
)
from app.rules.events.clock import TimeAdded, TimedOut
from app.rules.events.fighters import (
    ContactLost,
    FighterChosen,
    FightersChosen,
    FightersSighted,
    FightersStepOpened,
    SightedGroup,
)
from app.rules.events.fire import (
    Damage,
    DamageControl,
    DeclaredShot,
    Emp,
    EmpResult,
    FireDeclared,
    FireResolved,
    FireWindow,
    RepairAttempt,
    ResolvedShot,
    ShipDestroyed,
    SystemDamaged,
    ThresholdCheck,
    ThresholdResult,
)
from app.rules.events.game import (
    GameFinished,
    GameStarted,
    Paused,
    Resumed,
    Reveal,
    Rewound,
    RosterEntry,
    SeatClaimed,
    SeatReplaced,
    TableSize,
    ZoneBox,
)
from app.rules.events.log import Event
from app.rules.events.ordnance import (
    ActedMarker,
    AmtDetonated,
    Blast,
    HeavyMissileAttack,
    LoadsLost,
    MarkerRemoved,
    OrdnanceActed,
    OrdnanceLaunched,
    RemovedMarker,
    SalvoAttack,
    SalvoWasted,
)
from app.rules.events.turn import (
    ActivationEnded,
    ActivationStarted,
    CoreAction,
    CoreRoll,
    Deployed,
    Detection,
    ModeSet,
    Ping,
    Placement,
    Point,
    ShipLeft,
    ShipMoved,
    ShipRevealed,
    TurnEnded,
    TurnStarted,
    point,
)

__all__ = [
    "EVENT_TYPES",
    "ActedMarker",
    "ActivationEnded",
    "ActivationStarted",
    "AmtDetonated",
    "BadEvent",
    "Blast",
    "ContactLost",
    "CoreAction",
    "CoreRoll",
    "Damage",
    "DamageControl",
    "DeclaredShot",
    "Deployed",
    "Detection",
    "Emp",
    "EmpResult",
    "Event",
    "EventBody",
    "FighterChosen",
    "FightersChosen",
    "FightersSighted",
    "FightersStepOpened",
    "FireDeclared",
    "FireResolved",
    "FireWindow",
    "GameFinished",
    "GameStarted",
    "HeavyMissileAttack",
    "LoadsLost",
    "MarkerRemoved",
    "ModeSet",
    "OrdnanceActed",
    "OrdnanceLaunched",
    "Part",
    "Paused",
    "Ping",
    "Placement",
    "Point",
    "RemovedMarker",
    "RepairAttempt",
    "ResolvedShot",
    "Resumed",
    "Reveal",
    "Rewound",
    "RosterEntry",
    "SalvoAttack",
    "SalvoWasted",
    "SeatClaimed",
    "SeatReplaced",
    "ShipDestroyed",
    "ShipLeft",
    "ShipMoved",
    "ShipRevealed",
    "SightedGroup",
    "SystemDamaged",
    "TableSize",
    "ThresholdCheck",
    "ThresholdResult",
    "TimeAdded",
    "TimedOut",
    "TurnEnded",
    "TurnStarted",
    "UnknownEventType",
    "ZoneBox",
    "body_class",
    "make",
    "point",
    "read_body",
]
