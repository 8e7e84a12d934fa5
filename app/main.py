"""``create_app()``: the ASGI application — REST API, live streams, health."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import metrics, notify_setup, problems
from app.api.routes import clocks, designs, games, invites, notify, referee, social
from app.config import Settings
from app.edge import addresses, limits
from app.edge.headers import SecurityHeaders
from app.edge.requestlog import RequestLog
from app.live import stream
from app.live.hub import Hub, PgListener
from app.play import sender as notify_sender
from app.play.clocks import deadline_worker
from app.play.computer import ComputerOptions, computer_worker
from app.play.errors import problem_body
from app.play.presence import PresenceTracker
from app.play.service import GameService, PlayOptions
from app.store.db import Database
from app.store.migrate import ROOT, current_revision, head_revision
from app.web import apidocs
from app.web import belief_page as web_belief
from app.web import designer as web_designer
from app.web import guide as web_guide
from app.web import help as web_help
from app.web import mygames as web_mygames
from app.web import notify_pages as web_notify
from app.web import referee as web_referee
from app.web import replay_page as web_replay
from app.web import routes as web
from app.web import social as web_social
from app.web.browser import BrowserSeats
from app.web.security import CsrfFailed

log = logging.getLogger(__name__)
API = "/api/v1"


class BodyLimit:
    """Refuse request bodies over the limit with 413, counting streamed bodies too."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await self._refuse(send)
                return
        seen = 0
        refused = False

        async def limited() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    refused = True
                    raise _TooLarge(self.limit)
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = problem_body(
            413, "body_too_large", "Request body too large", f"send at most {self.limit} bytes"
        )
        response = JSONResponse(body, status_code=413, media_type=problems.PROBLEM)
        await response({"type": "http"}, _no_receive, send)


