"""Live tests against a real ``pingduel serve``: a small SSE client and a game script.

sse-starlette ends lines with CRLF (``httpx``'s ``aiter_lines`` splits on every line break);
a line starting with ``:`` is a comment (the keep-alive), a blank line ends an event. Every read
is bounded: a stream that says nothing for ``timeout`` seconds fails the test.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import httpx

from tests.api.helpers import API, Duel, deploy_duel, new_game, ok

SEED = "5e" * 32
# distinctive coordinates: a seat's stream must never carry the other side's
A_DEPLOY = (37.25, 5.75)
B_DEPLOY = (41.75, 43.25)
A_MOVED = (37.25, 7.75)  # a1 heads north (0) at speed 2
B_MOVED = (41.75, 41.25)  # b1 heads south (6) at speed 2
HIDDEN_FROM = {
    # numbers that only this seat's enemy (and the referee) may know
    "A": ("41.75", "43.25", "41.25"),
    "B": ("37.25", "5.75", "7.75"),
}


@dataclass(frozen=True)
class SseEvent:
    id: str | None
    event: str | None
    data: str

    @property
    def seq(self) -> int:
        assert self.id is not None
        return int(self.id)

    def json(self) -> Any:
        return json.loads(self.data)


@dataclass(frozen=True)
class Comment:
    text: str


class SseReader:
    """Parses one open ``text/event-stream`` response; every read has a deadline."""

    def __init__(self, response: httpx.Response) -> None:
        self.response = response
        self._lines = response.aiter_lines()
        self.raw: list[str] = []  # every line received, for "never in the text" checks

    async def _line(self) -> str | None:
        try:
            line = await self._lines.__anext__()
        except StopAsyncIteration:
            return None
        self.raw.append(line)
        return line

    async def _item(self) -> SseEvent | Comment | None:
        fields: dict[str, list[str]] = {}
        while True:
            line = await self._line()
            if line is None:
                return None  # the server ended the stream
            if line.startswith(":"):
                return Comment(line[1:].strip())
            if line == "":
                if fields:
                    return SseEvent(
                        fields.get("id", [None])[-1],
                        fields.get("event", [None])[-1],
                        "\n".join(fields.get("data", [])),
                    )
                continue
            name, _, value = line.partition(":")
            fields.setdefault(name, []).append(value[1:] if value.startswith(" ") else value)

    async def next(self, timeout: float = 10.0) -> SseEvent | Comment | None:
        """The next event or comment; None when the stream ends. Fails after ``timeout`` s."""
        try:
            return await asyncio.wait_for(self._item(), timeout)
        except TimeoutError:
            raise AssertionError(f"the stream said nothing for {timeout} s") from None

    async def event(self, timeout: float = 10.0) -> SseEvent:
        """The next event (comments skipped) within ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            item = await self.next(max(deadline - loop.time(), 0.001))
            if item is None:
                raise AssertionError("the stream ended while an event was expected")
            if isinstance(item, SseEvent):
                return item

    async def until(self, last_seq: int, timeout: float = 10.0) -> list[SseEvent]:
        """Every event up to and including ``last_seq``, all arriving within ``timeout`` s."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        out: list[SseEvent] = []
        while not out or out[-1].seq < last_seq:
            out.append(await self.event(max(deadline - loop.time(), 0.001)))
        return out

    def text(self) -> str:
        return "\n".join(self.raw)


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


@asynccontextmanager
async def open_stream(
    client: httpx.AsyncClient,
    game_id: str,
    token: str | None = None,
    *,
    after: int | None = None,
    last_event_id: int | None = None,
) -> AsyncIterator[SseReader]:
    headers = auth(token)
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    params = {"after": after} if after is not None else None
    async with client.stream(
        "GET", f"{API}/games/{game_id}/stream", headers=headers, params=params
    ) as response:
        assert response.status_code == 200, (await response.aread()).decode()
        assert response.headers["content-type"].startswith("text/event-stream")
        yield SseReader(response)


# uvicorn closes a connection idle for 5 s (its keep-alive timeout), and httpx keeps one in its
# pool for 5 s too: a request sent on a connection idle for about 5 s could meet the server's
# close and fail with ReadError (1 in 24 requests after 4.9-5.1 s idle, none with this expiry).
# A client that drops idle connections after 1 s never sends on one the server may be closing.
KEEPALIVE = httpx.Limits(keepalive_expiry=1.0)


def live_client(url: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=url, timeout=httpx.Timeout(15.0, read=30.0), limits=KEEPALIVE)


async def events_of(
    client: httpx.AsyncClient, game_id: str, token: str | None, after: int = 0
) -> dict[str, Any]:
    r = await client.get(
        f"{API}/games/{game_id}/events", params={"after": after}, headers=auth(token)
    )
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


async def scripted_game(client: httpx.AsyncClient) -> tuple[Duel, str]:
    """A duel with both ships deployed and moved once each, unrevealed (no ping).

    Returns the game and the side that moved first; the game then waits for turn 2.
    """
    duel = await new_game(client, {"scenario": "duel", "seed": SEED})
    deployed = await deploy_duel(client, duel, A_DEPLOY, B_DEPLOY)
    first = deployed["view"]["phase"]["side"]
    for side in (first, "B" if first == "A" else "A"):
        await move_and_end(client, duel, side)
    return duel, first


async def move_and_end(client: httpx.AsyncClient, duel: Duel, side: str) -> None:
    ship = "a1" if side == "A" else "b1"
    await ok(
        client, duel, side, {"type": "move", "ship": ship, "orders": {"speed_change": 2, "turn": 0}}
    )
    await ok(client, duel, side, {"type": "end_activation", "ship": ship})


async def next_command(client: httpx.AsyncClient, duel: Duel) -> tuple[str, dict[str, Any]]:
    """The side to act and its next command in a game past ``scripted_game`` (never a ping, so
    never a fire window): it names its ship, moves it on at its speed, ends its activation."""
    r = await client.get(duel.path, headers=duel.auth("A"))
    assert r.status_code == 200, r.text
    phase = r.json()["phase"]
    side = phase["side"]
    ship = phase["ship"] or ("a1" if side == "A" else "b1")
    if phase["step"] == "activate":
        body: dict[str, Any] = {"type": "activate", "ship": ship}
    elif phase["step"] == "start":
        body = {"type": "move", "ship": ship, "orders": {"speed_change": 0, "turn": 0}}
    else:
        assert phase["step"] == "after_move", phase
        body = {"type": "end_activation", "ship": ship}
    return side, body


async def step(client: httpx.AsyncClient, duel: Duel) -> list[dict[str, Any]]:
    """One more command of a game past ``scripted_game`` (``next_command``), sent."""
    side, body = await next_command(client, duel)
    result = await ok(client, duel, side, body)
    events: list[dict[str, Any]] = result["events"]
    return events
