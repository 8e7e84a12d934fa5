"""The rules a design's ordnance must keep (compendium C2.2–C2.5, RULES §9.2), as messages.

A rack is built with its one load; a salvo or heavy-missile launcher is fed from exactly one
magazine of the design; a magazine feeds at least one launcher and holds only loads one of its
launchers can fire, each at least once. A fighter or drone bay holds one group of a type of
its own kind (C5.0), never boarding pods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.designs.spec import SystemSpec
from app.rules.systems import BAY_GROUPS, LOAD_MASS, SYSTEMS, loads_of, system_label
from app.rules.systems.row import either

if TYPE_CHECKING:
    from app.rules.designs.design import Design

MAGAZINE = "magazine"
FIGHTER_BAY = "fighter_bay"
DRONE_BAY = "drone_bay"


def ordnance_problems(d: Design) -> list[str]:
    """Every ordnance rule the design breaks (racks' loads, launchers' magazines, magazines)."""
    out: list[str] = []
    magazines = [s.id for s in d.systems if s.type == MAGAZINE]
    for s in d.systems:
        table_row = SYSTEMS.get(s.type)
        if table_row is None:
            continue
        if table_row.rack:
            out += _rack_problems(s)
        elif table_row.fed:
            out += _feed_problems(d, s, magazines)
        elif table_row.stores:
            out += _magazine_problems(d, s)
        elif table_row.holds:
            out += _bay_problems(s)
    return out


def _bay_problems(s: SystemSpec) -> list[str]:
    """A bay names one group type of its own kind (C5.0); boarding pods are refused."""
    name = s.describe()
    own = BAY_GROUPS[s.type]
    other_type = DRONE_BAY if s.type == FIGHTER_BAY else FIGHTER_BAY
    fix = f"choose a group type, e.g. {_quoted(list(own)[:4])}"
    if s.load is None:
        return [f"{name} holds no group: {fix}"]
    found = own.get(s.load)
    if found is not None and not found.boarding:
        return []
    if found is not None:
        return [f"{name} holds boarding pods, which are out of scope until boarding exists: {fix}"]
    if s.load in BAY_GROUPS[other_type]:
        kind = "drone" if s.type == FIGHTER_BAY else "fighter"
        return [
            f"{name} holds {s.load!r}, a {kind} type: a {system_label(other_type)} carries "
            f"those; {fix}"
        ]
    return [f"{name}: {s.load!r} is not a group type of C5.0: {fix}"]


def _quoted(names: tuple[str, ...] | list[str]) -> str:
    return either([f'"{n}"' for n in names])


def _rack_problems(s: SystemSpec) -> list[str]:
    choices = SYSTEMS[s.type].fires
    what = "missile type" if s.type == "heavy_missile_rack" else "load"
    name = s.describe()
    if s.load is None:
        return [f"{name} has no {what}: choose {_quoted(choices)}"]
    if s.load not in choices:
        return [f"{name} has {what} {s.load!r}: choose {_quoted(choices)}"]
    return []


def _feed_problems(d: Design, s: SystemSpec, magazines: list[str]) -> list[str]:
    name = s.describe()
    if magazines:
        fix = f"set its magazine to {either(magazines)}"
    else:
        fix = "add a missile magazine and set this launcher's magazine to its id"
    if s.magazine is None:
        return [f"{name} is fed from no magazine: {fix}"]
    if s.magazine in magazines:
        return []
    other = next((x for x in d.systems if x.id == s.magazine), None)
    if other is None:
        return [f"{name}: magazine {s.magazine!r} is not a system of this design: {fix}"]
    return [f"{name}: {s.magazine!r} is a {system_label(other.type)}, not a magazine: {fix}"]


def _magazine_problems(d: Design, s: SystemSpec) -> list[str]:
    out: list[str] = []
    name = s.describe()
    out += _load_list_problems(name, s)
    if s.capacity is not None:
        out.append(
            f"{name} has a capacity: capacity is only the other side's view of a magazine (its "
            "mass without its loads); remove it and give the magazine its loads"
        )
    if not s.loads:
        out.append(f'{name} holds nothing: give it loads, e.g. {{"salvo": 2}}')
    launchers = [x for x in d.systems if x.magazine == s.id and SYSTEMS.get(x.type, _NONE).fed]
    if not launchers:
        out.append(
            f"{name} feeds no launcher: make it the magazine of a salvo missile launcher or a "
            "heavy missile launcher, or remove it"
        )
        return out
    fireable = {load for x in launchers for load in loads_of(x)}
    ids = either([x.id for x in launchers])
    for load, _ in s.loads:
        if load in LOAD_MASS and load not in fireable:
            fitting = "salvo missile launcher" if load in _SML_ONLY else "launcher that fires it"
            out.append(
                f"{name} holds {load!r}, which none of its launchers ({ids}) can fire: feed a "
                f"{fitting} from it, or take the {load!r} out"
            )
    return out


_SML_ONLY = frozenset(SYSTEMS["salvo_launcher"].fires) - frozenset(
    SYSTEMS["heavy_missile_launcher"].fires
)
_NONE = SYSTEMS[MAGAZINE]  # a row that is not fed (for unknown types)


def _load_list_problems(name: str, s: SystemSpec) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for load, count in s.loads:
        if load in seen:
            out.append(f"{name} lists {load!r} more than once: give each load once, with its count")
            continue
        seen.add(load)
        if load not in LOAD_MASS:
            out.append(f"{name}: {load!r} is not a load: use {_quoted(list(LOAD_MASS))}")
        elif count < 1:
            out.append(
                f"{name} holds {count} × {load!r}: give a count of 1 or more, or take {load!r} out"
            )
    return out
