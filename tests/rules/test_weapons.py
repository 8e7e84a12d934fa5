"""Every direct-fire weapon of the systems table (C1, RULES §7–8): its dice at each range band
and screen level, its arcs (weak arcs too), stealth, and the path its damage takes.

The volley tests fire through ``decide`` with scripted dice, so the dice order is the engine's:
each shot's to-hit dice, then its damage dice, in declared order; then needle and EMP effects,
then threshold checks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.rules import capabilities as cap
from app.rules.damage import repair_priority, stealth_level, system_hit
from app.rules.designs import Design, SystemSpec
from app.rules.dice import Roller, ScriptedDice
from app.rules.errors import RulesError
from app.rules.events import Event
from app.rules.evolve import evolve
from app.rules.fire_options import fire_options
from app.rules.fog import redact, view
from app.rules.record import dice_values
from app.rules.snapshot import state_from_dict, state_to_dict
from app.rules.state import FIRE, GameState, Phase
from app.rules.systems import SYSTEMS
from app.rules.weapons import bands, dice_at
from tests.rules.helpers import (
    all_of,
    end,
    gunship,
    live,
    move,
    only,
    play,
    setup_game,
    types,
    with_ship,
    with_system,
)

ALL = ("F", "FS", "AS", "A", "AP", "FP")


# -- designs -----------------------------------------------------------------------------------
def armed(*systems: SystemSpec, fcs: int = 1, stealth: int = 0, **kw: Any) -> Design:
    fc = tuple(SystemSpec(f"fc-{i + 1}", "fire_control") for i in range(fcs))
    return replace(gunship("armed", systems=(*fc, *systems), **kw), stealth=stealth)


def target(
    *systems: SystemSpec,
    screen: int = 0,
    armour: int = 0,
    hull: int = 20,
    stealth: int = 0,
    armed: bool = True,
) -> Design:
    """60 mass, 4 rows; a fire control and a class-1 beam unless ``armed`` is False."""
    screens = (SystemSpec("screen-1", "screen", level=screen),) if screen else ()
    base: tuple[SystemSpec, ...] = ()
    if armed:
        base = (SystemSpec("fc-1", "fire_control"), SystemSpec("beam-1", "beam", cls=1, arcs=ALL))
    return replace(
        gunship("target", systems=(*screens, *base, *systems), armour=armour, hull=hull, mass=60),
        stealth=stealth,
    )


def w(sid: str, kind: str, cls: int | None = None, arcs: tuple[str, ...] = ("F",), **kw: Any):  # type: ignore[no-untyped-def]
    return SystemSpec(sid, kind, cls=cls, arcs=arcs, **kw)


# -- a volley through the engine ---------------------------------------------------------------
def fire_window(state: GameState) -> GameState:
    """a1 is the pinger; only A is awaited."""
    phase = Phase(step=FIRE, side="A", ship="a1", pinger="a1", window=state.seq, awaiting=("A",))
    return replace(state, phase=phase)


def duel(a: Design, b: Design, distance: float, b_x: float = 0.0) -> GameState:
    """a1 at (36, 2) facing +y; b1 ``distance`` ahead (shifted by ``b_x``), both live."""
    state = setup_game(
        [a], [b], {"a1": (36.0, 2.0, 0, 0), "b1": (36.0 + b_x, 2.0 + distance, 6, 0)}
    )
    return fire_window(live(state, "a1", "b1"))


def volley(
    state: GameState, shots: list[dict[str, Any]], dice: list[int]
) -> tuple[GameState, list[Event]]:
    cmd = {"type": "fire", "window": state.phase.window, "shots": shots}
    state, events = play(state, "A", cmd, dice)
    for e in events:  # every die is listed where record.verify_dice finds it
        assert len(dice_values(e.to_dict())) == len(e.data.get("rolls") or []), e.type
    return state, events


def shot(weapon: str, system: str | None = None) -> dict[str, Any]:
    out = {"ship": "a1", "weapon": weapon, "target": "b1"}
    if system is not None:
        out["system"] = system
    return out


def resolved(events: list[Event]) -> dict[str, Any]:
    return dict(only(events, "fire_resolved").data["shots"][0])


def refused(state: GameState, shots: list[dict[str, Any]]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        play(state, "A", {"type": "fire", "window": state.phase.window, "shots": shots})
    return caught.value


# -- profiles ----------------------------------------------------------------------------------
PROFILES = [
    ("beam", 3, None, ["3BD*", "2BD*", "1BD*"], 12.0),
    ("heavy_beam", 2, None, ["2BD*", "1BD*"], 12.0),
    ("emp", 4, None, ["4BD*", "3BD*", "2BD*", "1BD*"], 12.0),
    ("gatling", None, None, ["6BD*"], 12.0),
    ("meson", None, None, ["6BD*", "3BD*"], 12.0),
    ("needle", None, None, ["1 needle die"], 12.0),
    ("multi_needle", None, None, ["1 needle die"], 12.0),
    ("heavy_needle", None, None, ["2 needle dice", "1 needle die"], 12.0),
    ("graser", 1, None, ["1BD*"], 12.0),
    ("graser", 2, None, ["2BD*", "1BD*"], 18.0),
    ("graser", 3, None, ["3BD*", "2BD*", "1BD*"], 24.0),
    ("pulse_torpedo", None, None, [f"hit on {k}+, 1d6" for k in range(2, 7)], 6.0),
    ("classed_pulse_torpedo", 3, None, [f"hit on {k}+, 3d6" for k in range(2, 7)], 6.0),
    ("long_range_pulse_torpedo", None, None, [f"hit on {k}+, 1d6" for k in range(2, 7)], 9.0),
    ("short_range_pulse_torpedo", None, None, [f"hit on {k}+, 1d6" for k in range(2, 7)], 4.0),
    ("fusion_flare", None, None, [f"hit on {k}+, {k}BD*" for k in range(1, 7)], 6.0),
    ("fusion_torpedo", None, None, [f"hit on {k}+, {k}BD*" for k in range(6, 0, -1)], 6.0),
    ("multi_fusion", None, "flare", [f"hit on {k}+, {k}BD*" for k in range(1, 7)], 6.0),
    ("multi_fusion", None, "torpedo", [f"hit on {k}+, {k}BD*" for k in range(6, 0, -1)], 6.0),
]


@pytest.mark.parametrize(("kind", "cls", "mode", "table", "width"), PROFILES)
def test_each_weapon_rolls_its_table_in_every_band(
    kind: str, cls: int | None, mode: str | None, table: list[str], width: float
) -> None:
    spec = SystemSpec("w", kind, cls=cls, arcs=("F",), mode=mode)
    assert [b.dice for b in bands(spec)] == table
    assert [b.to for b in bands(spec)] == [width * (k + 1) for k in range(len(table))]
    for k, dice in enumerate(table):
        for rng in (width * k + 0.01, width * (k + 1)):  # just inside, and on the far edge
            at = dice_at(spec, rng)
            assert at is not None and (at[0], at[1].describe()) == (k + 1, dice), rng
    assert dice_at(spec, width * len(table) + 0.01) is None


@pytest.mark.parametrize(
    ("stealth", "edges"), [(0, [12.0, 24.0, 36.0]), (1, [10.0, 20.0, 30.0]), (2, [8.0, 16.0, 24.0])]
)
def test_target_stealth_shrinks_every_band(stealth: int, edges: list[float]) -> None:
    spec = SystemSpec("b", "beam", cls=3, arcs=("F",))
    assert [b.to for b in bands(spec, target_stealth=stealth)] == edges
    at = dice_at(spec, edges[0] + 0.5, target_stealth=stealth)
    assert at is not None and at[0] == 2
    assert dice_at(spec, edges[-1] + 0.5, target_stealth=stealth) is None
    torp = SystemSpec("t", "pulse_torpedo", arcs=("F",))
    factor = {0: 1.0, 1: 5 / 6, 2: 2 / 3}[stealth]
    assert bands(torp, target_stealth=stealth)[0].to == pytest.approx(6.0 * factor)


def test_a_stealthed_firer_reaches_24_mu_at_most() -> None:
    beam4 = SystemSpec("b", "beam", cls=4, arcs=("F",))
    assert [b.to for b in bands(beam4, firer_stealth=1)] == [12.0, 24.0]
    assert dice_at(beam4, 24.0, firer_stealth=1) is not None
    assert dice_at(beam4, 24.5, firer_stealth=1) is None
    flare = SystemSpec("f", "fusion_flare", arcs=("F",))
    # against stealth 1 the flare's bands are 5 mu wide: the fifth (20-25) is cut at 24
    cut = bands(flare, firer_stealth=2, target_stealth=1)
    assert [b.to for b in cut] == [5.0, 10.0, 15.0, 20.0, 24.0]
    assert dice_at(flare, 24.5, firer_stealth=2, target_stealth=1) is None


def test_weak_arcs_fire_one_class_lower() -> None:
    spec = SystemSpec("b", "beam", cls=3, arcs=("F",), weak_arcs=("FS", "FP"))
    assert [b.dice for b in bands(spec, weak=True)] == ["2BD*", "1BD*"]
    graser = SystemSpec("g", "graser", cls=2, arcs=("F",), weak_arcs=("FS",))
    assert [(b.to, b.dice) for b in bands(graser, weak=True)] == [(12.0, "1BD*")]
    # through the engine: b1 off to the side of a1 (in FS, not F)
    a = armed(w("beam-1", "beam", 3, ("F",), weak_arcs=("FS",)))
    state = duel(a, target(), 8.0, b_x=8.0)
    options = fire_options(state, "A")
    assert [(o["weapon"], o["dice"], o.get("weak_arc"), o["class"]) for o in options] == [
        ("beam-1", "2BD*", True, 2)
    ]
    _, events = volley(state, [shot("beam-1")], [5, 4])
    assert resolved(events)["weak_arc"] is True and resolved(events)["hits"] == 2
    # behind it: in neither its arcs nor its weak arcs
    behind = duel(a, target(), 8.0, b_x=-8.0)  # in FP
    assert refused(behind, [shot("beam-1")]).code == "out_of_arc"


# -- damage paths ------------------------------------------------------------------------------
def test_gatling_and_meson_are_standard_beam_damage() -> None:
    state = duel(armed(w("gat-1", "gatling", arcs=ALL)), target(armour=2), 10.0)
    _, events = volley(state, [shot("gat-1")], [6, 6, 1, 5, 4, 1, 1, 3])
    r = resolved(events)
    # 6 (reroll 6, reroll 1), 5, 4, 1, 1, 3: 2+1+1 = 4 hits, 2 past armour
    assert (r["hits"], r["reroll_hits"], r["armour_damage"], r["hull_damage"]) == (4, 2, 4, 2)
    damage = only(events, "damage").data
    assert (damage["armour_lost"], damage["hull_lost"]) == (2, 4)
    state = duel(armed(w("meson-1", "meson", arcs=("F",))), target(screen=1), 20.0)
    _, events = volley(state, [shot("meson-1")], [4, 5, 6, 2])
    r = resolved(events)
    assert (r["dice"], r["screen"], r["hits"], r["reroll_hits"]) == ("3BD*", 1, 3, 0)


def test_heavy_beam_each_hit_does_1d6_minus_2_minus_screen() -> None:
    state = duel(armed(w("hb-1", "heavy_beam", 2)), target(screen=1, armour=2), 10.0)
    # to hit vs screen 1: 6 (reroll 5) = 2 + 1 reroll, 5 = 1; damage 6, 4, 2 (armour first)
    # then 5 for the reroll hit (past armour): 3 + 1 + 0 = 4 and 2
    state, events = volley(state, [shot("hb-1")], [6, 5, 5, 6, 4, 2, 5])
    r = resolved(events)
    assert (r["hits"], r["reroll_hits"], r["damage_rolled"]) == (3, 1, [6, 4, 2, 5])
    assert (r["path"], r["armour_damage"], r["hull_damage"]) == ("heavy", 4, 2)
    damage = only(events, "damage").data
    assert (damage["armour_lost"], damage["hull_lost"]) == (2, 4)
    # an unscreened target takes 1d6 - 2: a 2 does nothing, a 6 does 4
    state = duel(armed(w("hb-1", "heavy_beam", 1, ALL)), target(), 10.0)
    _, events = volley(state, [shot("hb-1")], [5, 2])
    assert "damage" not in types(events)


def test_graser_to_hit_reads_screens_and_damage_penetrates_armour() -> None:
    # C1.i: the graser says nothing about screens, so its to-hit dice read the screen column;
    # only its damage penetrates (C1.9)
    state = duel(armed(w("g-1", "graser", 1)), target(screen=2, armour=3, hull=40), 10.0)
    options = fire_options(state, "A")
    assert options[0]["screen"] == 2 and options[0]["path"] == "penetrating"
    _, events = volley(state, [shot("g-1")], [4])  # a 4 scores nothing against screen 2
    r = resolved(events)
    assert (r["screen"], r["hits"], r["damage_rolled"], r["hull_damage"]) == (2, 0, [], 0)
    assert "damage" not in types(events)
    # a 6 is 1 hit at screen 2; its reroll 4 reads screen 0: 1 more; 1d6 each past armour
    state, events = volley(state, [shot("g-1")], [6, 4, 5, 3])
    r = resolved(events)
    assert (r["hits"], r["reroll_hits"], r["damage_rolled"], r["hull_damage"]) == (1, 1, [5, 3], 8)
    damage = only(events, "damage").data
    assert (damage["armour_lost"], damage["hull_lost"]) == (0, 8)
    # a class-2 graser's bands are 18 mu: at 20 mu it rolls 1BD*
    state = duel(armed(w("g-2", "graser", 2)), target(hull=40), 20.0)
    _, events = volley(state, [shot("g-2")], [6, 1, 3, 4])
    r = resolved(events)
    assert (r["dice"], r["hits"], r["reroll_hits"], r["damage_rolled"]) == ("1BD*", 2, 0, [3, 4])


@pytest.mark.parametrize(
    ("kind", "cls", "distance", "hit_on", "dice", "hull"),
    [
        ("pulse_torpedo", None, 5.0, 2, [2, 4], 4),
        ("pulse_torpedo", None, 29.0, 6, [5], 0),
        ("classed_pulse_torpedo", 2, 10.0, 3, [3, 4, 1], 5),
        ("long_range_pulse_torpedo", None, 40.0, 6, [6, 3], 3),
        ("short_range_pulse_torpedo", None, 17.0, 6, [6, 1], 1),
        ("short_range_pulse_torpedo", None, 7.0, 3, [2], 0),
    ],
)
def test_pulse_torpedoes_hit_on_the_table_and_go_to_the_hull(
    kind: str, cls: int | None, distance: float, hit_on: int, dice: list[int], hull: int
) -> None:
    state = duel(armed(w("pt-1", kind, cls)), target(screen=2, armour=4, hull=40), distance)
    _, events = volley(state, [shot("pt-1")], dice)
    r = resolved(events)
    assert (r["hit_on"], r["screen"], r["hull_damage"], r["armour_damage"]) == (hit_on, 0, hull, 0)
    if hull:
        assert only(events, "damage").data["armour_lost"] == 0


def test_short_range_torpedo_reaches_20_mu() -> None:
    state = duel(armed(w("pt-1", "short_range_pulse_torpedo")), target(), 20.5)
    assert refused(state, [shot("pt-1")]).code == "out_of_range"


def test_fusion_flare_hits_then_rolls_beam_dice_against_screens() -> None:
    state = duel(armed(w("ff-1", "fusion_flare")), target(screen=1, armour=2), 20.0)
    # 18-24 mu: hit on 4+, 4BD*; damage 6 (reroll 5), 5, 4, 1 vs screen 1: 2 + 1 = 3 and 1 past
    state, events = volley(state, [shot("ff-1")], [4, 6, 5, 5, 4, 1])
    r = resolved(events)
    assert (r["dice"], r["hits"], r["damage_rolled"]) == ("hit on 4+, 4BD*", 1, [6, 5, 5, 4, 1])
    assert (r["armour_damage"], r["hull_damage"]) == (3, 1)
    damage = only(events, "damage").data
    assert (damage["armour_lost"], damage["hull_lost"]) == (2, 2)
    # a miss rolls no damage dice
    state = duel(armed(w("ft-1", "fusion_torpedo")), target(), 5.0)
    _, events = volley(state, [shot("ft-1")], [5])
    assert resolved(events)["hits"] == 0 and "damage" not in types(events)


def test_needle_5_does_1_and_6_destroys_the_named_system_beyond_repair() -> None:
    b = target(SystemSpec("ecm-1", "ecm"))
    state = duel(armed(w("n-1", "needle"), w("n-2", "multi_needle", arcs=("F", "FS"))), b, 10.0)
    options = {o["weapon"]: o for o in fire_options(state, "A")}
    assert options["n-1"]["systems"] == ["fc-1", "beam-1", "ecm-1", "drive"]
    state, events = volley(state, [shot("n-1", "ecm-1"), shot("n-2", "beam-1")], [6, 5])
    assert [e.type for e in all_of(events, "system_damaged")] == ["system_damaged"]
    hit = only(events, "system_damaged").data
    assert (hit["system"], hit["status"], hit["cause"], hit["beyond_repair"]) == (
        "ecm-1",
        "destroyed",
        "needle",
        True,
    )
    assert only(events, "damage").data["hull_lost"] == 2  # ignores armour and screens
    assert state.ship("b1").system("ecm-1").status == "destroyed"
    assert state.ship("b1").system("beam-1").status == "ok"


def test_needle_against_the_main_drive_is_one_drive_hit() -> None:
    state = duel(armed(w("n-1", "needle"), w("n-2", "needle")), target(), 10.0)
    once, events = volley(state, [shot("n-1", "drive")], [6])
    assert once.ship("b1").system("drive").status == "damaged"
    # one drive hit, never repaired (RULES §8: needle 6s are never repaired)
    assert only(events, "system_damaged").data["beyond_repair"] is True
    assert once.ship("b1").system("drive").beyond_repair
    assert "drive" not in repair_priority(once, once.ship("b1"))
    assert state_from_dict(state_to_dict(once)) == once  # the mark survives a snapshot
    for seat in ("A", "B", "spectator"):  # public, like all damage (RULES §6)
        b1 = next(s for s in view(once, seat)["ships"] if s["id"] == "b1")
        drive = next(x for x in b1["systems"] if x["id"] == "drive")
        assert drive == {
            "id": "drive",
            "type": "main_drive",
            "status": "damaged",
            "beyond_repair": True,
        }
    # two needle 6s in one volley: two drive hits
    twice, _ = volley(state, [shot("n-1", "drive"), shot("n-2", "drive")], [6, 6])
    assert twice.ship("b1").system("drive").status == "destroyed"
    state = with_system(duel(armed(w("n-1", "needle")), target(), 10.0), "b1", "drive", "damaged")
    state, _ = volley(state, [shot("n-1", "drive")], [6])
    assert state.ship("b1").system("drive").status == "destroyed"


def test_heavy_needle_two_sixes_destroy_and_reroll_past_armour() -> None:
    state = duel(armed(w("hn-1", "heavy_needle")), target(armour=3), 10.0)
    # two 6s: fc-1 destroyed, 1 hull, then a beam reroll: 6 (2 hits, reroll 4: 1) = 3 more
    state, events = volley(state, [shot("hn-1", "fc-1")], [6, 6, 6, 4])
    r = resolved(events)
    assert (r["rolled"], r["pair"], r["damage_rolled"], r["hull_damage"]) == (
        [6, 6],
        True,
        [6, 4],
        4,
    )
    assert only(events, "damage").data["armour_lost"] == 0
    assert state.ship("b1").system("fc-1").status == "destroyed"
    # docs/rules.md: the two 6s do 1 hull box between them, so a missed reroll leaves 1 in all,
    # a 4 or 5 makes 2; a 6 and a 5 do 1 each (2) and destroy the system, with no reroll
    for dice, hull in (([6, 6, 3], 1), ([6, 6, 5], 2), ([6, 5], 2)):
        fresh = duel(armed(w("hn-1", "heavy_needle")), target(armour=3), 10.0)
        fresh, events = volley(fresh, [shot("hn-1", "fc-1")], dice)
        assert resolved(events)["hull_damage"] == hull, dice
        assert fresh.ship("b1").system("fc-1").status == "destroyed"
    # two 6s against the drive, a two-hit system, destroy it outright: each die does its 1
    # damage, and no reroll (C1.8 gives that to other systems)
    state = duel(armed(w("hn-1", "heavy_needle")), target(), 10.0)
    state, events = volley(state, [shot("hn-1", "drive")], [6, 6])
    assert state.ship("b1").system("drive").status == "destroyed"
    r = resolved(events)
    assert (r["pair"], r["damage_rolled"], r["hull_damage"]) == (True, [], 2)
    # 12-24 mu: one die
    state = duel(armed(w("hn-1", "heavy_needle")), target(), 20.0)
    state, events = volley(state, [shot("hn-1", "fc-1")], [6])
    assert (
        resolved(events)["rolled"] == [6] and state.ship("b1").system("fc-1").status == "destroyed"
    )


def test_needle_target_system_is_checked() -> None:
    state = duel(armed(w("n-1", "needle"), w("beam-9", "beam", 2)), target(), 10.0)
    assert refused(state, [shot("n-1")]).code == "bad_target_system"
    for core in ("core", "bridge", "life_support"):
        assert refused(state, [shot("n-1", core)]).code == "bad_target_system"
    assert refused(state, [shot("n-1", "nope")]).code == "bad_target_system"
    assert refused(state, [shot("beam-9", "fc-1")]).code == "bad_target_system"


def test_destroyed_by_needle_is_never_repaired() -> None:
    b = target()
    state = duel(armed(w("n-1", "needle")), b, 10.0)
    state, _ = volley(state, [shot("n-1", "beam-1")], [6])
    # damage control skips a destroyed system (it only repairs damaged ones)
    from app.rules.damage import repair_priority

    assert "beam-1" not in repair_priority(state, state.ship("b1"))


# -- EMP ---------------------------------------------------------------------------------------
def roma() -> Design:
    return target(
        SystemSpec("ftl-1", "ftl"),
        SystemSpec("fc-1", "fire_control"),
        SystemSpec("fc-2", "fire_control"),
        SystemSpec("fc-3", "fire_control"),
        screen=1,
        hull=30,
        armed=False,
    )


def reaver() -> Design:
    return armed(
        w("emp-1", "emp", 2),
        w("emp-2", "emp", 2),
        w("beam-1", "beam", 2),
        w("beam-2", "beam", 2),
    )


EMP_ROLLS = [4, 1, 2, 1, 5, 4]  # Roma: drive, FTL, screen, three fire controls


def test_c1_5_worked_example() -> None:
    """Reaver's two EMP-2 at 19 mu roll 4 and 6 (+5): 3 hits. Roma rolls 4 (drive), 1 (FTL),
    2 (screen), 1, 5, 4 (fire controls): she loses her screen and one fire control (and the FTL
    drive, vulnerable in RULES §8). Reaver's class-2 beams roll 2 and 4: the screen still blocks
    the 4, because EMP damage comes after all of Reaver's weapons."""
    state = duel(reaver(), roma(), 19.0)
    shots = [shot("emp-1"), shot("emp-2"), shot("beam-1"), shot("beam-2")]
    state, events = volley(state, shots, [4, 6, 5, 2, 4, *EMP_ROLLS])
    fire = only(events, "fire_resolved").data["shots"]
    assert [s["emp_hits"] for s in fire[:2]] == [0, 3]
    assert [(s["rolled"], s["screen"], s["hits"]) for s in fire[2:]] == [([2], 1, 0), ([4], 1, 0)]
    assert "damage" not in types(events)
    emp = only(events, "emp").data
    assert (emp["ship"], emp["by"], emp["hits"]) == ("b1", "a1", 3)
    assert [(r["system"], r["die"], r["damaged"]) for r in emp["results"]] == [
        ("drive", 4, False),
        ("ftl-1", 1, True),
        ("screen-1", 2, True),
        ("fc-1", 1, True),
        ("fc-2", 5, False),
        ("fc-3", 4, False),
    ]
    lost = [(e.data["system"], e.data["cause"]) for e in all_of(events, "system_damaged")]
    assert lost == [("ftl-1", "emp"), ("screen-1", "emp"), ("fc-1", "emp")]
    b1 = state.ship("b1")
    assert cap.screen_level(state, b1) == 0 and cap.fire_controls(b1) == 2


