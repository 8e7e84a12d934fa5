"""``app.live.hub.Hub``: in-process fan-out of "game N is at seq S" hints."""

from __future__ import annotations

import asyncio

import pytest

from app.live.hub import Hub, PgListener
from app.store.db import Database


async def test_publish_reaches_only_that_games_subscribers() -> None:
    hub = Hub(queue_size=8)
    one, two = hub.subscribe("g1"), hub.subscribe("g1")
    other = hub.subscribe("g2")
    hub.publish("g1", 7)
    assert one.queue.get_nowait() == 7
    assert two.queue.get_nowait() == 7
    assert other.queue.empty()
    hub.publish("nobody-listens", 3)  # no subscribers: nothing happens
    assert one.queue.empty() and two.queue.empty() and other.queue.empty()


async def test_a_full_queue_marks_the_slow_client_overflowed() -> None:
    hub = Hub(queue_size=2)
    slow, fast = hub.subscribe("g"), hub.subscribe("g")
    hub.publish("g", 1)
    hub.publish("g", 2)
    assert not slow.overflowed
    await fast.wait(1.0)  # the fast client keeps up
    hub.publish("g", 3)  # the slow one's queue is full: it is dropped, the fast one is not
    assert slow.overflowed
    assert not fast.overflowed
    assert fast.queue.get_nowait() == 3
    assert [slow.queue.get_nowait() for _ in range(2)] == [1, 2]  # nothing lost silently


async def test_unsubscribe_cleans_up() -> None:
    hub = Hub()
    a, b = hub.subscribe("g"), hub.subscribe("g")
    c = hub.subscribe("h")
    assert hub.count("g") == 2 and hub.count() == 3
    hub.unsubscribe(a)
    assert hub.count("g") == 1
    hub.publish("g", 5)
    assert a.queue.empty() and b.queue.get_nowait() == 5
    hub.unsubscribe(b)
    hub.unsubscribe(b)  # twice is harmless
    assert hub.count("g") == 0 and "g" not in hub._subs
    hub.unsubscribe(c)
    assert hub.count() == 0 and hub._subs == {}


async def test_wait_drains_what_is_queued() -> None:
    hub = Hub()
    sub = hub.subscribe("g")
    for seq in (4, 5, 6):
        hub.publish("g", seq)
    await asyncio.wait_for(sub.wait(5.0), 10)  # returns at once: hints are waiting
    assert sub.queue.empty()  # one wake for all of them


async def test_wait_returns_on_timeout_and_on_a_later_hint() -> None:
    hub = Hub()
    sub = hub.subscribe("g")
    await asyncio.wait_for(sub.wait(0.05), 10)  # nothing comes: the timeout ends the wait
    assert sub.queue.empty()
    waiter = asyncio.create_task(sub.wait(30.0))
    await asyncio.sleep(0)
    assert not waiter.done()
    hub.publish("g", 9)
    await asyncio.wait_for(waiter, 10)  # the hint wakes it long before its timeout
    assert sub.queue.empty()


async def test_a_stray_notify_payload_neither_drops_the_listener_nor_a_hint(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Anyone with database access can NOTIFY on the channel: a payload that is not
    ``game:seq`` (``"²"`` passes ``isdigit()`` and fails ``int()``) is ignored, the LISTEN
    connection stays up, and the next real hint arrives."""
    import psycopg

    channel = "pingduel_stray_test"
    db = Database(pg_url, channel)
    hub = Hub(8)
    listener = PgListener(db, hub, channel)
    listener.start()
    try:
        await asyncio.wait_for(listener.connected.wait(), 10)
        sub = hub.subscribe("g1")
        dsn = pg_url.replace("postgresql+psycopg://", "postgresql://", 1)
        async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as conn:
            for payload in ("g1:²", "g1:１", "g1:" + "9" * 40, "nonsense", ":5", "g1:7"):
                await conn.execute("SELECT pg_notify(%s, %s)", (channel, payload))
        assert await asyncio.wait_for(sub.queue.get(), 5) == 7
        assert sub.queue.empty()
        assert not [r for r in caplog.records if "LISTEN connection lost" in r.getMessage()]
    finally:
        await listener.stop()
        await db.dispose()
