"""Line of sight (decision F5) and ping detection of groups: what a side's groups see, and the
enemy groups a ping finds. Every reveal is a public event: the fighters step that may follow
rests on them alone."""

from __future__ import annotations

from typing import Any

from app.rules.builder import Builder
from app.rules.fighters.groups import groups_in_sight, groups_of, is_group, ships_in_sight
from app.rules.geometry import distance
from app.rules.state import MarkerState, ShipState


def sighted_item(m: MarkerState) -> dict[str, Any]:
    """An enemy group as a sighting shows it: only what one sees (F11: its type once shown)."""
    item: dict[str, Any] = {"marker": m.id, "kind": m.kind, "side": m.side}
    item.update(strength=m.strength, position=m.position.to_dict())
    if m.type_shown:
        item["group"] = m.group
    if m.engaged_with is not None:
        item["engaged_with"] = m.engaged_with
    return item


def look(b: Builder, mother: ShipState) -> bool:
    """The mother's groups look around after its step 2: enemy ships in sight are revealed
    (``ship_revealed`` cause fighters), enemy groups by one ``fighters_sighted``. Whether
    anything was revealed."""
    state = b.state
    ships: dict[str, ShipState] = {}
    groups: dict[str, MarkerState] = {}
    for g in groups_of(state, mother.id):
        ships.update((s.id, s) for s in ships_in_sight(state, g.side, g.position))
        groups.update((m.id, m) for m in groups_in_sight(state, g.side, g.position))
    for s in state.ships:  # roster order
        if s.id in ships:
            assert s.position is not None
            reveal = {"ship": s.id, "position": s.position.to_dict(), "heading": s.heading}
            b.emit("ship_revealed", {**reveal, "cause": "fighters"})
    if groups:
        seen = [sighted_item(groups[k]) for k in sorted(groups)]
        b.emit("fighters_sighted", {"cause": "sight", "side": mother.side, "groups": seen})
    return bool(ships or groups)


def ping_groups(b: Builder, pinger: ShipState) -> None:
    """A ping finds every enemy group on the table within the scenario's ping range of the
    pinger (no dice: groups have no ECM); one public ``fighters_sighted`` if any."""
    state = b.state
    if pinger.position is None:
        return
    reach = state.ping_range
    found = [
        sighted_item(m)
        for m in state.markers
        if is_group(m)
        and m.side != pinger.side
        and (reach is None or distance(pinger.position, m.position) <= reach + 1e-9)
    ]
    if found:
        data = {"cause": "ping", "side": pinger.side, "by": pinger.id, "groups": found}
        b.emit("fighters_sighted", data)
