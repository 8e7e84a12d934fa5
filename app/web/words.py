"""The log in words: each event as a seat receives it, told as a sentence with its dice."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.rules.attacks import DOGFIGHT, FIGHTERS_ATTACK
from app.rules.systems import HEAVY_MISSILE_TYPES, system_label
from app.web.clocks import played_words
from app.web.fighter_words import FighterWords
from app.web.grammar import a_or_an, cap, owned_by_one, plural, possessive
from app.web.groups import BAY_TYPES, GROUP_KINDS
from app.web.mapview import kind_words

CLOCK = ["12", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"]


def _dice(values: list[int] | tuple[int, ...]) -> str:
    return ",".join(str(v) for v in values) if values else "–"


def _pos(p: Mapping[str, Any] | None) -> str:
    if not p:
        return "?"
    return f"({p['x']:.1f}, {p['y']:.1f})"


def _heading(h: int | None) -> str:
    return "?" if h is None else f"{CLOCK[h % 12]} o'clock"


def _load_words(load: str) -> str:
    """A magazine's load as a player reads it: a salvo kind, or a heavy missile's type."""
    return kind_words("heavy_missile", load) if load in HEAVY_MISSILE_TYPES else kind_words(load)


_n = plural


SALVO_KINDS = ("salvo", "er_salvo", "af_salvo")
# a defence window's attack kinds made by a group: an attack run on a ship, or a dogfight
GROUP_ATTACKS = (FIGHTERS_ATTACK, DOGFIGHT)
# a ``marker_removed`` with nothing removed, as its owner hears it
EMPTY_REMOVAL = {
    "mother_destroyed": "was destroyed",
    "mother_out_of_play": "went out of play",
    "mother_left": "left the battle",
    "turn_limit": "reached the turn limit",
}


def odds_words(kind: str | None, odds: float | None) -> str:
    """A defence pairing's odds as a player reads them: the kills a salvo or a group should
    expect (``kind`` a marker's kind, or a window's attack kind: a group's attack run or
    dogfight), or a one-missile marker's chance of being destroyed."""
    if odds is None:
        return "odds unknown"
    if kind in SALVO_KINDS or kind in GROUP_KINDS or kind in GROUP_ATTACKS:
        what = {"drones": "drone", **dict.fromkeys(SALVO_KINDS, "missile")}.get(kind, "fighter")
        return f"about {odds:.1f} {what}{'' if round(odds, 1) == 1 else 's'} shot down"
    return f"{round(min(float(odds), 1.0) * 100)}% chance to destroy it"


_of = possessive
_one = owned_by_one
_a = a_or_an
_cap = cap


