"""What a seat sees of ordnance (RULES §9.1, API.md "The view"): markers in flight, the public
copies of designs, and the step-2 orders ``legal`` offers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.rules.designs import Design
from app.rules.fighters.shown import own_group_fields, public_group
from app.rules.geometry import Vec
from app.rules.state import AMT, GROUP_KINDS, HEAVY_MISSILE, GameState, MarkerState
from app.rules.systems import REACH

# a magazine's loads, a heavy-missile rack's type, a bay's group type
_SECRET_LOAD_TYPES = frozenset({"magazine", "heavy_missile_rack", "fighter_bay", "drone_bay"})


def has_secret_loads(design: Design) -> bool:
    """Whether the design holds loads its public copy leaves out."""
    return any(s.type in _SECRET_LOAD_TYPES for s in design.systems)


def public_designs(data: Mapping[str, Any], seat: str) -> dict[str, Any]:
    """``game_started``'s designs as ``seat`` receives them: its own ships' in full, the others'
    as their public copies (a spectator sees public copies only)."""
    own = {s["design"] for s in data["ships"] if s["side"] == seat}
    out: dict[str, Any] = {}
    for key, d in data["designs"].items():
        if key in own:
            out[key] = d
            continue
        design = Design.from_dict(d)
        out[key] = design.public().to_dict() if has_secret_loads(design) else d
    return out


def markers_view(state: GameState, seat: str) -> list[dict[str, Any]]:
    """Own markers and the referee's in full (an own AMT at its aim point), attacking with their
    target; the other side's only while live, with what is public (no position, mother, aim or
    endurance; an ECM missile as its three counters)."""
    out: list[dict[str, Any]] = []
    window = state.phase.defence
    targets = {a.marker: a.target for a in window.attacks} if window is not None else {}
    for m in state.markers:
        if seat == "referee":
            out.append(_own(m, m.position, targets.get(m.id)))
        elif m.side == seat:
            # an AMT that homed on a ship is shown where it was aimed: the point it homed to is
            # that ship's true position (decision, RULES §9.3 / C2.4)
            shown = m.aim if m.kind == AMT else m.position
            out.append(_own(m, shown, targets.get(m.id)))
        elif m.live and m.kind in GROUP_KINDS:
            out.append(public_group(m))
        elif m.live:
            out += _public(m, targets.get(m.id))
    # in id order as shown: an ECM missile's counters listed where its own id would stand
    # would set them apart from the real heavy missiles
    return sorted(out, key=lambda item: item["id"])


def _own(m: MarkerState, position: Vec, target: str | None) -> dict[str, Any]:
    item: dict[str, Any] = {
        "id": m.id,
        "side": m.side,
        "kind": m.kind,
        "mother": m.mother,
        "position": position.to_dict(),
        "aim": m.aim.to_dict(),
        "strength": m.strength,
        "live": m.live,
        "acts_turn": m.acts_turn,
    }
    if m.missile is not None:
        item["type"] = m.missile
    if m.endurance is not None:
        item["endurance"] = m.endurance
    if m.system is not None:
        item["system"] = m.system
    if m.counters:
        item["counters"] = list(m.counters)
    if m.kind in GROUP_KINDS:
        item.update(own_group_fields(m))
    if target is not None:
        item["target"] = target
    return item


def _public(m: MarkerState, target: str | None) -> list[dict[str, Any]]:
    """A live enemy marker: its kind, its strength and, attacking, its target; never where it is
    (a salvo's aim point, a heavy missile's end point and an AMT's homed point are its side's:
    decision, RULES §9.1/9.3; clients draw it beside its target). An ECM missile shows as its
    three counters, plain heavy missiles."""
    out = []
    for marker in m.counters or (m.id,):
        item: dict[str, Any] = {"id": marker, "side": m.side, "kind": m.kind}
        item.update(strength=m.strength, live=True)
        if target is not None:
            item["target"] = target
        out.append(item)
    return out


def marker_orders(state: GameState, due: Iterable[MarkerState]) -> list[dict[str, Any]]:
    """``legal.markers`` in step 2: each acting marker, where it is and how far it may go (only a
    heavy missile takes an order; none lands before fighters)."""
    return [
        {
            "marker": m.id,
            "kind": m.kind,
            "from": m.position.to_dict(),
            "reach": REACH[HEAVY_MISSILE] if m.kind == HEAVY_MISSILE else 0.0,
            "can_land": False,
        }
        for m in due
    ]
