"""Typed refusals of the service layer; the front doors turn them into problem+json or a page."""

from __future__ import annotations

from typing import Any, ClassVar

from app.rules.errors import RulesError

RULES_STATUS = {"conflict": 409, "illegal": 422, "forbidden": 403}


class Problem(Exception):
    status: ClassVar[int] = 400
    code: ClassVar[str] = "bad_request"
    title: ClassVar[str] = "Bad request"

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return problem_body(self.status, self.code, self.title, self.detail, **self.extra)


def problem_body(status: int, code: str, title: str, detail: str, **extra: Any) -> dict[str, Any]:
    return {
        "type": f"/problems/{code}",
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }


def rules_problem(error: RulesError) -> dict[str, Any]:
    status = RULES_STATUS.get(error.kind, 422)
    title = error.code.replace("_", " ").capitalize()
    extra: dict[str, Any] = {}
    problems = getattr(error, "problems", None)
    if problems:
        extra["problems"] = problems
    return problem_body(status, error.code, title, error.detail, **extra)


class Unauthorized(Problem):
    status = 401
    code = "invalid_token"
    title = "Missing or invalid token"


class MissingToken(Unauthorized):
    code = "missing_token"


class Forbidden(Problem):
    status = 403
    code = "forbidden"
    title = "Not allowed for this seat"


class WrongGame(Forbidden):
    code = "wrong_game"
    title = "Token of another game"


class NotFound(Problem):
    status = 404
    code = "not_found"
    title = "Not found"


class UnknownGame(NotFound):
    code = "unknown_game"
    title = "Unknown game"


class UnknownInvite(NotFound):
    code = "unknown_invite"
    title = "Unknown invite code"


class UnknownDesign(NotFound):
    code = "unknown_design"
    title = "Unknown design"


class Conflict(Problem):
    status = 409
    code = "conflict"
    title = "Not now"


class GameNotStarted(Conflict):
    code = "game_not_started"
    title = "Waiting for players"


class GamePaused(Conflict):
    code = "game_paused"
    title = "Game paused"


class GameOver(Conflict):
    code = "game_finished"
    title = "Game finished"


class SeatTaken(Conflict):
    code = "seat_taken"
    title = "Seat already taken"


class AlreadySeated(Conflict):
    code = "already_seated"
    title = "You already hold a seat in this game"


class CommandVoided(Conflict):
    code = "command_voided"
    title = "Command voided by a rewind"


class Gone(Problem):
    status = 410
    code = "invite_used"
    title = "Invite already used"


class Invalid(Problem):
    status = 422
    code = "invalid_request"
    title = "Invalid request"


class IdempotencyKeyReused(Invalid):
    code = "idempotency_key_reused"
    title = "Idempotency key reused with another body"


class ClientSeedNotAllowed(Invalid):
    code = "client_seed_not_allowed"
    title = "Client seeds are not allowed on this server"


class UnknownScenario(Invalid):
    code = "unknown_scenario"
    title = "Unknown scenario"


class InvalidDesign(Invalid):
    code = "invalid_design"
    title = "Invalid design"
