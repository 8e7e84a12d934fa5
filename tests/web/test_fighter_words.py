"""Fighter and drone groups in words, on the map and on the record sheet (issue 13), built from
views and events in the shapes of the brief: the log tells each group event for the seat that
receives it (the owner's step-2 items, the other side's redacted line, public sightings,
attack runs, dogfights and lost contacts); the map draws an own group with its reach, its 6 mu
line of sight and its mother, an enemy group only with what its live form holds; the record
sheet lists an own ship's bays with what they hold and an enemy's bays as hardware only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.web import groups
from app.web.words import Teller, odds_words

ROSTER = [
    {"id": "a1", "name": "Ark Royal", "side": "A"},
    {"id": "b1", "name": "Wolf", "side": "B"},
]
SIDES = {"A": "Blue Fleet", "B": "Raiders"}


def tell(seat: str, events: list[Mapping[str, Any]]) -> list[str]:
    full = [{"seq": i + 1, "turn": 2, **e} for i, e in enumerate(events)]
    return Teller(ROSTER, seat, SIDES).tell_all(full)


STEP2 = {
    "type": "ordnance_acted",
    "data": {
        "ship": "a1",
        "markers": [
            {
                "marker": "m3",
                "kind": "fighters",
                "result": "launched",
                "bay": "fb-1",
                "to": {"x": 20.0, "y": 14.0},
                "strength": 6,
                "cef": 6,
            },
            {
                "marker": "m1",
                "kind": "fighters",
                "result": "moved",
                "from": {"x": 10.0, "y": 10.0},
                "to": {"x": 30.0, "y": 12.0},
                "cef": 4,
            },
            {"marker": "m2", "kind": "drones", "result": "landed", "bay": "fb-2", "strength": 5},
        ],
    },
}


def test_the_owner_reads_each_step_2_item_of_its_groups() -> None:
    [text] = tell("A", [STEP2])
    assert text == (
        "Your Ark Royal's ordnance acted: your fighter group m3 launched from fb-1 and flew to "
        "(20.0, 14.0), 6 strong, CEF 6; your fighter group m1 flew from (10.0, 10.0) to "
        "(30.0, 12.0), CEF 4; your drone group m2 landed in fb-2, 5 strong."
    )


def test_the_other_side_reads_only_that_step_2_happened() -> None:
    redacted = {"type": "ordnance_acted", "redacted": True, "data": {"ship": "a1"}}
    [text] = tell("B", [redacted])
    assert text == "Ark Royal's ordnance acted in secret."
    assert "launch" not in text and "fb-1" not in text


def test_a_sighting_then_an_attack_run_name_the_group_by_its_side_and_type() -> None:
    sighted = {
        "type": "fighters_sighted",
        "data": {
            "cause": "sight",
            "side": "A",
            "groups": [
                {"marker": "m7", "side": "B", "kind": "drones", "position": {"x": 22, "y": 15}}
            ],
        },
    }
    attack = {
        "type": "fighters_attack",
        "data": {
            "marker": "m3",
            "side": "A",
            "kind": "fighters",
            "group": "heavy",
            "target": "b1",
            "fighters": 6,
            "notation": "1BD+1*",
            "rolled": [6, 5, 2, 1, 4, 6, 3],
            "armour_damage": 2,
            "hull_damage": 1,
        },
    }
    a_sight, a_attack = tell("A", [sighted, attack])
    assert a_sight == "You sighted the enemy drone group m7 at (22.0, 15.0)."
    assert tell("B", [sighted])[0] == "Blue Fleet sighted your drone group m7 at (22.0, 15.0)."
    assert a_attack == (
        "Your fighter group m3 (heavy fighters) attacked Wolf with 6 fighters: 1BD+1* rolled "
        "6,5,2,1,4,6,3 → 3 damage (2 armour, 1 hull)."
    )
    b_attack = tell("B", [sighted, attack])[1]
    assert b_attack.startswith("The enemy fighter group m3 (heavy fighters) attacked your Wolf")
    ref_attack = tell("referee", [sighted, attack])[1]
    assert ref_attack.startswith("Blue Fleet's fighter group m3 (heavy fighters) attacked Wolf")


def test_a_ping_detects_groups_without_dice() -> None:
    ping = {
        "type": "fighters_sighted",
        "data": {
            "cause": "ping",
            "by": "b1",
            "groups": [
                {"marker": "m3", "side": "A", "kind": "fighters", "position": {"x": 1, "y": 2}},
                {"marker": "m4", "side": "A", "kind": "fighters", "position": {"x": 3, "y": 4}},
            ],
        },
    }
    assert tell("A", [ping]) == [
        "Wolf's ping detected your fighter group m3 at (1.0, 2.0); your fighter group m4 at "
        "(3.0, 4.0)."
    ]


def test_the_choice_is_secret_until_the_attacks() -> None:
    chosen = {
        "type": "fighters_chosen",
        "data": {
            "ship": "a1",
            "choices": [
                {"marker": "m3", "attack": "b1", "system": "fire_control"},
                {"marker": "m4", "attack": None},
                {"marker": "m5", "attack": "m7", "mode": "pd"},
            ],
        },
    }
    [own] = tell("A", [chosen])
    assert own == (
        "Your Ark Royal's groups chose: the fighter group m3 attacks Wolf at its fire control; "
        "the fighter group m4 does not attack; the fighter group m5 attacks the fighter group m7 "
        "as point defence."
    )
    hidden = {"type": "fighters_chosen", "redacted": True, "data": {"ship": "a1"}}
    assert tell("B", [hidden]) == ["Ark Royal's groups chose their targets (shown as they attack)."]
    step = {"type": "fighters_step", "data": {"ship": "a1"}}
    assert tell("B", [step]) == ["Ark Royal's groups choose their targets."]


def test_contact_lost_says_why_and_where_the_group_stays() -> None:
    lost = {
        "type": "contact_lost",
        "data": {"marker": "m3", "ship": "b1", "reason": "speed", "at": {"x": 5, "y": 6}},
    }
    assert tell("B", [lost]) == [
        "The fighter group m3 lost contact with your Wolf (its target was too fast to follow); "
        "it stays at (5.0, 6.0)."
    ]
    broke = {"type": "contact_lost", "data": {"marker": "m3", "ship": "b1", "reason": "broke_off"}}
    assert tell("A", [broke]) == ["The fighter group m3 lost contact with Wolf (it broke off)."]


def test_a_dogfight_tells_both_groups_dice_and_kills() -> None:
    fight = {
        "type": "dogfight",
        "data": {
            "marker": "m3",
            "side": "A",
            "kind": "fighters",
            "group": "standard",
            "target": "m7",
            "target_kind": "fighters",
            "target_group": "interceptor",
            "gone": ["m7"],
            "attacker": {"notation": "1BD*", "rolled": [6, 4, 1], "kills": 2},
            "defender": {"notation": "1BD*", "rolled": [5], "kills": 1},
        },
    }
    assert tell("A", [STEP2, fight])[1] == (
        "Dogfight: your fighter group m3 (standard fighters) rolled 6,4,1 (1BD*), 2 kills; the "
        "enemy fighter group m7 (interceptor fighters) rolled 5 (1BD*), 1 kill; gone: the enemy "
        "fighter group m7 (interceptor fighters)."
    )


def test_a_spent_group_is_removed_in_words_and_pd_odds_count_fighters() -> None:
    removed = {
        "type": "marker_removed",
        "data": {"reason": "exhausted", "markers": [{"marker": "m2", "kind": "drones"}]},
    }
    assert tell("A", [STEP2, removed])[1] == (
        "Removed (no combat endurance left): your drone group m2."
    )
    assert odds_words("fighters", 1.5) == "about 1.5 fighters shot down"
    assert odds_words("salvo", 1.0) == "about 1.0 missile shot down"


def test_a_volley_at_a_group_counts_its_kills() -> None:
    volley = {
        "type": "fire_resolved",
        "data": {
            "shots": [
                {
                    "ship": "b1",
                    "weapon": "beam-1",
                    "target": "m3",
                    "range": 4.0,
                    "dice": "2BD",
                    "rolled": [5, 6],
                    "hits": 2,
                    "kills": 2,
                    "path": "group",
                    "drm": -1,
                }
            ]
        },
    }
    assert tell("A", [STEP2, volley])[1] == (
        "Volley: Wolf beam-1 → your fighter group m3 at 4.0 mu: 2BD rolled 5,6 (-1 on each die), "
        "2 hits → 2 kills."
    )


# -- the map ---------------------------------------------------------------------------------------
def a_view(seat: str, markers: list[dict[str, Any]], legal: dict[str, Any] | None = None) -> Any:
    """A view of a carrier (A) and a raider (B) on a 48 × 36 table, as ``seat`` sees it."""
    own_a = seat in ("A", "referee")
    ships = [
        {
            "id": "a1",
            "name": "Ark Royal",
            "side": "A",
            "revealed": "unseen",
            **({"position": {"x": 10.0, "y": 10.0}} if own_a else {}),
        },
        {
            "id": "b1",
            "name": "Wolf",
            "side": "B",
            "revealed": "live",
            "position": {"x": 30.0, "y": 20.0},
        },
    ]
    return {
        "you": seat,
        "ships": ships,
        "markers": markers,
        "phase": {"legal": legal or {}},
    }


OWN_GROUP = {
    "id": "m3",
    "side": "A",
    "kind": "fighters",
    "type": "fast",
    "mother": "a1",
    "position": {"x": 14.0, "y": 12.0},
    "aim": {"x": 10.0, "y": 10.0},
    "strength": 6,
    "cef": 5,
}


def test_an_own_group_has_its_reach_sight_mother_and_cef() -> None:
    [g] = groups.groups(a_view("A", [OWN_GROUP]), 36.0)
    assert (g["x"], g["y"], g["role"]) == (14.0, 24.0, "own")
    assert g["reach"] == 36.0  # a fast group's primary move
    assert g["sight"] == 6.0
    assert (g["mother"], g["cef"], g["strength"]) == ("Ark Royal", 5, 6)
    assert g["words"] == "fighter group (fast fighters)"
    # ordered now: the step-2 reach from the legal moves
    legal = {"markers": [{"marker": "m3", "kind": "fighters", "reach": 18.0}]}
    [g] = groups.groups(a_view("A", [OWN_GROUP], legal), 36.0)
    assert g["reach"] == 18.0


def test_an_enemy_group_brings_only_its_public_form() -> None:
    live = {
        "id": "m3",
        "side": "A",
        "kind": "fighters",
        "position": {"x": 30.0, "y": 20.0},
        "strength": 4,
        "engaged_with": "b1",
    }
    [g] = groups.groups(a_view("B", [live]), 36.0)
    assert g["role"] == "enemy"
    assert (g["mother"], g["cef"], g["reach"], g["sight"]) == (None, None, None, None)
    assert g["words"] == "fighter group"  # no type until it is shown
    # drawn beside the engaged ship, linked to it; its circles stay on the ship
    assert g["link"] == {"x": 30.0, "y": 16.0}
    assert (g["cx"], g["cy"]) == (30.0, 16.0)
    assert (g["x"], g["y"]) == (30.0 - groups.ENGAGED_OFFSET, 16.0 + groups.ENGAGED_OFFSET)
    [shown] = groups.groups(a_view("B", [{**live, "type": "heavy"}]), 36.0)
    assert shown["words"] == "fighter group (heavy fighters)"


def test_the_referee_sees_every_group_as_its_owner_does() -> None:
    enemy = {**OWN_GROUP, "id": "m9", "side": "B", "mother": "b1", "kind": "drones"}
    found = {g["id"]: g for g in groups.groups(a_view("referee", [OWN_GROUP, enemy]), 36.0)}
    assert found["m3"]["mother"] == "Ark Royal" and found["m9"]["mother"] == "Wolf"
    assert found["m9"]["words"] == "drone group (fast drones)"
    assert found["m3"]["role"] == found["m9"]["role"] == ""


def test_the_record_sheet_lists_bays_with_what_they_hold() -> None:
    ship = {
        "systems": [
            {"id": "fb-1", "type": "fighter_bay", "status": "ok"},
            {"id": "fb-2", "type": "fighter_bay", "status": "damaged"},
            {"id": "db-1", "type": "drone_bay", "status": "ok"},
        ],
        "design": {
            "systems": [
                {"id": "fb-1", "type": "fighter_bay", "load": "standard"},
                {"id": "fb-2", "type": "fighter_bay", "load": "interceptor"},
                {"id": "db-1", "type": "drone_bay", "load": "attack"},
            ]
        },
        "bays": {
            "fb-1": {"group": "standard", "strength": 6, "cef": 6, "ready_turn": 0},
            "fb-2": {"group": "interceptor", "strength": 3, "cef": 6, "ready_turn": 4},
        },
    }
    rows = {r["id"]: r for r in groups.bays(ship, 3)}
    assert rows["fb-1"]["holds"] == {"words": "standard fighters", "strength": 6, "cef": 6}
    assert rows["fb-1"]["ready"] is True
    assert rows["fb-2"]["ready"] is False and rows["fb-2"]["status"] == "damaged"
    assert rows["db-1"]["holds"] is None and rows["db-1"]["design"] == "attack drones"
    assert groups.bay_hardware(ship) == [
        {"id": "fb-1", "type": "fighter_bay", "status": "ok"},
        {"id": "fb-2", "type": "fighter_bay", "status": "damaged"},
        {"id": "db-1", "type": "drone_bay", "status": "ok"},
    ]


def test_a_carrier_with_a_ready_group_is_offered_step_2_first() -> None:
    def carrier(sid: str, bays: dict[str, Any], status: str = "ok") -> dict[str, Any]:
        return {
            "id": sid,
            "systems": [{"id": "fb-1", "type": "fighter_bay", "status": status}],
            "design": {"systems": [{"id": "fb-1", "type": "fighter_bay", "load": "standard"}]},
            "bays": bays,
        }

    aboard = {"fb-1": {"group": "standard", "strength": 6, "cef": 6, "ready_turn": 2}}
    ships = [
        carrier("a1", aboard),
        carrier("a2", {"fb-1": None}),  # launched: nothing aboard
        carrier("a3", aboard, status="damaged"),
        carrier("a4", {}),
    ]
    in_flight = [{"id": "m1", "side": "A", "mother": "a4", "kind": "fighters"}]
    assert groups.step2_ships(ships, in_flight, "A", 2) == ["a1", "a4"]
    assert groups.step2_ships(ships, in_flight, "A", 1) == ["a4"]  # landed: ready next turn
    assert groups.step2_ships(ships, [], "B", 2) == ["a1"]


def test_an_engaged_own_group_has_no_reach_drawn() -> None:
    engaged = {**OWN_GROUP, "engaged_with": "b1", "position": {"x": 30.0, "y": 20.0}}
    [g] = groups.groups(a_view("A", [engaged]), 36.0)
    assert g["reach"] is None and g["sight"] == 6.0
    assert g["engaged"] == "Wolf" and g["link"] == {"x": 30.0, "y": 16.0}


def test_fire_at_groups_and_a_group_shot_down_before_it_rolled() -> None:
    hit = {
        "type": "groups_hit",
        "data": {"window": 9, "groups": [{"marker": "m3", "killed": 2, "strength": 4}]},
    }
    assert tell("A", [STEP2, hit])[1] == "Fire at groups: your fighter group m3 lost 2, 4 left."
    down = {
        "type": "fighters_attack",
        "data": {
            "marker": "m3",
            "side": "A",
            "kind": "fighters",
            "group": "standard",
            "target": "b1",
            "destroyed": True,
            "fighters": 0,
            "rolled": [],
        },
    }
    assert tell("B", [down]) == [
        "The enemy fighter group m3 (standard fighters) was shot down attacking your Wolf: none "
        "of it was left to roll."
    ]