class _TooLarge(HTTPException):
    """An HTTPException, so that FastAPI's body reading passes it on (it turns any other error
    while reading a streamed body into a 400)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"send at most {limit} bytes")


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}


def _start_computer(
    settings: Settings, db: Database, service: GameService
) -> asyncio.Task[None] | None:
    """The worker's share of the computer's turns (``app.play.computer``), unless turned off."""
    if not settings.computer:
        return None
    db.on_hint(service.computer.committed)
    return asyncio.create_task(
        computer_worker(service.computer, settings.computer_poll), name="computer"
    )


async def _stop_computer(task: asyncio.Task[None] | None, service: GameService) -> None:
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    await service.computer.stop()


def _lifespan(settings: Settings) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The process's database, hub, game master and LISTEN connection, for the app's life."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(settings.db_url, settings.notify_channel)
        # one watcher per followed game re-reads its log marks (issue 14: streams)
        hub = Hub(db, settings.stream_recheck, settings.stream_recheck_jitter)
        db.on_hint(hub.committed)
        # chat and rematch wake-ups (issue 15); on PostgreSQL LISTEN brings them again
        db.on_side_hint(hub.side)
        admin = settings.admin_token.get_secret_value() if settings.admin_token else None
        app.state.settings = settings
        app.state.db = db
        app.state.hub = hub
        options = PlayOptions(
            admin,
            settings.allow_client_seed,
            notify=notify_setup.options_of(settings),
            computer=ComputerOptions(
                delay_scale=settings.computer_delay_scale, poll_s=settings.computer_poll
            ),
        )
        app.state.service = GameService(db, options)
        app.state.push_keys = notify_setup.push_keys(settings)
        app.state.sender = notify_sender.Sender(
            db, notify_setup.send_options(settings), app.state.push_keys
        )
        app.state.sender.start()  # the outbox of notifications (issue 15)
        app.state.presence = PresenceTracker(db, settings.presence_beat)
        app.state.presence.start()  # one heartbeat task per worker (issue 14: streams)
        deadlines = asyncio.create_task(  # issue 15: clocks (app/play/clocks.py)
            deadline_worker(app.state.service.clocks, settings.clock_poll), name="deadlines"
        )
        computer = _start_computer(settings, db, app.state.service)  # issue 17
        listener = None
        if db.postgres:
            listener = PgListener(db, hub, settings.notify_channel)
            listener.start()
        app.state.listener = listener
        try:
            yield
        finally:
            if listener is not None:
                await listener.stop()
            await _stop_computer(computer, app.state.service)
            deadlines.cancel()  # issue 15: clocks
            with contextlib.suppress(asyncio.CancelledError):
                await deadlines
            await hub.stop()  # issue 14: streams
            await app.state.presence.stop()
            await app.state.sender.stop()
            await db.dispose()
            metrics.worker_stopped()  # multiprocess metrics: this worker's live gauges go

    return lifespan


def _health(app: FastAPI) -> None:
    @app.get("/healthz", tags=["health"], summary="The process is up")
    async def healthz() -> dict[str, Any]:
        return {"status": "ok"}

    @app.get(
        "/readyz",
        tags=["health"],
        summary="The database is reachable and migrated to head",
        responses=problems.documented(503),
    )
    async def readyz() -> Any:
        db: Database = app.state.db
        try:
            await db.ping()
            current = await current_revision(db.engine)
        except Exception:  # any database failure means "not ready"
            log.warning("readiness check failed", exc_info=True)
            return JSONResponse(
                problem_body(503, "not_ready", "Not ready", "the database is unreachable"),
                status_code=503,
                media_type=problems.PROBLEM,
            )
        head = head_revision(db.url)
        if current != head:
            return JSONResponse(
                problem_body(
                    503, "not_migrated", "Not ready", f"database at {current}, code at {head}"
                ),
                status_code=503,
                media_type=problems.PROBLEM,
            )
        return {"status": "ready", "revision": current}


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    app = FastAPI(
        title="pingduel",
        version="1",
        summary="Full Thrust hidden-movement duels (the PING rules) over the network",
        description="The whole contract — every endpoint, field, command, event type and error "
        "code, with examples — is `docs/api.md` in the pingduel repository.",
        openapi_url=f"{API}/openapi.json",
        docs_url=None,  # /api/docs is app.web.apidocs: vendored Swagger UI, no CDN
        redoc_url=None,
        lifespan=_lifespan(settings),
    )
    problems.install(app, page=web.problem_page, api=f"{API}/")
    app.add_exception_handler(CsrfFailed, web.csrf_failed_page)
    for router in (
        games.router,
        invites.router,
        designs.router,
        referee.router,
        stream.router,
        social.router,
        notify.router,
    ):
        app.include_router(router, prefix=API)
    app.include_router(clocks.router, prefix=API)  # issue 15: the referee adds time
    app.include_router(stream.pages)
    app.include_router(web_mygames.router)  # GET /games, before /games/{game_id}
    app.include_router(web_replay.router)  # after the game: summary, replay (issue 16)
    app.include_router(web_belief.router)  # what the computer believed (issue 17)
    app.include_router(notify.pages)  # /sw.js (issue 15)
    app.include_router(web_notify.router)  # the Notify me panel, e-mail confirmation (issue 15)
    app.include_router(web_guide.router)  # POST /learn: the guided first duel (issue 17)
    app.include_router(web.router)
    app.include_router(web_referee.router)
    app.include_router(web_designer.router)
    app.include_router(web_social.router)  # chat and rematch panels (issue 15)
    app.include_router(web_help.router)  # /help and its glossary (issue 16)
    app.include_router(apidocs.router)  # the API reference page from static/vendor/swagger-ui
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    _health(app)
    app.include_router(metrics.router)  # GET /metrics, admin token only
    app.add_middleware(BrowserSeats)  # the seats of the browser id (app/web/browser.py)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    limits.install(app, settings)  # rate limits, outside the body limit (issue 14)
    addresses.install(app, settings)  # client address and scheme from trusted proxies (issue 14)
    # CSP with a nonce per answer, nosniff, no-referrer, HSTS over https (app/edge/headers.py)
    app.add_middleware(SecurityHeaders, hsts_max_age=settings.hsts_max_age)
    # outermost: the request id, the request counts of /metrics, the JSON access log
    app.add_middleware(
        RequestLog, count=metrics.count_request, access=settings.log_format == "json"
    )
    return app
