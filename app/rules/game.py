"""Setting a game up: the roster, the designs it keeps its own copies of, the table.

A game's log starts with one public ``game_started`` event carrying all of it, so the log alone
(plus the seed) rebuilds the game, and changing a preset never changes a game already played;
``start_state`` is the state that event sets up, where every replay begins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.rules import events as ev
from app.rules.designs import Design, preset
from app.rules.errors import InvalidCommand
from app.rules.events import Event
from app.rules.fighters.bays import starting_bays
from app.rules.geometry import Table, Zone
from app.rules.movement import Movement
from app.rules.ordnance.fold import starting_loads
from app.rules.ordnance.view import has_secret_loads
from app.rules.scenarios import PRESET_SCENARIOS, Scenario, default_zones
from app.rules.state import DEPLOY, RULES_VERSION, SIDES, GameState, Phase, ShipState, SystemState

MOVEMENTS = tuple(Movement)
DEFAULT_TURN_LIMIT = 12


@dataclass(frozen=True)
class ShipEntry:
    name: str
    design: Design


@dataclass(frozen=True)
class GameSetup:
    """Everything a new game needs; built from a scenario or from explicit sides."""

    ships: Mapping[str, Sequence[ShipEntry]]
    side_names: Mapping[str, str] = field(default_factory=lambda: {"A": "Side A", "B": "Side B"})
    movement: str = Movement.CINEMATIC
    table: Table = Table()
    zones: Mapping[str, Zone] | None = None
    turn_limit: int = DEFAULT_TURN_LIMIT
    ping_range: float | None = None
    scenario: str | None = None

    @classmethod
    def from_scenario(
        cls, scenario: Scenario | str, movement: str = Movement.CINEMATIC
    ) -> GameSetup:
        sc = PRESET_SCENARIOS[scenario] if isinstance(scenario, str) else scenario
        return cls(
            ships={
                side: [ShipEntry(name, preset(design)) for name, design in sc.ships[side]]
                for side in SIDES
            },
            side_names=dict(sc.side_names),
            movement=movement,
            table=sc.table,
            zones=dict(sc.zones),
            turn_limit=sc.turn_limit,
            ping_range=sc.ping_range,
            scenario=sc.id,
        )


def check_setup(setup: GameSetup) -> None:
    if setup.movement not in MOVEMENTS:
        raise InvalidCommand(
            f"movement must be one of {', '.join(MOVEMENTS)}, not {setup.movement!r}"
        )
    for side in SIDES:
        if not setup.ships.get(side):
            raise InvalidCommand(f"side {side} needs at least one ship")
    if not 1 <= setup.turn_limit <= 100:
        raise InvalidCommand("turn_limit must be 1..100")
    zones = setup.zones or default_zones(setup.table)
    for side in SIDES:
        z = zones[side]
        corners_in = setup.table.contains(_corner(z.x0, z.y0)) and setup.table.contains(
            _corner(z.x1, z.y1)
        )
        if not corners_in:
            raise InvalidCommand(f"side {side}'s deployment zone lies outside the table")


def _corner(x: float, y: float) -> Any:
    from app.rules.geometry import Vec

    return Vec(x, y)


def game_started(game_id: str, setup: GameSetup) -> Event:
    """The first event of every game (seq 1). Ship ids are a1, a2, … and b1, b2, …"""
    check_setup(setup)
    designs: dict[str, dict[str, Any]] = {}
    ships = []
    for side in SIDES:
        for i, entry in enumerate(setup.ships[side], start=1):
            key = _design_key(designs, entry.design)
            ships.append(
                {"id": f"{side.lower()}{i}", "name": entry.name, "side": side, "design": key}
            )
    zones = setup.zones or default_zones(setup.table)
    return Event(
        seq=1,
        turn=0,
        type="game_started",
        data={
            "game_id": game_id,
            "rules_version": RULES_VERSION,
            "scenario": setup.scenario,
            "movement": setup.movement,
            "table": setup.table.to_dict(),
            "zones": {side: zones[side].to_dict() for side in SIDES},
            "turn_limit": setup.turn_limit,
            "ping_range": setup.ping_range,
            "side_names": {side: setup.side_names.get(side, f"Side {side}") for side in SIDES},
            "designs": designs,
            "ships": ships,
        },
    )


def _design_key(designs: dict[str, dict[str, Any]], design: Design) -> str:
    """One stored copy per distinct design; two different designs sharing an id get apart keys.

    A design with secret loads (RULES §9.1) is never shared: each such ship gets a key of its
    own, so that matching keys cannot tell the other side that two ships carry the same loads
    (which keys a roster gets then depends on public facts only)."""
    data = design.to_dict()
    key, n = design.id, 1
    fresh = has_secret_loads(design)
    while key in designs and (fresh or designs[key] != data):
        n += 1
        key = f"{design.id}~{n}"
    designs[key] = {**data, "id": key} if key != design.id else data
    return key


def start_state(event: Event) -> GameState:
    """The state a ``game_started`` event sets up: roster, designs, table; deployment next."""
    b = event.body
    if not isinstance(b, ev.GameStarted):
        raise ValueError(f"a game's log starts with game_started, not {event.type}")
    designs = {k: Design.from_dict(v) for k, v in b.designs.items()}
    ships = []
    for s in b.ships:
        design = designs[s.design]
        systems = tuple(SystemState(spec.id, spec.type) for spec in design.all_systems())
        loads = starting_loads(design)  # ordnance: what its magazines and racks hold (secret)
        bays = starting_bays(design)  # fighters: the group each bay holds (secret)
        ships.append(ShipState(s.id, s.name, s.side, s.design, systems, loads=loads, bays=bays))
    return GameState(
        game_id=b.game_id,
        rules_version=b.rules_version,
        movement=b.movement,
        table=Table(float(b.table.width), float(b.table.height)),
        zones={
            side: Zone(float(z.x0), float(z.y0), float(z.x1), float(z.y1))
            for side, z in b.zones.items()
        },
        turn_limit=b.turn_limit,
        ping_range=b.ping_range,
        side_names=dict(b.side_names),
        designs=designs,
        ships=tuple(ships),
        seq=event.seq,
        phase=Phase(step=DEPLOY),
    )
