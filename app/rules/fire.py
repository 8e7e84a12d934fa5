"""Fire windows and volleys (P4, RULES §7, C1).

Who a window waits for is decided from public facts only (overwatch, weapons fired, systems,
fire-control locks, which enemies are live), never from hidden positions. Whether a given shot
is in arc and range is checked from the firer's true position and the target's live one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from app.rules.beams import BeamDice, roll_beam_dice
from app.rules.capabilities import (
    check_ready,
    fire_controls,
    offline,
    ready_weapons,
    screen_level,
    spec_of,
    stealth,
    weapon_mode,
)
from app.rules.damage import CORE_IDS, CORE_TYPES
from app.rules.designs import SystemSpec
from app.rules.dice import Roller
from app.rules.errors import (
    BadTargetSystem,
    DuplicateWeapon,
    InvalidCommand,
    NoFireControl,
    NotAllowedToFire,
    NotYourShip,
    OutOfArc,
    OutOfControl,
    OutOfRange,
    RulesError,
    ShipNotInPlay,
    TargetNotRevealed,
    UnknownShip,
    UnknownWeapon,
    WeaponOffline,
)
from app.rules.fighters.fire_at import check_shot as check_group_shot
from app.rules.fighters.fire_at import is_group_target, live_groups
from app.rules.fighters.fire_at import roll_shot as roll_group_shot
from app.rules.geometry import Vec, distance, target_in_arcs, weak_arc
from app.rules.ordnance.launch import check_launch, ready_launchers
from app.rules.state import SIDES, GameState, ShipState, Shot, SystemStatus, other_side
from app.rules.systems import EMP, HEAVY, NEEDLE, PENETRATING, STANDARD, SYSTEMS, TORPEDO, FireBand
from app.rules.weapons import (
    damage_path,
    dice_at,
    effective_class,
    is_weapon,
    passive_fire_control,
    screens_apply,
    targets_system,
)

MODAL_TYPES = frozenset(t for t, r in SYSTEMS.items() if r.modes)
_DESTROYED = SystemStatus.DESTROYED


def live_enemies(state: GameState, side: str) -> tuple[ShipState, ...]:
    return tuple(s for s in state.ships_of(other_side(side)) if s.revealed == "live" and s.on_table)


def may_fire_now(state: GameState, ship: ShipState, pinger: str | None) -> bool:
    """RULES §7 'allowed to fire', from public facts only."""
    if not ship.in_control or not (ship.id == pinger or ship.overwatch):
        return False
    if ready_launchers(state, ship):  # a launch needs no live enemy (decision 7)
        return True
    if not ready_weapons(state, ship):
        return False
    live = {s.id for s in live_enemies(state, ship.side)} | {
        g.id for g in live_groups(state, ship.side)
    }
    if not live:
        return False
    controls = fire_controls(ship)
    # a lock counts only while a working fire control holds it (check_declaration agrees)
    return len(ship.locks) < controls or (
        len(ship.locks) <= controls and any(t in live for t in ship.locks)
    )


def awaited_sides(state: GameState, pinger: str | None) -> tuple[str, ...]:
    return tuple(
        side for side in SIDES if any(may_fire_now(state, s, pinger) for s in state.ships_of(side))
    )


@dataclass(frozen=True)
class Aim:
    """A checked shot: where it reaches and what it rolls."""

    shot: Shot
    range: float
    band: int
    fire: FireBand
    weapon_type: str
    path: str  # damage path (app.rules.systems)
    screen: int  # the screen level the weapon's dice are read against (0 when ignored)
    weak: bool = False  # fired through a weak arc, one class lower (C1.3)
    cls: int | None = None  # the class it fires as
    mode: str | None = None  # multi-fusion launchers
    target_stealth: int = 0
    system_type: str | None = None  # the type of the system a needle names

    @property
    def dice(self) -> str:
        return self.fire.describe()

    def describe(self) -> dict[str, Any]:
        """What the fire window and the log show of the shot before its dice."""
        out: dict[str, Any] = {
            "range": round(self.range, 2),
            "band": self.band,
            "dice": self.dice,
            "screen": self.screen,
            "weapon_type": self.weapon_type,
            "path": self.path,
        }
        if self.cls is not None:
            out["class"] = self.cls
        if self.weak:
            out["weak_arc"] = True
        if self.mode is not None:
            out["mode"] = self.mode
        if self.fire.hit_on is not None:
            out["hit_on"] = self.fire.hit_on
        if self.target_stealth:
            out["target_stealth"] = self.target_stealth
        return out


def aim(
    state: GameState,
    ship: ShipState,
    weapon: SystemSpec,
    target: ShipState,
    system: str | None = None,
) -> Aim | None:
    """Arc and range check from true positions; None when out of arc or range."""
    assert ship.position is not None and target.position is not None
    weak = weak_arc(ship.position, ship.heading, target.position, weapon.arcs, weapon.weak_arcs)
    if weak is None:
        return None
    rng = distance(ship.position, target.position)
    mode = weapon_mode(ship, weapon)
    target_stealth = stealth(state, target)
    at = dice_at(
        weapon,
        rng,
        weak=weak,
        mode=mode,
        target_stealth=target_stealth,
        firer_stealth=passive_fire_control(state.design_of(ship)),
    )
    if at is None:
        return None
    return Aim(
        Shot(ship.id, weapon.id, target.id, system),
        rng,
        at[0],
        at[1],
        weapon.type,
        damage_path(weapon),
        screen_level(state, target) if screens_apply(weapon) else 0,
        weak,
        effective_class(weapon, weak),
        mode if weapon.type in MODAL_TYPES else None,
        target_stealth,
        _system_type(target, system),
    )


def _system_type(target: ShipState, system: str | None) -> str | None:
    if system is None:
        return None
    found = [s.type for s in target.systems if s.id == system]
    return found[0] if found else None


def needle_targets(state: GameState, target: ShipState) -> list[str]:
    """The systems of ``target`` a needle beam may name: not core systems, not yet destroyed."""
    return [
        s.id
        for s in target.systems
        if s.type not in CORE_TYPES and s.id not in CORE_IDS and s.status != _DESTROYED
    ]


def _check_system(state: GameState, weapon: SystemSpec, target: ShipState, shot: Shot) -> None:
    if not targets_system(weapon):
        if shot.system is not None:
            raise BadTargetSystem(
                f"{weapon.id} is not a needle beam: it cannot name a target system"
            )
        return
    if shot.system is None:
        raise BadTargetSystem(
            f"{weapon.id} is a needle beam: name a target system of {target.name} "
            f"(one of {', '.join(needle_targets(state, target)) or 'none left'})"
        )
    try:
        system = target.system(shot.system)
    except KeyError:
        raise BadTargetSystem(f"{target.name} has no system {shot.system!r}") from None
    if system.type in CORE_TYPES or system.id in CORE_IDS:
        raise BadTargetSystem(
            f"{target.name}'s {system.id} is a core system: a needle beam may not target it"
        )


def check_declaration(state: GameState, side: str, shots: Iterable[Shot]) -> list[Aim]:
    """Every shot of one side's declaration, or the first reason it is refused."""
    aims: list[Aim] = []
    used: dict[tuple[str, str], str] = {}  # (ship, weapon) → the target named first
    new_targets: dict[str, set[str]] = {}
    aimed: dict[str, set[Vec]] = {}  # ship → this declaration's aim points
    taken: dict[tuple[str, str, str], int] = {}
    for shot in shots:
        ship = _firer(state, side, shot)
        if shot.aim is not None:
            check_launch(state, ship, shot, taken)
            aimed.setdefault(ship.id, set()).add(shot.aim)
            _check_controls(ship, new_targets.get(ship.id, set()), aimed[ship.id])
            continue
        weapon = _declared_weapon(state, ship, shot, used)
        used[(ship.id, weapon.id)] = shot.target or ""
        if is_group_target(state, shot.target):  # a live enemy group (F12)
            check_group_shot(state, side, ship, weapon, shot)
            new_targets.setdefault(ship.id, set()).add(shot.target or "")
            _check_controls(ship, new_targets[ship.id], aimed.get(ship.id, set()))
            continue
        target = _declared_target(state, side, shot)
        _check_system(state, weapon, target, shot)
        hit = aim(state, ship, weapon, target, shot.system)
        if hit is None:
            raise _miss(state, ship, weapon, target)
        targets = new_targets.setdefault(ship.id, set())
        targets.add(target.id)
        _check_controls(ship, targets, aimed.get(ship.id, set()))
        aims.append(hit)
    return aims


