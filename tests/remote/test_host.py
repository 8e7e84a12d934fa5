"""The host in-process against a live server: its waits, its retries, its release delays.

No timed asserts: the release test runs the host on a fake clock whose time passes only in
the host's sleeps, and the rate-limit test checks what the host asked to sleep, not how long
anything took.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.bot.timing import release_delay
from app.remote.cli import play_seat
from tests.api.helpers import Duel, new_game
from tests.api.replay_check import assert_replays
from tests.conftest import LiveServer


@pytest.fixture
def limited_server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    """A live server allowing one command per seat token in 3 seconds."""
    server = LiveServer(db_url, tmp_path / "data", PINGDUEL_LIMIT_COMMANDS="1/3seconds").start()
    try:
        yield server
    finally:
        server.stop()


async def game(server: LiveServer, body: dict[str, Any]) -> Duel:
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        return await new_game(client, body)


class FakeClock:
    """Time that passes only when someone sleeps on it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += max(seconds, 0.0)
        await asyncio.sleep(0)


@dataclass
class Seen:
    """What one host sent and read, each with the clock's time."""

    clock: FakeClock
    views: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    posts: list[tuple[float, dict[str, Any]]] = field(default_factory=list)

    async def on_request(self, request: httpx.Request) -> None:
        if request.method == "POST":
            self.posts.append((self.clock(), json.loads(request.content)))

    async def on_response(self, response: httpx.Response) -> None:
        request = response.request
        if request.method == "GET" and request.url.path.count("/") == 4:  # the view
            await response.aread()
            self.views.append((self.clock(), response.json()))


async def test_every_answer_waits_for_its_release_delay(live_server: LiveServer) -> None:
    duel = await game(live_server, {"scenario": "duel", "turn_limit": 2})
    clock = FakeClock()
    seen = {seat: Seen(clock) for seat in ("A", "B")}

    async def seat(name: str, seed: int) -> Any:
        hooks = {"request": [seen[name].on_request], "response": [seen[name].on_response]}
        async with httpx.AsyncClient(timeout=30, event_hooks=hooks) as http:
            return await play_seat(
                live_server.url,
                duel.game_id,
                duel.tokens[name],
                "cadet",
                seed,
                1.0,
                http=http,
                clock=clock,
                sleep=clock.sleep,
            )

    done = await asyncio.wait_for(asyncio.gather(seat("A", 1), seat("B", 2)), 120)
    assert {f.seat for f in done} == {"A", "B"}
    for name, log in seen.items():
        assert log.posts, "the seat sent nothing: the test proves nothing"
        for sent_at, body in log.posts:
            asked = [
                (t, v)
                for t, v in log.views
                if v["seq"] == body["at_seq"] and name in v["phase"]["awaiting"]
            ]
            assert asked, f"{body} answers no view the seat read"
            first, view = asked[0]
            assert sent_at >= first + release_delay(view), (name, body["type"], sent_at - first)
        kinds = {body["type"] for _, body in log.posts}
        assert "deploy" in kinds


@dataclass
class Journal:
    """Each command the host posted (key, body, the answer's status and Retry-After) and each
    sleep it asked for, in order."""

    items: list[tuple[Any, ...]] = field(default_factory=list)

    async def sleep(self, seconds: float) -> None:
        self.items.append(("sleep", seconds))
        await asyncio.sleep(seconds)

    async def on_response(self, response: httpx.Response) -> None:
        request = response.request
        if request.method == "POST":
            await response.aread()
            key = request.headers["Idempotency-Key"]
            wait = response.headers.get("Retry-After")
            code = response.json().get("code") if response.status_code != 200 else None
            self.items.append(("post", key, request.content, response.status_code, wait, code))


