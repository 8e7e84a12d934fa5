"""A local HTTP receiver for webhooks and pushes, and a live app to notify from."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI

from app.main import create_app
from app.store.db import Database
from tests.conftest import make_settings, uvicorn_in_process


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Receiver:
    """Records every POST; answers each path with the statuses queued for it, then 200."""

    server: ThreadingHTTPServer
    got: list[Received] = field(default_factory=list)
    answers: dict[str, list[int]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def to(self, path: str) -> list[Received]:
        with self.lock:
            return [r for r in self.got if r.path == path]


@contextmanager
def receiving() -> Iterator[Receiver]:
    """The receiver on a free port, in a thread (for sync tests too)."""
    holder: list[Receiver] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            rec = holder[0]
            size = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(size)
            with rec.lock:
                rec.got.append(Received(self.path, dict(self.headers.items()), body))
                queued = rec.answers.get(self.path, [])
                status = queued.pop(0) if queued else 200
            self.send_response(status)
            if 300 <= status < 400:
                self.send_header("Location", f"{rec.url}/redirected")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    holder.append(Receiver(server))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield holder[0]
    finally:
        server.shutdown()
        server.server_close()


@asynccontextmanager
async def receiver() -> AsyncIterator[Receiver]:
    with receiving() as rec:
        yield rec


@asynccontextmanager
async def serving(db_url: str, tmp_path: Path, **extra: Any) -> AsyncIterator[tuple[FastAPI, str]]:
    """The app on a live uvicorn (streams hold presence); its sender polls once an hour, so
    the tests run ``app.state.sender.run_once()`` themselves."""
    settings = make_settings(db_url, tmp_path, allow_client_seed=True)
    update = {"stream_recheck": 0.1, "presence_beat": 0.1, "notify_poll": 3600.0, **extra}
    app = create_app(settings.model_copy(update=update))
    async with uvicorn_in_process(app) as url:
        yield app, url


async def outbox(db: Database, game_id: str) -> list[dict[str, Any]]:
    async with db.read() as conn:
        rows = await conn.execute(
            sa.text(
                "SELECT seat, event, seq, state, attempts, last_error, body FROM notify_outbox"
                " WHERE game_id = :g ORDER BY id"
            ),
            {"g": game_id},
        )
        return [dict(r._mapping) for r in rows]


async def drain(app: FastAPI) -> None:
    """Runs the app's sender until nothing is due."""
    while await app.state.sender.run_once():
        pass