def test_emp_hits_are_capped_at_3_per_firing_ship() -> None:
    state = duel(armed(w("emp-1", "emp", 4), w("emp-2", "emp", 2)), roma(), 10.0)
    # 4 + 2 dice, all 5s: 6 hits, 3 count
    state, events = volley(state, [shot("emp-1"), shot("emp-2")], [5] * 6 + [4, 4, 4, 4, 4, 4])
    emp = only(events, "emp").data
    assert (emp["hits_scored"], emp["hits"]) == (6, 3)
    assert not any(r["damaged"] for r in emp["results"])


def test_the_emp_cap_holds_for_the_whole_turn_across_fire_windows() -> None:
    # one ship's EMP weapons split over two windows of one turn still count at most 3 hits
    state = duel(armed(w("emp-1", "emp", 2), w("emp-2", "emp", 2)), roma(), 10.0)
    # window 1: 2BD* vs screen 1: 6 (2, reroll 1), 6 (2, reroll 1) = 4 hits, 3 count
    state, events = volley(state, [shot("emp-1")], [6, 1, 6, 1] + [6] * 6)
    assert only(events, "emp").data["hits"] == 3
    assert state.ship("a1").emp_hits == {"b1": 3}
    # window 2 of the same turn: the cap is used up, nothing rolls for the systems
    state, events = volley(fire_window(state), [shot("emp-2")], [6, 1, 6, 1])
    emp = only(events, "emp").data
    assert (emp["hits_scored"], emp["hits"], emp["results"]) == (4, 0, [])
    assert not all_of(events, "system_damaged")
    assert state_from_dict(state_to_dict(state)) == state
    # the count starts again with the next turn
    payload = {"turn": state.turn, "regained_control": [], "life_support_failed": []}
    ended = evolve(state, Event(state.seq + 1, state.turn, "turn_ended", payload))
    assert ended.ship("a1").emp_hits == {}


