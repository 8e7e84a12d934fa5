"""``app.live.hub.Hub``: in-process wake-ups of "game N is at seq S" hints."""

from __future__ import annotations

import asyncio

import pytest

from app.live.hub import END, PRESENCE, SEQ, Hub, PgListener
from app.store.db import Database
from tests.conftest import settle


async def test_publish_wakes_only_that_games_subscribers() -> None:
    hub = Hub()
    one, two = hub.subscribe("g1"), hub.subscribe("g1")
    other = hub.subscribe("g2")
    hub.publish("g1", 7)
    assert one.flags == two.flags == SEQ
    assert other.flags == 0
    hub.publish("nobody-listens", 3)  # no subscribers: nothing happens
    assert other.flags == 0


async def test_unsubscribe_cleans_up() -> None:
    hub = Hub()
    a, b = hub.subscribe("g"), hub.subscribe("g")
    c = hub.subscribe("h")
    assert hub.count("g") == 2 and hub.count() == 3
    hub.unsubscribe(a)
    assert hub.count("g") == 1
    hub.publish("g", 5)
    assert a.flags == 0 and b.flags == SEQ
    hub.unsubscribe(b)
    hub.unsubscribe(b)  # twice is harmless
    assert hub.count("g") == 0 and "g" not in hub._subs
    hub.unsubscribe(c)
    assert hub.count() == 0 and hub._subs == {}
    await hub.stop()


async def test_wait_takes_every_hint_at_once() -> None:
    """A subscription is a flag, not a queue: a burst of hints is one wake and costs nothing
    more to hold (the stream reads the log from its own last seq)."""
    hub = Hub()
    sub = hub.subscribe("g")
    for seq in (4, 5, 6):
        hub.publish("g", seq)
    hub.poke("g")
    assert await asyncio.wait_for(sub.wait(5.0), 10) == SEQ | PRESENCE  # at once
    assert sub.flags == 0  # one wake for all of them
    await hub.stop()


async def test_wait_returns_on_timeout_and_on_a_later_hint() -> None:
    hub = Hub()
    sub = hub.subscribe("g")
    assert await asyncio.wait_for(sub.wait(0.05), 10) == 0  # nothing came: the timeout
    waiter = asyncio.create_task(sub.wait(30.0))
    await asyncio.sleep(0)
    assert not waiter.done()
    hub.publish("g", 9)
    assert await asyncio.wait_for(waiter, 10) == SEQ  # long before its timeout
    await hub.stop()


async def test_the_opener_is_not_woken_by_its_own_poke_and_end_stays() -> None:
    hub = Hub()
    opener, other = hub.subscribe("g"), hub.subscribe("g")
    hub.poke("g", opener=opener)
    assert opener.flags == 0 and other.flags == PRESENCE
    other.wake(END)
    assert await other.wait(1.0) == PRESENCE | END
    assert other.ended  # a stream told to end stays ended
    await hub.stop()


async def test_a_stray_notify_payload_neither_drops_the_listener_nor_a_hint(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Anyone with database access can NOTIFY on the channel: a payload that is not
    ``game:seq`` (``"²"`` passes ``isdigit()`` and fails ``int()``) is ignored, the LISTEN
    connection stays up, and the next real hint arrives."""
    import psycopg

    channel = "pingduel_stray_test"
    db = Database(pg_url, channel)
    hub = Hub()
    listener = PgListener(db, hub, channel)
    listener.start()
    try:
        await asyncio.wait_for(listener.connected.wait(), 10)
        sub = hub.subscribe("g1")
        heard: list[tuple[str, int]] = []
        listener.deliver = lambda game, seq: heard.append((game, seq))
        dsn = pg_url.replace("postgresql+psycopg://", "postgresql://", 1)
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            for payload in ("g1:²", "g1:１", "g1:" + "9" * 40, "nonsense", ":5", "g1:7"):
                await conn.execute("SELECT pg_notify(%s, %s)", (channel, payload))

        async def got_one() -> bool:
            return bool(heard)

        await settle(got_one)
        await asyncio.sleep(0.2)
        assert heard == [("g1", 7)]
        assert sub.flags == 0  # (delivered to the test, not the hub)
        assert not [r for r in caplog.records if "LISTEN connection lost" in r.getMessage()]
    finally:
        await listener.stop()
        await hub.stop()
        await db.dispose()
