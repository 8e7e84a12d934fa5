"""``/games/{id}/computer``: what the server's computer believed — the captain's heat map of
each enemy ship it could not see, as of its last decision, or (``?turn=N``) its last decision
of that turn.

Open to whoever may read the game's record now (``Reading.computer_beliefs``): the referee
during the game, the players (and spectators, where the game admits them) after it. A seat
never sees it before the end: it would tell the player what the other side has worked out.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.deps import ReadingDep, cookie_token
from app.play import errors as E
from app.web import routes

router = APIRouter(include_in_schema=False)

NOT_OVER = (
    "The computer's picture of your ships opens when the game ends: until then it would tell "
    "you what it has worked out. The referee can watch it during the game."
)
TOP = 3  # the likeliest cells told in words: the heat map's text alternative


def heat_map(ship: str, name: str, grid: dict[str, Any], height: float) -> dict[str, Any]:
    """One ship's cells as SVG rectangles (y up the table, as on the map) and in words."""
    cell = float(grid["cell"])
    mass = grid["mass"]
    peak = max((m for row in mass for m in row), default=0.0) or 1.0
    cells, ranked = [], []
    for r, row in enumerate(mass):
        for c, m in enumerate(row):
            if m <= 0:
                continue
            x, y = c * cell, r * cell
            cells.append({"x": x, "y": height - y - cell, "size": cell, "alpha": m / peak})
            ranked.append((m, x + cell / 2, y + cell / 2))
    ranked.sort(reverse=True)
    words = [f"around ({x:.0f}, {y:.0f}): {m:.0%}" for m, x, y in ranked[:TOP]]
    return {"ship": ship, "name": name, "cells": cells, "words": words}


def _turn(raw: str | None) -> int | None:
    """``?turn=N``: a whole number from 0 (None: the last decision)."""
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 4:
        raise E.Invalid(f"turn must be a whole number such as 3, not {raw[:20]!r}")
    return int(raw)


@router.get("/games/{game_id}/computer", response_model=None, name="computer_belief")
async def computer_belief(
    game_id: str, request: Request, reading: ReadingDep, turn: str | None = None
) -> Response:
    token = cookie_token(request, game_id)
    try:
        chosen = _turn(turn)
        seen = await reading.computer_beliefs(game_id, token, chosen)
        view = await reading.view(game_id, token)
    except E.Forbidden:
        return routes._page(
            request, "message.html", {"title": "Not over yet", "text": NOT_OVER,
                                      "back": game_id}, 403,
        )  # fmt: skip
    except E.Problem as error:
        told = {"title": error.title, "text": error.detail}
        return routes._page(request, "message.html", told, error.status)
    table = view["table"]
    names = {s["id"]: s["name"] for s in view["ships"]}
    sides = []
    for side, belief in sorted(seen["beliefs"].items()):
        maps = [
            heat_map(ship, names.get(ship, ship), grid, float(table["height"]))
            for ship, grid in belief["ships"].items()
        ]
        sides.append({"side": side, "seq": belief["seq"], "turn": belief.get("turn"), "maps": maps})
    context: dict[str, Any] = {"gid": game_id, "table": table, "sides": sides}
    context.update(status=seen["status"], turns=seen["turns"], chosen=chosen)
    return routes._page(request, "computer_belief.html", context, headers=routes.NO_STORE)
