"""When the computer's answer is released: a fixed delay per kind of decision.

How long an answer takes must not tell the other side anything (how many markers step 2
moves, whether anything could be fired at), so every host — the server's computer seat and
``pingduel bot`` — sends the answer at the moment the seat was asked plus the delay of the
decision's kind, never sooner; a strategy with a thinking budget stops its search before it.
The kind is read from the seat's view, that is, from public facts and the seat's own.
"""

from __future__ import annotations

from app.bot.seat import View, awaited, commands

# seconds; a step-2 decision (orders, markers) is the long one, a hold on overwatch the short
RELEASE_S: dict[str, float] = {
    "deploy": 6.0,
    "activate": 2.0,
    "orders": 4.0,
    "after_move": 1.5,
    "fire": 3.0,
    "defend": 2.0,
    "fighters": 2.0,
}


def decision_kind(view: View) -> str | None:
    """The kind of decision the view awaits from the seat (None: it awaits nothing)."""
    if not awaited(view):
        return None
    offered = commands(view)
    for kind in ("deploy", "fire", "defend", "fighters"):
        if kind in offered:
            return kind
    step = view["phase"]["step"]
    if step == "activate":
        return "activate"
    if step == "after_move":
        return "after_move"
    return "orders"  # "start" or "after_ping": step 2 and the move


def release_delay(view: View, scale: float = 1.0) -> float:
    """Seconds from being asked to sending the answer (``scale`` 0 in tests and the arena)."""
    kind = decision_kind(view)
    return 0.0 if kind is None else RELEASE_S[kind] * scale
