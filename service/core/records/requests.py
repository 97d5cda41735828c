"""exportGameRecord as `GameService` answers it: which stored games have a portable record
(over, with its create options, under rules this release keeps) and its replay
(service/core/records/documents.py), on a thread of its own (asyncio.to_thread), at most
REPLAYS_AT_ONCE at once per process (`GameService.replays`). A record leaves signed when the
service has a signing key (signing.py), on the same thread. Records sent to be verified are
untrusted input of any shape: they are verified in child processes (service/api/edge/verifying.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec

from service.core.game.loaded_game import LoadedGame
from service.core.records import documents
from service.core.records.format import Unverifiable
from service.core.records.signing import Keyring, NotCanonical, Signer
from service.refusals import Code, Refused
from service.store import HistoryRecord, Record, RedisStore, UnreadableRecord, UpgradeInProgress

REPLAYS_AT_ONCE = 2


async def export(
    store: RedisStore, replays: asyncio.Semaphore, loaded: LoadedGame, keys: Keyring
) -> dict[str, Any]:
    """The portable record of `loaded`, read as its caller may read it, once it is over:
    signed by `keys.signer`, if any."""
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
    entries, _ = await store.read_history(game_id, 0, record.version)
    async with replays:
        try:
            return await asyncio.to_thread(_exported, game_id, record, entries, keys.signer)
        except Unverifiable as failed:  # the stored history does not replay
            raise UnreadableRecord(game_id, f"record: {failed.difference}") from None
        except NotCanonical as exc:  # a value JCS cannot write: no record of this service's
            raise UnreadableRecord(game_id, f"record: not signable: {exc}") from None


def _exported(
    game_id: str, record: Record, entries: list[HistoryRecord], signer: Signer | None
) -> dict[str, Any]:
    document: dict[str, Any] = msgspec.to_builtins(documents.export(game_id, record, entries))
    return document if signer is None else signer.sign(document)