def _check_controls(ship: ShipState, targets: set[str], aimed: set[Vec]) -> None:
    """One fire control per target and per distinct aim point this turn (decision 7)."""
    engaged = len(set(ship.locks) | targets) + len(set(ship.aim_locks) | aimed)
    if engaged > fire_controls(ship):
        what = "targets and aim points" if aimed or ship.aim_locks else "targets"
        raise NoFireControl(
            f"{ship.name} has {fire_controls(ship)} working fire control(s) and would engage "
            f"{engaged} {what} this turn"
        )


def _firer(state: GameState, side: str, shot: Shot) -> ShipState:
    """The declared shot's ship, if it may fire now (RULES §7)."""
    if not state.has_ship(shot.ship):
        raise UnknownShip(f"there is no ship {shot.ship!r} in this game")
    ship = state.ship(shot.ship)
    if ship.side != side:
        raise NotYourShip(f"{ship.name} is not your ship")
    if not ship.in_play:
        raise ShipNotInPlay(f"{ship.name} is {ship.status.replace('_', ' ')} and cannot fire")
    if ship.out_of_control:
        raise OutOfControl(f"{ship.name} is out of control and may not fire")
    if not (ship.id == state.phase.pinger or ship.overwatch):
        raise NotAllowedToFire(
            f"{ship.name} is not on overwatch: only the pinger and ships on overwatch fire"
        )
    return ship