# -- multi-fusion modes ------------------------------------------------------------------------
def test_set_mode_is_public_and_takes_the_launcher_offline() -> None:
    a = armed(w("mf-1", "multi_fusion", mode="flare"), w("beam-1", "beam", 2))
    state = setup_game([a], [target()], {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 15.0, 6, 0)})
    state, _ = play(state, "A", {"type": "activate", "ship": "a1"})
    legal = view(state, "A")["phase"]["legal"]
    assert "set_mode" in legal["commands"]
    assert legal["set_mode"] == {
        "mf-1": {
            "ship": "a1",
            "mode": "flare",
            "modes": ["flare", "torpedo"],
            "offline_until": None,
        }
    }
    assert "set_mode" not in view(state, "B")["phase"]["legal"]["commands"]
    cmd = {"type": "set_mode", "ship": "a1", "weapon": "mf-1", "mode": "torpedo"}
    with pytest.raises(RulesError) as caught:
        play(state, "B", cmd)
    assert caught.value.code in ("not_your_turn", "not_your_ship")
    for bad, code in (
        ({**cmd, "mode": "flare"}, "invalid_command"),  # already
        ({**cmd, "mode": "laser"}, "invalid_command"),
        ({**cmd, "weapon": "beam-1"}, "invalid_command"),
        ({**cmd, "weapon": "nope"}, "unknown_weapon"),
    ):
        with pytest.raises(RulesError) as caught:
            play(state, "A", bad)
        assert caught.value.code == code, bad
    state, events = play(state, "A", cmd)
    assert types(events) == ["mode_set"]
    event = events[0]
    assert event.data["offline_until"] == 2  # turn 1 and turn 2
    # public (docs/rules.md): every seat receives the switch in full and sees the mode
    for seat in ("B", "spectator"):
        seen = redact(event, seat, state)
        assert "redacted" not in seen and seen["data"]["mode"] == "torpedo", seat
        other = next(s for s in view(state, seat)["ships"] if s["id"] == "a1")
        assert other["modes"] == {"mf-1": {"mode": "torpedo", "offline_until": 2}}
    a1 = next(s for s in view(state, "A")["ships"] if s["id"] == "a1")
    mf = next(x for x in a1["weapons"] if x["id"] == "mf-1")
    assert (mf["mode"], mf["offline"], mf["bands"][0]["dice"]) == (
        "torpedo",
        True,
        "hit on 6+, 6BD*",
    )
    b_view = next(s for s in view(state, "B")["ships"] if s["id"] == "a1")
    assert "weapons" not in b_view
    # offline: the fire window does not offer it, a declaration is refused
    window = fire_window(live(state, "a1", "b1"))
    assert [o["weapon"] for o in fire_options(window, "A")] == ["beam-1"]
    assert refused(window, [shot("mf-1")]).code == "weapon_offline"
    # and (the switch being public) a ship with only the offline launcher is not awaited
    from app.rules.fire import awaited_sides

    only_mf = with_system(window, "a1", "beam-1", "damaged")
    assert "A" not in awaited_sides(only_mf, "a1")
    # turn 3: online again, in torpedo mode
    later = replace(window, turn=3)
    options = fire_options(later, "A")
    mf_option = next(o for o in options if o["weapon"] == "mf-1")
    assert (mf_option["mode"], mf_option["dice"]) == ("torpedo", "hit on 6+, 6BD*")


