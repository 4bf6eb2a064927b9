"""Embedded mode: the in-memory channel layer delivers group messages sent from another
thread's event loop (the embedded Celery worker) on the server's loop."""
import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync

from okeysite import embedded

pytestmark = pytest.mark.asyncio


async def test_a_group_send_from_the_worker_thread_reaches_a_server_loop_consumer():
    # asyncio debug mode raises when another loop touches this loop's futures (the trap
    # the plain InMemoryChannelLayer falls into, ARCHITECTURE.md known traps)
    asyncio.get_running_loop().set_debug(True)
    layer = embedded.ServerLoopChannelLayer()
    embedded.note_server_loop()
    channel = await layer.new_channel()
    await layer.group_add("table-1", channel)
    errors = []

    def worker_thread():
        try:
            async_to_sync(layer.group_send)("table-1", {"type": "table.update", "version": 7})
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    receiving = asyncio.create_task(layer.receive(channel))
    for _ in range(3):
        await asyncio.sleep(0)  # the consumer is now blocked on the channel's queue
    thread = threading.Thread(target=worker_thread)
    thread.start()
    message = await asyncio.wait_for(receiving, timeout=5)
    await asyncio.get_running_loop().run_in_executor(None, thread.join)
    assert errors == []
    assert message == {"type": "table.update", "version": 7}


async def test_calls_on_the_server_loop_run_directly():
    layer = embedded.ServerLoopChannelLayer()
    embedded.note_server_loop()
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "x"})
    assert await asyncio.wait_for(layer.receive(channel), timeout=5) == {"type": "x"}


async def test_expired_messages_are_dropped_by_a_scan_at_most_once_a_second():
    # expiry 0: a message is expired the moment it is queued
    layer = embedded.ServerLoopChannelLayer(expiry=0)
    embedded.note_server_loop()
    stale, fresh = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table-2", stale)
    await layer.send(stale, {"type": "old"})
    await layer.group_send("table-2", {"type": "first scan"})  # scans: the expired message goes
    assert stale not in layer.groups.get("table-2", {})
    await layer.group_add("table-2", stale)
    await layer.send(stale, {"type": "old again"})
    await layer.send(fresh, {"type": "x"})
    await layer.group_send("table-2", {"type": "same second"})  # no scan within the interval
    assert stale in layer.groups["table-2"]
    layer._next_clean = 0.0  # the interval has passed
    await layer.send(fresh, {"type": "y"})
    receiving = asyncio.create_task(layer.receive(fresh))  # a receive scans again
    await asyncio.sleep(0)
    assert stale not in layer.groups.get("table-2", {})
    receiving.cancel()
