"""Narrow error classes of the rules engine.

Every refusal carries a stable snake_case ``code`` (the API's problem ``code``) and a ``kind``
that the front doors map to an HTTP status: ``conflict`` → 409 (the game is not waiting for
this), ``illegal`` → 422 (well-formed but against the rules), ``forbidden`` → 403 (a seat acting
for the other side). The message always says what to change.
"""

from __future__ import annotations

from typing import ClassVar


class RulesError(Exception):
    code: ClassVar[str] = "rules_error"
    kind: ClassVar[str] = "illegal"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


# -- the game is not waiting for this (409) ---------------------------------------------------
class NotYourTurn(RulesError):
    code = "not_your_turn"
    kind = "conflict"


class WrongStep(RulesError):
    code = "wrong_step"
    kind = "conflict"


class StaleState(RulesError):
    code = "stale_state"
    kind = "conflict"


class GameFinished(RulesError):
    code = "game_finished"
    kind = "conflict"


class OutOfControl(RulesError):
    code = "out_of_control"
    kind = "conflict"


# -- a seat acting for the other side (403) ---------------------------------------------------
class NotYourShip(RulesError):
    code = "not_your_ship"
    kind = "forbidden"


# -- well-formed but illegal (422) --------------------------------------------------------------
class InvalidCommand(RulesError):
    code = "invalid_command"


class UnknownShip(RulesError):
    code = "unknown_ship"


class ShipNotInPlay(RulesError):
    code = "ship_not_in_play"


class AlreadyActivated(RulesError):
    code = "already_activated"


class IllegalOrders(RulesError):
    code = "illegal_orders"


class OutOfZone(RulesError):
    code = "out_of_zone"


class OutOfArc(RulesError):
    code = "out_of_arc"


class OutOfRange(RulesError):
    code = "out_of_range"


class WeaponSpent(RulesError):
    code = "weapon_spent"


class DuplicateWeapon(RulesError):
    """One declaration names the same weapon twice (a weapon fires once a turn, at one target)."""

    code = "duplicate_weapon"


class WeaponNotWorking(RulesError):
    code = "weapon_not_working"


class UnknownWeapon(RulesError):
    code = "unknown_weapon"


class WeaponOffline(RulesError):
    code = "weapon_offline"


class BadTargetSystem(RulesError):
    code = "bad_target_system"


class TargetNotRevealed(RulesError):
    code = "target_not_revealed"


class NoFireControl(RulesError):
    code = "no_fire_control"


class NotAllowedToFire(RulesError):
    code = "not_allowed_to_fire"


class UnknownMarker(RulesError):
    """A marker id that is not in the game or that the caller may not see: the same refusal."""

    code = "unknown_marker"


class NoCriticalCore(RulesError):
    code = "no_critical_core"


class NotationError(RulesError):
    """Bad beam-dice notation such as ``"3XD"``."""

    code = "bad_notation"


class DesignError(RulesError):
    """A ship design that breaks the mass and points rules; ``problems`` lists every fault."""

    code = "invalid_design"

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems) if problems else "invalid design")
        self.problems = problems
