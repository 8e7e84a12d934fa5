"""E-mail notifications through a local SMTP server (aiosmtpd): the confirmation mail, the
confirmation (a GET shows a button, the POST confirms), then a "your move" mail (issue 15)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import Any

import httpx
from aiosmtpd.controller import Controller  # type: ignore[import-untyped]

from app.main import create_app
from tests.api.helpers import new_game, ok
from tests.api.notify_helpers import drain, outbox
from tests.api.test_notify import _deploy, _play_until
from tests.conftest import free_port, make_settings, settle
from tests.live import A_DEPLOY, B_DEPLOY, SEED


class Inbox:
    def __init__(self) -> None:
        self.mails: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = message_from_bytes(envelope.original_content or envelope.content)
        self.mails.append(mail)
        return "250 OK"


@contextmanager
def smtp_server() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


@asynccontextmanager
async def mailing_app(db_url: str, tmp_path: Path, port: int) -> AsyncIterator[Any]:
    settings = make_settings(
        db_url,
        tmp_path,
        allow_client_seed=True,
        notify_poll=3600.0,
        smtp_host="127.0.0.1",
        smtp_port=port,
        smtp_starttls=False,
        smtp_from="duels@pingduel.test",
        public_url="http://test",
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield app, client


def _text(mail: Message) -> str:
    payload = mail.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


async def _count(inbox: Inbox, n: int) -> bool:
    return len(inbox.mails) >= n


async def test_a_confirmed_address_gets_your_move_mails(db_url: str, tmp_path: Path) -> None:
    with smtp_server() as (inbox, port):
        async with mailing_app(db_url, tmp_path, port) as (app, client):
            duel = await new_game(client, {"scenario": "duel", "seed": SEED})
            r = await client.post(
                f"{duel.path}/notify", json={"email": "a@example.org"}, headers=duel.auth("A")
            )
            assert r.status_code == 200, r.text
            assert r.json()["email"] == {"address": "a@example.org", "confirmed": False}
            await settle(lambda: _count(inbox, 1))
            (mail,) = inbox.mails
            assert mail["To"] == "a@example.org" and mail["From"] == "duels@pingduel.test"
            found = re.search(r"http://test(/notify/confirm/[A-Za-z0-9_-]+)", _text(mail))
            assert found is not None
            link = found.group(1)
            # unconfirmed: a turn of A queues nothing
            await ok(client, duel, "B", _deploy("b1", B_DEPLOY, 6))
            await ok(client, duel, "A", _deploy("a1", A_DEPLOY, 0))
            assert await outbox(app.state.db, duel.game_id) == []
            # the GET (a link preview) shows a button and confirms nothing
            page = await client.get(link)
            assert page.status_code == 200 and "Yes, mail me" in page.text
            shown = await client.get(f"{duel.path}/notify", headers=duel.auth("A"))
            assert shown.json()["email"]["confirmed"] is False
            csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
            assert csrf is not None
            refused = await client.post(link, data={"csrf": "0" * 64})
            assert refused.status_code == 403
            done = await client.post(link, data={"csrf": csrf.group(1)})
            assert done.status_code == 200 and "Address confirmed" in done.text, done.text
            again = await client.post(link, data={"csrf": csrf.group(1)})
            assert again.status_code == 404  # one time only
            shown = await client.get(f"{duel.path}/notify", headers=duel.auth("A"))
            assert shown.json()["email"]["confirmed"] is True
            if (
                "A"
                in (await client.get(duel.path, headers=duel.auth("A"))).json()["phase"]["awaiting"]
            ):
                await _play_until(client, duel, "B")
            moved = await _play_until(client, duel, "A")
            await drain(app)
            await settle(lambda: _count(inbox, 2))
            mail = inbox.mails[1]
            assert mail["Subject"] == "pingduel: your move"
            text = _text(mail)
            assert f"http://test/games/{duel.game_id}" in text and "/seat" not in text
            for token in duel.tokens.values():
                assert token not in text
            rows = await outbox(app.state.db, duel.game_id)
            assert [(r["seat"], r["state"], r["seq"]) for r in rows] == [
                ("A", "sent", moved["view"]["seq"])
            ]


async def test_bad_addresses_are_refused(db_url: str, tmp_path: Path) -> None:
    with smtp_server() as (inbox, port):
        async with mailing_app(db_url, tmp_path, port) as (_app, client):
            duel = await new_game(client, {"scenario": "duel"})
            for bad in (
                "nobody",
                "a@b",
                "x@example.org\r\nBcc: y@example.org",
                "a" * 250 + "@b.co",
            ):
                r = await client.post(
                    f"{duel.path}/notify", json={"email": bad}, headers=duel.auth("A")
                )
                assert r.status_code == 422 and r.json()["code"] == "bad_email", bad
            assert inbox.mails == []
