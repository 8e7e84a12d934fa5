"""The outbox survives a crash between queue and send; two senders never both send a row;
a push is encrypted for the subscription and a 410 drops it (issue 15)."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path
from typing import Any

import http_ece  # type: ignore[import-untyped]
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from app.play.sender import Sender
from app.store.db import Database
from tests.api.helpers import new_game
from tests.api.notify_helpers import outbox, receiver, serving
from tests.conftest import ADMIN
from tests.live import SEED, live_client

ALLOW = {"webhook_allow_private": True}


async def test_rows_survive_a_restart_and_two_senders_send_each_once(
    db_url: str, tmp_path: Path
) -> None:
    async with receiver() as hooks:
        games = []
        async with serving(db_url, tmp_path, **ALLOW) as (app, url), live_client(url) as client:
            # the app's own sender never runs again (it polls once an hour): the rows wait
            for _ in range(6):
                duel = await new_game(client, {"scenario": "duel", "seed": SEED})
                r = await client.post(
                    f"{duel.path}/notify",
                    json={"webhook": f"{hooks.url}/{duel.game_id}"},
                    headers=duel.auth("A"),
                )
                assert r.status_code == 200, r.text
                await app.state.service.referee.end(duel.game_id, ADMIN, "A", "done")
                games.append(duel.game_id)
        assert hooks.got == []
        # a new process's senders: two on the same database, polling at once
        options = app.state.sender.options
        senders = [Sender(Database(db_url), options) for _ in range(2)]
        try:

            async def work(sender: Sender) -> None:
                while await sender.run_once():
                    await asyncio.sleep(0)

            await asyncio.gather(*(work(s) for s in senders))
        finally:
            for s in senders:
                await s.stop()
                await s.db.dispose()
        assert sorted(r.path for r in hooks.got) == sorted(f"/{g}" for g in games)
        db = Database(db_url)
        try:
            for game_id in games:
                ((row),) = [r for r in await outbox(db, game_id) if r["seat"] == "A"]
                assert (row["state"], row["attempts"]) == ("sent", 1)
        finally:
            await db.dispose()


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


async def test_a_push_arrives_encrypted_and_a_410_drops_the_subscription(
    db_url: str, tmp_path: Path
) -> None:
    browser_key = ec.generate_private_key(ec.SECP256R1())
    public = browser_key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    secret = b"0123456789abcdef"
    async with (
        receiver() as endpoint,
        serving(db_url, tmp_path, **ALLOW) as (app, url),
        live_client(url) as client,
    ):
        key = (await client.get("/api/v1/push/key")).json()["public_key"]
        assert len(base64.urlsafe_b64decode(key + "==")) == 65
        sub = {
            "endpoint": f"{endpoint.url}/push/1",
            "keys": {"p256dh": _b64(public), "auth": _b64(secret)},
        }
        duel = await new_game(client, {"scenario": "duel", "seed": SEED})
        r = await client.post(f"{duel.path}/notify", json={"push": sub}, headers=duel.auth("B"))
        assert r.status_code == 200 and r.json()["push"] is True, r.text
        assert "p256dh" not in r.text
        await app.state.service.referee.end(duel.game_id, ADMIN, "B", "done")
        while await app.state.sender.run_once():
            pass
        (got,) = endpoint.to("/push/1")
        assert got.headers["Content-Encoding"] == "aes128gcm"
        assert got.headers["Authorization"].startswith("vapid t=")
        assert f"k={key}" in got.headers["Authorization"]
        plain = http_ece.decrypt(
            got.body, private_key=browser_key, auth_secret=secret, version="aes128gcm"
        )
        body: dict[str, Any] = json.loads(plain)
        assert body["event"] == "game_finished" and body["game_id"] == duel.game_id
        # the push service says the subscription is gone: it is dropped
        endpoint.answers["/push/1"] = [410]
        second = await new_game(client, {"scenario": "duel", "seed": SEED})
        r = await client.post(f"{second.path}/notify", json={"push": sub}, headers=second.auth("B"))
        await app.state.service.referee.end(second.game_id, ADMIN, "B", "done")
        while await app.state.sender.run_once():
            pass
        (row,) = [r for r in await outbox(app.state.db, second.game_id)]
        assert row["state"] == "dropped"
        r = await client.get(f"{second.path}/notify", headers=second.auth("B"))
        assert r.json()["push"] is False
