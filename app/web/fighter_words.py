"""The log's words for fighter and drone groups (issue 13): each event told from what the seat
receives. The step-2 items of groups come in the one ``ordnance_acted`` event (redacted for the
other side); sightings, engagements lost, attack runs and dogfights are public."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.web.grammar import cap, owned_by_one, plural, possessive
from app.web.groups import group_words, type_words

CONTACT_LOST = {
    "speed": "its target was too fast to follow",
    "broke_off": "it broke off",
    "exhausted": "it has no combat endurance left",
    "destroyed": "its target was destroyed",
}
MODES = {"anti_ship": "anti-ship", "pd": "point defence"}


def _pos(p: Mapping[str, Any] | None) -> str:
    return f"({p['x']:.1f}, {p['y']:.1f})" if p else "?"


def _dice(values: Any) -> str:
    return ",".join(str(v) for v in values) if values else "–"


_n = plural
_cap = cap


def _kind(d: Mapping[str, Any], kind: str, group: str) -> dict[str, Any]:
    """A group's kind and type as an event names them (under its own keys)."""
    return {"kind": d.get(kind) or "fighters", "group": d.get(group)}


class FighterWords:
    """The group events' sentences; mixed into ``Teller``, whose names and sides they use."""

    names: dict[str, str]
    sides: dict[str, str]
    seat: str
    # groups as the seat has heard of them: id → (side, kind, type or None)
    known_groups: dict[str, tuple[str | None, str, str | None]]

    # Teller's own words for a ship and a side (declared here for the type checker only)
    ship: Callable[[str], str]
    side: Callable[[str | None], str]

    def _group_seen(self, m: Mapping[str, Any]) -> None:
        marker = m.get("marker") or m.get("id")
        if not marker:
            return
        old = self.known_groups.get(str(marker), (None, "fighters", None))
        self.known_groups[str(marker)] = (
            m.get("side") or old[0],
            str(m.get("kind") or old[1]),
            m.get("group") or m.get("type") or old[2],
        )

    def group(self, marker: str | None) -> str:
        """ "your fighter group g3", "the enemy drone group g5 (heavy drones)"."""
        if not marker:
            return "a group"
        side, kind, gtype = self.known_groups.get(marker, (None, "fighters", None))
        words = f"{group_words(kind)} {marker}"
        if gtype and group_words(kind, gtype) != group_words(kind):
            words += f" ({type_words(kind, gtype)})"
        if side is None:
            return f"the {words}"
        if side == self.seat:
            return f"your {words}"
        if self.seat in ("A", "B"):
            return f"the enemy {words}"
        return f"{possessive(self.side(side))} {words}"

    def target(self, target: str | None) -> str:
        """A ship by name, or a group by its words (an attack may aim at either)."""
        if not target:
            return "nothing"
        if target in self.names:
            return self.ship(target)
        return self.group(target)

    def _group_acted(self, m: Mapping[str, Any]) -> str:
        """One group's step-2 item (the owner's and the referee's copy)."""
        self._group_seen(m)
        what = self.group(m["marker"])
        result = m.get("result", "")
        cef = f", CEF {m['cef']}" if m.get("cef") is not None else ""
        strength = f", {m['strength']} strong" if m.get("strength") is not None else ""
        if result == "launched":
            bay = f" from {m['bay']}" if m.get("bay") else ""
            moved = m.get("to") and m.get("to") != m.get("from")
            to = f" and flew to {_pos(m.get('to'))}" if moved else f" at {_pos(m.get('from'))}"
            return f"{what} launched{bay}{to}{strength}{cef}"
        if result == "moved":
            return f"{what} flew from {_pos(m.get('from'))} to {_pos(m.get('to'))}{cef}"
        if result == "landed":
            bay = f" in {m['bay']}" if m.get("bay") else ""
            return f"{what} landed{bay}{strength}"
        if result == "held":
            return f"{what} holds at {_pos(m.get('to') or m.get('from'))}"
        if result == "stayed":
            engaged = m.get("engaged_with")
            if engaged:
                return f"{what} stays engaged with {self.ship(engaged)}"
            return f"{what} stays at {_pos(m.get('to') or m.get('from'))}"
        return f"{what}: {str(result).replace('_', ' ')}"

    # -- one method per event type ------------------------------------------------------------
    def _fighters_sighted(self, d: Mapping[str, Any], e: Any) -> str:
        found = list(d.get("groups", ()))
        for g in found:
            self._group_seen(g)
        parts = [
            f"{self.group(g.get('marker') or g.get('id'))} at {_pos(g.get('position'))}"
            + (f", {g['strength']} strong" if g.get("strength") is not None else "")
            for g in found
        ]
        if d.get("cause") == "ping":
            who = self.ship(d["by"]) if d.get("by") else "a ping"
            lead = f"{owned_by_one(_cap(who))} ping detected"
        elif d.get("side"):  # line of sight (F5): the side whose group saw them
            lead = f"{_cap(self.side(d['side']))} sighted"
        else:
            by = d.get("by") or d.get("marker")
            lead = f"{_cap(self.target(by))} sighted" if by else "Sighted"
        return f"{lead} {'; '.join(parts) if parts else 'no groups'}."

    def _fighters_step(self, d: Mapping[str, Any], e: Any) -> str:
        return f"{owned_by_one(_cap(self.ship(d['ship'])))} groups choose their targets."

    def _fighters_chosen(self, d: Mapping[str, Any], e: Mapping[str, Any]) -> str:
        name = _cap(self.ship(d["ship"]))
        if e.get("redacted") or "choices" not in d:
            return f"{owned_by_one(name)} groups chose their targets (shown as they attack)."
        parts = []
        for c in d["choices"]:
            who = self.group(c["marker"])
            if c.get("attack") is None:
                parts.append(f"{who} does not attack")
                continue
            how = []
            if c.get("system"):
                how.append(f"at its {c['system'].replace('_', ' ')}")
            if c.get("mode"):
                how.append(f"as {MODES.get(c['mode'], c['mode'])}")
            aimed = "".join(f" {h}" for h in how)
            parts.append(f"{who} attacks {self.target(c['attack'])}{aimed}")
        return f"{owned_by_one(name)} groups chose: " + ("; ".join(parts) or "nothing") + "."

    def _contact_lost(self, d: Mapping[str, Any], e: Any) -> str:
        why = CONTACT_LOST.get(d.get("reason", ""), str(d.get("reason", "")).replace("_", " "))
        where = f"; it stays at {_pos(d['at'])}" if d.get("at") else ""
        ship = self.ship(d["ship"]) if d.get("ship") else "its target"
        return f"{_cap(self.group(d.get('marker')))} lost contact with {ship} ({why}){where}."

    def _fighters_attack(self, d: Mapping[str, Any], e: Any) -> str:
        # the attacker is of the side its target ship is not, when the event does not say
        other = {"A": "B", "B": "A"}.get(self.sides.get(str(d.get("target")), ""))
        self._group_seen({**d, "side": d.get("side") or other})
        who = _cap(self.group(d.get("marker")))
        target = self.target(d.get("target"))
        if d.get("system"):
            target = f"{owned_by_one(target)} {d['system'].replace('_', ' ')}"
        if d.get("destroyed"):
            return f"{who} was shot down attacking {target}: none of it was left to roll."
        n = d.get("fighters")
        rolled = _dice(d.get("rolled"))
        notation = f" {d['notation']}" if d.get("notation") else ""
        text = f"{who} attacked {target}"
        if n is not None:
            text += f" with {_n(int(n), 'fighter')}"
        text += f":{notation} rolled {rolled}"
        if d.get("sixes"):
            text += f" ({_n(int(d['sixes']), 'six', 'sixes')})"
        armour, hull = d.get("armour_damage", 0), d.get("hull_damage", 0)
        split = f" ({armour} armour, {hull} hull)" if armour or hull else ""
        text += f" → {armour + hull} damage{split}"
        if d.get("killed"):
            text += f"; {_n(int(d['killed']), 'fighter')} shot down before it rolled"
        if d.get("exhausted"):
            text += "; its endurance is spent: it is gone"
        return text + "."

    def _fire_side(self, marker: str | None, fire: Mapping[str, Any] | None) -> str:
        if not fire:
            return f"{self.group(marker)}: nothing"
        rolled = _dice(fire.get("rolled"))
        return (
            f"{self.group(marker)} rolled {rolled} ({fire.get('notation', '')}), "
            f"{_n(int(fire.get('kills', 0)), 'kill')}"
        )

    def _dogfight(self, d: Mapping[str, Any], e: Any) -> str:
        first = d.get("marker")
        second = d.get("target")
        other = {"A": "B", "B": "A"}.get(str(d.get("side")))
        self._group_seen({"marker": first, "side": d.get("side"), **_kind(d, "kind", "group")})
        self._group_seen(
            {"marker": second, "side": other, **_kind(d, "target_kind", "target_group")}
        )
        attacker = d.get("attacker") if isinstance(d.get("attacker"), Mapping) else None
        defender = d.get("defender") if isinstance(d.get("defender"), Mapping) else None
        text = f"Dogfight: {self._fire_side(first, attacker)}; {self._fire_side(second, defender)}"
        if d.get("gone"):
            text += "; gone: " + ", ".join(self.group(g) for g in d["gone"])
        return text + "."

    def _groups_hit(self, d: Mapping[str, Any], e: Any) -> str:
        parts = [
            f"{self.group(g['marker'])} lost {g['killed']}"
            + (f", {g['strength']} left" if g.get("strength") else ", none left")
            for g in d.get("groups", ())
        ]
        return "Fire at groups: " + ("; ".join(parts) or "nothing hit") + "."

    def group_type_words(self, kind: str, name: str | None) -> str:
        return type_words(kind, name)
