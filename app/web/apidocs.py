"""``/api/docs``: the interactive API reference, Swagger UI from the vendored, pinned files in
``static/vendor/swagger-ui/`` (version and source in ``static/vendor/README.md``), started by a
script file of our own (``static/js/api-docs.js``) so that the page needs no inline script and
passes the Content-Security-Policy like every other page. No CDN: the page works offline and
runs no code the repository does not hold."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.web.routes import templates

router = APIRouter(include_in_schema=False)
OPENAPI = "/api/v1/openapi.json"


@router.get("/api/docs", response_model=None)
async def api_docs(request: Request) -> Response:
    return templates.TemplateResponse(request, "api_docs.html", {"openapi": OPENAPI})
