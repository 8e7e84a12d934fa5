"""What a ship can do now, derived from its design and the state of its systems."""

from __future__ import annotations

from app.rules.damage import stealth_level
from app.rules.designs import Design, SystemSpec
from app.rules.errors import WeaponNotWorking, WeaponSpent
from app.rules.state import GameState, ShipState, Step, SystemStatus
from app.rules.systems import SYSTEMS, row, types_doing

_SENSORS = row("sensors")
assert _SENSORS.built_in_grade is not None, "every ship has built-in sensors"
BASIC_SENSORS: str = _SENSORS.built_in_grade
# ping dice by sensor grade: basic sensors (every ship's) roll one (RULES §5, C6.2)
SENSOR_DICE = {BASIC_SENSORS: 1, **{g: grade.ping_dice for g, grade in _SENSORS.grades.items()}}
# the types that give a ship ECM (area ECM is ECM itself)
_ECM_TYPES = types_doing("ecm")
_DESTROYED, _DAMAGED, _OK = SystemStatus.DESTROYED, SystemStatus.DAMAGED, SystemStatus.OK
# the steps of an activation once its ship is named
_NAMED = frozenset({Step.START, Step.AFTER_PING, Step.AFTER_MOVE})


def spec_of(design: Design, system_id: str) -> SystemSpec:
    try:
        return design.spec_by_id[system_id]
    except KeyError:
        raise KeyError(system_id) from None


def thrust(state: GameState, ship: ShipState) -> int:
    """Main drive thrust now: first damage halves it (round down), a second failure leaves 0."""
    rating = state.design_of(ship).thrust
    drive = ship.system("drive").status
    if drive == _DESTROYED or not ship.in_play:
        return 0
    return rating // 2 if drive == _DAMAGED else rating


def sensors(state: GameState, ship: ShipState) -> str:
    """basic | enhanced | superior; damaged enhanced or superior sensors count as basic."""
    design = state.design_of(ship)
    for s in ship.systems_of(_SENSORS.type):
        if s.working:
            grade = spec_of(design, s.id).grade
            if grade in SENSOR_DICE:
                return grade
    return BASIC_SENSORS


def has_ecm(ship: ShipState) -> bool:
    # one pass over the systems (``systems_of`` nests a second generator): read at every ping
    return any(s.type in _ECM_TYPES and s.status == _OK for s in ship.systems)


def has_area_ecm(ship: ShipState) -> bool:
    return any(s.working for s in ship.systems_of("area_ecm"))


def screen_level(state: GameState, ship: ShipState) -> int:
    """Sum of working generators' levels, at most two levels active (C6.1)."""
    design = state.design_of(ship)
    level = sum(spec_of(design, s.id).level or 1 for s in ship.systems_of("screen") if s.working)
    return min(2, level)


def fire_controls(ship: ShipState) -> int:
    # one pass over the systems: read for every ship each time a fire window opens
    return sum(1 for s in ship.systems if s.type == "fire_control" and s.status == _OK)


def weapon_specs(state: GameState, ship: ShipState) -> tuple[SystemSpec, ...]:
    return state.design_of(ship).weapon_systems


def ready_weapons(state: GameState, ship: ShipState) -> tuple[SystemSpec, ...]:
    """Working weapons not yet fired this game turn, not spent for the game (a fired rack) and
    not offline after a mode switch (all public facts: a switch is announced and a rack is seen
    to fire, so who a fire window waits for may use them)."""
    weapons = weapon_specs(state, ship)
    if not weapons:
        return ()
    # each weapon's system found in one pass (the first of an id, as ``ShipState.system``)
    systems = {s.id: s for s in reversed(ship.systems)}
    return tuple(
        w
        for w in weapons
        if systems[w.id].status == _OK
        and w.id not in ship.fired
        and w.id not in ship.spent
        and not offline(state, ship, w.id)
    )


def weapon_mode(ship: ShipState, spec: SystemSpec) -> str | None:
    """The current mode of a multi-mode weapon (the design's until switched); None otherwise."""
    return ship.modes.get(spec.id) or spec.fire_mode()


def offline(state: GameState, ship: ShipState, weapon_id: str) -> bool:
    """Offline after a mode switch: the turn of the switch and the next (C1.16)."""
    until = ship.offline.get(weapon_id)
    return until is not None and state.turn <= until


def firable_weapons(state: GameState, ship: ShipState) -> tuple[SystemSpec, ...]:
    """Ready weapons that may fire now (offline launchers are already left out)."""
    return ready_weapons(state, ship)


def stealth(state: GameState, ship: ShipState) -> int:
    """The ship's stealth level now (C8.2): the design's, lost with hull rows."""
    return stealth_level(state.design_of(ship), ship.hull_lost)


def points(state: GameState, ship: ShipState) -> int:
    return state.design_of(ship).points()


def mode_switchable(state: GameState, seat: str) -> ShipState | None:
    """The ship whose multi-mode weapons its owner may switch now: the activating one, from its
    naming until its activation ends (C1.16 lets a launcher switch mid-battle)."""
    phase = state.phase
    if phase.side != seat or phase.step not in _NAMED or not phase.ship:
        return None
    ship = state.ship(phase.ship)
    return ship if ship.in_play and ship.side == seat else None


def check_ready(ship: ShipState, spec: SystemSpec, spent_why: str) -> None:
    """A weapon or launcher that may fire or launch now: not spent (first: a spent rack stays
    spent whatever its state), working, not fired this turn. ``spent_why`` ends the refusal of
    a spent one."""
    if spec.id in ship.spent:
        label = SYSTEMS[spec.type].label
        raise WeaponSpent(f"{ship.name}'s {label} {spec.id} is spent: {spent_why}")
    if not ship.system(spec.id).working:
        raise WeaponNotWorking(f"{ship.name}'s {spec.id} is {ship.system(spec.id).status}")
    if spec.id in ship.fired:
        raise WeaponSpent(f"{ship.name}'s {spec.id} has already fired this turn")
