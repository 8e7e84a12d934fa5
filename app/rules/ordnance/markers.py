"""Marker ids, and the mother ship's step 2 (RULES §4 step 2, §9.3): the ``markers`` command or
standing orders, what each marker in flight does, and the attacks that follow."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from operator import attrgetter
from typing import Any

from app.rules.builder import Builder
from app.rules.capabilities import stealth
from app.rules.commands import MarkerOrder, Markers
from app.rules.errors import InvalidCommand, OutOfRange, UnknownMarker, WrongStep
from app.rules.fighters import step as fighters_step
from app.rules.fighters import step2 as groups
from app.rules.fighters.bays import BAY_TYPES
from app.rules.fighters.groups import bay_ids, is_group
from app.rules.gates import gate, named
from app.rules.geometry import Vec, distance
from app.rules.state import (
    AFTER_PING,
    AMT,
    HEAVY_MISSILE,
    SALVO_KINDS,
    START,
    Attack,
    GameState,
    MarkerState,
    ShipState,
    other_side,
)
from app.rules.systems import LAUNCHER_TYPES, REACH
from app.rules.winning import removed_marker

# RULES §9.3: a salvo's and a heavy missile's lock-on radius, an AMT's homing reach (vector: 3)
LOCK_ON = 6.0
LOCK_ON_VECTOR = 3.0
_STEALTH_SHRINK = {0: 1.0, 1: 5 / 6, 2: 2 / 3}  # C8.2, as for a weapon's bands


def marker_id(b: Builder, n: int, counter: int | None = None) -> str:
    """``m-`` and 12 hex digits of HMAC-SHA256 keyed by the game's seed (RULES §9.1): unguessable,
    never from the dice stream. Without a seed (tests only) the key is the game id."""
    key = (b.seed or b.state.game_id).encode()
    msg = f"{b.state.game_id}:marker:{n}"
    if counter is not None:
        msg = f"{b.state.game_id}:counter:{n}:{counter}"
    return "m-" + hmac.new(key, msg.encode(), hashlib.sha256).hexdigest()[:12]


def has_launchers(state: GameState, ship: ShipState) -> bool:
    """Whether the ship's design has a system that makes markers (its step 2 runs, RULES §4):
    a launcher or a bay; submunitions are direct fire and do not count."""
    # the types read in C (``map``, ``isdisjoint``): this runs at every move and activation
    return not _MAKER_TYPES.isdisjoint(map(_type_of, ship.systems))


_MAKER_TYPES = LAUNCHER_TYPES | BAY_TYPES
_type_of = attrgetter("type")


def step2_due(state: GameState, ship: ShipState | None) -> bool:
    """The activating ship's step 2 is still to run: after its optional first ping, before its
    move (public: its hardware and where its activation is)."""
    phase = state.phase
    return (
        ship is not None
        and phase.ship == ship.id
        and phase.step in (START, AFTER_PING)
        and not phase.step2_done
        and has_launchers(state, ship)
    )


def due_markers(state: GameState, ship: ShipState) -> tuple[MarkerState, ...]:
    """The ship's markers that act in this step 2, in id order."""
    return tuple(m for m in state.markers if m.mother == ship.id and m.acts_turn <= state.turn)


# -- the command -------------------------------------------------------------------------------
def markers(b: Builder, seat: str, cmd: Markers) -> None:
    gate(b.state, seat, Markers)
    ship = named(b.state, seat, cmd.ship)
    if not step2_due(b.state, ship):
        if not has_launchers(b.state, ship):
            raise WrongStep(f"{ship.name} has no launchers: it has no step 2; move it")
        raise WrongStep(f"{ship.name}'s step 2 has run this activation; move it now")
    orders = check_orders(b.state, ship, cmd.orders)
    plan = groups.check_plan(b.state, ship, cmd.orders, cmd.launch)
    run_step2(b, ship, orders, standing=False, plan=plan)


