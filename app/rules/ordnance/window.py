"""Between a step 2 and its strike: the defence window (RULES §9.5; decision 17).

``open_or_strike`` opens one window for all the step's attacks when some side is awaited (public
facts only: ``defence.awaited``), else the attacks strike at once. While the window is open the
game rests in step ``defend``; ``advance_window`` (called by ``advance``) plays the default
allocation of each awaited side whose standing order ``auto_defend`` is on, and once nobody is
awaited rolls the defences, shows the ships that fired for another, and strikes with what
survived.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rules.builder import Builder
from app.rules.ordnance.defence import awaited, default_allocation, entries
from app.rules.ordnance.defence_dice import roll_defences
from app.rules.ordnance.strike import resolve_strikes
from app.rules.state import Attack


def open_or_strike(b: Builder, attacks: Sequence[Attack]) -> None:
    """The step's attacks, announced: a window when a defender is awaited, else the strike."""
    if not attacks:
        return
    sides = awaited(b.state, attacks)
    if not sides:
        resolve_strikes(b, tuple(attacks), {}, frozenset(), False)
        return
    shown = [e.public() for e in entries(attacks)]
    b.emit("defence_window", {"window": b.state.seq + 1, "attacks": shown, "awaiting": list(sides)})
    window = b.state.phase.defence
    # the fold rebuilds the attacks from the public entries and the markers in flight
    assert window is not None and window.attacks == tuple(attacks), "window attacks differ"


def declare(b: Builder, side: str, allocations: Sequence[dict[str, str]], auto: bool) -> None:
    window = b.state.phase.defence
    assert window is not None
    data: dict[str, Any] = {"side": side, "window": window.window, "allocations": list(allocations)}
    if auto:
        data["auto"] = True
    b.emit("defence_declared", data)


def advance_window(b: Builder) -> bool:
    """Whether the window moved on (closed, or a side's default played); False: it waits."""
    window = b.state.phase.defence
    assert window is not None
    for side in window.awaiting:
        if side in b.state.auto_defend:
            declare(b, side, default_allocation(b.state, side, window.attacks), auto=True)
            return True
    if window.awaiting:
        return False
    close(b)
    return True


def close(b: Builder) -> None:
    window = b.state.phase.defence
    assert window is not None
    attacks = window.attacks
    mark = b.roller.mark()
    outcome = roll_defences(b.state, attacks, window.declared, b.roller.d6)
    b.emit(
        "defence_resolved",
        {
            "window": window.window,
            "defences": list(outcome.defences),
            "kills": dict(outcome.kills),
            "destroyed": sorted(outcome.destroyed),
            "dummies": list(outcome.dummies),
            "rolls": b.roller.since(mark),
        },
    )
    for ship_id in outcome.firers_for_others:
        ship = b.state.ship(ship_id)
        if ship.in_control and ship.position is not None:
            reveal = {"ship": ship.id, "position": ship.position.to_dict(), "heading": ship.heading}
            b.emit("ship_revealed", {**reveal, "cause": "defence"})
    destroyed = frozenset(outcome.destroyed)
    resolve_strikes(b, attacks, outcome.kills, destroyed, True)
