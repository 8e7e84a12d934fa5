"""A game's clock as numbers: its settings, checked, and its accounting at each write.

The clock's JSON (the games row's ``clock``) holds the settings, and per side the time left as
of ``since`` (when it started running; None while it stands), the decision it is running for
(``key``: ``app.rules.timeouts.decision_key``) and the last decision that timed out
(``spent``: its clock never runs again), the timeouts in a row, and ``deadline``: when the first
running side runs out. Everything here depends on what the game awaits, never on a hidden fact.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from app.play import errors as E
from app.rules import GameState
from app.rules.state import SIDES, GameStatus
from app.rules.timeouts import decision_key

LIVE, CORRESPONDENCE = "live", "correspondence"
LIVE_MIN_S, CORRESPONDENCE_MIN_S = 60, 3600
MAX_S = 30 * 86400  # no setting beyond 30 days
MAX_ADD_S = 7 * 86400

Clock = dict[str, Any]


class InvalidClock(E.Invalid):
    code = "invalid_clock"
    title = "Invalid clock"


def _whole(data: Mapping[str, Any], key: str, low: int, problems: list[str]) -> int:
    value = data.get(key)
    if type(value) is not int:
        problems.append(f"clock.{key} must be a whole number of seconds, got {value!r}")
        return low
    if not low <= value <= MAX_S:
        problems.append(f"clock.{key} must be between {low} and {MAX_S} seconds, got {value}")
    return value


def parse_settings(data: Any) -> Clock | None:
    """The clock settings of a new game (None: no clock), or ``InvalidClock`` listing every
    problem with what to send instead."""
    if data is None:
        return None
    if not isinstance(data, Mapping):
        raise InvalidClock('clock must be an object such as {"kind": "live", ...} or null')
    kind = data.get("kind")
    problems: list[str] = []
    if kind == LIVE:
        fields = {"kind", "initial_s", "increment_s"}
        initial = _whole(data, "initial_s", LIVE_MIN_S, problems)
        increment = _whole(data, "increment_s", 0, problems)
        settings: Clock = {"kind": LIVE, "initial_s": initial, "increment_s": increment}
    elif kind == CORRESPONDENCE:
        fields = {"kind", "per_move_s", "bank_max_s"}
        per_move = _whole(data, "per_move_s", CORRESPONDENCE_MIN_S, problems)
        bank = _whole(data, "bank_max_s", CORRESPONDENCE_MIN_S, problems)
        if not problems and bank < per_move:
            problems.append(
                f"clock.bank_max_s ({bank}) must be at least clock.per_move_s ({per_move})"
            )
        settings = {"kind": CORRESPONDENCE, "per_move_s": per_move, "bank_max_s": bank}
    else:
        raise InvalidClock(
            f"clock.kind must be 'live' or 'correspondence', got {kind!r}",
            problems=[f"clock.kind must be 'live' or 'correspondence', got {kind!r}"],
        )
    problems += [f"clock.{k} is not a field of a {kind} clock" for k in sorted(set(data) - fields)]
    if problems:
        raise InvalidClock("; ".join(problems), problems=problems)
    return settings


def new_clock(settings: Clock) -> Clock:
    first = settings["initial_s"] if settings["kind"] == LIVE else settings["per_move_s"]
    side = {"left": float(first), "since": None, "key": None, "spent": None}
    return {
        "settings": dict(settings),
        "sides": {s: dict(side) for s in SIDES},
        "timeouts": {s: 0 for s in SIDES},
        "deadline": None,
    }


def _at(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text is not None else None


def left_now(side: Mapping[str, Any], now: datetime) -> float:
    since = _at(side["since"])
    if since is None:
        return float(side["left"])
    return max(0.0, float(side["left"]) - (now - since).total_seconds())


def _granted(settings: Mapping[str, Any], left: float) -> float:
    """The time a side has for its next decision once one ends with ``left`` unused."""
    if settings["kind"] == LIVE:
        return left + float(settings["increment_s"])
    return min(left + float(settings["per_move_s"]), float(settings["bank_max_s"]))


def advance(clock: Clock, status: str, paused: bool, after: GameState, now: datetime) -> Clock:
    """The clock after a write that leaves the game ``after`` (row ``status``, ``paused``)."""
    out = copy.deepcopy(clock)
    settings = out["settings"]
    deadline: datetime | None = None
    for name in SIDES:
        side = out["sides"][name]
        side["left"] = left_now(side, now)
        key = decision_key(after, name) if status == GameStatus.ACTIVE else None
        if side["key"] is not None and key != side["key"]:  # the decision is over
            if side["key"] != side["spent"]:
                out["timeouts"][name] = 0  # made in time: the count starts again
            side["left"] = _granted(settings, side["left"])
        side["key"] = key
        if key != side["spent"]:
            side["spent"] = None  # only a decision still awaited may stay spent
        runs = key is not None and not paused and key != side["spent"]
        side["since"] = now.isoformat() if runs else None
        if runs:
            ends = now + timedelta(seconds=side["left"])
            deadline = ends if deadline is None else min(deadline, ends)
    out["deadline"] = deadline.isoformat() if deadline is not None else None
    return out


def expired(clock: Clock, now: datetime) -> list[str]:
    """The running sides whose time is out at ``now``."""
    return [
        name
        for name in SIDES
        if clock["sides"][name]["since"] is not None and left_now(clock["sides"][name], now) <= 0
    ]


def timed_out(clock: Clock, name: str, now: datetime) -> Clock:
    """The clock once ``name``'s decision timed out (before the write that plays it)."""
    out = copy.deepcopy(clock)
    side = out["sides"][name]
    side["left"], side["since"], side["spent"] = 0.0, now.isoformat(), side["key"]
    out["timeouts"][name] += 1
    return out


def added(clock: Clock, name: str, seconds: int, now: datetime) -> Clock:
    out = copy.deepcopy(clock)
    side = out["sides"][name]
    side["left"] = left_now(side, now) + seconds
    if side["since"] is not None:
        side["since"] = now.isoformat()
    return out


def view(clock: Clock | None, now: datetime) -> dict[str, Any] | None:
    """The view's ``clock``: the same for every seat and spectator."""
    if clock is None:
        return None
    out: dict[str, Any] = {"kind": clock["settings"]["kind"], "settings": clock["settings"]}
    for name in SIDES:
        side = clock["sides"][name]
        out[name] = {"left_s": round(left_now(side, now), 1), "running": side["since"] is not None}
    out["timeouts"] = dict(clock["timeouts"])
    return out


def describe(settings: Mapping[str, Any] | None) -> str:
    """The clock in words (lobby, join page)."""
    if settings is None:
        return "No clock"
    if settings["kind"] == LIVE:
        return f"Live: {_span(settings['initial_s'])} + {_span(settings['increment_s'])} a decision"
    return (
        f"Correspondence: {_span(settings['per_move_s'])} a decision, "
        f"up to {_span(settings['bank_max_s'])} banked"
    )


def _span(seconds: int) -> str:
    if seconds % 86400 == 0 and seconds:
        days = seconds // 86400
        return f"{days} day" + ("s" if days > 1 else "")
    if seconds % 3600 == 0 and seconds:
        return f"{seconds // 3600} h"
    if seconds % 60 == 0 and seconds:
        return f"{seconds // 60} min"
    return f"{seconds} s"
