"""The fire window's odds: what each choice should do on average, from the public dice rules.

Each fire option (``phase.legal.fire_options``) already says what the shot rolls — the weapon's
type, the class it fires as, the band, the screen its dice are read against, its damage path —
and the target's armour is public condition. Nothing else is read, so the odds tell a seat no
more than its own view does.

The numbers are exact fractions from the rules engine's own tables (``beams.beam_hits``, the
systems table's firing profile, the fighters' ``expected_hits``), not re-derived:

* beam dice: each die's hits are read in the screen's column; a natural 6 of a ``*`` notation
  earns a further die read in the screen-0 column, again on a 6, so the further dice of one die
  are worth ``Σ hits₀ / 5`` (E = S/6 + E/6);
* the primary dice's hits (or damage points) go into armour first; the further dice's go past
  it, straight to the hull (RULES §8), so the hull's share is E[further] + E[max(0, P − armour)].
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.rules.beams import beam_hits
from app.rules.fighters.dogfight import expected_hits as group_expected_hits
from app.rules.systems import FireBand, profile
from app.rules.systems.profiles import EMP, FUSION, HEAVY, NEEDLE, PENETRATING, STANDARD, TORPEDO

FACES = range(1, 7)
SIXTH = Fraction(1, 6)
Dist = dict[int, Fraction]  # a finite distribution: value → probability


@dataclass(frozen=True)
class Odds:
    """One choice's expectations: hits scored, damage points done (armour and hull), and the
    part of that damage that reaches the hull past the armour the target has left."""

    hits: Fraction
    damage: Fraction
    hull: Fraction
    kills: bool = False  # a shot at a group: each hit kills one, no damage points

    def to_dict(self) -> dict[str, float]:
        return {
            "hits": round(float(self.hits), 2),
            "damage": round(float(self.damage), 2),
            "hull": round(float(self.hull), 2),
        }


def _convolve(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def _sum_of(one: Dist, n: int) -> Dist:
    total: Dist = {0: Fraction(1)}
    for _ in range(n):
        total = _convolve(total, one)
    return total


def _mean(d: Dist) -> Fraction:
    return sum((x * p for x, p in d.items()), Fraction(0))


def _past_armour(primary: Dist, armour: int) -> Fraction:
    """E[max(0, P − armour)]: what of the armour-first damage gets through to the hull."""
    return sum((max(0, x - armour) * p for x, p in primary.items()), Fraction(0))


def die_hits(screen: int) -> Dist:
    """One primary beam die's hits in the screen's column (``beam_hits``)."""
    out: Dist = {}
    for face in FACES:
        h = beam_hits(face, screen)
        out[h] = out.get(h, Fraction(0)) + SIXTH
    return out


def further_hits() -> Fraction:
    """The expected hits of the further dice one natural 6 earns (screen-0 column, endless)."""
    return Fraction(sum(beam_hits(face, 0) for face in FACES), 5)


def _beam(dice: int, reroll: bool, screen: int) -> tuple[Dist, Fraction]:
    """(the primary dice's hits, the further dice's expected hits) of ``dice`` BD[*]."""
    primary = _sum_of(die_hits(screen), dice)
    further = dice * SIXTH * further_hits() if reroll else Fraction(0)
    return primary, further


def _heavy_points(screen: int) -> Dist:
    """One heavy-beam hit's damage: 1d6 − 2 − screen, at least 0 (C1.2)."""
    out: Dist = {}
    for face in FACES:
        p = max(0, face - 2 - screen)
        out[p] = out.get(p, Fraction(0)) + SIXTH
    return out


def _compound(counts: Dist, each: Dist) -> Dist:
    """The sum of N independent ``each`` where N is distributed as ``counts``."""
    out: Dist = {}
    for n, p in counts.items():
        for x, q in _sum_of(each, n).items():
            out[x] = out.get(x, Fraction(0)) + p * q
    return out


