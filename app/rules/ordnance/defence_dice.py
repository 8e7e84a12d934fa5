"""The defences of one window rolled, all at once (RULES §9.5): every die, the kills against
each salvo, the markers destroyed, and the ECM counters now shown to be dummies.

Pure: the dice come from the ``roll`` callable. Sides roll in order A then B, each side's
allocations in the order it sent them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.rules.fighters import intercept
from app.rules.ordnance import pd
from app.rules.ordnance.defence import (
    ROLE_AF,
    Defence,
    Entry,
    attacked_ships,
    entries,
    group_drm,
    protected,
    role_of,
)
from app.rules.state import DOGFIGHT, FIGHTERS_ATTACK, SIDES, Attack, GameState


@dataclass(frozen=True)
class Outcome:
    """What the defences did, in the terms ``strike.resolve_strikes`` takes."""

    defences: tuple[dict[str, Any], ...]  # each allocation with its dice and result
    kills: Mapping[str, int]  # real marker id of each defended salvo or group -> killed
    destroyed: frozenset[str]  # shown ids destroyed (markers, and counters fired at)
    dummies: tuple[str, ...]  # every ECM counter of the window (all shown as dummies now)
    firers_for_others: tuple[str, ...]  # ships that fired for another ship (to be revealed)


def roll_defences(
    state: GameState,
    attacks: Sequence[Attack],
    declared: Mapping[str, Sequence[Mapping[str, Any]]],
    roll: Callable[[], int],
) -> Outcome:
    shown = {e.marker: e for e in entries(attacks)}
    defences: list[dict[str, Any]] = []
    kills: dict[str, int] = {}
    destroyed: set[str] = set()
    revealed: list[str] = []
    for side in SIDES:
        for alloc in declared.get(side, ()):
            entry = shown[alloc["against"]]
            if "group" in alloc:
                out, killed = intercept.roll(state, side, alloc, entry.attack, roll)
                defences.append(out)
                _tally_kills(state, entry, killed, kills)
                continue
            ship = state.ship(alloc["ship"])
            spec = next(s for s in state.design_of(ship).all_systems() if s.id == alloc["system"])
            role = role_of(spec) or ""
            result = (
                pd.roll_af(entry.kind, roll)
                if role == ROLE_AF
                else pd.roll_pd(entry.kind, group_drm(state, entry), roll)
            )
            entry_out = {**alloc, "side": side, "role": role, **result.to_dict()}
            if role == ROLE_AF and spec.magazine:
                entry_out["magazine"] = spec.magazine  # one AF load spent from it (public hardware)
            defences.append(entry_out)
            _tally(state, entry, result, kills, destroyed)
            if _for_another(state, Defence(ship, spec, role), entry) and ship.id not in revealed:
                revealed.append(ship.id)
    dummies = tuple(c for a in attacks for c in a.counters)
    return Outcome(tuple(defences), kills, frozenset(destroyed), dummies, tuple(revealed))


def _tally(
    state: GameState, entry: Entry, result: pd.PdRoll, kills: dict[str, int], destroyed: set[str]
) -> None:
    if entry.kind in pd.SALVO_KINDS or entry.kind == FIGHTERS_ATTACK:
        _tally_kills(state, entry, result.kills, kills)
    elif result.destroyed:
        destroyed.add(entry.marker)


def _tally_kills(state: GameState, entry: Entry, killed: int, kills: dict[str, int]) -> None:
    """A salvo's kills never exceed its missiles (the 1D6 on target caps them again), a group's
    its fighters."""
    marker = intercept.find_marker(state, entry.attack.marker)
    most = pd.SALVO_MISSILES if entry.kind in pd.SALVO_KINDS else 0
    if marker is not None and entry.kind in (FIGHTERS_ATTACK, DOGFIGHT):
        most = marker.strength
    total = kills.get(entry.attack.marker, 0) + killed
    kills[entry.attack.marker] = min(total, most)


def _for_another(state: GameState, d: Defence, entry: Entry) -> bool:
    """A PDS through its ADFC, or an AF salvo at an attack on another ship, shows its ship."""
    if d.role == ROLE_AF:
        return d.ship.id not in attacked_ships(state, entry.attack)
    return protected(state, d, entry) is not None