async def test_a_rate_limited_command_waits_retry_after_then_goes_again_with_its_key(
    limited_server: LiveServer, db_url: str
) -> None:
    duel = await game(limited_server, {"scenario": "duel"})
    journal = Journal()
    async with httpx.AsyncClient(base_url=limited_server.url, timeout=30) as client:
        # A's one command of these 3 seconds, spent (refused, but counted): A's deploy waits.
        # The limiter's windows are whole multiples of 3 s of the machine's time, and the first
        # moment of the next one lets a command through: spent early in a window, the budget
        # stays spent for the 2.5 s at least that the host takes to send its deploy.
        await window_start(3.0)
        early = {"type": "activate", "ship": "a1"}
        r = await client.post(f"{duel.path}/commands", json=early, headers=duel.auth("A"))
        assert r.status_code == 409, r.text
        hooks = {"response": [journal.on_response]}
        async with httpx.AsyncClient(timeout=30, event_hooks=hooks) as http:
            host = asyncio.create_task(
                play_seat(
                    limited_server.url,
                    duel.game_id,
                    duel.tokens["A"],
                    "cadet",
                    5,
                    0.0,
                    http=http,
                    sleep=journal.sleep,
                )
            )
            await deployed(client, duel, "A", host)
            r = await client.post(
                f"{duel.path}/commands", json={"type": "resign"}, headers=duel.auth("B")
            )
            assert r.status_code == 200, r.text
            finished = await asyncio.wait_for(host, 60)
    assert (finished.winner, finished.reason) == ("A", "resigned")
    posts = [i for i in journal.items if i[0] == "post"]
    assert posts[0][3] == 429 and posts[-1][3] == 200, posts
    assert len({(key, body) for _, key, body, *_ in posts}) == 1, "one key, one body"
    for at, item in enumerate(journal.items):
        if item[0] == "post" and item[3] == 429:
            follows = journal.items[at + 1]
            assert follows[0] == "sleep" and follows[1] >= int(item[4]), journal.items
    await assert_replays(db_url, duel.game_id)


async def window_start(length: float) -> None:
    """Until the first half-second of a rate limit window (``limits`` aligns them on the
    epoch)."""
    while time.time() % length > 0.5:
        await asyncio.sleep(0.05)


async def deployed(
    client: httpx.AsyncClient, duel: Duel, side: str, host: asyncio.Task[Any]
) -> None:
    for _ in range(600):
        if host.done():
            host.result()  # its failure, raised here
            pytest.fail("the host ended before it deployed")
        view = (await client.get(duel.path, headers=duel.auth("B"))).json()
        if side in view["phase"]["deployed"]:
            return
        await asyncio.sleep(0.05)
    pytest.fail(f"{side} never deployed")


class LosesFirstAnswer(httpx.AsyncBaseTransport):
    """A real connection that loses the answer of the first command after the server applied
    it, as a network would; every request is kept."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.commands: list[tuple[str, bytes]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if request.method == "POST":
            self.commands.append((request.headers["Idempotency-Key"], request.content))
            if len(self.commands) == 1:
                await response.aread()
                await response.aclose()
                raise httpx.ReadError("the answer was lost", request=request)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


async def test_a_lost_answer_is_retried_with_the_same_key_and_body(live_server: LiveServer) -> None:
    duel = await game(live_server, {"scenario": "duel"})
    transport = LosesFirstAnswer()
    naps: list[float] = []

    async def nap(seconds: float) -> None:
        naps.append(seconds)

    async with (
        httpx.AsyncClient(base_url=live_server.url, timeout=30) as client,
        httpx.AsyncClient(transport=transport, timeout=30) as http,
    ):
        host = asyncio.create_task(
            play_seat(
                live_server.url,
                duel.game_id,
                duel.tokens["A"],
                "cadet",
                9,
                0.0,
                http=http,
                sleep=nap,
            )
        )
        await deployed(client, duel, "A", host)
        resign = {"type": "resign"}
        r = await client.post(f"{duel.path}/commands", json=resign, headers=duel.auth("B"))
        assert r.status_code == 200, r.text
        finished = await asyncio.wait_for(host, 60)
        r = await client.get(f"{duel.path}/events", headers=duel.auth("A"))
    assert finished.winner == "A" and finished.commands == 1
    first, again = transport.commands[:2]
    assert first == again, "the retry re-sends the same key and body"
    assert naps, "the host waited before it sent it again"
    events = r.json()["events"]
    assert sum(e["type"] == "deployed" and e["data"]["side"] == "A" for e in events) == 1


async def test_without_a_stream_the_host_polls_and_still_sees_the_game_move(
    db_url: str, tmp_path: Path
) -> None:
    # every stream refused (429): the host must notice B's resignation by reading the view
    server = LiveServer(db_url, tmp_path / "data", PINGDUEL_LIMIT_STREAMS_PER_GAME="0").start()
    try:
        duel = await game(server, {"scenario": "duel"})
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            host = asyncio.create_task(
                play_seat(server.url, duel.game_id, duel.tokens["A"], "cadet", 3, 0.0)
            )
            await deployed(client, duel, "A", host)
            r = await client.get(f"{duel.path}/stream", headers=duel.auth("A"))
            assert r.status_code == 429, "the test needs the stream refused"
            resign = {"type": "resign"}
            r = await client.post(f"{duel.path}/commands", json=resign, headers=duel.auth("B"))
            assert r.status_code == 200, r.text
            finished = await asyncio.wait_for(host, 60)
        assert (finished.winner, finished.reason) == ("A", "resigned")
    finally:
        server.stop()


class DropsFirstStream(httpx.AsyncBaseTransport):
    """A real connection whose first stream breaks right after its first event; the
    ``Last-Event-ID`` of every stream request, and the seq of that one event, are kept."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.resumes: list[str | None] = []
        self.delivered: int | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if not request.url.path.endswith("/stream"):
            return response
        self.resumes.append(request.headers.get("Last-Event-ID"))
        if len(self.resumes) > 1:
            return response
        body = Chunks(self._first_event(response.stream))  # type: ignore[arg-type]
        return httpx.Response(response.status_code, headers=response.headers, stream=body)

    async def _first_event(self, stream: httpx.AsyncByteStream) -> AsyncIterator[bytes]:
        buffer = b""
        async for chunk in stream:
            buffer += chunk
            frame = re.search(rb"(?:^|\n)id: (\d+)\r?\n(?:[^\r\n]+\r?\n)*\r?\n", buffer)
            if frame:
                self.delivered = int(frame.group(1))
                yield buffer[: frame.end()]
                await stream.aclose()
                raise httpx.ReadError("the stream broke")

    async def aclose(self) -> None:
        await self.inner.aclose()