def shot_odds(band: FireBand, path: str, screen: int, armour: int) -> Odds:
    """The expectations of one shot rolling ``band`` by damage ``path`` against a target whose
    dice column is ``screen`` (0 when the weapon ignores screens) with ``armour`` boxes left."""
    armour = max(armour, 0)
    if path == NEEDLE:
        # a die per needle, 5+ = 1 hull damage; two 6s of a two-die needle do 1 and a beam
        # die's worth more instead of 2 (C1.8; at a main drive they do not, a rare case the
        # odds leave out)
        hits = band.dice * Fraction(2, 6)
        damage = hits
        if band.dice == 2:
            damage += SIXTH * SIXTH * (1 + SIXTH * further_hits() + _mean(die_hits(0)) - 2)
        return Odds(hits, damage, damage)
    if band.hit_on is not None:
        chance = Fraction(max(0, 7 - max(band.hit_on, 1)), 6)
        if path == TORPEDO:
            damage = chance * band.damage_dice * Fraction(7, 2)
            return Odds(chance, damage, damage)
        # fusion: a hit rolls the band's beam dice of damage against the screen, armour first
        primary, further = _beam(band.damage_dice, band.damage_reroll, screen)
        miss = {0: 1 - chance}
        on_hit = {x: p * chance for x, p in primary.items()}
        armour_first = _merge(miss, on_hit)
        hull = chance * further + _past_armour(armour_first, armour)
        return Odds(chance, _mean(armour_first) + chance * further, hull)
    primary, further = _beam(band.dice, band.reroll, screen)
    hits = _mean(primary) + further
    if path == EMP:
        return Odds(hits, Fraction(0), Fraction(0))
    if path == PENETRATING:
        damage = hits * Fraction(7, 2)  # 1d6 per hit, all past armour (C1.9)
        return Odds(hits, damage, damage)
    if path == HEAVY:
        points = _heavy_points(screen)
        armour_first = _compound(primary, points)
        further_damage = further * _mean(points)
        hull = further_damage + _past_armour(armour_first, armour)
        return Odds(hits, _mean(armour_first) + further_damage, hull)
    assert path in (STANDARD, FUSION), path
    return Odds(hits, hits, further + _past_armour(primary, armour))


def _merge(a: Dist, b: Dist) -> Dist:
    out = dict(a)
    for x, p in b.items():
        out[x] = out.get(x, Fraction(0)) + p
    return out


def _band(option: Mapping[str, Any]) -> FireBand | None:
    """What the option rolls, from the systems table (checked against the option's own words:
    a profile that does not match what the window says gives no odds rather than wrong ones)."""
    try:
        bands = profile(option["weapon_type"], option.get("class"), option.get("mode"))
    except (KeyError, ValueError):
        return None
    band = option.get("band")
    if not isinstance(band, int) or not 1 <= band <= len(bands):
        return None
    fb = bands[band - 1]
    return fb if fb.describe() == option.get("dice") else None


def option_odds(option: Mapping[str, Any], target: Mapping[str, Any] | None) -> Odds | None:
    """One fire option's odds. ``target`` is the target ship as the seat's view shows it (its
    public armour), None for a group (each hit kills one of its fighters)."""
    if "launch" in option:
        return None  # a launch makes a marker; its odds come in the defence window
    if target is None:
        hits = group_expected_hits(option.get("dice"), int(option.get("drm") or 0))
        return Odds(hits, Fraction(0), Fraction(0), kills=True)
    fb = _band(option)
    if fb is None or "path" not in option:
        return None
    armour = target.get("armour") or {}
    left = int(armour.get("total", 0)) - int(armour.get("lost", 0))
    return shot_odds(fb, option["path"], int(option.get("screen") or 0), left)


def odds_text(odds: Odds | None) -> str:
    """The words next to a choice: ``expect 1.33 hits, 1.33 damage (0.33 to the hull)``."""
    if odds is None:
        return ""
    hits = f"{float(odds.hits):.2f} hit{'' if odds.hits == 1 else 's'}"
    if odds.kills:
        return f"expect {hits} (one kill each)"
    if odds.damage == 0:
        return f"expect {hits}, no damage"
    text = f"expect {hits}, {float(odds.damage):.2f} damage"
    if odds.hull != odds.damage:
        text += f" ({float(odds.hull):.2f} to the hull past armour)"
    return text


def fire_odds(options: list[Mapping[str, Any]], ships: list[Mapping[str, Any]]) -> dict[str, str]:
    """Each option's words by its form value ``ship|weapon|target``, from the view's ships."""
    by_id = {s["id"]: s for s in ships}
    out: dict[str, str] = {}
    for o in options:
        if "launch" in o or "target" not in o:
            continue
        text = odds_text(option_odds(o, by_id.get(o["target"])))
        if text:
            out[f"{o['ship']}|{o['weapon']}|{o['target']}"] = text
    return out
