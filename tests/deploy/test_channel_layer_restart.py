"""The channel layer outlives a Redis restart: a private Redis (never the machine's shared
one) is restarted empty, and the next broadcast reaches a subscriber instead of failing on
the connection Redis closed."""
import asyncio
import time

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer

from bench.stack import PrivateRedis
from okeysite.settings import redis_layer_host


def _subscribed_again(url, count, timeout=15.0):
    # channels_redis subscribes its channels again on its own once Redis is back
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if len(client.pubsub_channels()) >= count:
                return True
        except redis.exceptions.ConnectionError:
            pass
        time.sleep(0.1)
    return False


def test_the_first_broadcast_after_a_redis_restart_reaches_the_group(tmp_path):
    server = PrivateRedis(tmp_path)
    server.start()

    async def run():
        layer = RedisPubSubChannelLayer(hosts=[redis_layer_host(server.url)], prefix="restart")
        channel = await layer.new_channel()
        await layer.group_add("lobby", channel)
        await layer.group_send("lobby", {"type": "lobby.update", "frame": "before"})
        assert (await asyncio.wait_for(layer.receive(channel), 5))["frame"] == "before"
        subscribed = len(redis.Redis.from_url(server.url).pubsub_channels())
        pending = asyncio.ensure_future(layer.receive(channel))
        await asyncio.to_thread(server.restart, 1.0)
        assert await asyncio.to_thread(_subscribed_again, server.url, subscribed)
        await layer.group_send("lobby", {"type": "lobby.update", "frame": "after"})
        assert (await asyncio.wait_for(pending, 5))["frame"] == "after"
        await layer.flush()

    try:
        asyncio.run(run())
    finally:
        server.stop()