def check_orders(
    state: GameState, ship: ShipState, orders: tuple[MarkerOrder, ...]
) -> dict[str, Vec]:
    """Each order names one of the ship's markers acting now; only heavy missiles take a point."""
    out: dict[str, Vec] = {}
    seen: set[str] = set()
    due = {m.id for m in due_markers(state, ship)}
    for order in orders:
        marker = _own_marker(state, ship.side, order.marker)
        if marker.mother != ship.id:
            raise InvalidCommand(
                f"marker {marker.id} was launched by {state.ship(marker.mother).name}: it acts "
                f"in that ship's step 2, not {ship.name}'s"
            )
        if marker.id in seen:
            raise InvalidCommand(f"marker {marker.id} is given two orders")
        seen.add(marker.id)
        if order.land and not is_group(marker):
            raise InvalidCommand(f"marker {marker.id} is a {marker.kind}: only fighter groups land")
        if marker.id not in due:
            raise InvalidCommand(
                f"marker {marker.id} was launched this turn: it acts at {ship.name}'s next "
                "activation"
            )
        if order.to is None or is_group(marker):  # a group's order: ``groups.check_plan``
            continue
        if marker.kind != HEAVY_MISSILE:
            raise InvalidCommand(
                f"marker {marker.id} is a {marker.kind.replace('_', ' ')}: salvos and AMTs take "
                "no orders, they resolve where they were aimed"
            )
        _check_move(state, marker, order.to)
        out[marker.id] = order.to
    return out


def _own_marker(state: GameState, side: str, marker_id: str) -> MarkerState:
    for m in state.markers:
        if m.id == marker_id and m.side == side:
            return m
    # an enemy marker, live or not, is refused exactly like one that does not exist (§9.1)
    raise UnknownMarker(f"there is no marker {marker_id!r} of yours in flight")


def _check_move(state: GameState, marker: MarkerState, to: Vec) -> None:
    if not state.table.contains(to):
        raise OutOfRange(
            f"({to.x:g}, {to.y:g}) is off the table: a heavy missile moves to a point on it"
        )
    away = distance(marker.position, to)
    reach = REACH[HEAVY_MISSILE]
    if away > reach + 1e-9:
        raise OutOfRange(
            f"point {away:.1f} mu away from marker {marker.id}; a heavy missile moves {reach:g}"
        )


# -- step 2 ------------------------------------------------------------------------------------
def run_step2(
    b: Builder,
    ship: ShipState,
    orders: Mapping[str, Vec],
    *,
    standing: bool,
    move: Mapping[str, Any] | None = None,
    plan: groups.GroupPlan = groups.STANDING,
) -> None:
    """The ship's markers act in id order, in one secret event; then the wasted salvos, then
    the attacks go to the defence window (or strike at once). An out-of-control mother's heavy
    missiles hold (RULES §9.3). ``move``: the orders of the move that ran it, kept in the same
    secret event until the move is made (``phase.pending_move``). Its groups act too, and
    may open the fighters step first (``fighters.step``)."""
    state = b.state
    held = ship.out_of_control > 0
    items: list[dict[str, Any]] = []
    attacks: list[Attack] = []
    wasted: list[str] = []
    for m in due_markers(state, ship):
        if is_group(m):
            continue
        item, attack = _act(state, m, orders.get(m.id), held)
        items.append(item)
        if attack is not None:
            attacks.append(attack)
        elif item["result"] == "wasted":
            wasted.append(m.id)
    group_items, engaged = groups.act(
        state, ship, plan, standing or held, lambda i: marker_id(b, state.marker_count + i)
    )
    items = sorted([*items, *group_items], key=lambda item: item["marker"])
    acted: dict[str, Any] = {"ship": ship.id, "standing": standing, "markers": items}
    if move is not None:
        acted["move"] = dict(move)
    b.emit("ordnance_acted", acted)
    for marker in wasted:
        b.emit("salvo_wasted", {"marker": marker, "ship": ship.id})
    fighters_step.after_step2(b, b.state.ship(ship.id), attacks, engaged, not (standing or held))


