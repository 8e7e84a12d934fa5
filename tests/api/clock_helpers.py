"""Clock tests' helpers: a time the test moves, apps that share a database, a player that
answers its own decisions from its view, and the log read over HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from app.main import create_app
from tests.api.helpers import Duel, ok, view
from tests.conftest import make_settings

LIVE = {"kind": "live", "initial_s": 60, "increment_s": 20}


class FakeNow:
    """The clocks' time: starts at a fixed instant and moves only when the test says."""

    def __init__(self) -> None:
        self.t = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += timedelta(seconds=seconds)


@asynccontextmanager
async def apps(
    db_url: str,
    tmp_path: Path,
    now: FakeNow,
    count: int = 1,
    poll: float = 3600.0,
    **extra: object,
) -> AsyncIterator[list[tuple[FastAPI, httpx.AsyncClient]]]:
    """``count`` app instances (workers) on one database, each with its own service, all on
    the time ``now``; their own deadline pollers wait ``poll`` seconds between polls."""
    out = []
    async with AsyncExitStack() as stack:
        for i in range(count):
            settings = make_settings(db_url, tmp_path / f"w{i}", clock_poll=poll, **extra)
            app = create_app(settings)
            await stack.enter_async_context(app.router.lifespan_context(app))
            app.state.service.clocks.now = now
            transport = httpx.ASGITransport(app=app)
            client = await stack.enter_async_context(
                httpx.AsyncClient(transport=transport, base_url="http://test")
            )
            out.append((app, client))
        yield out


def clocks_of(app: FastAPI) -> Any:
    return app.state.service.clocks


async def events(client: httpx.AsyncClient, duel: Duel, seat: str | None) -> list[dict[str, Any]]:
    headers = duel.auth(seat) if seat else {}
    r = await client.get(f"{duel.path}/events", params={"after": 0}, headers=headers)
    assert r.status_code == 200, r.text
    return list(r.json()["events"])


async def play_own_decision(client: httpx.AsyncClient, duel: Duel, seat: str) -> None:
    """Answer everything the game awaits ``seat`` for (from its view only): hold fire, the
    default defence, no fighter attacks, the first ship with null orders on overwatch."""
    for _ in range(20):
        seen = await view(client, duel, seat)
        phase, legal = seen["phase"], seen["phase"]["legal"]
        if seat not in phase["awaiting"] or seen["status"] != "active":
            return
        commands = legal["commands"]
        if phase["step"] == "fire":
            body: dict[str, Any] = {"type": "fire", "window": legal["window"], "shots": []}
        elif "defend" in commands:
            d = legal["defend"]
            body = {"type": "defend", "window": d["window"], "allocations": d["default"]}
        elif "activate" in commands:
            body = {"type": "activate", "ship": legal["activatable"][0]}
        elif "move" in commands:
            body = {"type": "move", "ship": phase["ship"], "orders": {"speed_change": 0, "turn": 0}}
        elif "end_activation" in commands:
            body = {"type": "end_activation", "ship": phase["ship"]}
        else:
            raise AssertionError(f"no answer for {phase}")
        await ok(client, duel, seat, body)
    raise AssertionError("the decision did not end")


async def b_times_out(
    app: FastAPI,
    client: httpx.AsyncClient,
    duel: Duel,
    now: FakeNow,
    times: int,
    before_each: Callable[[int], Awaitable[None]] | None = None,
) -> None:
    """A plays each of its decisions in time while B lets ``times`` of its own run out
    (``before_each(n)``: called before B's n-th timeout, counted from 0)."""
    count = 0
    for _ in range(4 * times):
        seen = await view(client, duel, "A")
        if seen["clock"]["timeouts"]["B"] >= times:
            return
        if "A" in seen["phase"]["awaiting"]:
            await play_own_decision(client, duel, "A")
            continue
        if before_each is not None:
            await before_each(count)
        now.advance(seen["clock"]["B"]["left_s"] + 1)
        assert await clocks_of(app).run_due() == 1
        count += 1
    raise AssertionError(f"B did not time out {times} times")
