"""``GET /metrics``: the service's counters in Prometheus text, for the admin token only.

What is counted here: requests by method, route template and status (``count_request``,
called by the request-log middleware once a request is answered), and the latency of game
commands by door (the API's command POST, the page's act POST). Other rooms define their own
metrics at module level in prometheus-client's default registry (open streams, hint lag,
rate-limit refusals); this endpoint serves the whole registry, so theirs appear with ours. The
number of active games is read from the database at scrape time, in one statement.

No label ever carries a game id, a token or a seat: a route is its template
(``/api/v1/games/{game_id}/commands``), so nobody learns from the counts what happened in a
given game (the refusals the other side's commands met, say).

Several worker processes: ``pingduel serve --workers N`` (N > 1) points prometheus-client's
multiprocess mode at a fresh directory (``PROMETHEUS_MULTIPROC_DIR``), and then every worker
answers for all of them (``app.cli``; docs/operations.md, "Metrics").
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Iterable

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector

from app.play.callers import Callers
from app.play.errors import problem_body
from app.problems import problem_response
from app.store.db import Database
from app.store.models import Game

log = logging.getLogger(__name__)
# no ``*_created`` series beside every counter and histogram: they double the scrape, and
# Prometheus's text format has no use for them (process-wide: the other rooms' metrics made
# after this import too; app.main imports this module before any room)
disable_created_metrics()  # type: ignore[no-untyped-call]
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

REQUESTS = Counter(
    "pingduel_http_requests",
    "HTTP requests answered, by method, route template and status",
    ["method", "route", "status"],
)
COMMAND_SECONDS = Histogram(
    "pingduel_command_duration_seconds",
    "Time to answer a game command, whatever the answer (door: api = the API's command POST, "
    "page = the game page's form)",
    ["door"],
    buckets=(0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0),
)
COMMAND_DOORS = {
    ("POST", "/api/v1/games/{game_id}/commands"): "api",
    ("POST", "/games/{game_id}/act"): "page",
}
# a method is the client's to choose: anything else is one label, not a new series per word
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

# the labelled children, looked up once each: ``labels()`` takes a lock and builds a tuple
_counted: dict[tuple[str, str, int], Counter] = {}
_timed = {door: COMMAND_SECONDS.labels(door) for door in set(COMMAND_DOORS.values())}


def count_request(method: str, route: str, status: int, seconds: float) -> None:
    """One answered request (``route``: its template, or ``requestlog.UNMATCHED``)."""
    if method not in _METHODS:
        method = "other"
    key = (method, route, status)
    child = _counted.get(key)
    if child is None:
        child = _counted[key] = REQUESTS.labels(method, route, str(status))
    child.inc()
    door = COMMAND_DOORS.get((method, route))
    if door is not None:
        _timed[door].observe(seconds)


async def active_games(db: Database) -> float:
    """Games in play now (status ``active``, paused ones included), or NaN when the database
    does not answer: the scrape still serves every other figure."""
    query = sa.select(sa.func.count()).select_from(Game).where(Game.status == "active")
    try:
        async with db.read() as conn:
            return float((await conn.execute(query)).scalar_one())
    except Exception:  # any database failure: say "unknown", not a number that is wrong
        log.warning("metrics: could not count the active games", exc_info=True)
        return math.nan


class _Scrape(Collector):
    """One scrape's figures: the default registry (or every worker's files in multiprocess
    mode) and the gauges read for this scrape."""

    def __init__(self, active: float) -> None:
        self.active = active

    def collect(self) -> Iterable[Metric]:
        path = os.environ.get(MULTIPROC_ENV)
        if path:
            collector = MultiProcessCollector(CollectorRegistry(), path)  # type: ignore[no-untyped-call]
            yield from collector.collect()  # type: ignore[no-untyped-call]
        else:
            yield from REGISTRY.collect()
        yield GaugeMetricFamily(
            "pingduel_active_games", "Games in play (status active, paused included)", self.active
        )


def exposition(active: float) -> bytes:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Scrape(active))
    return generate_latest(registry)


router = APIRouter(include_in_schema=False)  # an operator's endpoint: docs/operations.md


def _refusal(request: Request) -> Response | None:
    """The problem answer for a caller who is not the admin, else None. Problem+json whatever
    the path (outside /api/v1 a raised Problem would be drawn as a page)."""
    authorization = request.headers.get("authorization")
    if authorization is None:
        body = problem_body(
            401,
            "missing_token",
            "Missing or invalid token",
            "send 'Authorization: Bearer <admin token>': the metrics are for the server's admin",
        )
        return problem_response(body, {"WWW-Authenticate": "Bearer"})
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        body = problem_body(
            401,
            "invalid_token",
            "Missing or invalid token",
            "the Authorization header must be 'Bearer <token>'",
        )
        return problem_response(body, {"WWW-Authenticate": "Bearer"})
    callers: Callers = request.app.state.service.callers
    if not callers.is_admin(token.strip()):
        body = problem_body(403, "forbidden", "Forbidden", "the metrics need the admin token")
        return problem_response(body)
    return None


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    refused = _refusal(request)
    if refused is not None:
        return refused
    text = exposition(await active_games(request.app.state.db))
    return Response(text, media_type=CONTENT_TYPE_PLAIN_0_0_4, headers=_NO_STORE)


_NO_STORE = {"Cache-Control": "no-store"}


def worker_stopped() -> None:
    """A worker's graceful end in multiprocess mode: its live gauges leave the sums (its
    counters stay, so that totals never go down)."""
    path = os.environ.get(MULTIPROC_ENV)
    if path:
        mark_process_dead(os.getpid(), path)  # type: ignore[no-untyped-call]
