"""The log in words: each event as a seat receives it, told as a sentence with its dice."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.rules.systems import system_label

CLOCK = ["12", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"]


def _dice(values: list[int] | tuple[int, ...]) -> str:
    return ",".join(str(v) for v in values) if values else "–"


def _pos(p: Mapping[str, Any] | None) -> str:
    if not p:
        return "?"
    return f"({p['x']:.1f}, {p['y']:.1f})"


def _heading(h: int | None) -> str:
    return "?" if h is None else f"{CLOCK[h % 12]} o'clock"


def _n(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _cap(text: str) -> str:
    """Upper-case the first letter only (``str.capitalize`` would lower-case ship names)."""
    return text[:1].upper() + text[1:]


class Teller:
    """Tells events for one seat; ship names and sides come from the view's roster."""

    def __init__(self, ships: list[Mapping[str, Any]], seat: str, side_names: Mapping[str, str]):
        self.names = {s["id"]: s["name"] for s in ships}
        self.sides = {s["id"]: s["side"] for s in ships}
        self.seat = seat
        self.side_names = side_names
        # ships revealed (live) so far in the events told: a ping that does not detect one of
        # them must not call it hidden while the map draws it (it stays live until it moves)
        self.live: set[str] = set()

    def tell_all(self, events: Iterable[Mapping[str, Any]]) -> list[str]:
        """Every event's sentence, told in order (a sentence may depend on what came before)."""
        return [self.tell(e) for e in events]

    def ship(self, ship_id: str) -> str:
        name = self.names.get(ship_id, ship_id)
        return f"your {name}" if self.sides.get(ship_id) == self.seat else name

    def side(self, side: str | None) -> str:
        if side is None:
            return "nobody"
        if side == self.seat:
            return "you"
        return self.side_names.get(side, f"side {side}")

    def does(self, side: str | None, verb: str) -> str:
        """ "you activate" but "Raiders activates" (a side's name is one subject)."""
        who = self.side(side)
        return f"{who} {verb}" if who == "you" else f"{who} {verb}s"

    def tell(self, event: Mapping[str, Any]) -> str:
        kind = str(event["type"])
        method = getattr(self, f"_{kind}", None)
        text = kind.replace("_", " ") if method is None else str(method(event["data"], event))
        self._follow(event)
        return text

    def _follow(self, event: Mapping[str, Any]) -> None:
        """Keep ``live`` as the view keeps ``revealed`` (RULES §6): live from a reveal until the
        ship next moves; a voided event changed nothing."""
        if event.get("voided"):
            return
        ship = event.get("data", {}).get("ship")
        if event["type"] == "ship_revealed":
            self.live.add(ship)
        elif event["type"] in ("ship_moved", "ship_left", "ship_destroyed"):
            self.live.discard(ship)

    # -- one method per event type ------------------------------------------------------------
    def _game_started(self, d: Mapping[str, Any], e: Any) -> str:
        a = self.side_names.get("A", "A")
        b = self.side_names.get("B", "B")
        return f"The duel is set: {a} v {b}, {d['movement']} movement, {d['turn_limit']} turns."

    def _seat_claimed(self, d: Mapping[str, Any], e: Any) -> str:
        who = d.get("name") or "A player"
        text = f"{who} took side {d['side']}."
        if d.get("game_active"):
            text += (
                " Both seats are taken: deploy your ships."
                if self.seat in ("A", "B")
                else " Both seats are taken: the sides deploy."
            )
        return text

    # the referee's actions: public events whose written reason everybody reads
    def _paused(self, d: Mapping[str, Any], e: Any) -> str:
        return f"The referee paused the game: {d.get('reason', '')}"

    def _resumed(self, d: Mapping[str, Any], e: Any) -> str:
        return f"The referee resumed the game: {d.get('reason', '')}"

    def _rewound(self, d: Mapping[str, Any], e: Any) -> str:
        void = d.get("voided")
        what = f"events {void[0]}–{void[1]} voided" if void else "nothing voided"
        return (
            f"The referee rewound the game to event {d['to_seq']} ({what}): {d.get('reason', '')}"
        )

    def _seat_replaced(self, d: Mapping[str, Any], e: Any) -> str:
        return f"The referee gave side {d['side']} a new seat link: {d.get('reason', '')}"

    def _deployed(self, d: Mapping[str, Any], e: Mapping[str, Any]) -> str:
        if e.get("redacted"):
            return f"{_cap(self.side(d['side']))} deployed in secret."
        parts = [
            f"{self.names.get(p['ship'], p['ship'])} at {_pos(p['position'])} facing "
            f"{_heading(p['heading'])}"
            for p in d["ships"]
        ]
        return f"{_cap(self.side(d['side']))} deployed: " + "; ".join(parts) + "."

    def _turn_started(self, d: Mapping[str, Any], e: Any) -> str:
        if d.get("rolloff"):
            rolls = ", ".join(f"{a}–{b}" for a, b in d["rolloff"])
            why = f"roll-off A–B {rolls}"
        else:
            why = "more ships in play"
        return f"Turn {d['turn']} begins: {self.does(d['first_side'], 'activate')} first ({why})."

    def _activation_started(self, d: Mapping[str, Any], e: Any) -> str:
        return f"{_cap(self.ship(d['ship']))} activates."

    def _ping(self, d: Mapping[str, Any], e: Any) -> str:
        found = []
        for item in d["detections"]:
            target = self.ship(item["target"])
            # "not detected" is all a missed ping says: the ship may be revealed already, or
            # by its own fire in this very window (the map then draws it live)
            already = " (already revealed)" if item["target"] in self.live else ""
            if item.get("in_range") is False:
                found.append(f"{target} out of ping range{already}")
                continue
            verdict = "revealed" if item["revealed"] else f"not detected{already}"
            ecm = item.get("ecm_dice")
            against = "" if ecm is None else (f" vs ECM {_dice(ecm)}" if ecm else " (no ECM)")
            found.append(f"{target} {verdict} — {_dice(item['ping_dice'])}{against}")
        what = "; ".join(found) if found else "no enemy in play"
        return (
            f"{_cap(self.ship(d['ship']))} pinged with {d['sensors']} sensors at "
            f"{_pos(d['position'])}: {what}."
        )

    def _ship_revealed(self, d: Mapping[str, Any], e: Any) -> str:
        why = {"ping": "pinging" if "by" not in d else "a ping", "fire": "firing"}.get(
            d["cause"], d["cause"]
        )
        return (
            f"{_cap(self.ship(d['ship']))} revealed by {why} at {_pos(d['position'])}, "
            f"facing {_heading(d['heading'])}."
        )

    def _ship_moved(self, d: Mapping[str, Any], e: Mapping[str, Any]) -> str:
        name = _cap(self.ship(d["ship"]))
        if e.get("redacted"):
            return f"{name} drifted out of control." if d.get("drift") else f"{name} moved."
        orders = d.get("orders", {})
        # sorted: the same words whatever order the database kept the keys in (speed change
        # before turn, rotate before thrust)
        plan = ", ".join(
            f"{k.replace('_', ' ')} {v:+d}" for k, v in sorted(orders.items()) if k != "leave"
        )
        verb = "drifted" if d.get("drift") else "moved"
        return f"{name} {verb} ({plan}) to {_pos(d['to'])}, facing {_heading(d['heading'])}."

    def _ship_left(self, d: Mapping[str, Any], e: Any) -> str:
        return f"{_cap(self.ship(d['ship']))} left the battle."

    def _activation_ended(self, d: Mapping[str, Any], e: Any) -> str:
        name = _cap(self.ship(d["ship"]))
        text = f"{name}'s activation ends" + (" — on overwatch." if d["overwatch"] else ".")
        # the countdowns run out at the end of the ship's own activation (RULES §8)
        if d.get("regained_control"):
            text += " Back in control."
        if d.get("command_bridge_restored"):
            text += " Its command bridge is back."
        return text

    def _fire_window(self, d: Mapping[str, Any], e: Any) -> str:
        if not d["awaiting"]:
            return "Fire window: nobody can fire."
        who = " and ".join(self.side(s) for s in d["awaiting"])
        return f"Fire window {d['window']} opens: waiting for {who} to declare."

    def _fire_declared(self, d: Mapping[str, Any], e: Mapping[str, Any]) -> str:
        who = _cap(self.side(d["side"]))
        if e.get("redacted"):
            return f"{who} declared fire (revealed when both are in)."
        n = len(d["shots"])
        return f"{who} declared {n} shot{'s' if n != 1 else ''}." if n else f"{who} held fire."

    def _fire_resolved(self, d: Mapping[str, Any], e: Any) -> str:
        if not d["shots"]:
            return "The volley: nobody fired."
        lines = []
        for s in d["shots"]:
            who = f"{_cap(self.ship(s['ship']))} {s['weapon']} → {self.ship(s['target'])}"
            if s.get("cancelled"):
                lines.append(f"{who}: cancelled")
                continue
            lines.append(self._shot(s))
        return "Volley: " + "; ".join(lines) + "."

    def _shot(self, s: Mapping[str, Any]) -> str:
        """One shot in words, by its damage path (RULES §8; docs/systems.md)."""
        who = f"{_cap(self.ship(s['ship']))} {s['weapon']} → {self.ship(s['target'])}"
        if s.get("system"):
            who += f"'s {s['system']}"
        path = s.get("path", "standard")
        rolled = _dice(s["rolled"])
        text = f"{who} at {s['range']:.1f} mu: {s['dice']} rolled {rolled}"
        if path in ("torpedo", "fusion"):
            text += ", a hit" if s["hits"] else ", a miss"
        elif path == "emp":
            n = s.get("emp_hits", s["hits"] + s["reroll_hits"])
            return text + f", {n} EMP hit{'s' if n != 1 else ''}"
        elif path == "needle":
            sixes = s.get("sixes", 0)
            text += f", {s['hits']} hit{'s' if s['hits'] != 1 else ''}"
            if sixes:
                text += f" ({sixes} six{'es' if sixes != 1 else ''})"
        else:
            text += f", {s['hits']} hit{'s' if s['hits'] != 1 else ''}"
            if s["reroll_hits"]:
                text += f" + {s['reroll_hits']} past armour"
        if s.get("damage_rolled"):
            text += f"; damage dice {_dice(s['damage_rolled'])}"
        if "armour_damage" in s and path != "emp":
            armour, hull = s["armour_damage"], s["hull_damage"]
            if armour or hull:
                parts = []
                if armour:
                    parts.append(f"{armour} damage")
                if hull:
                    parts.append(f"{hull} straight to the hull")
                text += " → " + " + ".join(parts)
            elif s["hits"] or s["reroll_hits"]:
                text += " → no damage"
        return text

    def _emp(self, d: Mapping[str, Any], e: Any) -> str:
        lost = [r["system"] for r in d["results"] if r["damaged"]]
        dice = _dice([r["die"] for r in d["results"]])
        outcome = f"lost: {', '.join(lost)}" if lost else "nothing lost"
        return (
            f"EMP from {self.ship(d['by'])}: {d['hits']} hit{'s' if d['hits'] != 1 else ''} on "
            f"{self.ship(d['ship'])}, its vulnerable systems roll {dice} (lost on "
            f"{d['hits']} or less) — {outcome}."
        )

    def _mode_set(self, d: Mapping[str, Any], e: Any) -> str:
        return (
            f"{_cap(self.ship(d['ship']))} switches {d['weapon']} to {d['mode']} mode "
            f"(offline until the end of turn {d['offline_until']})."
        )

    def _damage(self, d: Mapping[str, Any], e: Any) -> str:
        text = (
            f"{_cap(self.ship(d['ship']))} takes {d['armour_lost'] + d['hull_lost']} "
            f"damage ({d['armour_lost']} armour, {d['hull_lost']} hull)"
        )
        if d["rows_finished"]:
            text += f"; hull row {', '.join(str(r) for r in d['rows_finished'])} gone"
        if d.get("stealth_before", 0) > d.get("stealth", 0):
            now = d["stealth"]
            text += "; its stealth is lost" if not now else f"; its stealth drops to level {now}"
        return text + "."

    def _threshold_check(self, d: Mapping[str, Any], e: Any) -> str:
        failed = [r["system"].replace("_", " ") for r in d["results"] if r["failed"]]
        bonus = f", +{d['bonus']}" if d["bonus"] else ""
        dice = _dice([r["die"] for r in d["results"]])
        outcome = f"failed: {', '.join(failed)}" if failed else "everything holds"
        return (
            f"{_cap(self.ship(d['ship']))} threshold check (fails on {d['number']}+"
            f"{bonus}): rolled {dice} — {outcome}."
        )

    def _system_damaged(self, d: Mapping[str, Any], e: Any) -> str:
        name = self.ship(d["ship"])
        text = f"{_cap(name)}'s {system_label(d['type'])} ({d['system']}) {d['status']}"
        if d.get("cause") in ("needle", "emp"):
            text += f" by {'a needle beam' if d['cause'] == 'needle' else 'EMP'}"
        if d.get("beyond_repair"):
            text += ", beyond repair"
        if "command_bridge_out" in d:
            text += f": knocked out for its next {_n(d['command_bridge_out'], 'activation')}"
        if d.get("permanent"):
            text += ": permanently out of control"
        elif "out_of_control" in d:
            text += f": out of control for its next {_n(d['out_of_control'], 'activation')}"
        if "life_support_turns" in d:
            text += f": life support fails in {d['life_support_turns']} turns"
        if d["system"] == "core":
            text += ": the power core is critical"
        return text + "."

    def _ship_destroyed(self, d: Mapping[str, Any], e: Any) -> str:
        how = "its power core exploded" if d["cause"] == "core_explosion" else "destroyed"
        return f"{_cap(self.ship(d['ship']))} is lost — {how}."

    def _core_action(self, d: Mapping[str, Any], e: Any) -> str:
        what = "dumped its power core" if d["action"] == "dump" else "was abandoned by its crew"
        return f"{_cap(self.ship(d['ship']))} {what}."

    def _core_roll(self, d: Mapping[str, Any], e: Any) -> str:
        result = "it explodes" if d["exploded"] else "it holds"
        return (
            f"{_cap(self.ship(d['ship']))}'s critical core rolls {d['die']} "
            f"(explodes on {d['needed']}+): {result}."
        )

    def _damage_control(self, d: Mapping[str, Any], e: Any) -> str:
        parts = [
            f"{a['system'].replace('_', ' ')} {'repaired' if a['repaired'] else 'not repaired'} "
            f"({a['parties']} part{'ies' if a['parties'] != 1 else 'y'}: "
            f"{a['die']} vs {a['needed']}+)"
            for a in d["attempts"]
        ]
        return f"Damage control on {self.ship(d['ship'])}: " + "; ".join(parts) + "."

    def _turn_ended(self, d: Mapping[str, Any], e: Any) -> str:
        text = f"Turn {d['turn']} ends."
        if d["regained_control"]:
            back = ", ".join(self.ship(s) for s in d["regained_control"])
            text += f" Back in control: {back}."
        if d["life_support_failed"]:
            lost = ", ".join(self.ship(s) for s in d["life_support_failed"])
            text += f" Life support failed: {lost}."
        if d.get("command_bridge_restored"):
            back = ", ".join(self.ship(s) for s in d["command_bridge_restored"])
            text += f" Command bridge back: {back}."
        return text

    def _game_finished(self, d: Mapping[str, Any], e: Any) -> str:
        reason = {
            "no_ships_left": "no ships left in play",
            "turn_limit": "the turn limit",
            "resigned": "resignation",
            "referee": "the referee's decision",
        }.get(d["reason"], d["reason"])
        if d.get("note"):  # the referee's written reason
            reason += f": {d['note']}"
        if d["winner"] == "draw":
            return f"The game ends in a draw ({reason})."
        return f"The game is over: {self.does(d['winner'], 'win')} ({reason})."
