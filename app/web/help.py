"""``/help``: how to play, the pictures and the glossary; ``/help/glossary.json`` for the game
page's term links (``static/js/terms.js``).

The JSON is the same for everyone and changes only with a release, so it is cacheable (an hour,
with an ETag for the revalidation); it holds rules words only, nothing of any game.
"""

from __future__ import annotations

import hashlib
import json

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.web import routes
from app.web.glossary import GLOSSARY, glossary_json

router = APIRouter(include_in_schema=False)

_BODY = json.dumps(glossary_json(), ensure_ascii=False, separators=(",", ":")).encode()
_ETAG = '"' + hashlib.sha256(_BODY).hexdigest()[:16] + '"'
_CACHE = "public, max-age=3600"


@router.get("/help", response_model=None, name="help")
async def help_page(request: Request) -> Response:
    terms = sorted(GLOSSARY, key=lambda term: term.name.lower())
    return routes._page(request, "help.html", {"terms": terms})


@router.get("/help/glossary.json", response_model=None, name="glossary_json")
async def glossary(request: Request) -> Response:
    headers = {"Cache-Control": _CACHE, "ETag": _ETAG}
    if request.headers.get("if-none-match") == _ETAG:
        return Response(status_code=304, headers=headers)
    return Response(_BODY, media_type="application/json", headers=headers)