def test_a_launcher_that_already_fired_misses_the_next_two_turns_after_a_switch() -> None:
    # C1.16: offline for 2 turns; switching after firing this turn must not cost only one
    a = armed(w("mf-1", "multi_fusion", mode="flare"), w("beam-1", "beam", 2))
    state = setup_game([a], [target()], {"a1": (36.0, 10.0, 0, 0), "b1": (36.0, 15.0, 6, 0)})
    state, _ = play(state, "A", {"type": "activate", "ship": "a1"})
    cmd = {"type": "set_mode", "ship": "a1", "weapon": "mf-1", "mode": "torpedo"}
    fresh, events = play(state, "A", cmd)
    assert events[0].data["offline_until"] == state.turn + 1
    fired = with_ship(state, "a1", fired=frozenset({"mf-1"}))
    after_firing, events = play(fired, "A", cmd)
    assert events[0].data["offline_until"] == state.turn + 2
    next_turn = replace(after_firing, turn=state.turn + 1)
    assert cap.offline(next_turn, next_turn.ship("a1"), "mf-1")
    later = replace(fresh, turn=state.turn + 2)
    assert not cap.offline(later, later.ship("a1"), "mf-1")


# -- stealth -----------------------------------------------------------------------------------
def test_stealth_is_lost_with_hull_rows() -> None:
    d1 = replace(target(hull=20), stealth=1)  # 4 rows of 5: level 1 lost after row 2
    assert [stealth_level(d1, lost) for lost in (0, 9, 10, 20)] == [1, 1, 0, 0]
    d2 = replace(target(hull=20), stealth=2)  # 2 -> 1 after row 1, lost after row 3
    assert [stealth_level(d2, lost) for lost in (0, 4, 5, 14, 15)] == [2, 2, 1, 1, 0]


