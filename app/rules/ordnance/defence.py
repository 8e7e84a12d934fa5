"""The defence window's rules (RULES §9.5; decisions 8 and 17): who is awaited, what may defend
what, the default allocation, and the checks of a ``defend`` command.

Pure. The attacks of one step 2 are shown to everyone as *entries*: one per attack, except an
ECM missile, shown as its three counters, each a plain heavy missile (C2.5). An allocation pairs
one defending system with one entry by its shown id (``against``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.rules import capabilities as cap
from app.rules.designs import SystemSpec
from app.rules.errors import (
    DuplicateWeapon,
    InvalidCommand,
    NotYourShip,
    OutOfArc,
    OutOfRange,
    RulesError,
    UnknownMarker,
    UnknownShip,
    WeaponNotWorking,
)
from app.rules.fighters import intercept
from app.rules.fighters.groups import group_type
from app.rules.geometry import Vec, distance, target_in_arcs
from app.rules.ordnance import pd
from app.rules.state import DOGFIGHT, FIGHTERS_ATTACK, Attack, GameState, ShipState
from app.rules.systems import BAY_GROUPS, LAUNCHER_TYPES

PDS, ADFC, BEAM, SML = "pds", "adfc", "beam", "salvo_launcher"
AF_LOAD = "af_salvo"
# how each defending system type is used: a PDS, a class-1 beam as a PDS, an AF salvo
ROLE_PDS, ROLE_BEAM, ROLE_AF = "pds", "beam", "af_salvo"
ADFC_REACH = 6.0  # mu from the ADFC's ship to the friend it protects (C3.3)
AF_REACH, AF_ANY_ARC_REACH = 9.0, 6.0  # an AF salvo: 9 mu in its arcs, 6 mu in any (C2.3)
AMT_BLAST = 3.0  # an AMT's defenders: every ship within 3 mu of its point (decision 13)
_DEFENDER_TYPES = frozenset({PDS, ADFC, SML, *BAY_GROUPS})  # a bay's groups may intercept
_ATTACKER_TYPES = frozenset({*LAUNCHER_TYPES, *BAY_GROUPS})


# -- refusals ----------------------------------------------------------------------------------
class AlreadyFired(RulesError):
    code = "already_fired"


class IllegalPairing(RulesError):
    code = "illegal_pairing"


class NoLoad(RulesError):
    code = "no_load"


# -- what the window shows ---------------------------------------------------------------------
@dataclass(frozen=True)
class Entry:
    """One attacking marker as the window shows it; ``attack`` is the real attack behind it."""

    marker: str  # the shown id: the marker's, or an ECM missile's counter's
    kind: str  # the shown kind: an ECM counter is a heavy missile
    attack: Attack

    @property
    def target(self) -> str | None:
        return self.attack.target

    def public(self) -> dict[str, Any]:
        out = {
            "marker": self.marker,
            "side": self.attack.side,
            "kind": self.kind,
            "target": self.attack.target,
        }
        # a needle group's named system and a multi-role group's mode are part of the attack
        # as announced (decision H2-W1): the fold rebuilds the attack from these entries
        for key in ("system", "mode"):
            if getattr(self.attack, key) is not None:
                out[key] = getattr(self.attack, key)
        return out


def entries(attacks: Iterable[Attack]) -> tuple[Entry, ...]:
    out: list[Entry] = []
    for attack in attacks:
        if attack.counters:
            out.extend(Entry(c, "heavy_missile", attack) for c in attack.counters)
        else:
            out.append(Entry(attack.marker, attack.kind, attack))
    # in shown-id order: listed per marker, an ECM missile's three counters would stand out as
    # one block among the real heavy missiles
    return tuple(sorted(out, key=lambda entry: entry.marker))


def attacked_ships(state: GameState, attack: Attack) -> tuple[str, ...]:
    """The ships that may defend against an attack: its target; for an AMT, every ship of its
    target's side within 3 mu of its point. Its owner's ships in the blast take the damage but
    do not fire at their own torpedo, and one that homed on nothing has no defenders: whom a
    window awaits then rests on the public target only, never on where the hidden point is."""
    if attack.kind == "amt":
        if attack.target is None or attack.point is None:
            return ()
        point, side = attack.point, state.ship(attack.target).side
        return tuple(
            s.id
            for s in state.ships
            if s.side == side
            and s.on_table
            and s.position is not None
            and distance(s.position, point) <= AMT_BLAST + 1e-9
        )
    if attack.kind == DOGFIGHT:
        return ()  # a group is attacked: only an own group may defend it (by interception)
    return (attack.target,) if attack.target is not None else ()


def _design_defends(state: GameState, ship: ShipState) -> bool:
    return any(
        spec.type in _DEFENDER_TYPES or (spec.type == BEAM and spec.cls == 1)
        for spec in state.design_of(ship).all_systems()
    )


def can_defend(state: GameState, side: str) -> bool:
    """Whether a window could await the side now: an in-control ship in play whose design has
    a PDS, an ADFC, a class-1 beam, a salvo launcher or a bay (public facts)."""
    return any(s.in_control and _design_defends(state, s) for s in state.ships_of(side))


def may_be_attacked(state: GameState, side: str) -> bool:
    """Whether the side could ever be awaited in a window (public hardware): it can defend, and
    the other side has a ship in play whose design launches ordnance or groups (its markers are
    removed with it, decision 15)."""
    enemies = [s for s in state.ships if s.side != side and s.in_play]
    launches = any(
        spec.type in _ATTACKER_TYPES for s in enemies for spec in state.design_of(s).all_systems()
    )
    return launches and can_defend(state, side)


def awaited(state: GameState, attacks: Sequence[Attack]) -> tuple[str, ...]:
    """The sides a window waits for (decision 17, public facts only): each side with an
    attacked ship or group and an in-control ship in play whose design has a PDS, an ADFC, a
    class-1 beam, a salvo launcher or a bay."""
    hit = {state.ship(s).side for a in attacks for s in attacked_ships(state, a)}
    for a in attacks:
        target = intercept.find_marker(state, a.target or "") if a.kind == DOGFIGHT else None
        if target is not None:
            hit.add(target.side)
    out = []
    for side in sorted(hit):
        if can_defend(state, side):
            out.append(side)
    return tuple(out)


# -- what may defend ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Defence:
    """One system that may defend now, and how."""

    ship: ShipState
    spec: SystemSpec
    role: str  # pds | beam | af_salvo


def role_of(spec: SystemSpec) -> str | None:
    if spec.type == PDS:
        return ROLE_PDS
    if spec.type == BEAM and spec.cls == 1:
        return ROLE_BEAM
    if spec.type == SML:
        return ROLE_AF
    return None


def _unready(state: GameState, ship: ShipState, spec: SystemSpec) -> RulesError | None:
    """Why a system cannot defend at all now, or None."""
    name = f"{ship.name}'s {spec.describe()}"
    if role_of(spec) is None:
        return IllegalPairing(f"{name} cannot defend: use a PDS, a class-1 beam or an SML")
    if not ship.in_control:
        return IllegalPairing(f"{ship.name} is not in control: its systems cannot defend")
    if not ship.system(spec.id).working:
        return WeaponNotWorking(f"{name} is {ship.system(spec.id).status}: it cannot fire")
    if spec.id in ship.fired:
        return AlreadyFired(f"{name} has already fired this turn")
    if spec.id in ship.spent or cap.offline(state, ship, spec.id):
        return AlreadyFired(f"{name} cannot fire now (spent or offline)")
    if spec.type == SML:
        return _af_unready(state, ship, spec, name)
    return None


def _af_unready(
    state: GameState, ship: ShipState, spec: SystemSpec, name: str
) -> RulesError | None:
    """An SML fires an AF salvo only if it never fired another kind (decision 8) and its
    magazine works and holds one."""
    other = [k for k in ship.launched_kinds.get(spec.id, ()) if k != AF_LOAD]
    if other:
        return IllegalPairing(
            f"{name} has fired {other[0].replace('_', ' ')} this game: an anti-fighter salvo "
            "cannot follow another kind (C2.3)"
        )
    magazine = spec.magazine
    if magazine is None or not ship.system(magazine).working:
        return NoLoad(f"{name}: its magazine does not work, so it has no anti-fighter salvo")
    if ship.loads.get(magazine, {}).get(AF_LOAD, 0) <= 0:
        return NoLoad(f"{name}: magazine {magazine} holds no anti-fighter salvo")
    return None


def ready_defences(state: GameState, side: str) -> tuple[Defence, ...]:
    out = []
    for ship in state.ships_of(side):
        if not ship.in_control:
            continue
        for spec in state.design_of(ship).all_systems():
            if role_of(spec) is not None and _unready(state, ship, spec) is None:
                out.append(Defence(ship, spec, role_of(spec) or ROLE_PDS))
    return tuple(out)


def _working_adfcs(ship: ShipState) -> int:
    return sum(1 for s in ship.systems_of(ADFC) if s.working)


def entry_point(state: GameState, entry: Entry) -> Vec | None:
    """Where an attacking marker is: next to its target ship (C2.2), or an AMT's point."""
    if entry.target is not None:
        return state.ship(entry.target).position
    return entry.attack.point