def _declared_weapon(
    state: GameState, ship: ShipState, shot: Shot, used: dict[tuple[str, str], str]
) -> SystemSpec:
    """The declared shot's weapon, if it is ready and not given a target already."""
    try:
        weapon = spec_of(state.design_of(ship), shot.weapon)
    except KeyError:
        weapon = None
    if weapon is None or not is_weapon(weapon):
        raise UnknownWeapon(f"{ship.name} has no weapon {shot.weapon!r}")
    check_ready(ship, weapon, "it fired earlier in the game, and a rack fires once per game")
    if (ship.id, weapon.id) in used:
        first, then = (
            state.ship(t).name if state.has_ship(t) else repr(t)
            for t in (used[(ship.id, weapon.id)], shot.target or "")
        )
        twice = f"{first} twice" if first == then else f"{first}, then {then}"
        raise DuplicateWeapon(
            f"{ship.name}'s {weapon.id} was given two targets in one declaration ({twice}): "
            "a weapon fires once a turn, so give it one target or hold it"
        )
    if offline(state, ship, weapon.id):
        raise WeaponOffline(
            f"{ship.name}'s {weapon.id} is offline after its mode switch "
            f"until the end of turn {ship.offline[weapon.id]}"
        )
    return weapon


def _declared_target(state: GameState, side: str, shot: Shot) -> ShipState:
    if shot.target is None or not state.has_ship(shot.target):
        raise UnknownShip(f"there is no ship {shot.target!r} in this game")
    target = state.ship(shot.target)
    if target.side == side:
        raise InvalidCommand(f"{target.name} is on your own side")
    if target not in live_enemies(state, side):
        raise TargetNotRevealed(f"{target.name} is not revealed: fire only at live ships")
    return target


