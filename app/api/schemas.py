"""Pydantic schemas per direction. Input is strict: no ``false`` as an int, no float as an id,
no unknown fields — a typo is an error, never a silent default.

Text: before any of these reads a body, ``app.problems.JsonGuard`` has refused (422, naming
the field) every string and key of it that holds a NUL or a lone surrogate, the free-form
design objects' included; the ``NO_NUL`` pattern says so in the OpenAPI document."""

from __future__ import annotations

import dataclasses
import functools
import operator
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    WithJsonSchema,
    create_model,
    field_validator,
)

from app.api.design_schemas import DESIGN_IN
from app.play import designs
from app.rules.commands import COMMANDS, Command, CoreAction, Markers, SetMode
from app.rules.scenarios import PRESET_SCENARIOS
from app.rules.systems import FUSION_MODES

# no NUL characters: PostgreSQL cannot store them (and no name or id needs one)
NO_NUL = r"^[^\x00]*$"
Id = Annotated[str, Field(min_length=1, max_length=64, pattern=NO_NUL)]
Name = Annotated[str, Field(min_length=1, max_length=80, pattern=NO_NUL)]


def _integral(value: Any) -> Any:
    """``3226.0`` is an integer to JSON Schema (and to JSON, which has one number type): take
    it as ``3226``. Anything else goes on to the strict check as it came (``true``, ``2.5``
    and ``"7"`` are still refused)."""
    if type(value) is float and value.is_integer():
        return int(value)
    return value


