""" "Play on another device" links for a seat held through the browser id.

Such a browser has no token to show (the server keeps none), so the game page's seat link is a
fresh code whose hash names the seat row; ``/seat/{code}`` takes it as it takes a seat token,
and confirming it gives the other browser the seat. A browser still holding the token itself
(an older per-game cookie) shows the token's link as before.
"""

from __future__ import annotations

from fastapi import Request

from app.play import errors as E
from app.play.browsers import Browsers
from app.play.tokens import Hashed


async def shown(request: Request, credential: str) -> str:
    """What the seat link carries for the page's credential."""
    if not isinstance(credential, Hashed):
        return credential
    code = await Browsers(request.app.state.db).new_link(credential)
    if code is None:
        raise E.Unauthorized("this seat was replaced: it has no link any more")
    return code


async def credential(request: Request, token: str) -> str:
    """The seat a ``/seat/{…}`` address opens: a link code's seat, else the token itself."""
    if not token or len(token) > 200:
        return token
    found = await Browsers(request.app.state.db).opened_by(token)
    return found if found is not None else token
