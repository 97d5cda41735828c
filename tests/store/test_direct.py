"""The hot path's own Redis connections (service/store/direct.py): replies in order, an error
reply that leaves the connection usable, a connection the server closed while idle reconnected,
an interrupted or timed-out command's connection never reused, and the bound on connections."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeout

from service.settings import Settings
from service.store import connect
from service.store.direct import DirectConnections, pack
from tests.support.waiting import until


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[Redis]:
    redis = connect(Settings(), redis_url)
    if not isinstance(redis, Redis):  # the cluster pass: a cluster's commands go through redis-py
        await redis.aclose()
        pytest.skip("direct connections serve one server only")
    yield redis
    await redis.aclose()


def test_strings_are_packed_as_utf_8_and_ints_as_decimals() -> None:
    assert pack([("SET", "ключ", 12), ("GET", b"k")]) == (
        b"*3\r\n$3\r\nSET\r\n$8\r\n\xd0\xba\xd0\xbb\xd1\x8e\xd1\x87\r\n$2\r\n12\r\n"
        b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n"
    )
    with pytest.raises(UnicodeEncodeError):  # as redis-py's strict encoder refuses it
        pack([("GET", "\ud800")])


async def test_replies_come_in_order_and_an_error_reply_leaves_the_connection_usable(
    client: Redis,
) -> None:
    direct = DirectConnections(client.connection_pool, 1, 5.0)
    key = f"direct:{secrets.token_hex(4)}"
    try:
        replies = await direct.execute([("SET", key, "v"), ("GET", key), ("EXISTS", "no:" + key)])
        assert replies == [b"OK", b"v", 0]
        with pytest.raises(ResponseError, match="WRONGTYPE"):
            await direct.execute([("HGET", key, "f"), ("GET", key)])
        assert await direct.execute([("GET", key), ("STRLEN", key)]) == [b"v", 1]
        assert len(direct.idle) == 1, "one connection served all three"
    finally:
        await direct.close()
        await client.delete(key)


async def test_a_connection_the_server_closed_while_idle_is_reconnected(client: Redis) -> None:
    direct = DirectConnections(client.connection_pool, 1, 5.0)
    try:
        (first,) = await direct.execute([("CLIENT", "ID")])
        await client.execute_command("CLIENT", "KILL", "ID", first)
        idle = direct.idle[0]

        async def closed() -> bool:
            return idle._reader is None or idle._reader.at_eof()

        await until(closed, "the closed connection to be seen")
        (second,) = await direct.execute([("CLIENT", "ID")])
        assert second != first
    finally:
        await direct.close()


async def test_an_interrupted_command_closes_its_connection(client: Redis) -> None:
    direct = DirectConnections(client.connection_pool, 1, 5.0)
    key = f"direct:{secrets.token_hex(4)}"
    try:
        blocked = asyncio.create_task(direct.execute([("BLPOP", key, 30)]))

        async def waiting() -> bool:
            return b"cmd=blpop" in await client.execute_command("CLIENT", "LIST")

        await until(waiting, "the BLPOP to block")
        blocked.cancel()
        with pytest.raises(asyncio.CancelledError):
            await blocked

        async def gone() -> bool:  # the close reaches the server a moment after the cancel
            return not await waiting()

        await until(gone, "the server to drop the cancelled BLPOP's connection")
        await client.rpush(key, "x")
        # the cancelled BLPOP's connection is gone, so nothing pops the value or reads its reply
        assert await direct.execute([("LLEN", key), ("PING",)]) == [1, b"PONG"]
    finally:
        await direct.close()
        await client.delete(key)


async def test_a_read_that_times_out_is_redis_timeout_and_closes_its_connection(
    redis_url: str,
) -> None:
    quick = connect(Settings(redis_timeout=0.2), redis_url)  # redis-py's read timeout
    if not isinstance(quick, Redis):
        await quick.aclose()
        pytest.skip("direct connections serve one server only")
    direct = DirectConnections(quick.connection_pool, 1, 5.0)
    key = f"direct:{secrets.token_hex(4)}"
    try:
        with pytest.raises(RedisTimeout, match="Timeout reading from socket"):
            await direct.execute([("BLPOP", key, 30)])

        async def gone() -> bool:
            return b"cmd=blpop" not in await quick.execute_command("CLIENT", "LIST")

        await until(gone, "the server to drop the timed-out BLPOP's connection")
        await quick.rpush(key, "x")
        assert await direct.execute([("LLEN", key)]) == [1]
    finally:
        await direct.close()
        await quick.delete(key)
        await quick.aclose()


async def test_at_most_size_connections_and_a_wait_bounded_by_the_timeout(client: Redis) -> None:
    direct = DirectConnections(client.connection_pool, 1, 0.3)
    key = f"direct:{secrets.token_hex(4)}"
    try:
        blocked = asyncio.create_task(direct.execute([("BLPOP", key, 30)]))
        await asyncio.sleep(0)  # the BLPOP holds the only connection
        with pytest.raises(ConnectionError, match="No connection available"):
            await direct.execute([("PING",)])
        await client.rpush(key, "x")
        assert await blocked == [[key.encode(), b"x"]]
        assert await direct.execute([("PING",)]) == [b"PONG"]
    finally:
        await direct.close()
        await client.delete(key)