def pairing_problem(state: GameState, d: Defence, entry: Entry) -> RulesError | None:
    """Why this system may not defend against this entry, or None (whole-window limits such as
    ADFC coverage are ``allocation_problem``'s)."""
    hit = attacked_ships(state, entry.attack)
    own = [state.ship(s) for s in hit if state.ship(s).side == d.ship.side]
    name = f"{d.ship.name}'s {d.spec.describe()}"
    if not own:
        return IllegalPairing(f"{entry.marker} attacks none of your ships: nothing to defend")
    if d.role == ROLE_AF:
        return _af_reach(state, d, entry, name)
    if d.ship.id in hit:
        return None
    if d.role == ROLE_BEAM:
        return IllegalPairing(f"{name} defends only its own ship; {entry.marker} attacks another")
    if _working_adfcs(d.ship) == 0:
        return IllegalPairing(
            f"{name} defends only its own ship: {d.ship.name} has no working ADFC"
        )
    near = [s for s in own if _within(d.ship, s, ADFC_REACH)]
    if not near:
        gap = min(_gap(d.ship, s) for s in own)
        return OutOfRange(
            f"{own[0].name} is {gap:.1f} mu from {d.ship.name}; an ADFC covers a friend within "
            f"{ADFC_REACH:g} mu"
        )
    return None


