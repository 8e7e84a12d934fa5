"""The fire window's row for a launcher whose ship has no fire control free: it says why it
cannot launch, or offers only the aim points already taken this turn (decision 7)."""

from __future__ import annotations

from typing import Any

from app.web.routes import templates

_SHIP = {"id": "a1", "position": {"x": 36.0, "y": 4.0}, "heading": 0}


def _row(**option: Any) -> str:
    o = {
        "ship": "a1",
        "weapon": "sml-1",
        "launch": "salvo",
        "arcs": ["F"],
        "loads": [{"load": "salvo", "reach": 24.0, "left": 2}],
        "aim_at": [],
        **option,
    }
    context = {
        "o": o,
        "mine": [_SHIP],
        "v": {"movement": "cinematic", "table": {"width": 72, "height": 48}},
        "ship_name": lambda ship_id: {"a1": "Lance", "b1": "Vigilant"}[ship_id],
        "needle_types": [],
        "kept": {},  # what a refused form sent back (none here)
    }
    return templates.env.get_template("launch_row.html").render(context)


def test_a_launcher_with_no_fire_control_left_says_why_and_offers_nothing() -> None:
    html = _row(fire_control="none")
    assert "No fire control left this turn" in html
    assert 'type="radio"' not in html


def test_a_launcher_may_join_an_aim_point_already_taken() -> None:
    html = _row(fire_control="shared", aim_at=[{"aim": {"x": 36.0, "y": 20.0}, "shared": True}])
    assert "No fire control is free" in html
    assert "the aim point already taken (36.0, 20.0)" in html
    assert "a point of my choice" not in html  # a new point would need a free fire control


def test_with_a_control_free_any_point_may_be_chosen() -> None:
    html = _row(aim_at=[{"target": "b1", "aim": {"x": 36.0, "y": 30.0}}])
    assert "a point of my choice" in html and "→ at Vigilant" in html
    assert "No fire control" not in html
