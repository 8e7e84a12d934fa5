"""Fire: a side's declaration for an open window, and the volley once every side has declared
(RULES §7): all dice at once, then all damage, the needle and EMP effects, threshold checks,
and the destroyed last."""

from __future__ import annotations

from typing import Any

from app.rules import damage as dmg
from app.rules import events as ev
from app.rules.aftermath import settle
from app.rules.builder import Builder
from app.rules.commands import Fire
from app.rules.errors import StaleState, WrongStep
from app.rules.events import make, point
from app.rules.fighters.fire_at import groups_hit
from app.rules.fire import check_declaration, resolve_volley
from app.rules.ordnance.launch import declared_launches, launch_all
from app.rules.ordnance.loads import system_damaged
from app.rules.state import SIDES, Shot
from app.rules.systems import EMP, EMP_MAX_HITS, NEEDLE


def declare(b: Builder, seat: str, cmd: Fire) -> None:
    phase = b.state.phase
    if phase.step not in Fire.steps:
        # RULES §7: a declaration for a closed window is refused as stale
        raise StaleState(f"fire window {cmd.window} is closed: no fire window is open now")
    if cmd.window != phase.window:
        raise StaleState(f"fire window {cmd.window} is closed; the open window is {phase.window}")
    if seat not in phase.awaiting:
        if seat in phase.declared:
            raise WrongStep(f"side {seat} has already declared its fire for this window")
        raise WrongStep(f"side {seat} has no ship allowed to fire in this window")
    check_declaration(b.state, seat, cmd.shots)
    shots = tuple([_declared(s) for s in cmd.shots])
    b.put(make(ev.FireDeclared, side=str(seat), window=cmd.window, shots=shots))


def _declared(shot: Shot) -> ev.DeclaredShot:
    """The shot as the log shows it, its keys in ``Shot.to_dict``'s order."""
    fields: dict[str, Any] = {"ship": shot.ship, "weapon": shot.weapon}
    if shot.target is not None:
        fields["target"] = shot.target
    if shot.aim is not None:
        fields["aim"] = point(shot.aim)
    if shot.load is not None:
        fields["load"] = shot.load
    if shot.system is not None:
        fields["system"] = shot.system
    return make(ev.DeclaredShot, **fields)


def volley(b: Builder) -> None:
    """All shots at once: dice, then all damage, then threshold checks, then the destroyed."""
    _reveal_shooters(b)
    launches = declared_launches(b.state)
    resolved = resolve_volley(b.state, b.roller)
    b.emit("fire_resolved", resolved)
    groups_hit(b, resolved["window"], resolved["shots"])  # fire at groups: their losses
    if launches:
        launch_all(b, launches)
    shots = [shot for shot in resolved["shots"] if not shot.get("cancelled")]
    batches = _damage(b, shots)
    destroyed = {batch["ship"] for batch in batches if batch["destroyed"]}
    _needles(b, shots, destroyed)
    _emp(b, shots, destroyed)
    settle(b, batches, "volley")


def _reveal_shooters(b: Builder) -> None:
    """Every ship that fires (and still can) is shown where it is."""
    state = b.state
    shooters: list[str] = []
    for side in SIDES:
        for shot in state.phase.declared.get(side, ()):
            if shot.ship not in shooters:
                shooters.append(shot.ship)
    for ship in state.ships:
        if ship.id in shooters and ship.in_control:
            assert ship.position is not None
            at, heading = point(ship.position), ship.heading
            b.put(make(ev.ShipRevealed, ship=ship.id, position=at, heading=heading, cause="fire"))


def _damage(b: Builder, shots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each target's armour and hull damage of the whole volley, one batch per ship."""
    damage: dict[str, list[int]] = {}
    for shot in shots:
        tally = damage.setdefault(shot["target"], [0, 0])
        tally[0] += shot["armour_damage"]
        tally[1] += shot["hull_damage"]
    batches = []
    for ship in b.state.ships:
        if ship.id in damage and sum(damage[ship.id]) > 0:
            batch = dmg.apply_hits(b.state, ship, damage[ship.id][0], damage[ship.id][1])
            b.emit("damage", batch)
            batches.append(batch)
    return batches


def _needles(b: Builder, shots: list[dict[str, Any]], destroyed: set[str]) -> None:
    """Needle 6s: the named system (C1.6, C1.8)."""
    for shot in shots:
        if shot["path"] == NEEDLE and shot["sixes"] and shot["target"] not in destroyed:
            effect = dmg.needle_effect(
                b.state.ship(shot["target"]), shot["system"], shot["sixes"], shot["pair"]
            )
            if effect is not None:
                system_damaged(b, {**effect, "by": shot["ship"], "weapon": shot["weapon"]})


def _emp(b: Builder, shots: list[dict[str, Any]], destroyed: set[str]) -> None:
    """EMP: at most 3 hits per firing ship and target, after all of its weapons (C1.5)."""
    emp_hits: dict[tuple[str, str], int] = {}
    for shot in shots:
        if shot["path"] == EMP:
            key = (shot["ship"], shot["target"])
            emp_hits[key] = emp_hits.get(key, 0) + shot["emp_hits"]
    for (firer, target_id), n in emp_hits.items():
        if n <= 0 or target_id in destroyed:
            continue
        # C1.5's cap holds for the turn: hits counted in an earlier window of it come off
        room = EMP_MAX_HITS - b.state.ship(firer).emp_hits.get(target_id, 0)
        effect, failures = dmg.emp_effect(
            b.state.ship(target_id), firer, n, b.roller, cap=max(room, 0)
        )
        b.emit("emp", effect)
        for failure in failures:
            system_damaged(b, failure)
