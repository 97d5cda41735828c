"""Following a game in-process (service/core/reads/following.py) while moves are made through the
game service, also across a store outage: for the tests of gameEvents' guarantees."""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from collections.abc import AsyncIterator

import msgspec

from service.core import GameService
from service.refusals import Code, Refused
from tests.support.waiting import until


async def play(service: GameService, game_id: str, tokens: dict[int, str], seed: str) -> int:
    """One random legal move by the seat to act, with its expected version and a key, sent
    again with the same key while the store is away; the version it made."""
    chooser, key = random.Random(seed), secrets.token_hex(8)

    async def applied() -> int | None:
        try:
            loaded = await service.read(game_id, None)
            seat = loaded.to_act[0]
            move = chooser.choice(loaded.game.legal_moves(loaded.state, seat))
            done = await service.apply(
                game_id, tokens[seat], msgspec.to_builtins(move), loaded.record.version, key
            )
        except Refused as refused:
            if refused.code is not Code.UNAVAILABLE:
                raise
            return None
        return done.game.record.version

    version: int = await until(applied, f"a move of {game_id} accepted", 180)
    return version


@contextlib.asynccontextmanager
async def following(
    service: GameService, game_id: str, after: int | None
) -> AsyncIterator[list[int]]:
    """The versions one subscriber is given, as they come."""
    seen: list[int] = []

    async def collect() -> None:
        async for event in service.follow(game_id, None, after, lambda: None):
            seen.append(event.version)

    task = asyncio.create_task(collect())
    try:
        yield seen
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