def _miss(state: GameState, ship: ShipState, weapon: SystemSpec, target: ShipState) -> RulesError:
    """Why a declared shot does not reach: out of arc, or out of range (and what shrank it)."""
    assert ship.position is not None and target.position is not None
    arcs = (*weapon.arcs, *weapon.weak_arcs)
    if not target_in_arcs(ship.position, ship.heading, target.position, arcs):
        return OutOfArc(
            f"{target.name} is outside the arcs of {ship.name}'s {weapon.id} ({', '.join(arcs)})"
        )
    rng = distance(ship.position, target.position)
    why = ""
    if passive_fire_control(state.design_of(ship)):
        why = " (a stealth design fires through passive fire control: 24 mu at most)"
    elif stealth(state, target):
        factor = "5/6" if stealth(state, target) == 1 else "2/3"
        why = f" (its stealth shrinks the range bands to {factor})"
    return OutOfRange(f"{target.name} is {rng:.1f} mu away, beyond {weapon.id}'s reach{why}")


# -- resolution --------------------------------------------------------------------------------
def _beam(count: int, reroll: bool) -> BeamDice:
    return BeamDice(count, 0, reroll)


@dataclass(slots=True)
class _Rolled:
    """The dice of one shot as they are rolled: to-hit dice, hits, damage dice, where it goes."""

    rolled: list[int] = field(default_factory=list)
    rerolled: list[bool] = field(default_factory=list)
    hits: int = 0
    reroll_hits: int = 0
    damage_rolled: list[int] = field(default_factory=list)
    armour: int = 0
    hull: int = 0


def roll_shot(hit: Aim, roller: Roller) -> dict[str, Any]:
    """Every die of one shot, to-hit first, then damage, and where the damage goes.

    ``armour_damage`` takes armour boxes first; ``hull_damage`` goes straight to the hull
    (RULES §8). The needle's system effect and EMP's system rolls come later in the volley.
    """
    out: dict[str, Any] = {**hit.shot.to_dict(), **hit.describe()}
    out["range"] = hit.range
    if hit.path == NEEDLE:
        dice = _roll_needle(hit, roller, out)
    elif hit.fire.hit_on is not None:
        dice = _roll_single(hit, roller, out)
    else:
        dice = _roll_beam(hit, roller, out)
    out.update(
        {
            "rolled": dice.rolled,
            "rerolled": dice.rerolled,
            "hits": dice.hits,
            "reroll_hits": dice.reroll_hits,
            "damage_rolled": dice.damage_rolled,
            "armour_damage": dice.armour,
            "hull_damage": dice.hull,
        }
    )
    return out


def _roll_needle(hit: Aim, roller: Roller, out: dict[str, Any]) -> _Rolled:
    """A die per needle: 5+ does 1 hull damage; two 6s of a heavy needle do more (C1.6, C1.8)."""
    rolled = [roller.d6() for _ in range(hit.fire.dice)]
    dice = _Rolled(rolled, [False] * len(rolled), hits=sum(1 for d in rolled if d >= 5))
    sixes = sum(1 for d in rolled if d == 6)
    dice.hull = dice.hits
    pair = len(rolled) == 2 and sixes == 2
    if pair and hit.system_type != "main_drive":
        # two 6s of a heavy needle: the system, 1 hull box, then a beam reroll (C1.8); at the
        # main drive, a two-hit system, they "totally destroy" it instead and each needle die
        # still does its 1 damage, with no reroll
        extra = roll_beam_dice(_beam(1, True), 0, roller.d6)
        dice.damage_rolled = [d.natural for d in extra.dice]
        out["damage_rerolled"] = [True] * len(extra.dice)
        dice.reroll_hits = extra.total
        dice.hull = 1 + extra.total
    out["sixes"] = sixes
    out["pair"] = pair
    return dice