def _gap(a: ShipState, b: ShipState) -> float:
    assert a.position is not None and b.position is not None
    return distance(a.position, b.position)


def _within(a: ShipState, b: ShipState, reach: float) -> bool:
    return a.position is not None and b.position is not None and _gap(a, b) <= reach + 1e-9


def _af_reach(state: GameState, d: Defence, entry: Entry, name: str) -> RulesError | None:
    point, origin = entry_point(state, entry), d.ship.position
    if point is None or origin is None:
        return OutOfRange(f"{name} cannot reach {entry.marker}")
    gap = distance(origin, point)
    if gap <= AF_ANY_ARC_REACH + 1e-9:
        return None
    if gap > AF_REACH + 1e-9:
        return OutOfRange(
            f"{entry.marker} is {gap:.1f} mu from {d.ship.name}; an anti-fighter salvo reaches "
            f"{AF_REACH:g} mu in its arcs, {AF_ANY_ARC_REACH:g} in any"
        )
    if not target_in_arcs(origin, d.ship.heading, point, d.spec.arcs):
        return OutOfArc(
            f"{entry.marker} is {gap:.1f} mu away outside {name}'s arcs "
            f"({', '.join(d.spec.arcs)}); beyond {AF_ANY_ARC_REACH:g} mu it must be in arc"
        )
    return None


def protected(state: GameState, d: Defence, entry: Entry) -> str | None:
    """The other friendly ship a PDS fires for through its ship's ADFC, or None (its own)."""
    if d.role != ROLE_PDS:
        return None
    hit = attacked_ships(state, entry.attack)
    if d.ship.id in hit:
        return None
    own = [s for s in hit if state.ship(s).side == d.ship.side]
    near = [s for s in own if _within(d.ship, state.ship(s), ADFC_REACH)]
    return near[0] if near else None


# -- what the window offers ---------------------------------------------------------------------
def odds(state: GameState, d: Defence, entry: Entry) -> float:
    if entry.kind == FIGHTERS_ATTACK:
        # at a group: expected kills, with the DRM the defender may know (F11)
        m = intercept.find_marker(state, entry.attack.marker)
        assert m is not None
        if d.role == ROLE_AF:
            return pd.odds_number(min(pd.af_odds("salvo"), Fraction(m.strength)))
        return pd.odds_number(pd.expected_pd_kills(intercept.shown_drm(m)))
    if d.role == ROLE_AF:
        return pd.odds_number(pd.af_odds(entry.kind))
    return pd.odds_number(pd.pd_odds(entry.kind, pd.marker_drm(entry.kind)))


def group_drm(state: GameState, entry: Entry) -> int:
    """The DRM point defence rolls with at an entry: an attacking group's type's (C5.0)."""
    if entry.kind != FIGHTERS_ATTACK:
        return pd.marker_drm(entry.kind)
    m = intercept.find_marker(state, entry.attack.marker)
    assert m is not None
    return group_type(m).drm


def pairings(state: GameState, side: str, attacks: Sequence[Attack]) -> list[dict[str, Any]]:
    """Every legal pairing of the side's ready systems with the window's entries."""
    shown = entries(attacks)
    out = []
    for d in ready_defences(state, side):
        for entry in shown:
            if pairing_problem(state, d, entry) is None:
                out.append(
                    {
                        "ship": d.ship.id,
                        "system": d.spec.id,
                        "against": entry.marker,
                        "odds": odds(state, d, entry),
                    }
                )
    return out + intercept.pairings(state, side, [(e.marker, e.attack) for e in shown])