class Teller(FighterWords):
    """Tells events for one seat; ship names and sides come from the view's roster."""

    def __init__(self, ships: list[Mapping[str, Any]], seat: str, side_names: Mapping[str, str]):
        self.names = {s["id"]: s["name"] for s in ships}
        self.sides = {s["id"]: s["side"] for s in ships}
        self.seat = seat
        self.side_names = side_names
        # ships revealed (live) so far in the events told: a ping that does not detect one of
        # them must not call it hidden while the map draws it (it stays live until it moves)
        self.live: set[str] = set()
        self.known_groups = {}
        # what each ship's bays launch (public hardware): "fighters", "drones" or both
        self.craft: dict[str, str] = {}
        for s in ships:
            bays = {
                "drones" if sys.get("type") == "drone_bay" else "fighters"
                for sys in (s.get("design") or {}).get("systems", ())
                if sys.get("type") in BAY_TYPES
            }
            if bays:
                self.craft[s["id"]] = " and ".join(sorted(bays, reverse=True))

    def tell_all(self, events: Iterable[Mapping[str, Any]]) -> list[str]:
        """Every event's sentence, told in order (a sentence may depend on what came before,
        and a volley's on the launches that follow it)."""
        events = list(events)
        texts = []
        for i, e in enumerate(events):
            text = self.tell(e)
            if e["type"] == "fire_resolved" and not e["data"].get("shots"):
                text = self._launches_only(events[i + 1 :]) or text
            texts.append(text)
        return texts

    @staticmethod
    def _launches_only(after: list[Mapping[str, Any]]) -> str | None:
        """A volley with no gun fired whose window launched ordnance (the launches are told
        right after it): say so instead of "nobody fired"."""
        n = 0
        for e in after:
            if e["type"] != "ordnance_launched":
                break
            n += 1
        return f"The volley: no gun fired; {_n(n, 'launch')}." if n else None

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

    def _timed_out(self, d: Mapping[str, Any], e: Any) -> str:  # issue 15: clocks
        played = played_words(d["played"])
        return f"Time ran out for {self.side(d['side'])}: the server played {played}."

    def _time_added(self, d: Mapping[str, Any], e: Any) -> str:
        who = self.side(d["side"])
        whose = _of(who)
        return f"The referee added {d['seconds']} s to {whose} clock: {d.get('reason', '')}"

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
        why = {
            "ping": "pinging" if "by" not in d else "a ping",
            "fire": "firing",
            "fighters": "a fighter or drone group's line of sight",
            "engaged": "the group engaged with it",
        }.get(d["cause"], d["cause"])
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
        text = f"{_one(name)} activation ends" + (" — on overwatch." if d["overwatch"] else ".")
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
        return f"{who} declared {plural(n, 'shot')}." if n else f"{who} held fire."

    def _fire_resolved(self, d: Mapping[str, Any], e: Any) -> str:
        if not d["shots"]:
            return "The volley: nobody fired."
        lines = []
        for s in d["shots"]:
            who = f"{_cap(self.ship(s['ship']))} {s['weapon']} → {self.target(s['target'])}"
            if s.get("cancelled"):
                lines.append(f"{who}: cancelled")
                continue
            lines.append(self._shot(s))
        return "Volley: " + "; ".join(lines) + "."

    def _shot(self, s: Mapping[str, Any]) -> str:
        """One shot in words, by its damage path (RULES §8; docs/systems.md)."""
        who = f"{_cap(self.ship(s['ship']))} {s['weapon']} → {self.target(s['target'])}"
        if s.get("system"):
            who = f"{_one(who)} {s['system']}"
        path = s.get("path", "standard")
        rolled = _dice(s["rolled"])
        text = f"{who} at {s['range']:.1f} mu: {s['dice']} rolled {rolled}"
        if path in ("torpedo", "fusion"):
            text += ", a hit" if s["hits"] else ", a miss"
        elif path == "emp":
            n = s.get("emp_hits", s["hits"] + s["reroll_hits"])
            return text + f", {plural(n, 'EMP hit')}"
        elif path == "needle":
            sixes = s.get("sixes", 0)
            text += f", {plural(s['hits'], 'hit')}"
            if sixes:
                text += f" ({plural(sixes, 'six', 'sixes')})"
        elif path == "group" or "kills" in s:
            # a shot at a fighter or drone group: each hit kills one (C1.iv), no damage track
            drm = f" ({s['drm']:+d} on each die)" if s.get("drm") else ""
            hits = s.get("hits", 0)
            return text + f"{drm}, {_n(hits, 'hit')} → {_n(s.get('kills', 0), 'kill')}"
        else:
            text += f", {plural(s['hits'], 'hit')}"
            if s.get("reroll_hits"):
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
            elif s["hits"] or s.get("reroll_hits"):
                text += " → no damage"
        return text

    def _emp(self, d: Mapping[str, Any], e: Any) -> str:
        lost = [r["system"] for r in d["results"] if r["damaged"]]
        dice = _dice([r["die"] for r in d["results"]])
        outcome = f"lost: {', '.join(lost)}" if lost else "nothing lost"
        return (
            f"EMP from {self.ship(d['by'])}: {plural(d['hits'], 'hit')} on "
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
        text = f"{_one(_cap(name))} {system_label(d['type'])} ({d['system']}) {d['status']}"
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
            text += f": life support fails in {plural(d['life_support_turns'], 'turn')}"
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
            f"{_one(_cap(self.ship(d['ship'])))} critical core rolls {d['die']} "
            f"(explodes on {d['needed']}+): {result}."
        )

    def _damage_control(self, d: Mapping[str, Any], e: Any) -> str:
        parts = [
            f"{a['system'].replace('_', ' ')} {'repaired' if a['repaired'] else 'not repaired'} "
            f"({plural(a['parties'], 'party', 'parties')}: "
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

    # -- ordnance (RULES §9) -------------------------------------------------------------------
    def _whose(self, ship_id: str, kind: str, missile: str | None = None) -> str:
        """ "your salvo" for the seat's own, "Lance's salvo" for another's."""
        what = kind_words(kind, missile)
        if self.sides.get(ship_id) == self.seat:
            return f"your {what}"
        return f"{_of(self.names.get(ship_id, ship_id))} {what}"

    def _ordnance_launched(self, d: Mapping[str, Any], e: Mapping[str, Any]) -> str:
        name = _cap(self.ship(d["ship"]))
        kind = d.get("kind") or "ordnance"
        if e.get("redacted") or "aim" not in d:
            # a redacted line tells no number (the launcher's id has one): the kind is the news
            return f"{name} launched {_a(kind_words(kind))}."
        what = kind_words(kind, d.get("missile") or None)
        text = f"{name} launched {_a(what)} from {d['launcher']} at {_pos(d['aim'])}"
        details = []
        if d.get("strength", 1) > 1:
            details.append(_n(d["strength"], "missile"))
        if d.get("endurance") is not None:
            details.append(f"endurance {d['endurance']}")
        if d.get("system"):
            details.append(f"aimed at its target's {system_label(d['system'])}")
        if d.get("magazine"):
            details.append(f"from magazine {d['magazine']}")
        if d.get("marker"):
            details.append(f"marker {d['marker']}")
        if d.get("acts_turn"):
            details.append(f"acts in turn {d['acts_turn']}")
        return text + (f" ({', '.join(details)})" if details else "") + "."

    def _ordnance_acted(self, d: Mapping[str, Any], e: Mapping[str, Any]) -> str:
        craft = self.craft.get(d["ship"])
        if e.get("redacted") or "markers" not in d:
            # the other side learns that the step ran, never what it did
            what = f"ordnance and {craft}" if craft else "ordnance"
            return f"{_one(_cap(self.ship(d['ship'])))} {what} acted in secret."
        how = " on standing orders" if d.get("standing") else ""
        if not d["markers"]:
            nothing = "nothing launched or moved" if craft else "nothing in flight"
            return f"{_one(_cap(self.ship(d['ship'])))} step 2{how}: {nothing}."
        for m in d["markers"]:
            if m.get("kind") in GROUP_KINDS:
                self._group_seen({**m, "side": self.sides.get(d["ship"])})
        parts = [self._acted(m) for m in d["markers"]]
        return f"{_one(_cap(self.ship(d['ship'])))} ordnance acted{how}: " + "; ".join(parts) + "."

    def _acted(self, m: Mapping[str, Any]) -> str:
        if m.get("kind") in GROUP_KINDS:
            return self._group_acted(m)
        what = f"{kind_words(m['kind'])} {m['marker']}"
        result = m["result"]
        target = self.ship(m["target"]) if m.get("target") else None
        left = f", endurance {m['endurance']} left" if m.get("endurance") is not None else ""
        moved = f" from {_pos(m.get('from'))} to {_pos(m.get('to'))}"
        return {
            "attacks": f"{what} attacks {target}" + (moved + left if "heavy" in m["kind"] else ""),
            "wasted": f"{what} found nothing at {_pos(m.get('to'))}",
            # a torpedo homing on a ship: its owner learns the target, not where it stands
            "detonates": f"{what} homes on {target}"
            if m.get("homed") or (target and "to" not in m)
            else f"{what} detonates at {_pos(m.get('to'))}",
            "moved": f"{what} flew{moved}{left}",
            "held": f"{what} holds at {_pos(m.get('to'))} (its mother ship is out of control)",
            "burnt_out": f"{what} flew{moved} and burnt out",
        }.get(result, f"{what}: {result.replace('_', ' ')}")

    def _salvo_wasted(self, d: Mapping[str, Any], e: Any) -> str:
        return f"{_cap(self._whose(d['ship'], 'salvo'))} found nothing."

    def _salvo_attack(self, d: Mapping[str, Any], e: Any) -> str:
        target = self.ship(d["target"])
        salvo = self._whose(d["ship"], "salvo")
        damage = d["armour_damage"] + d["hull_damage"]
        on_target, hit = d["missiles_die"], d["missiles"]
        # kills beyond the missiles on target change nothing: never told as more than there were
        down = min(d["kills"], on_target - hit) if d["kills"] else 0
        text = f"{_cap(salvo)} on {target}: {_n(on_target, 'missile')} on target"
        if d["kills"]:
            text += f", {down} shot down, {hit} hit"
        text += f" (rolled {_dice(list(d['rolled']))}): {damage} damage{self._split(d)}."
        return text

    def _split(self, d: Mapping[str, Any]) -> str:
        armour, hull = d.get("armour_damage", 0), d.get("hull_damage", 0)
        return f" ({armour} armour, {hull} hull)" if armour or hull else ""

    def _amt_detonated(self, d: Mapping[str, Any], e: Any) -> str:
        amt = _cap(self._whose(d["ship"], "amt"))
        if d.get("destroyed"):
            # shot down by point defence: it never burst
            return f"{amt} was destroyed by the defences."
        if not d.get("blasts"):
            return f"{amt} detonated and caught no ship."
        parts = [
            f"{self.ship(b['ship'])} {b['dice']}D6 rolled {_dice(list(b['rolled']))} → "
            f"{b['damage']} damage"
            for b in d["blasts"]
        ]
        where = f" at {_pos(d['point'])}" if d.get("point") else ""
        return f"{amt} detonated{where}: " + "; ".join(parts) + "."

    def _heavy_missile_attack(self, d: Mapping[str, Any], e: Any) -> str:
        missile = _cap(self._whose(d["ship"], "heavy_missile", d.get("missile")))
        target = self.ship(d["target"])
        if d.get("destroyed"):
            return f"{missile} was destroyed by {_one(target)} defences."
        text = f"{missile} hit {target}: rolled {_dice(list(d.get('rolled', ())))}"
        if d.get("emp_hits") is not None:
            return text + f", {_n(d['emp_hits'], 'EMP hit')}."
        if d.get("needles") is not None:
            aimed = d.get("needle_system") or "the hull"
            text += f", {_n(d['needles'], 'needle die')} at {aimed}"
            if d.get("sixes"):
                text += f" ({plural(d['sixes'], 'six', 'sixes')})"
        damage = d.get("armour_damage", 0) + d.get("hull_damage", 0)
        if damage or d.get("needles") is None:
            text += f" → {damage} damage{self._split(d)}"
        return text + "."

    def _marker_removed(self, d: Mapping[str, Any], e: Any) -> str:
        why = {
            "mother_destroyed": "its mother ship was destroyed",
            "mother_out_of_play": "its mother ship is out of play",
            "mother_left": "its mother ship left the battle",
            "turn_limit": "the turn limit",
            "exhausted": "no combat endurance left",
            "destroyed": "none of it left",
        }.get(d.get("reason", ""), str(d.get("reason", "")).replace("_", " "))
        gone = [
            self.group(m["marker"])
            if m.get("kind") in GROUP_KINDS
            else f"{self._whose(m['ship'], m['kind'])} {m['marker']}"
            for m in d.get("markers", ())
        ]
        if not gone:
            # nothing was removed: only the owner (and the referee) hears that nothing of its
            # was in flight; the other side is told nothing (its copy may lack secret markers)
            ship = d.get("ship")
            if not ship or (self.seat != "referee" and self.sides.get(ship) != self.seat):
                return ""
            when = EMPTY_REMOVAL.get(d.get("reason", ""), f"({why})")
            return f"{_cap(self.ship(ship))} {when} with no ordnance in flight."
        return f"Removed ({why}): " + ", ".join(gone) + "."

    def _loads_lost(self, d: Mapping[str, Any], e: Mapping[str, Any]) -> str:
        whose = _cap(self.ship(d["ship"]))
        if e.get("redacted") or "loads" not in d:
            # the other side learns that a magazine failed, never what it held
            return f"{_one(whose)} magazine lost whatever it held."
        lost = [
            _n(
                n,
                kind_words("heavy_missile", load)
                if load in HEAVY_MISSILE_TYPES
                else kind_words(load),
            )
            for load, n in d["loads"].items()
        ]
        return f"{whose} lost {', '.join(lost)} with magazine {d['magazine']}."

    # -- the defence window (RULES §9.5) ----------------------------------------------------------
    def _defence_window(self, d: Mapping[str, Any], e: Any) -> str:
        for a in d.get("attacks", ()):
            # an attack run or a dogfight is a group's: its point defence kills fighters (or
            # drones), not missiles; the attack kind names no group kind, so keep what is known
            if a.get("kind") in GROUP_ATTACKS or a.get("kind") in GROUP_KINDS:
                self._group_seen({"marker": a.get("marker"), "side": a.get("side")})
        attacks = [
            f"{self._whose_side(a['side'], a['kind'])} {a['marker']} → "
            + (self.ship(a["target"]) if a.get("target") else "no ship")
            for a in d.get("attacks", ())
        ]
        who = " and ".join(self.side(s) for s in d.get("awaiting", ())) or "nobody"
        return (
            f"Defence window {d['window']}: {'; '.join(attacks) or 'no attacks'}. "
            f"Waiting for {who} to allocate point defence."
        )

    def _whose_side(self, side: str, kind: str) -> str:
        what = kind_words(kind)
        return f"your {what}" if side == self.seat else f"{_of(self.side(side))} {what}"

    def _defence_declared(self, d: Mapping[str, Any], e: Mapping[str, Any]) -> str:
        who = _cap(self.side(d["side"]))
        auto = " (standing orders: the default allocation)" if d.get("auto") else ""
        if e.get("redacted") or "allocations" not in d:
            return f"{who} allocated point defence{auto} (shown when the defences fire)."
        n = len(d["allocations"])
        if not n:
            return f"{who} allocated nothing{auto}."
        return f"{who} allocated {_n(n, 'defence')}{auto}."

    def _defence_resolved(self, d: Mapping[str, Any], e: Any) -> str:
        parts = []
        for f in d.get("defences", ()):
            dice = _dice([x["natural"] for x in f.get("dice", ())])
            if f.get("group"):  # an interception: the defending group is of the entry's side
                self._group_seen({"marker": f["group"], "side": f.get("side")})
                who = f"{self.group(f['group'])} → {f['against']}"  # after a colon: no capital
            else:
                who = f"{_one(self.names.get(f['ship'], f['ship']))} {f['system']} → {f['against']}"
            group = self.known_groups.get(f["against"])
            craft = "missile" if group is None else "drone" if group[1] == "drones" else "fighter"
            if f.get("destroyed"):
                result = "destroyed it"
            elif f.get("kills"):
                result = f"{_n(f['kills'], craft)} shot down"
            else:
                result = "nothing"
            if f.get("back") is not None:  # an interception: the attacking group rolls back
                back = _dice([x["natural"] for x in f["back"]])
                result += f"; it rolled back {back}: {_n(f.get('losses', 0), 'fighter')} lost"
            parts.append(f"{who} rolled {dice}: {result}")
        text = "Point defence: " + ("; ".join(parts) if parts else "nothing fired")
        if d.get("dummies"):
            text += f"; dummies shown: {', '.join(d['dummies'])}"
        return text + "."

    def _standing_orders(self, d: Mapping[str, Any], e: Any) -> str:
        state = "on" if d["auto_defend"] else "off"
        return f"{_cap(self.side(d['side']))} set automatic defence {state}."

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
