"""docs/api.md names the game's whole vocabulary: every command a seat can send has a row in the
commands table, every event type the engine can emit has a row in the events table, and every
step the game can rest in is named in the `phase` table's `step` row. The lists are read from
the engine's registries, so a new command, event or step cannot go undocumented.
"""

from __future__ import annotations

import re
from pathlib import Path

from app.rules.commands import COMMANDS, RESTING_STEPS
from app.rules.events import EVENT_TYPES

API_DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def _section(title: str) -> str:
    text = API_DOC.read_text(encoding="utf-8")
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _first_column_names(section: str) -> set[str]:
    """The names in backticks in the first cell of each table row (a row may name several,
    `paused`, `resumed`)."""
    names: set[str] = set()
    for cell in re.findall(r"^\| ([^|]+) \|", section, flags=re.MULTILINE):
        names |= set(re.findall(r"`([a-z_]+)`", cell))
    return names


def test_the_registries_have_names_to_check() -> None:
    # a broken import or an empty registry must not pass by finding nothing to check
    assert {"deploy", "move", "fire"} <= set(COMMANDS)
    assert {"game_started", "ping", "fire_resolved"} <= set(EVENT_TYPES)
    assert {"deploy", "activate", "fire"} <= set(RESTING_STEPS)


def test_every_command_type_has_a_row_in_the_commands_table() -> None:
    documented = _first_column_names(_section("Commands"))
    missing = sorted(set(COMMANDS) - documented)
    assert not missing, f"docs/api.md's commands table lacks {missing}"


def test_every_event_type_has_a_row_in_the_events_table() -> None:
    documented = _first_column_names(_section("Events"))
    missing = sorted(set(EVENT_TYPES) - documented)
    assert not missing, f"docs/api.md's events table lacks {missing}"


def test_every_resting_step_is_named_in_the_phase_table() -> None:
    phase = _section("The view").split("\n### `phase`\n", 1)[1].split("\n### ", 1)[0]
    row = next(line for line in phase.splitlines() if line.startswith("| `step` |"))
    documented = set(re.findall(r"`([a-z_]+)` \(", row))
    missing = sorted(str(step) for step in RESTING_STEPS if str(step) not in documented)
    assert not missing, f"docs/api.md's phase.step row does not explain {missing}"
