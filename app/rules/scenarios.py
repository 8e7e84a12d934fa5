"""Preset scenarios: table, deployment zones, ships per side, turn limit (RULES §2, §11).

Ships name preset designs by id (``app.rules.designs.PRESET_DESIGNS``). Side "A" deploys along
the south edge and side "B" along the north edge unless a scenario says otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from app.rules.geometry import Table, Zone

SIDES: tuple[str, ...] = ("A", "B")
DEFAULT_TABLE = Table(72.0, 48.0)
DEFAULT_TURN_LIMIT = 12
DEPLOYMENT_DEPTH = 8.0


def default_zones(table: Table) -> dict[str, Zone]:
    """8 mu strips along the south edge (A) and the north edge (B), the table's full width.

    On a table shallower than 16 mu each strip is half the table's height, so they never overlap.
    """
    depth = min(DEPLOYMENT_DEPTH, table.height / 2.0)
    return {
        "A": Zone(0.0, 0.0, table.width, depth),
        "B": Zone(0.0, table.height - depth, table.width, table.height),
    }


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    description: str
    table: Table
    zones: Mapping[str, Zone]
    ships: Mapping[str, tuple[tuple[str, str], ...]]  # side -> ((ship name, design id), ...)
    side_names: Mapping[str, str]
    turn_limit: int = DEFAULT_TURN_LIMIT
    ping_range: float | None = None

    def ships_per_side(self) -> dict[str, int]:
        return {side: len(ships) for side, ships in self.ships.items()}

    def design_ids(self) -> frozenset[str]:
        return frozenset(design for ships in self.ships.values() for _, design in ships)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "table": self.table.to_dict(),
            "zones": {side: zone.to_dict() for side, zone in self.zones.items()},
            "ships": {
                side: [{"name": name, "design": design} for name, design in ships]
                for side, ships in self.ships.items()
            },
            "side_names": dict(self.side_names),
            "turn_limit": self.turn_limit,
            "ping_range": self.ping_range,
            "ships_per_side": self.ships_per_side(),
        }


def _scenario(
    id: str,
    name: str,
    description: str,
    ships: dict[str, tuple[tuple[str, str], ...]],
    side_names: dict[str, str],
    zones: dict[str, Zone] | None = None,
    table: Table = DEFAULT_TABLE,
    turn_limit: int = DEFAULT_TURN_LIMIT,
    ping_range: float | None = None,
) -> Scenario:
    return Scenario(
        id=id,
        name=name,
        description=description,
        table=table,
        zones=MappingProxyType(zones if zones is not None else default_zones(table)),
        ships=MappingProxyType(ships),
        side_names=MappingProxyType(side_names),
        turn_limit=turn_limit,
        ping_range=ping_range,
    )


_PRESETS: tuple[Scenario, ...] = (
    _scenario(
        "duel",
        "Duel",
        "Two frigates meet in the dark, each deployed along its own edge of the table. "
        "Whoever pings first shows the other where to shoot.",
        ships={"A": (("Vigilant", "frigate"),), "B": (("Shade", "frigate"),)},
        side_names={"A": "Picket", "B": "Raider"},
    ),
    _scenario(
        "skirmish",
        "Skirmish",
        "A destroyer and a frigate on each side. Spread out or keep together: every ping "
        "also lights up the ship that sends it.",
        ships={
            "A": (("Resolute", "destroyer"), ("Kestrel", "frigate")),
            "B": (("Nightjar", "destroyer"), ("Wraith", "frigate")),
        },
        side_names={"A": "Patrol", "B": "Raiders"},
    ),
    _scenario(
        "hunt",
        "Hunt",
        "A lone hunter with superior sensors enters from the west edge after two ECM-shielded "
        "frigates hiding in the eastern third. Dust limits every ping to 36 mu.",
        ships={
            "A": (("Longsight", "hunter"),),
            "B": (("Whisper", "frigate"), ("Mirage", "frigate")),
        },
        side_names={"A": "Hunter", "B": "Quarry"},
        zones={
            "A": Zone(0.0, 0.0, 8.0, 48.0),
            "B": Zone(48.0, 0.0, 72.0, 48.0),
        },
        ping_range=36.0,
    ),
    _scenario(
        "missile_duel",
        "Missile duel",
        "A missile cruiser and its point-defence escort against a heavy-missile destroyer, a "
        "missile frigate and an AMT boat. Launches are aimed at points, not ships: guess where "
        "the enemy will be, and keep the escort close.",
        ships={
            "A": (("Salvo", "missile_cruiser"), ("Aegis", "pd_escort")),
            "B": (
                ("Lance", "missile_destroyer"),
                ("Quiver", "missile_frigate"),
                ("Ember", "amt_boat"),
            ),
        },
        side_names={"A": "Escort group", "B": "Strike group"},
    ),
    _scenario(
        "carrier_hunt",
        "Carrier hunt",
        "A light carrier and its escort carrier hide in the west, their fighters out looking; a "
        "hunter and a drone tender come in from the east. Groups see 6 mu around them and every "
        "ping shows the groups within 36 mu: find the carrier before its strike finds you.",
        ships={
            "A": (("Albatross", "light_carrier"), ("Bulwark", "escort_carrier")),
            "B": (("Harrier", "hunter"), ("Hive", "drone_tender")),
        },
        side_names={"A": "Carrier group", "B": "Hunter group"},
        zones={
            "A": Zone(0.0, 0.0, 12.0, 48.0),
            "B": Zone(54.0, 0.0, 72.0, 48.0),
        },
        ping_range=36.0,
    ),
)

PRESET_SCENARIOS: Mapping[str, Scenario] = MappingProxyType({s.id: s for s in _PRESETS})