def test_stealthed_target_and_firer_in_battle() -> None:
    a = armed(w("beam-1", "beam", 3), stealth=1)
    b = target(hull=20, stealth=2)
    state = duel(a, b, 9.0)
    options = fire_options(state, "A")
    assert (options[0]["band"], options[0]["dice"], options[0]["target_stealth"]) == (2, "2BD*", 2)
    state, events = volley(state, [shot("beam-1")], [6, 6, 6, 5, 1, *([1] * 4)])
    damage = only(events, "damage").data
    # 2 + 2 reroll hits + 2 + 1 = 7 hull: rows 1 (5) finished -> stealth 2 drops to 1
    assert (damage["hull_lost"], damage["stealth_before"], damage["stealth"]) == (7, 2, 1)
    assert cap.stealth(state, state.ship("b1")) == 1
    b_view = next(s for s in view(state, "A")["ships"] if s["id"] == "b1")
    assert b_view["stealth"] == {"design": 2, "now": 1}
    # a stealthed firer does not reach 24+ mu even with a class-3 beam
    far = duel(a, target(), 30.0)
    assert fire_options(far, "A") == []
    assert refused(far, [shot("beam-1")]).code == "out_of_range"


def test_a_ship_that_lost_its_stealth_keeps_its_passive_fire_control() -> None:
    """Decision (C8.2): the 24 mu limit comes with the passive fire control a stealth design
    carries; hull damage takes the stealth away, not that fire control."""
    a = armed(w("beam-1", "beam", 3), stealth=1)  # hull 12 in rows of 3: lost after row 2
    state = with_ship(duel(a, target(), 30.0), "a1", hull_lost=6)
    assert cap.stealth(state, state.ship("a1")) == 0
    assert fire_options(state, "A") == []
    err = refused(state, [shot("beam-1")])
    assert err.code == "out_of_range" and "passive fire control: 24 mu at most" in err.detail
    # its own weapons' reach, as its owner sees it, ends at 24 mu too
    mine = next(s for s in view(state, "A")["ships"] if s["id"] == "a1")
    assert [b["to"] for b in mine["weapons"][0]["bands"]] == [12.0, 24.0]
    # within 24 mu it fires as before
    near = with_ship(duel(a, target(), 20.0), "a1", hull_lost=6)
    assert [o["dice"] for o in fire_options(near, "A")] == ["2BD*"]


