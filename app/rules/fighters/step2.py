"""The groups' part of their mother's step 2 (issue 13; decisions F1–F4, F10): the orders
checked, the bays' launches, each group's move, landing or stay — all secret items of the one
``ordnance_acted`` event."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.rules.attacks import FIGHTERS_ATTACK, Attack
from app.rules.commands import MarkerOrder
from app.rules.errors import InvalidCommand, OutOfRange
from app.rules.fighters.groups import (
    HOME,
    bay_group,
    groups_of,
    is_group,
    landing_bay,
    landing_problem,
    launch_problem,
    launch_reach,
    move_reach,
    targets,
)
from app.rules.fighters.orders import BayLaunch
from app.rules.fighters.state import DRONES, FIGHTERS
from app.rules.geometry import Vec, distance
from app.rules.state import GameState, MarkerState, ShipState
from app.rules.systems.bay_rows import DRONE_BAY

_EPS = 1e-9


@dataclass(frozen=True)
class GroupPlan:
    """What the side ordered its ship's groups and bays (checked): points, landings, launches."""

    moves: Mapping[str, Vec] = field(default_factory=dict)
    lands: frozenset[str] = frozenset()
    launches: tuple[BayLaunch, ...] = ()


STANDING = GroupPlan()


def check_plan(
    state: GameState, ship: ShipState, orders: Iterable[MarkerOrder], launches: Iterable[BayLaunch]
) -> GroupPlan:
    """The groups' orders (the markers' own checks named them the ship's and due) and the
    launches, or the refusal of the first that is wrong."""
    moves: dict[str, Vec] = {}
    lands: set[str] = set()
    taken: set[str] = set()  # landings take bays one after another (one group a bay)
    for order in orders:
        m = state.marker(order.marker)
        if not is_group(m):
            continue
        if m.engaged_with is not None:
            raise InvalidCommand(
                f"group {m.id} is engaged with {state.ship(m.engaged_with).name}: it attacks "
                "again or breaks off in the fighters step"
            )
        if order.land:
            problem = landing_problem(state, m, taken)
            if problem is not None:
                raise InvalidCommand(problem)
            lands.add(m.id)
            taken.add(landing_bay(state, m, taken) or "")
        elif order.to is not None:
            _check_point(state, m.position, order.to, move_reach(m), f"group {m.id}")
            moves[m.id] = order.to
    return GroupPlan(moves, frozenset(lands), _check_launches(state, ship, launches))


def _check_launches(
    state: GameState, ship: ShipState, launches: Iterable[BayLaunch]
) -> tuple[BayLaunch, ...]:
    seen: set[str] = set()
    out = []
    for launch in launches:
        if launch.bay in seen:
            raise InvalidCommand(f"{ship.name}'s {launch.bay} launches once per activation (F1)")
        seen.add(launch.bay)
        problem = launch_problem(state, ship, launch.bay)
        if problem is not None:
            raise InvalidCommand(problem)
        if launch.to is not None:
            assert ship.position is not None
            group = bay_group(state, ship, launch.bay, ship.bays[launch.bay])
            where = f"the group launched from {launch.bay}"
            _check_point(state, ship.position, launch.to, launch_reach(group), where)
        out.append(launch)
    return tuple(out)


def _check_point(state: GameState, start: Vec, to: Vec, reach: float, who: str) -> None:
    if not state.table.contains(to):
        raise OutOfRange(f"({to.x:g}, {to.y:g}) is off the table: {who} moves to a point on it")
    away = distance(start, to)
    if away > reach + _EPS:
        raise OutOfRange(f"point {away:.1f} mu away from {who}, which moves up to {reach:g} mu")