def _act(
    state: GameState, m: MarkerState, to: Vec | None, held: bool
) -> tuple[dict[str, Any], Attack | None]:
    item: dict[str, Any] = {"marker": m.id, "kind": m.kind, "from": m.position.to_dict()}
    if m.kind in SALVO_KINDS:
        target = closest_enemy(state, m.side, m.position, LOCK_ON, shrink=True)
        item.update(to=m.position.to_dict(), result="attacks" if target else "wasted")
        if target is None:
            return item, None
        item["target"] = target.id
        return item, Attack(m.id, m.side, m.kind, target.id)
    if m.kind == AMT:
        target = closest_enemy(state, m.side, m.position, LOCK_ON, shrink=False)
        point = m.position
        if target is not None:
            assert target.position is not None
            point = target.position
            item.update(target=target.id, homed=True)
        item.update(to=point.to_dict(), result="detonates")
        return item, Attack(m.id, m.side, AMT, target.id if target else None, point=point)
    return _heavy_missile(state, m, to, held, item)


def _heavy_missile(
    state: GameState, m: MarkerState, to: Vec | None, held: bool, item: dict[str, Any]
) -> tuple[dict[str, Any], Attack | None]:
    """Moves (standing: stays), burns 1 endurance, attacks the closest enemy in reach; at 0
    endurance with nothing to attack it is gone. Held: no move, no burn, no attack."""
    endurance = m.endurance or 0
    if held:
        item.update(to=m.position.to_dict(), result="held", endurance=endurance)
        return item, None
    point = to or m.position
    endurance -= 1
    target = closest_enemy(state, m.side, point, LOCK_ON, shrink=True)
    item.update(to=point.to_dict(), endurance=endurance)
    if target is not None:
        item.update(result="attacks", target=target.id)
        return item, Attack(m.id, m.side, HEAVY_MISSILE, target.id, counters=m.counters)
    item["result"] = "burnt_out" if endurance <= 0 else "moved"
    return item, None


def closest_enemy(
    state: GameState, side: str, point: Vec, radius: float, *, shrink: bool
) -> ShipState | None:
    """The closest enemy ship on the table (hulks included) whose true position is within the
    radius of ``point`` (vector movement: half of it); its stealth shrinks the radius when
    ``shrink``. Ties go by roster order."""
    base = radius if state.movement != "vector" else radius * LOCK_ON_VECTOR / LOCK_ON
    best: tuple[float, ShipState] | None = None
    for s in state.ships_of(other_side(side)):
        if not s.on_table or s.position is None:
            continue
        reach = base * (_STEALTH_SHRINK[stealth(state, s)] if shrink else 1.0)
        d = distance(point, s.position)
        if d <= reach + 1e-9 and (best is None or d < best[0]):
            best = (d, s)
    return best[1] if best else None


# -- markers without a mother ------------------------------------------------------------------
_MOTHER_GONE = {
    "destroyed": "mother_destroyed",
    "out_of_play": "mother_out_of_play",
    "left": "mother_left",
}


def remove_orphans(b: Builder) -> bool:
    """A mother ship that left play takes its markers with it: one ``marker_removed`` for each
    such ship that ever launched (public facts: its status and its launches), whether or not
    any of its markers is still in flight. Returns whether it emitted one."""
    for ship in b.state.ships:
        if ship.in_play or ship.ordnance_cleared:  # (asked first: this runs after every event)
            continue
        # a ship with bays may have launched unseen: its bays are what is public (F9)
        if not (ship.launched_kinds or bay_ids(ship)):
            continue
        gone = [removed_marker(m) for m in b.state.markers if m.mother == ship.id]
        reason = _MOTHER_GONE[ship.status]
        b.emit("marker_removed", {"ship": ship.id, "reason": reason, "markers": gone})
        return True
    return False


def discard_at_turn_limit(b: Builder) -> None:
    """At the turn limit the markers in flight are discarded (RULES §9.3)."""
    gone = [removed_marker(m) for m in b.state.markers]
    b.emit("marker_removed", {"reason": "turn_limit", "markers": gone})