def test_emp_projectors_take_weak_arcs_like_beams() -> None:
    """Decision (C1.3 lets weapons other than beams buy weak arcs; C1.5 makes EMP a standard
    beam for hitting, mass and cost): an EMP projector may buy weak arcs, priced and fired as a
    beam's."""
    row = SYSTEMS["emp"]
    assert row.weak_arcs and "weak_arcs" in row.fields
    emp = w("emp-1", "emp", 3, weak_arcs=("FP", "FS"))
    design = armed(emp)
    assert design.problems() == []
    # C1.3's class-3 example: 4 + 2 × ½ = 5 mass, 15 points
    assert (emp.mass(design.mass), emp.points(design.mass)) == (5, 15)
    # a target only in the weak arcs is fired at as class 2: 2BD* in the first band
    state = duel(design, target(), 6.0, b_x=6.0)  # 8.5 mu, 45° off the bow: FS
    assert [
        (o["weapon"], o["class"], o["dice"], o.get("weak_arc")) for o in fire_options(state, "A")
    ] == [("emp-1", 2, "2BD*", True)]
    state, events = volley(state, [shot("emp-1")], [5, 5, 6, 6])  # drive and fc-1 hold
    assert only(events, "emp").data["hits"] == 2


# -- command bridge ----------------------------------------------------------------------------
def _bridged() -> GameState:
    b = target(SystemSpec("cb-1", "command_bridge"))
    return setup_game([armed()], [b])


