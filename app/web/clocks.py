"""The lobby's clock presets and the words the pages use for clocks (issue 15)."""

from __future__ import annotations

from typing import Any

from app.play import errors as E

# (form value, label, settings); the first is the default
PRESETS: tuple[tuple[str, str, dict[str, Any] | None], ...] = (
    ("none", "No clock", None),
    ("live-10", "Live 10 min + 20 s", {"kind": "live", "initial_s": 600, "increment_s": 20}),
    ("live-30", "Live 30 min + 30 s", {"kind": "live", "initial_s": 1800, "increment_s": 30}),
    (
        "day",
        "1 day per move (up to 3 banked)",
        {"kind": "correspondence", "per_move_s": 86400, "bank_max_s": 259200},
    ),
    (
        "3days",
        "3 days per move (up to 7 banked)",
        {"kind": "correspondence", "per_move_s": 259200, "bank_max_s": 604800},
    ),
)
# a form sends only the command's type for these (the service answers them: app.play.clocks)
FORM_COMMANDS = frozenset({"claim_win"})

_PLAYED = {
    "deploy": "deployed every ship on the zone's centre line at speed 0",
    "fire": "held fire",
    "defend": "the default defence",
    "fighters": "no fighter attack",
    "activate": "named the first ship that could activate",
    "move": "null orders with standing orders in step 2",
    "end_activation": "ended the activation on overwatch",
}


def preset(value: str) -> dict[str, Any] | None:
    for name, _, settings in PRESETS:
        if name == value:
            return settings
    raise E.Invalid("choose one of the clocks offered")


def played_words(played: list[str]) -> str:
    words: list[str] = []
    for kind in played:
        text = _PLAYED.get(kind, kind.replace("_", " "))
        if text not in words:
            words.append(text)
    return ", ".join(words) if words else "nothing it could play"
