"""What a group may do, read from the state (pure queries): its type, its moves, its line of
sight and targets, landing, and which bays may launch (decisions F1–F6, F10)."""

from __future__ import annotations

from collections.abc import Collection, Iterator

from app.rules.capabilities import stealth
from app.rules.fighters.attack import ship_attack_left
from app.rules.fighters.state import DRONES, GROUP_KINDS, BayState
from app.rules.geometry import Vec, distance
from app.rules.state import GameState, MarkerState, ShipState, other_side
from app.rules.systems.bay_rows import BAY_GROUPS, DRONE_BAY, FIGHTER_BAY, GroupType

SIGHT = 6.0  # F5: a group's line of sight, mu (vector movement too: it is sight, not a lock-on)
LAND_MARGIN = 6.0  # F3: a group lands from within its primary move + this of its mother
HOME = 6.0  # F4: an exhausted group on standing orders lands when it ends this close
_STEALTH_SHRINK = {0: 1.0, 1: 5 / 6, 2: 2 / 3}  # C8.2, as for a salvo's lock-on
_EPS = 1e-9


def is_group(m: MarkerState) -> bool:
    return m.kind in GROUP_KINDS


def group_type(m: MarkerState) -> GroupType:
    """The C5.0 row of a group in flight."""
    assert m.group is not None, f"marker {m.id} is not a group"
    return BAY_GROUPS[DRONE_BAY if m.kind == DRONES else FIGHTER_BAY][m.group]


def bay_group(state: GameState, ship: ShipState, bay_id: str, bay: BayState) -> GroupType:
    return BAY_GROUPS[bay_type(state, ship, bay_id)][bay.group]


def bay_type(state: GameState, ship: ShipState, bay_id: str) -> str:
    return ship.system(bay_id).type


def groups_of(state: GameState, ship_id: str) -> tuple[MarkerState, ...]:
    """The ship's groups in flight, in id order."""
    return tuple(m for m in state.markers if m.mother == ship_id and m.kind in GROUP_KINDS)


def bay_ids(ship: ShipState) -> tuple[str, ...]:
    """The ship's bays (public hardware), in system order."""
    return tuple(s.id for s in ship.systems if s.type in BAY_GROUPS)


def move_reach(m: MarkerState) -> float:
    """How far a group moves in its mother's step 2 (its primary move)."""
    return float(group_type(m).primary_move)


def launch_reach(group: GroupType) -> float:
    """F2: a new group moves at once up to half its primary move."""
    return group.primary_move / 2


def keeps_contact_below(m: MarkerState) -> float:
    """F7: an engaged group keeps contact while its ship's speed stays under this."""
    return 18.0 if group_type(m).fast else 12.0


# -- line of sight and targets ------------------------------------------------------------------
def _sight_of_ship(state: GameState, ship: ShipState) -> float:
    return SIGHT * _STEALTH_SHRINK[stealth(state, ship)] + _EPS


def ships_in_sight(state: GameState, side: str, point: Vec) -> Iterator[ShipState]:
    """Enemy ships on the table (hulks included) within line of sight of ``point`` (F5)."""
    for s in state.ships_of(other_side(side)):
        near = s.position is not None and distance(point, s.position) <= _sight_of_ship(state, s)
        if s.on_table and near:
            yield s


def groups_in_sight(state: GameState, side: str, point: Vec) -> Iterator[MarkerState]:
    """Enemy groups within line of sight of ``point`` (F5)."""
    for m in state.markers:
        if m.side != side and is_group(m) and distance(point, m.position) <= SIGHT + _EPS:
            yield m


def targets(state: GameState, m: MarkerState) -> list[str]:
    """F6: what a group may attack now — enemy ships and groups in its line of sight, and its
    engaged ship (ships only for a type with anti-ship fire); nothing at 0 CEF (F4). Ship ids
    first (roster order), then group ids."""
    if not m.cef:
        return []
    groups = [g.id for g in groups_in_sight(state, m.side, m.position)]
    if not ship_attack_left(group_type(m), m.torpedo_fired):  # interceptors, spent torpedoes
        return groups
    ships = [s.id for s in ships_in_sight(state, m.side, m.position)]
    engaged = m.engaged_with
    if engaged is not None and engaged not in ships and state.ship(engaged).on_table:
        ships.insert(0, engaged)
    return ships + groups


def choosers(state: GameState, ship_id: str) -> tuple[str, ...]:
    """The ship's groups that have something to attack: they choose in the fighters step."""
    return tuple(m.id for m in groups_of(state, ship_id) if targets(state, m))


# -- landing ------------------------------------------------------------------------------------
def landing_bay(
    state: GameState, m: MarkerState, taken: Collection[str] = frozenset()
) -> str | None:
    """F3/F8: its own bay if it works and is empty, else the first empty working fighter bay;
    ``taken``: bays another group lands in this step 2 (one group a bay)."""
    mother = state.ship(m.mother)
    free = [
        s.id
        for s in mother.systems
        if s.type == FIGHTER_BAY and s.working and s.id not in mother.bays and s.id not in taken
    ]
    if m.bay in free:
        return m.bay
    return free[0] if free else None


def landing_problem(
    state: GameState, m: MarkerState, taken: Collection[str] = frozenset()
) -> str | None:
    """Why the group cannot land now (None: it can): F3; ``taken`` as for ``landing_bay``."""
    if m.kind == DRONES:
        return f"group {m.id} is drones: drones never land (C5.2)"
    mother = state.ship(m.mother)
    if not mother.in_play or mother.position is None:
        return f"group {m.id}'s mother ship {mother.name} is not in play: it has nowhere to land"
    reach = move_reach(m) + LAND_MARGIN
    away = distance(m.position, mother.position)
    if away > reach + _EPS:
        return (
            f"group {m.id} is {away:.1f} mu from {mother.name}: it lands from within {reach:g} mu"
        )
    if landing_bay(state, m, taken) is None:
        more = " left (another group lands in it)" if taken else ""
        return f"{mother.name} has no working empty bay{more} for group {m.id} to land in"
    return None


# -- launching ----------------------------------------------------------------------------------
def launch_problem(state: GameState, ship: ShipState, bay_id: str) -> str | None:
    """Why ``bay_id`` cannot launch now (None: it can): F1, F10."""
    if bay_id not in bay_ids(ship):
        return f"{ship.name} has no fighter or drone bay {bay_id!r}"
    if not ship.in_control:
        return f"{ship.name} is out of control: its bays cannot launch"
    if not ship.system(bay_id).working:
        return f"{ship.name}'s {bay_id} is {ship.system(bay_id).status}: it cannot launch"
    bay = ship.bays.get(bay_id)
    if bay is None:
        return f"{ship.name}'s {bay_id} is empty: it has no group aboard"
    if bay.ready_turn > state.turn:
        return (
            f"{ship.name}'s {bay_id}: its group landed this turn and may launch from turn "
            f"{bay.ready_turn} on"
        )
    return None


def ready_bays(state: GameState, ship: ShipState) -> list[str]:
    return [b for b in bay_ids(ship) if launch_problem(state, ship, b) is None]
