"""A group's fields as a seat is shown them: its own side's in full, the other side's public
ones only (issue 13)."""

from __future__ import annotations

from typing import Any

from app.rules.state import MarkerState


def own_group_fields(m: MarkerState) -> dict[str, Any]:
    """The group's own fields for its side (and the referee): type, bay, CEF, engagement."""
    out: dict[str, Any] = {"type": m.group, "bay": m.bay, "cef": m.cef}
    out["engaged_with"] = m.engaged_with
    out["type_shown"] = m.type_shown
    return out


def public_group(m: MarkerState) -> dict[str, Any]:
    """A live enemy group: never its mother, bay, aim, CEF or (until shown) type."""
    out: dict[str, Any] = {"id": m.id, "side": m.side, "kind": m.kind}
    out.update(strength=m.strength, position=m.position.to_dict(), live=True)
    out["engaged_with"] = m.engaged_with
    if m.type_shown:
        out["type"] = m.group
    return out
