"""What the attacks of a step 2 do once the defences have fired (RULES §9.3, §9.5; C2;
decisions 12–14): every attack's dice first, then one damage batch per ship, the needle and EMP
effects, one threshold batch per ship, and the destroyed last — as in a volley."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.rules import damage as dmg
from app.rules.aftermath import settle
from app.rules.builder import Builder
from app.rules.capabilities import screen_level
from app.rules.fighters.runs import attack_run_strike, dogfight_strike
from app.rules.geometry import distance
from app.rules.ordnance.loads import system_damaged
from app.rules.state import (
    AMT,
    DOGFIGHT,
    FIGHTERS_ATTACK,
    HEAVY_MISSILE,
    Attack,
    GameState,
    MarkerState,
    ShipState,
)
from app.rules.systems import EMP_MAX_HITS

# heavy-missile warheads (C2.5): damage dice, half (rounded up) on armour
WARHEAD_DICE = {"long_lance": 1, "standard": 2, "misericorde": 3}
# an AMT's blast (C2.4): dice by distance from the detonation point, up to 3 mu
BLAST = ((1.0, 3), (2.0, 2), (3.0, 1))
_HM_KEYS = (
    "marker",
    "ship",
    "target",
    "missile",
    "destroyed",
    "rolled",
    "armour_damage",
    "hull_damage",
    "emp_hits",
    "system",
    "needles",
    "needle_system",
    "sixes",
    "rolls",
)


@dataclass
class _Strike:
    """What the attacks did, gathered before it is applied."""

    damage: dict[str, list[int]] = field(default_factory=dict)  # ship -> [armour-first, hull]
    needles: list[tuple[str, str, int, str]] = field(default_factory=list)  # ship, system, 6s, by
    emp: list[tuple[str, str, int]] = field(default_factory=list)  # ship, marker, hits

    def hit(self, ship: str, armour_first: int, hull: int) -> None:
        tally = self.damage.setdefault(ship, [0, 0])
        tally[0] += armour_first
        tally[1] += hull


def resolve_strikes(
    b: Builder,
    attacks: tuple[Attack, ...],
    kills: Mapping[str, int],
    destroyed: frozenset[str],
    dummies_shown: bool,
) -> None:
    """Resolve what survived the defences, in ``attacks`` order.

    ``kills``: marker id -> salvo missiles the defences killed; ``destroyed``: marker ids (heavy
    missiles, AMTs, ECM counters) the defences destroyed; ``dummies_shown``: whether ECM counters
    were already shown as dummies (the window did). Rolls each surviving attack, emits the attack
    events, one ``damage`` batch per ship, the effects, one threshold batch per ship, then
    ``ship_destroyed``; every attacking marker is gone afterwards.
    """
    strike = _Strike()
    for attack in attacks:
        if attack.kind in (FIGHTERS_ATTACK, DOGFIGHT):
            _group(b, attack, kills.get(attack.marker, 0), strike)
            continue
        marker = b.state.marker(attack.marker)
        if attack.kind == AMT:
            _amt(b, marker, attack, attack.marker in destroyed, strike)
        elif attack.kind == HEAVY_MISSILE:
            _heavy_missile(b, marker, attack, attack.marker in destroyed, strike)
        else:
            _salvo(b, marker, attack, kills.get(attack.marker, 0), strike)
    _apply(b, strike)


def _group(b: Builder, attack: Attack, killed: int, strike: _Strike) -> None:
    """A group's attack run (its damage joins the ship's batch) or dogfight (issue 13)."""
    if attack.kind == DOGFIGHT:
        dogfight_strike(b, attack, killed)
        return
    hit = attack_run_strike(b, attack, killed)
    if hit is None:
        return
    strike.hit(hit.target, hit.armour, hit.hull)
    if hit.needle is not None:
        # the group's own id as the cause: never its mother ship (RULES §9.4)
        strike.needles.append((hit.target, hit.needle[0], hit.needle[1], attack.marker))


def _salvo(b: Builder, m: MarkerState, a: Attack, kills: int, strike: _Strike) -> None:
    """1D6 missiles on target less the kills; each 1d6, no reroll, screens ignored (decision 12)."""
    mark = b.roller.mark()
    die = b.roller.d6()
    missiles = max(0, die - kills)
    rolled = [b.roller.d6() for _ in range(missiles)]
    total = sum(rolled)
    armour = -(-total // 2)
    assert a.target is not None
    b.emit(
        "salvo_attack",
        {
            "marker": m.id,
            "ship": m.mother,
            "target": a.target,
            "missiles_die": die,
            "kills": kills,
            "missiles": missiles,
            "rolled": rolled,
            "armour_damage": armour,
            "hull_damage": total - armour,
            "rolls": b.roller.since(mark),
        },
    )
    strike.hit(a.target, armour, total - armour)


def _amt(b: Builder, m: MarkerState, a: Attack, shot_down: bool, strike: _Strike) -> None:
    """3D6 within 1 mu, 2D6 within 2, 1D6 within 3, to every ship on the table in the blast,
    friends included, armour first (decision 13); its point is public only if a ship was hit."""
    point = a.point or m.position
    blasts: list[dict[str, Any]] = []
    mark = b.roller.mark()
    if not shot_down:
        for ship in b.state.ships:
            dice = _blast_dice(ship, point)
            if dice:
                rolled = [b.roller.d6() for _ in range(dice)]
                blasts.append(
                    {"ship": ship.id, "dice": dice, "rolled": rolled, "damage": sum(rolled)}
                )
                strike.hit(ship.id, sum(rolled), 0)
    data: dict[str, Any] = {"marker": m.id, "ship": m.mother}
    if shot_down:
        data["destroyed"] = True
    if blasts:
        data["point"] = point.to_dict()
    data.update(blasts=blasts, rolls=b.roller.since(mark))
    b.emit("amt_detonated", data)


def _blast_dice(ship: ShipState, point: Any) -> int:
    if not ship.on_table or ship.position is None:
        return 0
    d = distance(ship.position, point)
    for radius, dice in BLAST:
        if d <= radius + 1e-9:
            return dice
    return 0


def _heavy_missile(b: Builder, m: MarkerState, a: Attack, shot_down: bool, strike: _Strike) -> None:
    """Its warhead by type (decision 14): damage dice, EMP hits (own cap of 3 per target and
    turn), a needle's D6 needle dice at the named system type; an ECM missile does nothing."""
    assert a.target is not None
    missile = m.missile or "standard"
    data: dict[str, Any] = {
        "marker": m.id,
        "ship": m.mother,
        "target": a.target,
        "missile": missile,
    }
    mark = b.roller.mark()
    if shot_down:
        data["destroyed"] = True
    elif missile in WARHEAD_DICE:
        rolled = [b.roller.d6() for _ in range(WARHEAD_DICE[missile])]
        armour = -(-sum(rolled) // 2)
        data.update(rolled=rolled, armour_damage=armour, hull_damage=sum(rolled) - armour)
        strike.hit(a.target, armour, sum(rolled) - armour)
    elif missile == "emp":
        _emp_warhead(b, a.target, m.id, data, strike)
    elif missile == "needle":
        _needle_warhead(b, a.target, m, data, strike)
    data["rolls"] = b.roller.since(mark)
    full = {"rolled": [], "armour_damage": 0, "hull_damage": 0, **data}
    # the keys in the order the event's body writes them (its log form is byte for byte)
    b.emit("heavy_missile_attack", {k: full[k] for k in _HM_KEYS if k in full})


def _emp_warhead(
    b: Builder, target_id: str, marker: str, data: dict[str, Any], strike: _Strike
) -> None:
    target = b.state.ship(target_id)
    die = b.roller.d6()
    scored = max(0, die - screen_level(b.state, target)) // 2
    counted_before = target.hm_emp_hits + sum(n for s, _, n in strike.emp if s == target_id)
    hits = max(0, min(scored, EMP_MAX_HITS - counted_before))
    data.update(rolled=[die], emp_hits=hits)
    if hits:
        strike.emp.append((target_id, marker, hits))


def _needle_warhead(
    b: Builder, target_id: str, m: MarkerState, data: dict[str, Any], strike: _Strike
) -> None:
    """One die for how many needles, then each as a needle beam's die: 5+ does 1 hull damage, a
    6 destroys the named system (the first of its type still standing); with none, the hull."""
    target = b.state.ship(target_id)
    count = b.roller.d6()
    rolled = [b.roller.d6() for _ in range(count)]
    hits = sum(1 for d in rolled if d >= 5)
    sixes = sum(1 for d in rolled if d == 6)
    system = _named_system(b.state, target, m.system)
    data.update(
        rolled=rolled,
        armour_damage=0,
        hull_damage=hits,
        system=m.system,
        needles=count,
        sixes=sixes,
    )
    if system is not None:
        data["needle_system"] = system
        if sixes:
            strike.needles.append((target_id, system, sixes, m.mother))
    strike.hit(target_id, 0, hits)


def _named_system(state: GameState, target: ShipState, system_type: str | None) -> str | None:
    for s in target.systems:
        if s.type == system_type and s.status != "destroyed":
            return s.id
    return None


def _apply(b: Builder, strike: _Strike) -> None:
    """One damage batch per ship (roster order), the effects, thresholds, then the destroyed."""
    batches = []
    for ship in b.state.ships:
        tally = strike.damage.get(ship.id)
        if tally and sum(tally) > 0 and ship.on_table:
            batch = dmg.apply_hits(b.state, ship, tally[0], tally[1])
            b.emit("damage", batch)
            batches.append(batch)
    gone = {batch["ship"] for batch in batches if batch["destroyed"]}
    for ship_id, system, sixes, mother in strike.needles:
        if ship_id not in gone:
            effect = dmg.needle_effect(b.state.ship(ship_id), system, sixes, False)
            if effect is not None:
                system_damaged(b, {**effect, "by": mother})
    for ship_id, marker, hits in strike.emp:
        if ship_id not in gone:
            effect, failures = dmg.emp_effect(b.state.ship(ship_id), marker, hits, b.roller)
            b.emit("emp", effect)
            for failure in failures:
                system_damaged(b, failure)
    settle(b, batches, "ordnance")
