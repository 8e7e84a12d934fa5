"""``POST /learn``: "Learn to play", a guided first duel (issue 17).

The form (on the lobby and on /help) makes a ``duel`` game with the player on side A and the
cadet on side B, marked guided in the game's settings; the game page then explains each step
as it comes (``static/js/guide.js``). Nothing is chosen by the form but the player's name: a
first duel should not start with decisions the player cannot yet weigh.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.deps import LobbyDep
from app.play import errors as E
from app.play.lobby import NewGame
from app.rules.errors import RulesError
from app.web import routes
from app.web.security import check_csrf, set_seat

router = APIRouter(include_in_schema=False)

LESSON_LEVEL = "cadet"  # the computer that mostly moves at random: a forgiving first opponent


@router.post("/learn", response_model=None, name="learn")
async def learn(request: Request, lobby: LobbyDep) -> Response:
    form = await request.form()
    check_csrf(request, routes._field(form, "csrf"))
    name = (routes._field(form, "name") or "").strip()[:80] or None
    req = NewGame(
        scenario="duel",
        creator="A",
        creator_name=name,
        opponent=LESSON_LEVEL,
        spectators=False,  # a learner's game is nobody else's business
        guided=True,
    )
    try:
        created = await lobby.create_game(req)
    except (E.Problem, RulesError) as error:
        title = "The guided duel could not be made"
        context = {"title": title, "text": routes._problem_text(error)}
        return routes._page(request, "message.html", context, 422)
    to_table = RedirectResponse(f"/games/{created['game_id']}", status_code=303)
    await set_seat(request, to_table, created["game_id"], created["token"])
    return to_table
