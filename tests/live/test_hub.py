"""``app.live.hub.Hub``: in-process fan-out of "game N is at seq S" hints."""

from __future__ import annotations

import asyncio

from app.live.hub import Hub


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
