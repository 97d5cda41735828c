"""Listing a tenant's games (issue 19): pages, newest first, over the per-lane indexes.

The index that fits the filter answers for the tenant and one player or status; the other
filters are checked on the records. docs/reliability.md explains the keys on a Redis Cluster.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.core.loaded import LoadedGame
from service.games import games
from service.refusals import Code, Refused
from service.store import Record, RedisStore, indexes

MAX_PLAYER_ID = 128  # characters of an app's own user id (createGame's playerIds)
MAX_PAGE = 100
MAX_SCAN = 1000  # index entries one listing request reads at most (filters may skip many)


@dataclass(frozen=True)
class GameFilter:
    status: str | None = None  # "ACTIVE" or "FINISHED"
    kind: str | None = None
    player_id: str | None = None
    to_act_player_id: str | None = None
    created_after: float | None = None  # epoch seconds


@dataclass(frozen=True)
class Page:
    games: list[tuple[str, LoadedGame]]  # (cursor, game) newest first
    end_cursor: str | None  # where the next page starts (may be past the last game: filters)
    has_next: bool


async def list_games(
    store: RedisStore, tenant: str, only: GameFilter, first: int, after: str | None
) -> Page:
    """A page of the tenant's games, newest first, from the index that fits the filter; the
    other filters are checked on the records (reading at most MAX_SCAN index entries)."""
    if not 0 < first <= MAX_PAGE:
        raise Refused(Code.OUT_OF_RANGE, f"first must be 1 to {MAX_PAGE}")
    below = None if after is None else indexes.decode_cursor(after)
    if after is not None and below is None:
        raise Refused(Code.OUT_OF_RANGE, "after must be a cursor this listing returned")
    for player in (only.player_id, only.to_act_player_id):
        if player is not None and not 0 < len(player) <= MAX_PLAYER_ID:
            raise Refused(Code.OUT_OF_RANGE, f"a playerId has 1 to {MAX_PLAYER_ID} characters")
    keys = [_index_key(lane, tenant, only) for lane in indexes.lanes()]
    floor = None
    if only.created_after is not None:
        floor = indexes.since(max(int(only.created_after * 1000) + 1, 0))
    found: list[tuple[str, LoadedGame]] = []
    scanned, cursor = 0, below
    while scanned < MAX_SCAN:
        batch = await store.listed(keys, cursor, floor, first + 1)
        records = await store.records([indexes.game_of(m) for m, _ in batch])
        await store.unlist([e for e, r in zip(batch, records, strict=True) if r is None])
        for (member, _), record in zip(batch, records, strict=True):
            scanned += 1
            cursor = member
            if isinstance(record, Record) and _matches(record, tenant, only):
                loaded = LoadedGame(indexes.game_of(member), record, games()[record.kind], None)
                found.append((indexes.encode_cursor(member), loaded))
                if len(found) == first:
                    return Page(found, found[-1][0], True)
        if len(batch) <= first:
            return Page(found, found[-1][0] if found else None, False)
    return Page(found, indexes.encode_cursor(cursor) if cursor else None, True)


def _index_key(lane: int, tenant: str, only: GameFilter) -> str:
    if only.to_act_player_id is not None:
        return indexes.acting_key(lane, tenant, only.to_act_player_id)
    if only.player_id is not None:
        return indexes.player_key(lane, tenant, only.player_id)
    if only.status is not None:
        return indexes.status_key(lane, tenant, only.status)
    return indexes.tenant_key(lane, tenant)


def _matches(record: Record, tenant: str, only: GameFilter) -> bool:
    """The checks the chosen index does not make (it answers for the tenant and one player)."""
    return (
        record.tenant == tenant
        and (only.status is None or only.status == record.status())
        and (only.kind is None or only.kind == record.kind)
        and (only.player_id is None or only.player_id in record.player_ids)
        and (
            only.to_act_player_id is None
            or any(record.player_ids[s] == only.to_act_player_id for s in record.acting)
        )
    )
