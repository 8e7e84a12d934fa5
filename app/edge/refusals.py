"""The answer to a request over a limit: 429 with ``Retry-After`` (whole seconds), as
problem+json for the API and as something a person reads for the pages — a page for a form
post, or, for a block the page asked for with htmx, the message put at the top of that block
(the block itself stays: ``HX-Reswap: afterbegin``)."""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import Message, Scope, Send

from app.play.errors import problem_body

PROBLEM = "application/problem+json"
API = "/api/"
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
_pages = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape())


def answer(seconds: int, detail: str, *, page: bool, htmx: bool, limit: str) -> Response:
    headers = {
        "Retry-After": str(seconds),
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer",
    }
    if not page:
        body = problem_body(
            429,
            "rate_limited",
            "Too many requests",
            f"{detail}: wait {seconds} s (Retry-After) and send it again",
            limit=limit,
            retry_after=seconds,
        )
        return JSONResponse(body, status_code=429, media_type=PROBLEM, headers=headers)
    context = {"seconds": seconds, "detail": detail}
    if htmx:
        html = _pages.get_template("rate_limited_message.html").render(context)
        headers["HX-Reswap"] = "afterbegin"
    else:
        html = _pages.get_template("rate_limited.html").render(context)
    return HTMLResponse(html, status_code=429, headers=headers)


async def refuse(
    scope: Scope, send: Send, seconds: int, detail: str, limit: str, htmx: bool
) -> None:
    page = not scope["path"].startswith(API)
    await answer(seconds, detail, page=page, htmx=htmx, limit=limit)(scope, _nothing, send)


async def _nothing() -> Message:  # the body is never read
    return {"type": "http.disconnect"}
