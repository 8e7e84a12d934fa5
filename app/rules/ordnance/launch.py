"""Launches in a fire window (RULES §9.2; decisions 6, 7, 9, 10): which launchers are ready, the
checks of one launch, what ``legal`` offers, and the ``ordnance_launched`` events of a volley.

A launch is a ``Shot`` with an ``aim`` point instead of a target. Who a window waits for reads
public facts only (hardware, racks spent, launchers fired, control); a launch's own checks read
the launcher's true position and its side's secret loads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.rules.builder import Builder
from app.rules.capabilities import check_ready, spec_of
from app.rules.damage import CORE_TYPES
from app.rules.designs import SystemSpec
from app.rules.errors import (
    BadTargetSystem,
    DuplicateWeapon,
    InvalidCommand,
    OutOfArc,
    OutOfRange,
    UnknownWeapon,
    WeaponSpent,
)
from app.rules.geometry import Vec, distance, target_in_arcs
from app.rules.ordnance.markers import marker_id
from app.rules.state import SALVO_KINDS, SIDES, GameState, ShipState, Shot, other_side
from app.rules.systems import (
    HEAVY_MISSILE_TYPES,
    LAUNCHER_TYPES,
    REACH,
    SYSTEMS,
    launch_kind,
    loads_of,
)

AF_SALVO = "af_salvo"  # launched only in a defence window (decision 8)
SALVO_STRENGTH = 6  # missiles in a salvo at launch (C2.2)
ECM_COUNTERS = 3  # an ECM missile shows as three heavy missiles (C2.5)
NEEDLE_MISSILE = "needle"
KIND_WORDS = {
    "salvo": "salvo",
    "er_salvo": "extended-range salvo",
    "af_salvo": "anti-fighter salvo",
    "heavy_missile": "heavy missile",
    "amt": "AMT",
}


def launcher_specs(state: GameState, ship: ShipState) -> tuple[SystemSpec, ...]:
    return state.design_of(ship).launcher_systems


def ready_launchers(state: GameState, ship: ShipState) -> tuple[SystemSpec, ...]:
    """Launchers that may launch as far as anyone can see (decision 7, public facts only):
    working, not fired this turn, not a spent rack; an SML or heavy-missile launcher with its
    magazine working. Whether a magazine still holds a load is secret and not asked."""
    out = []
    for spec in launcher_specs(state, ship):
        if not ship.system(spec.id).working or spec.id in ship.fired or spec.id in ship.spent:
            continue
        if spec.magazine is not None and not _magazine_works(ship, spec.magazine):
            continue
        out.append(spec)
    return tuple(out)


def _magazine_works(ship: ShipState, magazine: str) -> bool:
    return any(s.id == magazine and s.working for s in ship.systems)


def loads_left(ship: ShipState, spec: SystemSpec) -> dict[str, int]:
    """What the launcher could fire now, load -> count left (its side's secret), without the
    anti-fighter salvo (a defence window's) and without what a broken magazine held."""
    if spec.type == "amt_launcher":
        return {} if spec.id in ship.spent else {"amt": 1}
    store = spec.magazine or spec.id
    if spec.magazine is not None and not _magazine_works(ship, spec.magazine):
        return {}
    held = ship.loads.get(store, {})
    return {
        load: held.get(load, 0)
        for load in loads_of(spec)
        if load != AF_SALVO and held.get(load, 0) > 0
    }


@dataclass(frozen=True)
class Launch:
    """A checked launch: the launcher, what it fires and where from."""

    shot: Shot
    spec: SystemSpec
    load: str
    kind: str  # the public kind

    @property
    def store(self) -> str:
        return self.spec.magazine or self.spec.id


def check_launch(
    state: GameState, ship: ShipState, shot: Shot, taken: dict[tuple[str, str, str], int]
) -> Launch:
    """One launch of a declaration, or the first reason it is refused; ``taken`` counts the
    loads the declaration's earlier launches took from each store (ship, store, load) and
    marks each launcher used (``("launcher", ship, launcher)``)."""
    spec = _launcher(state, ship, shot)
    load = _load(ship, spec, shot, taken)
    kind = launch_kind(load) if load != "amt" else "amt"
    _check_needle(spec, load, shot)
    assert shot.aim is not None and ship.position is not None
    aim = shot.aim
    if not state.table.contains(aim):
        raise OutOfRange(f"aim point ({aim.x:g}, {aim.y:g}) is off the table: aim at a point on it")
    if not target_in_arcs(ship.position, ship.heading, aim, spec.arcs):
        raise OutOfArc(
            f"aim point ({aim.x:g}, {aim.y:g}) is outside the arc of {ship.name}'s {spec.id} "
            f"({', '.join(spec.arcs)})"
        )
    away, reach = distance(ship.position, aim), REACH[kind]
    if away > reach + 1e-9:
        raise OutOfRange(f"aim point {away:.1f} mu away; this {KIND_WORDS[kind]} reaches {reach:g}")
    key = (ship.id, spec.magazine or spec.id, load)
    taken[key] = taken.get(key, 0) + 1
    taken[("launcher", ship.id, spec.id)] = 1
    return Launch(shot, spec, load, kind)


def _launcher(state: GameState, ship: ShipState, shot: Shot) -> SystemSpec:
    try:
        spec = spec_of(state.design_of(ship), shot.weapon)
    except KeyError:
        raise UnknownWeapon(f"{ship.name} has no launcher {shot.weapon!r}") from None
    if spec.type not in LAUNCHER_TYPES:
        raise UnknownWeapon(
            f"{ship.name}'s {spec.id} is not a launcher: give it a 'target', not an 'aim' point"
        )
    check_ready(ship, spec, "it launched earlier in the game, and it launches once per game")
    return spec


def _load(
    ship: ShipState, spec: SystemSpec, shot: Shot, taken: Mapping[tuple[str, str, str], int]
) -> str:
    """What the launch fires: the named load, or the one kind its store holds."""
    fires = loads_of(spec)
    if shot.load is not None and shot.load not in fires:
        raise InvalidCommand(
            f"{ship.name}'s {spec.id} cannot launch {shot.load!r}: it fires {', '.join(fires)}"
        )
    if shot.load == AF_SALVO:
        raise InvalidCommand(
            "an anti-fighter salvo is launched only in a defence window, at an attacking marker"
        )
    if ("launcher", ship.id, spec.id) in taken:
        raise DuplicateWeapon(f"{ship.name}'s {spec.id} launches once a turn: one launch each")
    left = {
        load: n - taken.get((ship.id, spec.magazine or spec.id, load), 0)
        for load, n in loads_left(ship, spec).items()
    }
    left = {load: n for load, n in left.items() if n > 0}
    where = f"magazine {spec.magazine}" if spec.magazine else spec.id
    if shot.load is not None:
        if left.get(shot.load, 0) <= 0:
            raise WeaponSpent(f"{ship.name}'s {where} has no {shot.load} left")
        return shot.load
    if not left:
        raise WeaponSpent(f"{ship.name}'s {where} has no loads left for {spec.id}")
    if len(left) > 1:
        raise InvalidCommand(
            f"{ship.name}'s {where} holds {', '.join(sorted(left))}: name the 'load' to launch"
        )
    return next(iter(left))


def _check_needle(spec: SystemSpec, load: str, shot: Shot) -> None:
    if load != NEEDLE_MISSILE:
        if shot.system is not None:
            raise BadTargetSystem(
                f"{spec.id} launches {load}: only a needle missile names a target system"
            )
        return
    if shot.system is None:
        raise BadTargetSystem(
            f"{spec.id} launches a needle missile: name the target system type in 'system' "
            "(a type such as fire_control, pds, screen, beam)"
        )
    if shot.system not in SYSTEMS or shot.system in CORE_TYPES:
        why = "a core system" if shot.system in CORE_TYPES else "not a system type"
        raise BadTargetSystem(
            f"a needle missile's 'system' names a system type it attacks: {shot.system!r} is {why}"
        )


# -- what legal offers ---------------------------------------------------------------------------
def launch_options(state: GameState, ship: ShipState, free: bool) -> list[dict[str, Any]]:
    """One item per launcher that may launch now (API.md): its kind, arcs, loads with reach and
    count left, and aim points at the live or last-known enemy positions within reach. With no
    fire control free, a launcher may still join an aim point its ship took this turn (decision
    7): ``fire_control`` says ``shared`` and ``aim_at`` offers only those, or ``none`` with none
    to join, so that a client can say why instead of leaving the launcher out."""
    if ship.position is None:
        return []
    out: list[dict[str, Any]] = []
    for spec in ready_launchers(state, ship):
        left = loads_left(ship, spec)
        if not left:
            continue
        loads: list[dict[str, Any]] = [
            {"load": load, "reach": REACH[_kind(load)], "left": n} for load, n in left.items()
        ]
        reach = max(REACH[_kind(load)] for load in left)
        item: dict[str, Any] = {
            "ship": ship.id,
            "weapon": spec.id,
            "launch": _kind(next(iter(left))),
            "arcs": list(spec.arcs),
            "loads": loads,
            "aim_at": _aim_at(state, ship, spec, reach) if free else [],
        }
        if not free:
            item["aim_at"] = _shared(ship, spec, reach)
            item["fire_control"] = "shared" if item["aim_at"] else "none"
        out.append(item)
    return out


def _shared(ship: ShipState, spec: SystemSpec, reach: float) -> list[dict[str, Any]]:
    """The ship's aim points of this turn that this launcher reaches and bears on."""
    assert ship.position is not None
    return [
        {"aim": point.to_dict(), "shared": True}
        for point in ship.aim_locks
        if distance(ship.position, point) <= reach + 1e-9
        and target_in_arcs(ship.position, ship.heading, point, spec.arcs)
    ]


def _kind(load: str) -> str:
    return "amt" if load == "amt" else launch_kind(load)


def _aim_at(
    state: GameState, ship: ShipState, spec: SystemSpec, reach: float
) -> list[dict[str, Any]]:
    assert ship.position is not None
    out = []
    for enemy in state.ships_of(other_side(ship.side)):
        known = enemy.last_known
        if known is None or not enemy.on_table:
            continue
        point = Vec(known.x, known.y)
        if not state.table.contains(point) or distance(ship.position, point) > reach + 1e-9:
            continue
        if target_in_arcs(ship.position, ship.heading, point, spec.arcs):
            out.append({"target": enemy.id, "aim": point.to_dict()})
    return out


# -- the volley ----------------------------------------------------------------------------------
def declared_launches(state: GameState) -> list[Shot]:
    """The window's launches, side A first, in declared order."""
    return [shot for side in SIDES for shot in state.phase.declared.get(side, ()) if shot.is_launch]


def launch_all(b: Builder, launches: list[Shot]) -> None:
    """Each declared launch whose ship is still in control makes a marker (RULES §9.2)."""
    for shot in launches:
        ship = b.state.ship(shot.ship)
        if not ship.in_control:
            continue  # its crew dumped the core or abandoned ship since (public)
        # checked again against the loads the launches before it took (folded by now)
        checked = check_launch(b.state, ship, shot, {})
        b.emit("ordnance_launched", _launched(b, ship, checked))


def _launched(b: Builder, ship: ShipState, launch: Launch) -> dict[str, Any]:
    state = b.state
    n = state.marker_count
    assert launch.shot.aim is not None
    data: dict[str, Any] = {
        "ship": ship.id,
        "launcher": launch.spec.id,
        "kind": launch.kind,
        "marker": marker_id(b, n),
        "aim": launch.shot.aim.to_dict(),
        "load": launch.load,
    }
    if launch.spec.magazine is not None:
        data["magazine"] = launch.spec.magazine
    if launch.load in HEAVY_MISSILE_TYPES:
        data["missile"] = launch.load
        data["endurance"] = HEAVY_MISSILE_TYPES[launch.load]
    data["strength"] = SALVO_STRENGTH if launch.kind in SALVO_KINDS else 1
    if launch.shot.system is not None:
        data["system"] = launch.shot.system
    if launch.load == "ecm":
        data["counters"] = [marker_id(b, n, i) for i in range(ECM_COUNTERS)]
    # its next step 2: this turn if the mother has not activated yet (it launched on
    # overwatch), else the next (RULES §9.3)
    later = ship.activated or state.phase.ship == ship.id
    data["acts_turn"] = state.turn + 1 if later else state.turn
    return data
