"""The forms of fighter and drone groups as the web door reads them (issue 13): step 2's group
destinations, landings and bay launches, the defence window's interceptions — each read into
the API command the same form describes, every malformed field refused in words (422, never a
500). The same forms through real HTTP are in ``test_fighter_pages.py``."""

from __future__ import annotations

import pytest
from starlette.datastructures import FormData

from app.play import errors as E
from app.web.routes import command_from_form


def read(*fields: tuple[str, str]) -> dict[str, object]:
    return command_from_form(FormData(list(fields)))


def test_step_2_reads_destinations_landings_and_launches() -> None:
    body = read(
        ("type", "markers"),
        ("ship", "a1"),
        ("ordering", "m3"),
        ("to_x@m3", "20.5"),
        ("to_y@m3", "14"),
        ("to_x@m4", ""),
        ("to_y@m4", ""),
        ("land@m4", "1"),
        ("to_x@m5", ""),
        ("to_y@m5", ""),
        ("launch@fb-1", "1"),
        ("launch_to_x@fb-1", "11"),
        ("launch_to_y@fb-1", "12.5"),
        ("launch_to_x@fb-2", ""),
        ("launch_to_y@fb-2", ""),
        ("launch@fb-3", "1"),
        ("launch_to_x@fb-3", ""),
        ("launch_to_y@fb-3", ""),
    )
    assert body == {
        "type": "markers",
        "ship": "a1",
        "orders": [
            {"marker": "m3", "to": {"x": 20.5, "y": 14.0}},
            {"marker": "m4", "land": True},
        ],
        # fb-2 not ticked: no launch; fb-3 ticked without a point: it stays at the launch point
        "launch": [{"bay": "fb-1", "to": {"x": 11.0, "y": 12.5}}, {"bay": "fb-3"}],
    }


def test_a_point_and_a_landing_together_go_to_the_rules_to_refuse() -> None:
    body = read(
        ("type", "markers"),
        ("ship", "a1"),
        ("to_x@m3", "1"),
        ("to_y@m3", "2"),
        ("land@m3", "1"),
    )
    assert body["orders"] == [{"marker": "m3", "to": {"x": 1.0, "y": 2.0}, "land": True}]


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ((("to_x@m3", "east"), ("to_y@m3", "2")), "the point for m3 must be two numbers"),
        (
            (("launch@fb-1", "1"), ("launch_to_x@fb-1", "3"), ("launch_to_y@fb-1", "")),
            "the point for the group launched from fb-1 must be two numbers",
        ),
    ],
)
def test_a_malformed_point_is_refused_in_words(
    fields: tuple[tuple[str, str], ...], words: str
) -> None:
    with pytest.raises(E.Invalid, match=words):
        read(("type", "markers"), ("ship", "a1"), *fields)


def test_the_defence_form_reads_interceptions_beside_the_systems() -> None:
    body = read(
        ("type", "defend"),
        ("window", "40"),
        ("defend@a1|pds-1", "m7"),
        ("intercept@m3", "m8"),
        ("intercept@m4", ""),
    )
    assert body == {
        "type": "defend",
        "window": 40,
        "allocations": [
            {"ship": "a1", "system": "pds-1", "against": "m7"},
            {"group": "m3", "against": "m8"},
        ],
    }
    nothing = read(("type", "defend"), ("window", "40"), ("intercept@m3", "m8"), ("none", "1"))
    assert nothing["allocations"] == []


def test_the_fighters_step_reads_one_choice_per_group() -> None:
    body = read(
        ("type", "fighters"),
        ("at_seq", "12"),
        ("group@m1", ""),
        ("attack@m1", "b1|ship"),
        ("group@m2", "needle"),
        ("attack@m2", "b1|ship"),
        ("system@m2", "fire_control"),
        ("group@m3", "multi"),
        ("attack@m3", "m9|group"),
        ("mode@m3", ""),
        ("group@m4", "multi"),
        ("attack@m4", "b1|ship"),
        ("mode@m4", "pd"),
        ("group@m5", "needle"),
        ("attack@m5", ""),
        ("system@m5", "fire_control"),
    )
    assert body == {
        "type": "fighters",
        "at_seq": 12,
        "choices": [
            {"marker": "m1", "attack": "b1"},
            {"marker": "m2", "attack": "b1", "system": "fire_control"},
            # a multi-role group's mode left to the form: point defence at a group
            {"marker": "m3", "attack": "m9", "mode": "pd"},
            # chosen: sent as chosen, for the rules to refuse at a ship
            {"marker": "m4", "attack": "b1", "mode": "pd"},
            # no attack: no system, no mode
            {"marker": "m5", "attack": None},
        ],
    }
