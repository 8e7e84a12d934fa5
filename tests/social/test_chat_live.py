"""Chat and rematch wake-ups over a live server (issue 15): a line reaches the streams of its
channel within moments as ``event: chat`` (no id, so resuming is untouched) and never the
other channel's; the frames carry only the channel and a number."""

from __future__ import annotations

import json

import httpx

from tests.api.helpers import API, new_game
from tests.conftest import ADMIN, LiveServer
from tests.live import SseEvent, SseReader, auth, live_client, open_stream


async def next_side(reader: SseReader, kind: str) -> SseEvent:
    while True:
        event = await reader.event(timeout=15.0)
        if event.event == kind:
            return event


async def test_chat_hint_reaches_its_channel_only(live_server: LiveServer) -> None:
    async with live_client(live_server.url) as client:
        duel = await new_game(client)
        async with (
            open_stream(client, duel.game_id, duel.tokens["A"]) as a_stream,
            open_stream(client, duel.game_id) as spectator,
        ):
            await a_stream.until(2)
            await spectator.until(2)
            r = await client.post(
                f"{duel.path}/chat",
                json={"text": "<script>x</script>"},
                headers=auth(duel.tokens["B"]),
            )
            assert r.status_code == 201, r.text
            hint = await next_side(a_stream, "chat")
            assert hint.id is None and hint.json() == {"channel": "players", "n": 1}
            r = await client.post(f"{duel.path}/chat", json={"text": "from the stands"})
            assert r.status_code == 201, r.text
            seen = await next_side(spectator, "chat")
            # the spectator's first chat frame is its own channel's: the players' line never woke it
            assert seen.json() == {"channel": "spectators", "n": 1}
            r = await client.post(
                f"{duel.path}/chat", json={"text": "second"}, headers=auth(duel.tokens["A"])
            )
            assert (await next_side(a_stream, "chat")).json() == {"channel": "players", "n": 2}
            # leak check: no chat frame holds text, a name or anything but channel and n
            for reader in (a_stream, spectator):
                for line in reader.raw:
                    if line.startswith('data: {"channel"'):
                        assert set(json.loads(line[6:])) == {"channel", "n"}
                assert "script" not in reader.text() and "stands" not in reader.text()
            assert "second" not in spectator.text()


async def test_page_stream_hears_chat_and_rematch(live_server: LiveServer) -> None:
    async with live_client(live_server.url) as client:
        duel = await new_game(client)
        cookies = {f"pd_seat_{duel.game_id}": duel.tokens["B"]}
        async with (
            httpx.AsyncClient(
                base_url=live_server.url, cookies=cookies, timeout=httpx.Timeout(15.0, read=30.0)
            ) as page,
            page.stream("GET", f"/games/{duel.game_id}/live") as response,
        ):
            assert response.status_code == 200
            reader = SseReader(response)
            await next_side(reader, "seq")
            await client.post(
                f"{duel.path}/chat", json={"text": "hi"}, headers=auth(duel.tokens["A"])
            )
            assert (await next_side(reader, "chat")).json() == {"channel": "players", "n": 1}
            r = await client.post(
                f"{duel.path}/referee/end",
                json={"winner": "A", "reason": "t"},
                headers={"Authorization": f"Bearer {ADMIN}"},
            )
            assert r.status_code == 200
            r = await client.post(
                f"{API}/games/{duel.game_id}/rematch", headers=auth(duel.tokens["A"])
            )
            assert r.status_code == 202
            assert (await next_side(reader, "rematch")).data == "{}"
