"""'Your turn' notifications: where a seat wants them, and the outbox rows a game write queues.

``OutboxWatcher`` is a game watcher (``app.play.watch``): inside the write's transaction it
compares who the game awaits before and after, and queues one outbox row per target of each
seat newly awaited (or of both players when the game ends). The rows commit or roll back with
the events; ``app.play.sender`` sends them after the commit. Everything a row holds — when it
is queued and what it says — comes from public facts: the game id, turn, seq, who is awaited
(every view shows it) and the result.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from app.play import errors as E
from app.play import netguard
from app.play.mailer import MailFailed, SmtpOptions, send_mail
from app.play.reading import Reading
from app.play.tokens import digest
from app.play.watch import Change
from app.rules.fog import awaiting
from app.rules.state import GameStatus
from app.store import notify as N
from app.store.db import Database
from app.store.models import utcnow

PLAYERS = ("A", "B")
NOTIFIED_SEATS = frozenset({"A", "B", "referee"})
MAX_SUBSCRIPTION = 4000  # characters of a push subscription's JSON
MAX_EMAIL = 254
EMAIL = re.compile(r"[^@\s<>\"',;]+@[^@\s<>\"',;]+\.[^@\s<>\"',;.]+")
CONFIRM_FOR = timedelta(hours=24)


class BadWebhook(E.Invalid):
    code = "bad_webhook"
    title = "Webhook URL refused"


class PrivateAddress(E.Invalid):
    code = "private_address"
    title = "Address not allowed"


class BadSubscription(E.Invalid):
    code = "bad_subscription"
    title = "Push subscription refused"


class EmailNotConfigured(E.Invalid):
    code = "email_not_configured"
    title = "E-mail is not available"


class BadNotify(E.Invalid):
    code = "bad_notify"
    title = "Bad notification setting"


class BadEmail(E.Invalid):
    code = "bad_email"
    title = "E-mail address refused"


class EmailUnsent(E.Problem):
    status = 503
    code = "email_unsent"
    title = "The confirmation mail could not be sent"


@dataclass(frozen=True, slots=True)
class NotifyOptions:
    allow_private: bool = False
    public_url: str | None = None  # the base of the game links in the messages
    smtp: SmtpOptions | None = None  # e-mail only where the operator configured SMTP

    @property
    def own_hosts(self) -> frozenset[str]:
        if not self.public_url:
            return frozenset()
        try:
            return frozenset({netguard.parse(self.public_url)[1].lower()})
        except netguard.BadUrl:
            return frozenset()


def game_link(public_url: str | None, game_id: str) -> str:
    return f"{(public_url or '').rstrip('/')}/games/{game_id}"


def message(event: str, game_id: str, seq: int, turn: int, winner: str | None, link: str) -> Any:
    """The body every channel sends (webhook as is; push and e-mail carry the same text)."""
    if event == "your_turn":
        text = f"pingduel: your move in game {game_id} (turn {turn}). {link}"
    else:
        result = "a draw" if winner in (None, "draw") else f"side {winner} wins"
        text = f"pingduel: game {game_id} is over: {result}. {link}"
    return {"content": text, "game_id": game_id, "seq": seq, "event": event}


def _held(change: Change) -> bool:
    return change.head.paused or change.head.status != "active"


def newly_notified(change: Change) -> list[tuple[str, str]]:
    """(seat, event) pairs this write causes: both players when the game ends, else each
    player the game awaits after the write and did not await before it."""
    after, before = change.after, change.before
    if after.status == GameStatus.FINISHED:
        if before is not None and before.status == GameStatus.FINISHED:
            return []
        return [(seat, "game_finished") for seat in PLAYERS]
    now = set(awaiting(after, held=_held(change)))
    was = set(awaiting(before)) if before is not None else set()
    return [(seat, "your_turn") for seat in PLAYERS if seat in now - was]


class OutboxWatcher:
    """Queues the notifications of a game write, in its transaction."""

    def __init__(self, options: NotifyOptions) -> None:
        self.options = options

    async def written(self, conn: Any, change: Change) -> None:
        pairs = newly_notified(change)
        if not pairs:
            return
        game_id = change.head.id
        found = await N.game_targets(conn, game_id)
        if not found:
            return
        link = game_link(self.options.public_url, game_id)
        after = change.after
        rows = []
        for seat, event in pairs:
            body = message(event, game_id, change.head.seq, after.turn, after.winner, link)
            for target in found:
                if target.seat == seat:
                    rows.append(
                        {
                            "game_id": game_id,
                            "seat": seat,
                            "target_id": target.id,
                            "event": event,
                            "seq": change.head.seq,
                            "body": body,
                            "state": "queued",
                            "attempts": 0,
                            "due_at": change.at,
                            "created_at": change.at,
                        }
                    )
        await N.queue(conn, rows)


def _shown(found: list[N.Target]) -> dict[str, Any]:
    """What a seat has set: its webhook URL (its own), whether push is on, the e-mail state."""
    out: dict[str, Any] = {"webhook": None, "push": False, "email": None}
    for t in found:
        if t.kind == "webhook":
            out["webhook"] = t.target["url"]
        elif t.kind == "push":
            out["push"] = True
        elif t.kind == "email":
            out["email"] = {"address": t.target["address"], "confirmed": t.confirmed}
    return out


def _subscription(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadSubscription("send the browser's PushSubscription as a JSON object")
    endpoint = value.get("endpoint")
    keys = value.get("keys")
    if not isinstance(endpoint, str) or not isinstance(keys, dict):
        raise BadSubscription("a subscription has an 'endpoint' and 'keys' (p256dh, auth)")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    if not isinstance(p256dh, str) or not isinstance(auth, str):
        raise BadSubscription("the subscription's keys need 'p256dh' and 'auth' strings")
    if len(endpoint) + len(p256dh) + len(auth) > MAX_SUBSCRIPTION:
        raise BadSubscription(f"the subscription is longer than {MAX_SUBSCRIPTION} characters")
    return {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}


class Notify:
    """The room of ``POST …/notify``: a seat sets or removes where it is told."""

    def __init__(self, db: Database, reading: Reading, options: NotifyOptions) -> None:
        self.db = db
        self.reading = reading
        self.options = options

    async def _seat(self, game_id: str, token: str | None) -> str:
        caller = await self.reading.caller(game_id, token)
        if token is None or caller.admin or caller.seat not in NOTIFIED_SEATS:
            raise E.Forbidden("only a seat's own token (A, B or the referee) sets notifications")
        return caller.seat

    async def shown(self, game_id: str, token: str | None) -> dict[str, Any]:
        seat = await self._seat(game_id, token)
        async with self.db.read() as conn:
            return _shown(await N.seat_targets(conn, game_id, seat))

    async def _checked(self, url: str, refuse: type[E.Invalid]) -> None:
        try:
            await netguard.check(url, self.options.allow_private, self.options.own_hosts)
        except netguard.BadUrl as exc:
            raise refuse(str(exc)) from exc
        except netguard.PrivateAddress as exc:
            raise PrivateAddress(
                f"{exc}; the server calls public addresses only (the operator setting "
                "PINGDUEL_WEBHOOK_ALLOW_PRIVATE=1 lifts this)"
            ) from exc

    async def set(self, game_id: str, token: str | None, body: dict[str, Any]) -> dict[str, Any]:
        seat = await self._seat(game_id, token)
        if len(body) != 1 or next(iter(body)) not in N.KINDS:
            raise BadNotify("send exactly one of 'webhook', 'push' or 'email'")
        kind, value = next(iter(body.items()))
        target: dict[str, Any] | None = None
        if kind == "email":
            return await self._email(game_id, seat, value)
        if kind == "webhook" and value is not None:
            if not isinstance(value, str):
                raise BadWebhook("the webhook is a URL string, or null to remove it")
            await self._checked(value, BadWebhook)
            target = {"url": value}
        elif kind == "push" and value is not None:
            target = _subscription(value)
            await self._checked(target["endpoint"], BadSubscription)
        async with self.db.unit() as conn:
            await N.set_target(conn, game_id, seat, kind, target)
            return _shown(await N.seat_targets(conn, game_id, seat))

    async def _email(self, game_id: str, seat: str, value: Any) -> dict[str, Any]:
        """An address waits for the one-time link mailed to it (kept as a hash, for a day)."""
        smtp = self.options.smtp
        if smtp is None:
            raise EmailNotConfigured("this server sends no e-mail (no SMTP is configured)")
        if value is not None and (
            not isinstance(value, str) or len(value) > MAX_EMAIL or not EMAIL.fullmatch(value)
        ):
            raise BadEmail("send an e-mail address like name@example.org, or null to remove it")
        token = secrets.token_urlsafe(32)
        async with self.db.unit() as conn:
            target = None if value is None else {"address": value}
            confirm = (digest(token), utcnow() + CONFIRM_FOR)
            await N.set_target(conn, game_id, seat, "email", target, confirm if value else None)
            shown = _shown(await N.seat_targets(conn, game_id, seat))
        if value is not None:
            link = f"{(self.options.public_url or '').rstrip('/')}/notify/confirm/{token}"
            text = (
                f"Someone asked pingduel to tell this address when it is their move in game "
                f"{game_id}. To agree, open this link within a day and press the button:\n\n"
                f"{link}\n\nIf it was not you, ignore this mail: nothing will be sent."
            )
            try:
                await send_mail(smtp, value, "pingduel: confirm your address", text)
            except MailFailed as exc:
                raise EmailUnsent(f"{exc}: try again later") from exc
        return shown

    async def confirm(self, token: str) -> str | None:
        """Confirms the address waiting for this link; its game id (None: unknown, used or
        expired)."""
        async with self.db.unit() as conn:
            return await N.confirm_target(conn, digest(token), utcnow())


__all__ = ["Notify", "NotifyOptions", "OutboxWatcher", "message", "newly_notified"]
