"""The outbox sender: claims due notifications, sends them after their write committed.

Each worker runs one ``Sender`` task. A claim leases rows (``app.store.notify.claim``) in its
own short transaction; the sends happen outside any transaction; each row is then marked in
another. So two workers never send the same row, and a worker killed between claim and mark
leaves a row that becomes due again when its lease runs out (it may then be sent a second
time: a crash after the send and before the mark is the one case the outbox cannot tell).

A row whose seat has a page or stream open when it is claimed is ``skipped`` (the open page
tells its player itself). Failures retry with an exponential backoff up to ``attempts`` sends;
a 404 or 410 answer drops the target (the subscription or webhook is gone). Redirects are never
followed, and the address is checked again right before each send (``app.play.netguard``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson

from app.play import netguard
from app.play.mailer import MailFailed, SmtpOptions, send_mail
from app.play.presence import connected_seats
from app.play.push import PushKeys, push_request
from app.store import notify as N
from app.store.db import Database
from app.store.models import utcnow

log = logging.getLogger(__name__)
LEASE = timedelta(seconds=60)  # longer than a send can take (the client's timeout)
MAX_BACKOFF = 3600.0


@dataclass(frozen=True, slots=True)
class SendOptions:
    allow_private: bool = False
    own_hosts: frozenset[str] = frozenset()
    attempts: int = 8
    backoff: float = 5.0  # seconds before the first retry, doubled each time
    poll: float = 2.0
    batch: int = 20
    timeout: float = 10.0
    smtp: SmtpOptions | None = None


class Outcome(Exception):
    """How one send ended, when not sent: ``state`` final, or None to retry."""

    def __init__(self, error: str, state: str | None = None) -> None:
        super().__init__(error)
        self.error = error[:200]
        self.state = state


def _pinned(checked: netguard.Checked) -> tuple[str, dict[str, str], dict[str, Any]]:
    """The URL on the checked address (no second lookup between check and send), the Host
    header it had, and the TLS name to verify."""
    parts = urlsplit(checked.url)
    address = f"[{checked.address}]" if ":" in checked.address else checked.address
    url = parts._replace(netloc=f"{address}:{checked.port}").geturl()
    host = parts.netloc.rpartition("@")[2]
    extensions = {"sni_hostname": checked.host} if parts.scheme == "https" else {}
    return url, {"Host": host}, extensions


class Sender:
    def __init__(self, db: Database, options: SendOptions, push: PushKeys | None = None) -> None:
        self.db = db
        self.options = options
        self.push = push
        self._task: asyncio.Task[None] | None = None
        # never follow a redirect: the next hop would skip the address check
        self.client = httpx.AsyncClient(follow_redirects=False, timeout=options.timeout)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="pingduel-notify")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self.client.aclose()

    async def _run(self) -> None:
        while True:
            try:
                while await self.run_once():
                    pass
            except Exception:  # the next poll tries again; rows stay leased or due
                log.warning("notification sender failed", exc_info=True)
            await asyncio.sleep(self.options.poll)

    async def run_once(self) -> int:
        """Claims and handles one batch of due rows; how many it claimed."""
        async with self.db.unit() as conn:
            claimed = await N.claim(conn, utcnow(), LEASE, self.options.batch)
        for row in claimed:
            await self._handle(row)
        return len(claimed)

    async def _handle(self, row: N.Claimed) -> None:
        if row.target is None:
            await self._mark(row.id, "dropped", "the target was removed")
            return
        async with self.db.read() as conn:
            online = row.seat in await connected_seats(conn, row.game_id)
        if online:
            await self._mark(row.id, "skipped", None)
            return
        try:
            await self._send(row.target, row.body)
        except Outcome as out:
            await self._failed(row, out)
            return
        await self._mark(row.id, "sent", None)

    async def _failed(self, row: N.Claimed, out: Outcome) -> None:
        if out.state == "dropped" and row.target is not None:
            async with self.db.unit() as conn:
                await N.drop_target(conn, row.target.id)
                await N.finish(conn, row.id, "dropped", out.error)
            return
        if out.state is not None or row.attempts >= self.options.attempts:
            await self._mark(row.id, out.state or "failed", out.error)
            return
        wait = min(self.options.backoff * 2 ** (row.attempts - 1), MAX_BACKOFF)
        async with self.db.unit() as conn:
            await N.retry(conn, row.id, utcnow() + timedelta(seconds=wait), out.error)

    async def _mark(self, row_id: int, state: str, error: str | None) -> None:
        async with self.db.unit() as conn:
            await N.finish(conn, row_id, state, error)

    async def _send(self, target: N.Target, body: dict[str, Any]) -> None:
        if target.kind == "webhook":
            url = str(target.target["url"])
            await self._post(url, orjson.dumps(body), {"Content-Type": "application/json"})
        elif target.kind == "push":
            if self.push is None:
                raise Outcome("push is not configured on this worker")
            sub = target.target
            data, headers = push_request(self.push, sub, orjson.dumps(body))
            await self._post(str(sub["endpoint"]), data, headers)
        elif target.kind == "email" and self.options.smtp is not None:
            subject = (
                "pingduel: your move" if body["event"] == "your_turn" else "pingduel: game over"
            )
            try:
                await send_mail(
                    self.options.smtp, str(target.target["address"]), subject, body["content"]
                )
            except MailFailed as exc:
                raise Outcome(str(exc)) from exc
        else:
            raise Outcome(f"no sender for {target.kind} on this worker", "failed")

    async def _post(self, url: str, data: bytes, headers: dict[str, str]) -> None:
        try:
            checked = await netguard.check(url, self.options.allow_private, self.options.own_hosts)
        except (netguard.BadUrl, netguard.PrivateAddress) as exc:
            raise Outcome(f"refused at send time: {exc}", "failed") from exc
        pinned, host, extensions = _pinned(checked)
        try:
            answer = await self.client.post(
                pinned,
                content=data,
                headers={**headers, **host, "User-Agent": "pingduel-notify"},
                extensions=extensions,
            )
        except httpx.HTTPError as exc:
            raise Outcome(f"{type(exc).__name__} from {checked.host}") from exc
        status = answer.status_code
        if 200 <= status < 300:
            return
        if status in (404, 410):
            raise Outcome(f"HTTP {status}: the target is gone", "dropped")
        if 300 <= status < 400:
            raise Outcome(f"HTTP {status}: redirects are not followed", "failed")
        if status == 429 or status >= 500 or status == 408:
            raise Outcome(f"HTTP {status}")
        raise Outcome(f"HTTP {status}", "failed")
