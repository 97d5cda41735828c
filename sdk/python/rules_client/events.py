"""A game's versions (and a player's matches) as they come, over a socket that may drop.

The subscription is made again after a cut (a network drop, a server restart, 4413
SLOW_CONSUMER, 4429) with `afterVersion` the last version seen, so the server sends what was
missed and then the live ones, none twice (docs/api.md, "Resuming"). Tries back off as calls
do (retry.py); `attempts` failures in a row without an event raise the last one. A refusal
(NOT_FOUND, BAD_USER_INPUT, UNAUTHORIZED, FORBIDDEN) raises at once: the stream never just ends
unless the server completed it, after the game's last version.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Callable
from typing import TypeVar, cast

import websockets

from ._engine import Engine, from_close, from_graphql, unreachable
from ._generated import GameEvent, GameEvents, MatchmakingStatus, PlayerEvents
from ._generated.exceptions import (
    GraphQLClientError,
    GraphQLClientGraphQLMultiError,
    GraphQLClientSocketClosed,
)
from .errors import RETRYABLE, ErrorCode, RulesError
from .retry import RetryPolicy

T = TypeVar("T")
# what a new socket may cure, beyond what a new request may
RESUMABLE = RETRYABLE | {
    ErrorCode.SLOW_CONSUMER,
    ErrorCode.TOO_MANY_SOCKETS,
    ErrorCode.TOO_MANY_SUBSCRIPTIONS,
}


async def follow(
    engine: Engine, game_id: str, after_version: int | None, retry: RetryPolicy
) -> AsyncGenerator[GameEvent, None]:
    """A game's versions after `after_version`, each once, across dropped sockets."""
    seen = after_version

    def stream() -> AsyncGenerator[GameEvents, None]:
        return cast(AsyncGenerator[GameEvents, None], engine.game_events(game_id, seen))

    async for event in resumed(stream, retry):
        seen = event.game_events.version
        yield event.game_events


async def follow_player(
    engine: Engine, player_id: str | None, retry: RetryPolicy
) -> AsyncGenerator[MatchmakingStatus, None]:
    """A player's matchmaking now, then each match; after a dropped socket, its status again."""

    def stream() -> AsyncGenerator[PlayerEvents, None]:
        return cast(AsyncGenerator[PlayerEvents, None], engine.player_events(player_id))

    async for event in resumed(stream, retry):
        yield event.player_events


async def resumed(
    subscribe: Callable[[], AsyncGenerator[T, None]], retry: RetryPolicy
) -> AsyncGenerator[T, None]:
    """What `subscribe()` yields, subscribing again after a cut; ends when the server completes
    the subscription, raises a refusal (or `attempts` failures in a row)."""
    failures = 0
    while True:
        try:
            stream = subscribe()
            async with contextlib.aclosing(stream):
                async for event in stream:
                    failures = 0
                    yield event
            return
        except RulesError as exc:
            failed = exc
        except GraphQLClientGraphQLMultiError as exc:
            failed = from_graphql(exc.errors[0].original or {"message": exc.errors[0].message})
        except GraphQLClientSocketClosed as exc:
            failed = from_close(exc.code, exc.reason)
        except websockets.ConnectionClosed as exc:
            failed = from_close(
                exc.rcvd.code if exc.rcvd else None, exc.rcvd.reason if exc.rcvd else None
            )
        except (OSError, TimeoutError, websockets.InvalidHandshake, GraphQLClientError) as exc:
            failed = unreachable(exc)
        failures += 1
        if failed.code not in RESUMABLE or failures >= retry.attempts:
            raise failed
        await asyncio.sleep(retry.delay(failures, failed.retry_after))