def test_a_bridge_hit_picks_one_of_two_bridges() -> None:
    state = _bridged()
    b1 = state.ship("b1")
    # core roll 3 = bridge; bridge roll 5 = the command bridge; 1d6 = 2 turns out
    hit = system_hit(b1, "core_systems", "threshold", Roller(ScriptedDice([3, 5, 2]), 0))
    assert (hit["system"], hit["bridge_roll"], hit["status"], hit["command_bridge_out"]) == (
        "cb-1",
        5,
        "damaged",
        2,
    )
    assert "out_of_control" not in hit
    assert len(dice_values({"type": "system_damaged", "data": hit})) == len(hit["rolls"]) == 3
    # bridge roll 2: the normal bridge, with its normal effect
    hit = system_hit(b1, "core_systems", "threshold", Roller(ScriptedDice([4, 2, 3]), 0))
    assert (hit["system"], hit["out_of_control"]) == ("bridge", 3)
    # a 6 destroys the command bridge
    hit = system_hit(b1, "core_systems", "threshold", Roller(ScriptedDice([2, 4, 6]), 0))
    assert (hit["system"], hit["status"]) == ("cb-1", "destroyed")
    # no working command bridge: no bridge roll
    lost = with_system(state, "b1", "cb-1", "damaged").ship("b1")
    hit = system_hit(lost, "core_systems", "threshold", Roller(ScriptedDice([3, 1]), 0))
    assert hit["system"] == "bridge" and "bridge_roll" not in hit


