"""The smaller finds of the newcomer's review of fighters and drones (issue 13): the other
side's line for a carrier's secret step 2, the owner's line for a step 2 that did nothing, the
casing after "Point defence:", and an own group the enemy sees marked on its owner's map as a
revealed own ship is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.web import groups as map_groups
from app.web.mapview import legend
from app.web.words import Teller

CARRIER = {"systems": [{"id": "fb-1", "type": "fighter_bay"}, {"id": "db-1", "type": "drone_bay"}]}
SHIPS: list[Mapping[str, Any]] = [
    {"id": "a1", "name": "Albatross", "side": "A", "design": CARRIER},
    {"id": "a2", "name": "Lance", "side": "A", "design": {"systems": [{"id": "sr-1"}]}},
    {"id": "b1", "name": "Harrier", "side": "B"},
]
NAMES = {"A": "Carrier group", "B": "Hunter group"}


def _tell(seat: str, event: Mapping[str, Any]) -> str:
    return Teller(SHIPS, seat, NAMES).tell({"seq": 1, "turn": 2, **event})


def test_the_other_side_reads_that_a_carriers_step_2_ran_in_secret() -> None:
    """ "Albatross's ordnance acted." read as if something had happened: the line says the step
    ran, names what may have acted (the carrier's bays: fighters and drones) and that it is
    secret."""
    redacted = {"type": "ordnance_acted", "redacted": True, "data": {"ship": "a1"}}
    assert _tell("B", redacted) == "Albatross's ordnance and fighters and drones acted in secret."
    plain = {"type": "ordnance_acted", "redacted": True, "data": {"ship": "a2"}}
    assert _tell("B", plain) == "Lance's ordnance acted in secret."


def test_the_owner_reads_that_its_carriers_step_2_did_nothing() -> None:
    empty = {"type": "ordnance_acted", "data": {"ship": "a1", "markers": []}}
    assert _tell("A", empty) == "Your Albatross's step 2: nothing launched or moved."
    assert _tell("A", {**empty, "data": {"ship": "a2", "markers": []}}) == (
        "Your Lance's step 2: nothing in flight."
    )


def test_point_defence_by_a_group_has_no_capital_after_the_colon() -> None:
    resolved = {
        "type": "defence_resolved",
        "data": {
            "window": 3,
            "defences": [{"group": "m-7", "against": "m-2", "side": "A", "dice": [], "kills": 0}],
        },
    }
    assert _tell("B", resolved).startswith("Point defence: the "), _tell("B", resolved)
    assert _tell("A", resolved).startswith("Point defence: your "), _tell("A", resolved)


def _view(live: bool) -> dict[str, Any]:
    group = {
        "id": "m-1",
        "side": "A",
        "kind": "fighters",
        "type": "standard",
        "mother": "a1",
        "strength": 6,
        "cef": 6,
        "live": live,
        "position": {"x": 30.0, "y": 20.0},
    }
    return {
        "you": "A",
        "ships": [{"id": "a1", "name": "Albatross", "side": "A", "position": {"x": 6, "y": 20}}],
        "phase": {"legal": {"commands": []}},
        "markers": [group],
    }


def test_an_own_group_the_enemy_sees_is_marked_as_a_revealed_own_ship_is() -> None:
    """A revealed own ship carries the ``live`` class (a white edge) and says "revealed now";
    an own live group must be marked the same way, and the legend must say what it means."""
    [seen] = map_groups.groups(_view(True), 48.0)
    [hidden] = map_groups.groups(_view(False), 48.0)
    assert seen["shown"] and not hidden["shown"]
    keys = [k["css"] for k in map_groups.group_keys("A")]
    assert any(" live" in css for css in keys), keys
    # the ship's legend line for the same thing uses the same class
    assert any("live" in k["css"] and "own" in k["css"] for k in legend("A", NAMES))
    # an enemy's live group is not "yours, revealed": no such mark
    enemy = _view(True)
    enemy["you"] = "B"
    [theirs] = map_groups.groups(enemy, 48.0)
    assert not theirs["shown"]