def default_allocation(
    state: GameState, side: str, attacks: Sequence[Attack]
) -> list[dict[str, str]]:
    """Every ready PDS of each attacked ship at the attacks on that ship, dealt round in turn
    (salvos first, then by shown id), one PDS per pairing; no ADFC, beam or AF salvo."""
    shown = entries(attacks)
    out = []
    for ship in state.ships_of(side):
        aimed = [e for e in shown if ship.id in attacked_ships(state, e.attack)]
        aimed.sort(key=lambda e: (e.kind not in pd.SALVO_KINDS, e.marker))
        if not aimed or not ship.in_control:
            continue
        pdss = [d for d in ready_defences(state, side) if d.ship.id == ship.id]
        pdss = [d for d in pdss if d.role == ROLE_PDS]
        for i, d in enumerate(pdss):
            out.append(
                {"ship": ship.id, "system": d.spec.id, "against": aimed[i % len(aimed)].marker}
            )
    return out


# -- a defend command's allocations ------------------------------------------------------------
def check_allocations(
    state: GameState, side: str, attacks: Sequence[Attack], allocations: Sequence[Mapping[str, Any]]
) -> list[dict[str, str]]:
    """The allocations in their stored form, or the first refusal (each names what to change)."""
    shown = {e.marker: e for e in entries(attacks)}
    used: set[tuple[str, str]] = set()
    covered: dict[str, set[str]] = {}
    af_taken: dict[tuple[str, str], int] = {}  # (ship, magazine) -> AF salvos allocated so far
    groups: set[str] = set()
    out = []
    for i, alloc in enumerate(allocations):
        if "group" in alloc:
            attacks_by_id = {k: e.attack for k, e in shown.items()}
            out.append(
                intercept.check(state, side, attacks_by_id, alloc, groups, f"allocations[{i}]")
            )
            continue
        d, entry = _read_allocation(state, side, shown, alloc, i)
        if (d.ship.id, d.spec.id) in used:
            raise DuplicateWeapon(f"allocations[{i}]: {d.spec.id} of {d.ship.name} fires once")
        used.add((d.ship.id, d.spec.id))
        if d.role == ROLE_AF:
            _take_af_load(d, af_taken, i)
        problem = pairing_problem(state, d, entry)
        if problem is not None:
            raise type(problem)(f"allocations[{i}]: {problem.detail}")
        friend = protected(state, d, entry)
        if friend is not None:
            covered.setdefault(d.ship.id, set()).add(friend)
            if len(covered[d.ship.id]) > _working_adfcs(d.ship):
                raise IllegalPairing(
                    f"allocations[{i}]: {d.ship.name} has {_working_adfcs(d.ship)} working "
                    f"ADFC, each covering one other ship this window; it would cover "
                    f"{', '.join(sorted(covered[d.ship.id]))}"
                )
        out.append({"ship": d.ship.id, "system": d.spec.id, "against": entry.marker})
    return out


def _take_af_load(d: Defence, taken: dict[tuple[str, str], int], i: int) -> None:
    """Launchers fed from one magazine share its anti-fighter salvos: each allocated takes one."""
    assert d.spec.magazine is not None  # _af_unready refused a launcher without one
    key = (d.ship.id, d.spec.magazine)
    taken[key] = taken.get(key, 0) + 1
    held = d.ship.loads.get(d.spec.magazine, {}).get(AF_LOAD, 0)
    if taken[key] > held:
        raise NoLoad(
            f"allocations[{i}]: magazine {d.spec.magazine} of {d.ship.name} holds "
            f"{held} anti-fighter salvo{'' if held == 1 else 's'}, and earlier allocations "
            "already fire them"
        )


def _read_allocation(
    state: GameState, side: str, shown: Mapping[str, Entry], alloc: Mapping[str, Any], i: int
) -> tuple[Defence, Entry]:
    where = f"allocations[{i}]"
    ship_id, system_id = alloc.get("ship"), alloc.get("system")
    if ship_id is None or system_id is None:
        raise InvalidCommand(f"{where}: name the defending 'ship' and its 'system'")
    entry = shown.get(alloc["against"])
    if entry is None:
        raise UnknownMarker(f"{where}: no attacking marker {alloc['against']!r} in this window")
    if not state.has_ship(ship_id):
        raise UnknownShip(f"{where}: there is no ship {ship_id!r} in this game")
    ship = state.ship(ship_id)
    if ship.side != side:
        raise NotYourShip(f"{where}: {ship.name} belongs to side {ship.side}")
    spec = next((s for s in state.design_of(ship).all_systems() if s.id == system_id), None)
    if spec is None:
        raise InvalidCommand(f"{where}: {ship.name} has no system {system_id!r}")
    problem = _unready(state, ship, spec)
    if problem is not None:
        raise type(problem)(f"{where}: {problem.detail}")
    return Defence(ship, spec, role_of(spec) or ROLE_PDS), entry
