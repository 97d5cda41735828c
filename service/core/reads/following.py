"""One subscriber's versions of one game (gameEvents): every version after the last one it
was given, in order, each once, across broken event connections, Redis restarts and failovers.

The subscription is confirmed before the game is read, so a version committed after the read
arrives live and one committed before is in the read; versions already given are skipped.
Versions are consecutive, and every version before a game's last one is ACTIVE (nothing is
committed after an ending), so what a subscriber missed follows from the record alone: a
catch-up (`after`, a lost event connection) reads one record and no history, however far
behind the subscriber is. An event connection that broke (`RESYNC`) is followed by a read of
the game, and the versions committed meanwhile are given then.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

from service.core.access.callers import Caller, caller_of
from service.core.game.loaded_game import LoadedGame
from service.refusals import Code, Refused
from service.store import StoreUnavailable
from service.store.events import RESYNC, Subscriber

REREAD_ATTEMPTS = 5  # reads of a game after its event connection came back

# GameService.read and GameService.events, which a subscription is made of
Read = Callable[[str, Caller | str | None], Awaitable[LoadedGame]]
Events = Callable[[str, Callable[[], None]], AbstractAsyncContextManager[Subscriber]]


@dataclass(frozen=True)
class Version:
    version: int
    status: str  # ACTIVE, FINISHED or ABANDONED
    catching_up: bool = False  # a version the subscriber missed, with a newer one known


async def follow(
    read: Read,
    events_of: Events,
    game_id: str,
    caller: Caller | str | None,
    after: int | None,
    on_drop: Callable[[], None],
    subscribed: Callable[[], None],
) -> AsyncGenerator[Version, None]:
    """Every version after `after` (None: from the current one), then each new one as it is
    committed, until the game ends or is gone; `subscribed` is told once the game's channel
    is confirmed. OUT_OF_RANGE for an `after` the game has not reached (or below 0), or that
    a delayed spectator may not see yet."""
    async with events_of(game_id, on_drop) as events:
        subscribed()
        loaded = await read(game_id, caller)
        version, status = loaded.record.version, loaded.status()
        delay = loaded.delay  # fixed for the subscription: who the caller is does not change
        # the seat whose token this subscription rests on: reissuing it ends the subscription
        mine = loaded.viewer if caller_of(caller).token is not None else None
        del loaded  # a subscription lives long: it holds no record
        if after is None:
            after = version - 1
        elif not 0 <= after <= version:
            raise Refused(
                Code.OUT_OF_RANGE,
                f"afterVersion is 0 to {version} (the game's version) for this game, not {after}",
            )
        while True:
            for missed in range(after + 1, version + 1):
                yield Version(missed, status if missed == version else "ACTIVE", missed < version)
            after = max(after, version)
            if status != "ACTIVE":
                return  # nothing follows a game's end
            latest = await _latest(read, game_id, caller, events, delay, mine)
            if latest is None:
                return
            version, status = latest


async def _latest(
    read: Read,
    game_id: str,
    caller: Caller | str | None,
    events: Subscriber,
    delay: int,
    mine: int | None,
) -> tuple[int, str] | None:
    """The version and status of the next event, or of the game once the event connection
    came back (None: the game is gone). A reissue of the seat `mine` is checked with a read
    as the caller: the token it subscribed with is UNAUTHORIZED now, and the subscription ends
    with that refusal on every replica at once."""
    while True:
        data = await events.next()
        if data == RESYNC:
            reread = await _reread(read, game_id, caller)
            return None if reread is None else (reread.record.version, reread.status())
        version, status, reissued = _parsed(data)
        if reissued is None:
            if status == "ACTIVE":  # a game that ended is shown as it ended (the delay lifts)
                version = max(version - delay, 0)
            return version, status
        if reissued == mine:
            await read(game_id, caller)


def nothing() -> None:
    return None


@functools.lru_cache(maxsize=1024)
def _parsed(data: bytes) -> tuple[int, str, int | None]:
    """An event's version and status, or the seat whose token was reissued; parsed once per
    process: every local subscriber of a game is handed the same bytes."""
    event = json.loads(data)
    if "reissued" in event:
        return 0, "", int(event["reissued"])
    return int(event["version"]), str(event["status"]), None


async def _reread(read: Read, game_id: str, caller: Caller | str | None) -> LoadedGame | None:
    """The game after the event connection came back (None: it is gone). The pool may still
    hold connections that the outage broke, each failing once (commands are never retried
    blindly), so this read, safe to repeat, is tried a few times."""
    for attempt in range(REREAD_ATTEMPTS):
        try:
            return await read(game_id, caller)
        except StoreUnavailable:
            if attempt == REREAD_ATTEMPTS - 1:
                raise
            await asyncio.sleep(0.1 * (attempt + 1))
        except Refused as refused:
            if refused.code is Code.NOT_FOUND:
                return None
            raise
    return None