class Chunks(httpx.AsyncByteStream):
    def __init__(self, chunks: AsyncIterator[bytes]) -> None:
        self.chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.chunks:
            yield chunk


async def test_a_broken_stream_is_resumed_after_the_last_event_it_gave(
    live_server: LiveServer,
) -> None:
    duel = await game(live_server, {"scenario": "duel", "turn_limit": 1})
    transport = DropsFirstStream()
    async with httpx.AsyncClient(transport=transport, timeout=30) as http:
        a = play_seat(live_server.url, duel.game_id, duel.tokens["A"], "cadet", 4, 0.0, http=http)
        b = play_seat(live_server.url, duel.game_id, duel.tokens["B"], "cadet", 6, 0.0)
        done = await asyncio.wait_for(asyncio.gather(a, b), 120)
    assert {f.seat for f in done} == {"A", "B"}
    assert transport.delivered is not None, "the first stream gave no event"
    assert transport.resumes[1] == str(transport.delivered), transport.resumes


async def test_a_stale_answer_is_decided_again_on_the_fresh_view(live_server: LiveServer) -> None:
    """While A holds its deployment for the release delay, B deploys: A's answer names a seq
    the game has passed (409 ``stale_state``), so A reads the view again and deploys on it."""
    duel = await game(live_server, {"scenario": "duel"})
    journal, clock = Journal(), FakeClock()
    async with httpx.AsyncClient(base_url=live_server.url, timeout=30) as client:

        async def b_moves_meanwhile(seconds: float) -> None:
            journal.items.append(("sleep", seconds))
            await clock.sleep(seconds)
            if len(journal.items) == 1:  # the first release: the game moves on under A
                b = {"type": "deploy", "ships": [b_placement()]}
                r = await client.post(f"{duel.path}/commands", json=b, headers=duel.auth("B"))
                assert r.status_code == 200, r.text

        hooks = {"response": [journal.on_response]}
        async with httpx.AsyncClient(timeout=30, event_hooks=hooks) as http:
            host = asyncio.create_task(
                play_seat(
                    live_server.url,
                    duel.game_id,
                    duel.tokens["A"],
                    "cadet",
                    8,
                    1.0,
                    http=http,
                    clock=clock,
                    sleep=b_moves_meanwhile,
                )
            )
            await deployed(client, duel, "A", host)
            resign = {"type": "resign"}
            r = await client.post(f"{duel.path}/commands", json=resign, headers=duel.auth("B"))
            assert r.status_code == 200, r.text
            finished = await asyncio.wait_for(host, 60)
    assert finished.winner == "A"
    posts = [i for i in journal.items if i[0] == "post"]
    (_, stale_key, stale_body, stale, _, code), (_, key, body, status, *_) = posts[:2]
    assert (stale, code, status) == (409, "stale_state", 200)
    assert json.loads(stale_body)["type"] == json.loads(body)["type"] == "deploy"
    assert key != stale_key, "a new decision is a new command"
    assert json.loads(body)["at_seq"] > json.loads(stale_body)["at_seq"]


def b_placement() -> dict[str, Any]:
    return {"ship": "b1", "position": {"x": 36.0, "y": 44.0}, "heading": 6, "speed": 0}