def test_command_bridge_is_core_and_comes_back_after_the_ships_own_activations() -> None:
    from app.rules.damage import threshold_candidates
    from app.rules.evolve import evolve

    state = _bridged()
    assert "cb-1" not in threshold_candidates(state.ship("b1"))
    hit = system_hit(
        state.ship("b1"), "core_systems", "threshold", Roller(ScriptedDice([3, 5, 1]), 0)
    )
    state = evolve(state, Event(state.seq + 1, 1, "system_damaged", hit))
    b1 = state.ship("b1")
    assert (b1.system("cb-1").status, b1.command_bridge_out, b1.in_control) == ("damaged", 1, True)
    # the end of a turn does not count (RULES §8: the ship's own activations do)
    ended = {"turn": 1, "regained_control": [], "life_support_failed": []}
    state = evolve(state, Event(state.seq + 1, 1, "turn_ended", ended))
    assert state.ship("b1").system("cb-1").status == "damaged"
    # its next activation is the one it is knocked out for; at its end the bridge is back
    state = replace(state, phase=Phase(step="activate", side="B"))
    state, events = play(state, "B", move("b1"))
    assert events[0].data == {"side": "B", "ship": "b1", "command_bridge_out": 0}
    assert state.ship("b1").system("cb-1").status == "damaged"
    state, events = play(state, "B", end("b1"))
    assert events[0].data["command_bridge_restored"] is True
    b1 = state.ship("b1")
    assert (b1.system("cb-1").status, b1.command_bridge_out) == ("ok", 0)
