"""Where a stream resumes: a ``Last-Event-ID`` or ``?after=`` that is not a seq is refused with
422 before the stream opens; one in range opens it, however far ahead (real ``pingduel serve``).

A seq is ASCII digits, 0 … 2³¹−1. A ``Last-Event-ID`` of twenty 9s used to open the stream and
kill it at its first read (the database cannot compare with a number that large); ``"-1"``,
``"abc"`` and ``"²"`` were silently read as "from the start". EventSource only ever echoes an
``id:`` the server sent, so a real client never meets the refusal; an empty header is no header.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.api.helpers import API, new_game
from tests.conftest import LiveServer
from tests.live import Comment, SseReader, events_of, live_client, open_stream

MAX_SEQ = 2**31 - 1
NOT_A_SEQ = [
    "9" * 20,  # within the header's 20 characters, beyond any database integer
    str(MAX_SEQ + 1),
    "-1",
    "abc",
    "²",
    "1.5",
    "12x",
    "9" * 21,
]


async def refused(client: httpx.AsyncClient, path: str, headers: dict[str, Any]) -> dict[str, Any]:
    async with client.stream("GET", path, headers=headers) as r:
        body = json.loads(await r.aread())
    assert r.status_code == 422, (headers, r.status_code, body)
    assert r.headers["content-type"].startswith("application/problem+json")
    assert body["code"] == "invalid_request", body
    return body


async def test_a_resume_point_that_is_not_a_seq_is_422_and_the_server_goes_on(
    live_server: LiveServer,
) -> None:
    async with live_client(live_server.url) as client:
        duel = await new_game(client, {"scenario": "duel"})
        token = duel.tokens["A"]
        auth = {"Authorization": f"Bearer {token}"}
        stream = f"{API}/games/{duel.game_id}/stream"
        for value in NOT_A_SEQ:
            # a header is bytes: the server reads "²" as two latin-1 characters, still no seq
            body = await refused(client, stream, {**auth, "Last-Event-ID": value.encode()})
            assert "Last-Event-ID" in body["detail"], body
            body = await refused(client, f"{stream}?after={value}", auth)
            assert "after" in body["detail"], body
            r = await client.get(f"{API}/games/{duel.game_id}/events?after={value}", headers=auth)
            assert r.status_code == 422, (value, r.text)
        # the worker is alive and streams as before; an empty header is no header
        last = (await events_of(client, duel.game_id, token))["last_seq"]
        async with client.stream("GET", stream, headers={**auth, "Last-Event-ID": ""}) as r:
            assert r.status_code == 200
            got = await SseReader(r).until(last)
        assert [e.seq for e in got] == list(range(1, last + 1))


async def test_a_resume_point_far_ahead_opens_a_live_stream(live_server: LiveServer) -> None:
    async with live_client(live_server.url) as client:
        duel = await new_game(client, {"scenario": "duel"})
        token = duel.tokens["A"]
        for lei, after in ((MAX_SEQ, None), (None, MAX_SEQ)):
            async with open_stream(
                client, duel.game_id, token, last_event_id=lei, after=after
            ) as reader:
                # alive: keep-alive comments (1 s here), not an end
                items = [await reader.next() for _ in range(2)]
                assert all(isinstance(i, Comment) for i in items), items
        r = await client.get(
            f"{API}/games/{duel.game_id}/events?after={MAX_SEQ}",
            headers={"Authorization": f"Bearer {token}"},
        )
        assert r.status_code == 200 and r.json()["events"] == [], r.text