def integral_numbers(value: Any) -> Any:
    """A free-form JSON value (a design object) with every float that has no fraction made an
    ``int``: the schema says integer, and the design reader takes only whole numbers."""
    if isinstance(value, dict):
        return {k: integral_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [integral_numbers(v) for v in value]
    return _integral(value)


# an integer as JSON Schema defines it: strict, but a float with no fraction counts. (After any
# ``Field`` constraints in an ``Annotated``: placed before them, it hides them from the schema.)
Whole = BeforeValidator(_integral)
Int = Annotated[int, Whole]
MAX_SEQ = 2**31 - 1  # the largest seq a client may name (a database integer)
Seq = Annotated[int, Field(ge=0, le=MAX_SEQ), Whole]


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class Open(BaseModel):
    """Output models: documented fields, more may come (clients tolerate additions)."""

    model_config = ConfigDict(extra="allow")


# -- games -------------------------------------------------------------------------------------
class TableIn(Strict):
    width: Annotated[float, Field(gt=0, le=1000)]
    height: Annotated[float, Field(gt=0, le=1000)]


# a design body: read as a plain object (``Design.from_dict`` names every fault at once), and
# documented field for field
DesignBody = Annotated[dict[str, Any], WithJsonSchema(DESIGN_IN)]


class ShipIn(Strict):
    name: Name
    design: Id | DesignBody = Field(
        description="a preset or saved design id, or a full design object (as "
        "`POST /designs/validate` takes it: `points` and `summary`, read-only, may come back "
        "with it and are ignored)"
    )

    @field_validator("design")
    @classmethod
    def _read_only_dropped(cls, value: str | dict[str, Any]) -> str | dict[str, Any]:
        # a design as GET /designs gave it out goes back in as it is
        if isinstance(value, str):
            return value
        design: dict[str, Any] = designs.without_read_only(integral_numbers(value))
        return design


class SideIn(Strict):
    name: Name | None = None
    ships: Annotated[list[ShipIn], Field(min_length=1, max_length=12)]


class SidesIn(Strict):
    A: SideIn
    B: SideIn


# a game is made from a preset scenario (its own table) or from explicit sides, never both:
# said in the document, so that a body it allows is one the lobby takes
_SCENARIO_OR_SIDES: dict[str, JsonValue] = {
    "if": {"required": ["scenario"], "properties": {"scenario": {"type": "string"}}},
    "then": {"properties": {"sides": {"type": "null"}, "table": {"type": "null"}}},
    "else": {"required": ["sides"], "properties": {"sides": {"type": "object"}}},
}


class LiveClockIn(Strict):
    """A bank per side and more time for each decision made."""

    kind: Literal["live"]
    initial_s: Annotated[int, Field(ge=60, le=30 * 86400), Whole]
    increment_s: Annotated[int, Field(ge=0, le=30 * 86400), Whole]


class CorrespondenceClockIn(Strict):
    """Time per decision; what a side leaves unused is banked up to ``bank_max_s``."""

    kind: Literal["correspondence"]
    per_move_s: Annotated[int, Field(ge=3600, le=30 * 86400), Whole]
    # at least per_move_s: a comparison the document cannot state, so the lobby checks it
    # (422 invalid_clock)
    bank_max_s: Annotated[int, Field(ge=3600, le=30 * 86400), Whole]


ClockIn = Annotated[LiveClockIn | CorrespondenceClockIn, Field(discriminator="kind")]


class ComputerOpponentIn(Strict):
    computer: Literal["cadet", "captain"] = Field(
        description="the computer's level: `cadet` (legal moves, mostly random) or `captain`"
    )


class CreateGameIn(Strict):
    """A preset ``scenario`` (without ``table``) or explicit ``sides`` (exactly one of them)."""

    model_config = ConfigDict(json_schema_extra=_SCENARIO_OR_SIDES)

    scenario: (
        Annotated[
            str,
            Field(
                min_length=1,
                max_length=64,
                pattern=NO_NUL,
                description="a preset scenario (`GET /scenarios`)",
                json_schema_extra={"enum": sorted(PRESET_SCENARIOS)},
            ),
        ]
        | None
    ) = None
    sides: SidesIn | None = None
    movement: Literal["cinematic", "vector"] = "cinematic"
    table: TableIn | None = None
    turn_limit: Annotated[int, Field(ge=1, le=100), Whole] | None = None
    ping_range: Annotated[float, Field(gt=0, le=1000)] | None = None
    spectators: bool = True
    creator: Literal["A", "B", "referee"] = "A"
    creator_name: Name | None = None
    clock: ClockIn | None = Field(None, description="a time control; none by default")
    opponent: Literal["computer"] | ComputerOpponentIn | None = Field(
        None,
        description="the server's computer plays the side the creator leaves (side B under a "
        'referee): `"computer"` is the captain, `{"computer": "cadet"}` names the level',
    )
    seed: (
        Annotated[
            str,
            Field(
                pattern=r"^[0-9a-fA-F]{64}$",
                description="the dice seed (64 hex): admin token only, on a server that allows "
                "client seeds; else 422 client_seed_not_allowed",
            ),
        ]
        | None
    ) = None


class CreateGameOut(Open):
    game_id: str
    side: str
    token: str
    invites: dict[str, str]
    seed_commitment: str


class ClaimIn(Strict):
    name: Name | None = None


class ClaimOut(Open):
    game_id: str
    side: str
    token: str


class ReissueOut(Open):
    game_id: str
    side: str
    code: str


class GameListOut(Open):
    games: list[dict[str, Any]]


class ViewOut(Open):
    game_id: str
    status: str
    paused: bool
    you: str
    turn: int
    turn_limit: int
    seq: int
    movement: str
    table: dict[str, Any]
    deployment_zones: dict[str, Any]
    phase: dict[str, Any]
    ships: list[dict[str, Any]]
    winner: str | None
    seed_commitment: str
    seed: str | None
    referee: dict[str, Any] | None  # the human referee: name and connected; null if none
    clock: dict[str, Any] | None = None  # {"kind", "A", "B", "timeouts"}; null without a clock


class EventOut(Open):
    seq: int
    turn: int
    type: str
    data: dict[str, Any]


class EventsOut(Open):
    events: list[EventOut]
    last_seq: int


class CommandOut(Open):
    events: list[EventOut]
    view: ViewOut


class RecordOut(Open):
    game_id: str
    status: str
    seed: str | None  # null until the game ends
    seed_commitment: str
    designs: dict[str, Any]
    events: list[EventOut]


# -- commands ----------------------------------------------------------------------------------
class Point(Strict):
    x: float
    y: float


class PlacementIn(Strict):
    ship: Id
    position: Point
    heading: Annotated[int, Field(ge=0, le=11), Whole]
    speed: Annotated[int, Field(ge=0), Whole] | None = Field(None, description="cinematic movement")
    velocity: Point | None = Field(None, description="vector movement")


class CinematicOrdersIn(Strict):
    speed_change: Int
    turn: Int
    leave: bool = False


class VectorOrdersIn(Strict):
    rotate: Int
    thrust: Annotated[int, Field(ge=0), Whole]
    leave: bool = False


class ShotIn(Strict):
    """A shot names a ``target``; a launch an ``aim`` point instead (exactly one of them)."""

    ship: Id
    weapon: Id
    target: Id | None = Field(None, description="the ship fired at (not with `aim`)")
    aim: Point | None = Field(
        None, description="a launch: the aim point on the table, in the launcher's arc and reach"
    )
    load: Id | None = Field(
        None, description="a launch from a mixed magazine: the load fired (salvo, er_salvo, ...)"
    )
    system: Id | None = Field(
        None,
        description="needle beams: the target system (not a core system); needle missiles: "
        "the target system type",
    )


class MarkerOrderIn(Strict):
    marker: Id
    to: Point | None = Field(
        None, description="a heavy missile (18 mu) or a fighter group (its primary move): where"
    )
    land: bool | None = Field(
        None, description="a fighter group lands on its mother (not with `to`)"
    )


class BayLaunchIn(Strict):
    bay: Id
    to: Point | None = Field(
        None, description="where the new group goes: half its primary move from the mother"
    )


class FighterChoiceIn(Strict):
    """One group's choice in the fighters step."""

    marker: Id
    attack: Id | None = Field(description="a ship or an enemy group in its targets; null: none")
    system: Id | None = Field(None, description="needle groups: the target system type")
    mode: Literal["anti_ship", "pd"] | None = Field(None, description="multi-role groups")


class AllocationIn(Strict):
    """One defence: a system of one of your ships (or, with fighters, a group) at one attacking
    marker of the open defence window."""

    ship: Id | None = Field(None, description="the defending ship (with `system`)")
    system: Id | None = Field(None, description="its PDS, class-1 beam or salvo launcher")
    group: Id | None = Field(None, description="an intercepting fighter group (not yet: refused)")
    against: Id


class _Command(Strict):
    at_seq: Seq | None = Field(None, description="the last seq the client saw (409 if stale)")


# the schema of each command field, by its name in the rules' command classes: a new command
# whose fields are named here needs nothing more
_FIELD_SCHEMAS: dict[str, Any] = {
    "ship": Id,
    "weapon": Id,
    "ships": Annotated[list[PlacementIn], Field(max_length=24)],
    "orders": CinematicOrdersIn | VectorOrdersIn,
    "window": Seq,
    "shots": Annotated[list[ShotIn], Field(max_length=64)],
    "action": Literal[CoreAction.ACTIONS],
    "mode": Literal[FUSION_MODES],
    "allocations": Annotated[list[AllocationIn], Field(max_length=64)],
    "auto_defend": bool,
    "choices": Annotated[list[FighterChoiceIn], Field(max_length=64)],
}
# a field of one command whose name means something else elsewhere: (schema, default)
_COMMAND_FIELDS: dict[type[Command], dict[str, tuple[Any, Any]]] = {
    Markers: {
        "orders": (Annotated[list[MarkerOrderIn], Field(max_length=64)], ...),
        "launch": (
            Annotated[list[BayLaunchIn], Field(max_length=16)],
            Field(default_factory=list, description="bays to launch from, one group each"),
        ),
    },
}
_DESCRIPTIONS: dict[type[Command], str] = {
    Markers: "Step 2 of the activating ship (its markers in flight act), before its move; a "
    "move\nsent without it runs step 2 on standing orders.",
    SetMode: "Switch a multi-fusion launcher's mode during its ship's activation (secret; the "
    "launcher\nis offline for the turn of the switch and the next).",
}


def _request(command: type[Command]) -> type[_Command]:
    """``<Command>In``: ``at_seq``, the ``type`` tag, then the command's own fields."""
    fields: dict[str, Any] = {"type": (Literal[command.type], ...)}
    own = _COMMAND_FIELDS.get(command, {})
    for f in dataclasses.fields(command):  # type: ignore[arg-type]  # a dataclass subclass
        fields[f.name] = own.get(f.name) or (_FIELD_SCHEMAS[f.name], ...)
    return create_model(
        f"{command.__name__}In",
        __base__=_Command,
        __doc__=_DESCRIPTIONS.get(command),
        __module__=__name__,
        **fields,
    )


# one request schema per registered command, in the registry's order
COMMAND_REQUESTS = {command: _request(command) for command in COMMANDS.values()}


class ClaimWinIn(_Command):
    """End the game as the winner once the other side has timed out three decisions in a row
    (issue 15: clocks)."""

    type: Literal["claim_win"]


class HandToComputerIn(_Command):
    """Hand the other side, once it has timed out three decisions in a row, to the server's
    computer (the captain) instead of ending the game (issue 17)."""

    type: Literal["hand_to_computer"]


# the commands the service answers itself, besides the rules' (issue 15: clocks)
SERVICE_COMMANDS = (ClaimWinIn, HandToComputerIn)

if TYPE_CHECKING:  # a union built at import time is no type to a checker: any command body
    CommandIn = _Command
else:
    CommandIn = Annotated[
        functools.reduce(operator.or_, [*COMMAND_REQUESTS.values(), *SERVICE_COMMANDS]),
        Field(discriminator="type"),
    ]


def command_dict(command: BaseModel) -> dict[str, Any]:
    """The JSON form the rules engine reads: unset optional fields left out."""
    return command.model_dump(exclude_none=True)


# -- designs -----------------------------------------------------------------------------------
class DesignSavedOut(Open):
    id: str
    owner_token: str


class DesignsOut(Open):
    designs: list[dict[str, Any]]


class ScenariosOut(Open):
    scenarios: list[dict[str, Any]]


# -- referee -----------------------------------------------------------------------------------
Reason = Annotated[
    str, Field(min_length=1, max_length=500, pattern=NO_NUL, description="shown to everyone")
]


class ReasonIn(Strict):
    reason: Reason


class RewindIn(Strict):
    to_seq: Annotated[int, Field(ge=1, le=MAX_SEQ), Whole]
    reason: Reason


class EndIn(Strict):
    winner: Literal["A", "B", "draw"]
    reason: Reason


class AddTimeIn(Strict):
    side: Literal["A", "B"]
    seconds: Annotated[int, Field(ge=1, le=7 * 86400), Whole]
    reason: Reason


class ReplaceSeatIn(Strict):
    side: Literal["A", "B"]
    reason: Reason


class ReplaceSeatOut(Open):
    token: str
    view: ViewOut


class PresenceOut(Open):
    seats: dict[str, Any]
    now: str