# -- acting ---------------------------------------------------------------------------------------
def act(
    state: GameState,
    ship: ShipState,
    plan: GroupPlan,
    standing: bool,
    new_id: Callable[[int], str],
) -> tuple[list[dict[str, Any]], list[Attack]]:
    """The items of the ship's groups and launches, and (standing orders only) the attacks of
    its engaged groups on their ships. ``new_id(i)``: the marker id of the i-th launch. An
    out-of-control mother's groups hold (RULES §9.3): nothing moves, lands, attacks or
    launches."""
    items: list[dict[str, Any]] = []
    attacks: list[Attack] = []
    # the ordered landings take their bays first (checked against them all), then exhausted
    # groups going home find the bays left
    bays: dict[str, str | None] = {}
    for g in (m for m in groups_of(state, ship.id) if m.id in plan.lands):
        bays[g.id] = landing_bay(state, g, {b for b in bays.values() if b})
    for m in groups_of(state, ship.id):
        if m.acts_turn > state.turn:
            continue
        if not ship.in_control:
            here = m.position.to_dict()
            items.append(
                {"marker": m.id, "kind": m.kind, "from": here, "to": here, "result": "held"}
            )
            continue
        item, attack = _group(state, ship, m, plan, standing, bays)
        items.append(item)
        if attack is not None:
            attacks.append(attack)
    if not standing and ship.in_control:
        for i, launch in enumerate(plan.launches):
            items.append(_launch(state, ship, launch, new_id(i)))
    return items, attacks


def _group(
    state: GameState,
    ship: ShipState,
    m: MarkerState,
    plan: GroupPlan,
    standing: bool,
    bays: dict[str, str | None],
) -> tuple[dict[str, Any], Attack | None]:
    """``bays``: the bay each group lands in this step 2 (filled as they land)."""
    item: dict[str, Any] = {"marker": m.id, "kind": m.kind, "from": m.position.to_dict()}
    if m.engaged_with is not None:
        item.update(to=m.position.to_dict(), result="held")
        # standing orders: an engaged group attacks its ship again (while it may: F4, C5.0)
        if standing and m.engaged_with in targets(state, m):
            return item, Attack(m.id, m.side, FIGHTERS_ATTACK, m.engaged_with, mode=_mode(m))
        return item, None
    if m.id in plan.lands:
        return _land(ship, m, item, bays[m.id]), None
    to = plan.moves.get(m.id)
    if to is None and not m.cef and m.kind != DRONES:
        return _go_home(state, ship, m, item, bays), None  # F4: exhausted groups go home
    point = to or m.position
    item.update(to=point.to_dict(), result="moved" if to is not None else "stayed")
    return item, None


def _mode(m: MarkerState) -> str | None:
    return "anti_ship" if m.group is not None and m.group.endswith("multi") else None


def _land(ship: ShipState, m: MarkerState, item: dict[str, Any], bay: str | None) -> dict[str, Any]:
    assert ship.position is not None and bay is not None
    item.update(to=ship.position.to_dict(), result="landed", bay=bay, strength=m.strength)
    return item


def _go_home(
    state: GameState,
    ship: ShipState,
    m: MarkerState,
    item: dict[str, Any],
    bays: dict[str, str | None],
) -> dict[str, Any]:
    """F4: a full move towards the mother; it lands when it ends within 6 mu and can."""
    if ship.position is None or not ship.in_play:
        item.update(to=m.position.to_dict(), result="stayed")
        return item
    away = distance(m.position, ship.position)
    step = min(away, move_reach(m))
    point = m.position if away < _EPS else m.position + (ship.position - m.position) * (step / away)
    bay = landing_bay(state, m, {b for b in bays.values() if b})
    if distance(point, ship.position) <= HOME + _EPS and bay is not None:
        bays[m.id] = bay
        return _land(ship, m, item, bay)
    item.update(to=point.to_dict(), result="moved")
    return item


def _launch(state: GameState, ship: ShipState, launch: BayLaunch, marker: str) -> dict[str, Any]:
    assert ship.position is not None
    bay = ship.bays[launch.bay]
    kind = DRONES if ship.system(launch.bay).type == DRONE_BAY else FIGHTERS
    to = launch.to or ship.position
    return {
        "marker": marker,
        "kind": kind,
        "from": ship.position.to_dict(),
        "to": to.to_dict(),
        "result": "launched",
        "bay": launch.bay,
        "group": bay.group,
        "strength": bay.strength,
        "cef": bay.cef,
    }
