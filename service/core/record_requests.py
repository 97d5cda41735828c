"""exportGameRecord and verifyGameRecord as `GameService` answers them: which stored games have
a portable record (over, with its create options, under this release's rules) and the replays
of service/core/game_records.py, CPU-bound, each on a thread of its own (asyncio.to_thread),
at most REPLAYS_AT_ONCE at once per process (`GameService.replays`) so the event loop goes on."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import msgspec

from service.core import game_records
from service.core.loaded import LoadedGame
from service.core.record_format import RecordVerification, Unverifiable
from service.refusals import Code, Refused
from service.store import UnreadableRecord, UpgradeInProgress

if TYPE_CHECKING:
    from service.core.service import GameService

REPLAYS_AT_ONCE = 2


async def export(service: GameService, loaded: LoadedGame) -> dict[str, Any]:
    """The portable record of `loaded`, read as its caller may read it, once it is over."""
    game_id, record, game = loaded.id, loaded.record, loaded.game
    if not record.finished:
        raise Refused(
            Code.GAME_NOT_OVER,
            "a game's record is given once the game is over: it reveals the seed",
            record.version,
        )
    if record.options is None:
        raise Refused(
            Code.OUT_OF_RANGE, "this game was created by an older release: it has no record"
        )
    if record.rules > game.rules_version:
        raise UpgradeInProgress(game_id, f"{record.kind} rules {record.rules}")
    if record.rules < game.rules_version:
        raise Refused(
            Code.RULES_CHANGED,
            f"this game was played under version {record.rules} of the rules of "
            f"{record.kind}, which this release no longer has: it cannot replay it",
        )
    entries, _ = await service.store.read_history(game_id, 0, record.version)
    async with service.replays:
        try:
            exported = await asyncio.to_thread(game_records.export, game_id, record, entries)
        except Unverifiable as failed:  # the stored history does not replay
            raise UnreadableRecord(game_id, f"record: {failed.difference}") from None
    document: dict[str, Any] = msgspec.to_builtins(exported)
    return document


async def verify(service: GameService, document: object) -> RecordVerification:
    """Whether a game record replays step by step to its result (game_records.verify),
    on this instance's engine alone: no stored game is read."""
    async with service.replays:
        return await asyncio.to_thread(game_records.verify, document)
