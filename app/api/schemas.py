"""Pydantic schemas per direction. Input is strict: no ``false`` as an int, no float as an id,
no unknown fields — a typo is an error, never a silent default.

Text: before any of these reads a body, ``app.problems.JsonGuard`` has refused (422, naming
the field) every string and key of it that holds a NUL or a lone surrogate, the free-form
design objects' included; the ``NO_NUL`` pattern says so in the OpenAPI document."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.play import designs

# no NUL characters: PostgreSQL cannot store them (and no name or id needs one)
NO_NUL = r"^[^\x00]*$"
Id = Annotated[str, Field(min_length=1, max_length=64, pattern=NO_NUL)]
Name = Annotated[str, Field(min_length=1, max_length=80, pattern=NO_NUL)]
Seq = Annotated[int, Field(ge=0)]


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class Open(BaseModel):
    """Output models: documented fields, more may come (clients tolerate additions)."""

    model_config = ConfigDict(extra="allow")


# -- games -------------------------------------------------------------------------------------
class TableIn(Strict):
    width: Annotated[float, Field(gt=0, le=1000)]
    height: Annotated[float, Field(gt=0, le=1000)]


class ShipIn(Strict):
    name: Name
    design: Id | dict[str, Any] = Field(
        description="a preset or saved design id, or a full design object (as "
        "`POST /designs/validate` takes it: `points` and `summary`, read-only, may come back "
        "with it and are ignored)"
    )

    @field_validator("design")
    @classmethod
    def _read_only_dropped(cls, value: str | dict[str, Any]) -> str | dict[str, Any]:
        # a design as GET /designs gave it out goes back in as it is
        return value if isinstance(value, str) else designs.without_read_only(value)


class SideIn(Strict):
    name: Name | None = None
    ships: Annotated[list[ShipIn], Field(min_length=1, max_length=12)]


class SidesIn(Strict):
    A: SideIn
    B: SideIn


class CreateGameIn(Strict):
    scenario: Id | None = None
    sides: SidesIn | None = None
    movement: Literal["cinematic", "vector"] = "cinematic"
    table: TableIn | None = None
    turn_limit: Annotated[int, Field(ge=1, le=100)] | None = None
    ping_range: Annotated[float, Field(gt=0, le=1000)] | None = None
    spectators: bool = True
    creator: Literal["A", "B", "referee"] = "A"
    creator_name: Name | None = None
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
    heading: Annotated[int, Field(ge=0, le=11)]
    speed: Annotated[int, Field(ge=0)] | None = Field(None, description="cinematic movement")
    velocity: Point | None = Field(None, description="vector movement")


class CinematicOrdersIn(Strict):
    speed_change: int
    turn: int
    leave: bool = False


class VectorOrdersIn(Strict):
    rotate: int
    thrust: Annotated[int, Field(ge=0)]
    leave: bool = False


class ShotIn(Strict):
    ship: Id
    weapon: Id
    target: Id
    system: Id | None = Field(
        None, description="needle beams only: the target system (not a core system)"
    )


class _Command(Strict):
    at_seq: Seq | None = Field(None, description="the last seq the client saw (409 if stale)")


class DeployIn(_Command):
    type: Literal["deploy"]
    ships: Annotated[list[PlacementIn], Field(max_length=24)]


class ActivateIn(_Command):
    type: Literal["activate"]
    ship: Id


class PingIn(_Command):
    type: Literal["ping"]
    ship: Id


class MoveIn(_Command):
    type: Literal["move"]
    ship: Id
    orders: CinematicOrdersIn | VectorOrdersIn


class EndActivationIn(_Command):
    type: Literal["end_activation"]
    ship: Id


class FireIn(_Command):
    type: Literal["fire"]
    window: Seq
    shots: Annotated[list[ShotIn], Field(max_length=64)]


class CoreActionIn(_Command):
    type: Literal["core_action"]
    ship: Id
    action: Literal["dump", "abandon"]


class SetModeIn(_Command):
    """Switch a multi-fusion launcher's mode during its ship's activation (secret; the launcher
    is offline for the turn of the switch and the next)."""

    type: Literal["set_mode"]
    ship: Id
    weapon: Id
    mode: Literal["flare", "torpedo"]


class ResignIn(_Command):
    type: Literal["resign"]


CommandIn = Annotated[
    DeployIn
    | ActivateIn
    | PingIn
    | MoveIn
    | EndActivationIn
    | FireIn
    | CoreActionIn
    | SetModeIn
    | ResignIn,
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
    to_seq: Annotated[int, Field(ge=1, le=2**31 - 1)]
    reason: Reason


class EndIn(Strict):
    winner: Literal["A", "B", "draw"]
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
