"""Fire windows and volleys (P4, RULES §7, C1).

Who a window waits for is decided from public facts only (overwatch, weapons fired, systems,
fire-control locks, which enemies are live), never from hidden positions. Whether a given shot
is in arc and range is checked from the firer's true position and the target's live one.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.rules.beams import BeamDice, roll_beam_dice
from app.rules.capabilities import fire_controls, ready_weapons, screen_level, spec_of
from app.rules.designs import SystemSpec
from app.rules.dice import Roller
from app.rules.errors import (
    InvalidCommand,
    NoFireControl,
    NotAllowedToFire,
    NotYourShip,
    OutOfArc,
    OutOfControl,
    OutOfRange,
    ShipNotInPlay,
    TargetNotRevealed,
    UnknownShip,
    UnknownWeapon,
    WeaponNotWorking,
    WeaponSpent,
)
from app.rules.geometry import distance, target_in_arcs
from app.rules.state import SIDES, GameState, ShipState, Shot, other_side
from app.rules.weapons import dice_at, is_weapon


def live_enemies(state: GameState, side: str) -> tuple[ShipState, ...]:
    return tuple(
        s
        for s in state.ships_of(other_side(side))
        if s.revealed == "live" and s.status in ("active", "out_of_play")
    )


def may_fire_now(state: GameState, ship: ShipState, pinger: str | None) -> bool:
    """RULES §7 'allowed to fire', from public facts only."""
    if not ship.in_control or not (ship.id == pinger or ship.overwatch):
        return False
    if not ready_weapons(state, ship):
        return False
    live = {s.id for s in live_enemies(state, ship.side)}
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
    dice: BeamDice


def aim(state: GameState, ship: ShipState, weapon: SystemSpec, target: ShipState) -> Aim | None:
    """Arc and range check from true positions; None when out of arc or range."""
    assert ship.position is not None and target.position is not None
    if not target_in_arcs(ship.position, ship.heading, target.position, weapon.arcs):
        return None
    rng = distance(ship.position, target.position)
    at = dice_at(weapon, rng)
    if at is None:
        return None
    return Aim(Shot(ship.id, weapon.id, target.id), rng, at[0], at[1])


def check_declaration(state: GameState, side: str, shots: Iterable[Shot]) -> list[Aim]:
    """Every shot of one side's declaration, or the first reason it is refused."""
    pinger = state.phase.pinger
    aims: list[Aim] = []
    used: set[tuple[str, str]] = set()
    new_targets: dict[str, set[str]] = {}
    for shot in shots:
        if not state.has_ship(shot.ship):
            raise UnknownShip(f"there is no ship {shot.ship!r} in this game")
        ship = state.ship(shot.ship)
        if ship.side != side:
            raise NotYourShip(f"{ship.name} is not your ship")
        if not ship.in_play:
            raise ShipNotInPlay(f"{ship.name} is {ship.status.replace('_', ' ')} and cannot fire")
        if ship.out_of_control:
            raise OutOfControl(f"{ship.name} is out of control and may not fire")
        if not (ship.id == pinger or ship.overwatch):
            raise NotAllowedToFire(
                f"{ship.name} is not on overwatch: only the pinger and ships on overwatch fire"
            )
        design = state.design_of(ship)
        try:
            weapon = spec_of(design, shot.weapon)
        except KeyError:
            weapon = None
        if weapon is None or not is_weapon(weapon):
            raise UnknownWeapon(f"{ship.name} has no weapon {shot.weapon!r}")
        if not ship.system(weapon.id).working:
            raise WeaponNotWorking(f"{ship.name}'s {weapon.id} is {ship.system(weapon.id).status}")
        if weapon.id in ship.fired or (ship.id, weapon.id) in used:
            raise WeaponSpent(f"{ship.name}'s {weapon.id} has already fired this turn")
        used.add((ship.id, weapon.id))
        if not state.has_ship(shot.target):
            raise UnknownShip(f"there is no ship {shot.target!r} in this game")
        target = state.ship(shot.target)
        if target.side == side:
            raise InvalidCommand(f"{target.name} is on your own side")
        if target not in live_enemies(state, side):
            raise TargetNotRevealed(f"{target.name} is not revealed: fire only at live ships")
        hit = aim(state, ship, weapon, target)
        if hit is None:
            assert ship.position is not None and target.position is not None
            if not target_in_arcs(ship.position, ship.heading, target.position, weapon.arcs):
                raise OutOfArc(
                    f"{target.name} is outside the arcs of {ship.name}'s {weapon.id} "
                    f"({', '.join(weapon.arcs)})"
                )
            rng = distance(ship.position, target.position)
            raise OutOfRange(f"{target.name} is {rng:.1f} mu away, beyond {weapon.id}'s reach")
        targets = new_targets.setdefault(ship.id, set())
        targets.add(target.id)
        engaged = set(ship.locks) | targets
        if len(engaged) > fire_controls(ship):
            raise NoFireControl(
                f"{ship.name} has {fire_controls(ship)} working fire control(s) and would engage "
                f"{len(engaged)} targets this turn"
            )
        aims.append(hit)
    return aims


def fire_options(state: GameState, side: str) -> list[dict[str, Any]]:
    """For each of the side's ships allowed to fire: each ready weapon × live target it reaches."""
    out: list[dict[str, Any]] = []
    for ship in state.ships_of(side):
        if not may_fire_now(state, ship, state.phase.pinger):
            continue
        free = len(ship.locks) < fire_controls(ship)
        for weapon in ready_weapons(state, ship):
            for target in live_enemies(state, side):
                if not free and target.id not in ship.locks:
                    continue
                hit = aim(state, ship, weapon, target)
                if hit is None:
                    continue
                out.append(
                    {
                        "ship": ship.id,
                        "weapon": weapon.id,
                        "target": target.id,
                        "range": round(hit.range, 2),
                        "band": hit.band,
                        "dice": str(hit.dice),
                        "screen": screen_level(state, target),
                    }
                )
    return out


def resolve_volley(state: GameState, roller: Roller) -> dict[str, Any]:
    """Dice for every shot of both declarations, side A first, in declared order.

    Nothing moves during a fire window, so each declared shot still reaches; only a ship whose
    crew dumped its core or abandoned ship since it declared no longer fires (``cancelled``).
    """
    mark = roller.mark()
    results: list[dict[str, Any]] = []
    for side in SIDES:
        for shot in state.phase.declared.get(side, ()):
            ship = state.ship(shot.ship)
            target = state.ship(shot.target)
            hit = aim(state, ship, spec_of(state.design_of(ship), shot.weapon), target)
            if not ship.in_control or hit is None:
                results.append({**shot.to_dict(), "cancelled": True})
                continue
            screen = screen_level(state, target)
            roll = roll_beam_dice(hit.dice, screen, roller.d6)
            results.append(
                {
                    **shot.to_dict(),
                    "range": hit.range,
                    "band": hit.band,
                    "dice": str(hit.dice),
                    "screen": roll.screen,
                    "rolled": [d.natural for d in roll.dice],
                    "rerolled": [d.is_reroll for d in roll.dice],
                    "hits": roll.hits,
                    "reroll_hits": roll.reroll_hits,
                }
            )
    return {"window": state.phase.window, "shots": results, "rolls": roller.since(mark)}