def _roll_single(hit: Aim, roller: Roller, out: dict[str, Any]) -> _Rolled:
    """One to-hit d6; a torpedo's hit does Xd6 to the hull, a fusion hit rolls beam dice of
    damage against screens, armour first."""
    fb = hit.fire
    assert fb.hit_on is not None
    die = roller.d6()
    dice = _Rolled([die], [False], hits=1 if die >= fb.hit_on else 0)
    if dice.hits and hit.path == TORPEDO:
        dice.damage_rolled = [roller.d6() for _ in range(fb.damage_dice)]
        dice.hull = sum(dice.damage_rolled)
    elif dice.hits:
        dmg = roll_beam_dice(_beam(fb.damage_dice, fb.damage_reroll), hit.screen, roller.d6)
        dice.damage_rolled = [d.natural for d in dmg.dice]
        out["damage_rerolled"] = [d.is_reroll for d in dmg.dice]
        out["damage_hits"] = dmg.hits
        out["damage_reroll_hits"] = dmg.reroll_hits
        dice.armour, dice.hull = dmg.hits, dmg.reroll_hits
    return dice


def _roll_beam(hit: Aim, roller: Roller, out: dict[str, Any]) -> _Rolled:
    """Beam dice against screens, then what the hits do by the weapon's damage path."""
    roll = roll_beam_dice(_beam(hit.fire.dice, hit.fire.reroll), hit.screen, roller.d6)
    dice = _Rolled(
        [d.natural for d in roll.dice],
        [d.is_reroll for d in roll.dice],
        hits=roll.hits,
        reroll_hits=roll.reroll_hits,
    )
    if hit.path == STANDARD:
        dice.armour, dice.hull = dice.hits, dice.reroll_hits
    elif hit.path == HEAVY:
        # each hit does 1d6 - 2 - screen (C1.2); reroll hits' damage goes past armour
        for n, into_hull in ((dice.hits, False), (dice.reroll_hits, True)):
            for _ in range(n):
                die = roller.d6()
                dice.damage_rolled.append(die)
                points = max(0, die - 2 - hit.screen)
                if into_hull:
                    dice.hull += points
                else:
                    dice.armour += points
    elif hit.path == PENETRATING:
        dice.damage_rolled = [roller.d6() for _ in range(dice.hits + dice.reroll_hits)]
        dice.hull = sum(dice.damage_rolled)
    elif hit.path == EMP:
        out["emp_hits"] = dice.hits + dice.reroll_hits
    return dice


def resolve_volley(state: GameState, roller: Roller) -> dict[str, Any]:
    """Dice for every shot of both declarations, side A first, in declared order.

    Nothing moves during a fire window, so each declared shot still reaches; only a ship whose
    crew dumped its core or abandoned ship since it declared no longer fires, nor does a shot
    at a group that went with such a mother (``cancelled``).
    Every die is read against the state before the volley: damage, EMP effects and lost screens
    all come after (RULES §7, C1.5).
    """
    mark = roller.mark()
    results: list[dict[str, Any]] = []
    for side in SIDES:
        for shot in state.phase.declared.get(side, ()):
            if shot.target is None:
                continue  # a launch: it makes a marker after the volley's dice
            ship = state.ship(shot.ship)
            weapon = spec_of(state.design_of(ship), shot.weapon)
            if not state.has_ship(shot.target):
                # at a group (F12): cancelled there if the group is gone since it was declared
                # at (its mother's crew dumped the core or abandoned ship, taking it along)
                results.append(roll_group_shot(state, ship, weapon, shot, roller))
                continue
            target = state.ship(shot.target)
            hit = aim(state, ship, weapon, target, shot.system)
            if not ship.in_control or hit is None:
                results.append({**shot.to_dict(), "cancelled": True})
                continue
            results.append(roll_shot(hit, roller))
    return {"window": state.phase.window, "shots": results, "rolls": roller.since(mark)}
