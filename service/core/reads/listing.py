"""Listing a tenant's games: pages, newest first, over the per-lane indexes.

The index of the most selective filter (player > kind > status > the tenant's) answers for
the tenant and that filter; the other filters are checked on the records. A request sends at
most `budget(first)` Redis commands whatever the filters: when they skip too many
entries the page ends early, with a cursor to go on from. docs/reliability.md explains the
keys and the cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from service.core.game.creation import MAX_PLAYER_ID
from service.core.game.loaded_game import LoadedGame
from service.games import game_for
from service.refusals import Code, Refused
from service.store import Record, RedisStore, UnreadableRecord, indexes
from service.store.reading import decode_record, with_reissued

MAX_PAGE = 100
LANE_READ = 16  # index entries read from a lane key at least (short members: one command)


def budget(first: int) -> int:
    """The Redis commands one request sends at most: every lane key read once, then the page's
    records, and as much again for lanes read anew, skipped entries and expired games dropped."""
    lanes = len(indexes.lanes())
    return lanes + 2 * (lanes + first)


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


ARCHIVE = "archive"  # the key of the lane of archived games (RedisStore.cold)


@dataclass
class _Lane:
    """One lane's key of the chosen index (or the archive's lane): the entries read from it
    and not yet taken."""

    key: str
    below: str | None  # the oldest member read so far: the next read starts below it
    members: list[str] = field(default_factory=list)  # newest first
    done: bool = False  # its last read came back short: nothing older is left
    fields: dict[str, dict[str, bytes]] = field(default_factory=dict)  # archived, by member


async def list_games(
    store: RedisStore, tenant: str, only: GameFilter, first: int, after: str | None
) -> Page:
    """A page of the tenant's games, newest first: the lanes of the chosen index merged, the
    other filters checked on the records, within `budget(first)` Redis commands."""
    if not 0 < first <= MAX_PAGE:
        raise Refused(Code.OUT_OF_RANGE, f"first must be 1 to {MAX_PAGE}")
    below = None if after is None else indexes.decode_cursor(after)
    if after is not None and below is None:
        raise Refused(Code.OUT_OF_RANGE, "after must be a cursor this listing returned")
    for player in (only.player_id, only.to_act_player_id):
        if player is not None and not 0 < len(player) <= MAX_PLAYER_ID:
            raise Refused(Code.OUT_OF_RANGE, f"a playerId has 1 to {MAX_PLAYER_ID} characters")
    lanes = [_Lane(_index_key(lane, tenant, only), below) for lane in indexes.lanes()]
    # games that left Redis for the archive: one more lane, merged in the same order (nobody
    # acts in a finished game: not for a toActPlayerId filter)
    if store.cold is not None and only.to_act_player_id is None:
        lanes.append(_Lane(ARCHIVE, below))
    floor = None
    if only.created_after is not None:
        floor = indexes.since(max(int(only.created_after * 1000) + 1, 0))
    # the index answers one of these filters; with more, entries may be skipped: read the
    # records in growing batches rather than a page's worth at a time
    exact = (
        sum(f is not None for f in (only.status, only.kind, only.player_id, only.to_act_player_id))
        <= 1
    )
    found: list[tuple[str, LoadedGame]] = []
    left, scanned, cursor = budget(first), 0, below  # cursor: the last entry scanned
    while True:
        empty = [lane for lane in lanes if not lane.members and not lane.done]
        if len(empty) > left:
            break
        if empty:
            count = max(first + 1, LANE_READ)
            await _read(store, tenant, only, empty, floor, count)
            left -= len(empty)
        if all(lane.done and not lane.members for lane in lanes):
            return Page(found, found[-1][0] if found else None, False)
        need = first - len(found)
        batch = _newest(lanes, min(left, need if exact else max(need, scanned)))
        if not batch:
            break
        records = await _records(store, lanes, batch)
        left, scanned = left - len(batch), scanned + len(batch)
        gone = [e for e, r in zip(batch, records, strict=True) if r is None and e[1] != ARCHIVE]
        gone = gone[:left]
        await store.unlist(gone)
        left -= len(gone)
        for taken, ((member, _), record) in enumerate(zip(batch, records, strict=True), 1):
            cursor = member
            if isinstance(record, Record) and _matches(record, tenant, only):
                loaded = LoadedGame(
                    indexes.game_of(member), record, game_for(record.kind, record.rules), None
                )
                found.append((indexes.encode_cursor(member), loaded))
                if len(found) == first:
                    # a page that ends with the last entry has no next page
                    more = taken < len(batch) or any(
                        lane.members or not lane.done for lane in lanes
                    )
                    return Page(found, found[-1][0], more)
    # the budget is spent: every lane's entries newer than `cursor` were scanned
    return Page(found, indexes.encode_cursor(cursor) if cursor else None, True)


async def _read(
    store: RedisStore,
    tenant: str,
    only: GameFilter,
    empty: list[_Lane],
    floor: str | None,
    count: int,
) -> None:
    """The next entries of the `empty` lanes: the index lanes' in one pipeline, the archive's
    from the archive."""
    redis = [lane for lane in empty if lane.key != ARCHIVE]
    reads = await store.listed([(lane.key, lane.below) for lane in redis], floor, count)
    for lane, members in zip(redis, reads, strict=True):
        lane.members, lane.done = members, len(members) < count
        lane.below = members[-1] if members else lane.below
    for lane in empty:
        if lane.key == ARCHIVE and store.cold is not None:
            found = await store.cold.listed(
                tenant, lane.below, floor, count, only.kind, only.status, only.player_id
            )
            lane.members, lane.done = [member for member, _ in found], len(found) < count
            lane.fields = dict(found)
            lane.below = found[-1][0] if found else lane.below


async def _records(
    store: RedisStore, lanes: list[_Lane], batch: list[tuple[str, str]]
) -> list[Record | UnreadableRecord | None]:
    """The records of `batch`: from Redis, and from the archive's lane for archived games."""
    from_redis = iter(await store.records([indexes.game_of(m) for m, k in batch if k != ARCHIVE]))
    archived = next((lane.fields for lane in lanes if lane.key == ARCHIVE), {})
    records: list[Record | UnreadableRecord | None] = []
    for member, key in batch:
        if key != ARCHIVE:
            records.append(next(from_redis))
            continue
        game_id, fields = indexes.game_of(member), archived.pop(member)
        try:
            records.append(
                with_reissued(game_id, decode_record(game_id, fields["r"]), fields.get("t"))
            )
        except UnreadableRecord as unreadable:
            records.append(unreadable)
    return records


def _newest(lanes: list[_Lane], count: int) -> list[tuple[str, str]]:
    """Up to `count` (member, key) taken newest first across the lanes, while every lane that
    may hold a newer entry has one read (else the merge would skip it). A game in Redis and in
    the archive (archived, not dropped yet) is taken once, from Redis."""
    taken: list[tuple[str, str]] = []
    while len(taken) < count and all(lane.members or lane.done for lane in lanes):
        live = [lane for lane in lanes if lane.members]
        if not live:
            break
        member = max(lane.members[0] for lane in live)
        twins = [lane for lane in live if lane.members[0] == member]
        for lane in twins:
            lane.members.pop(0)
        for lane in twins[1:]:  # the archive's copy of a game still in Redis
            lane.fields.pop(member, None)
        taken.append((member, twins[0].key))
    return taken


def _index_key(lane: int, tenant: str, only: GameFilter) -> str:
    if only.to_act_player_id is not None:
        return indexes.acting_key(lane, tenant, only.to_act_player_id)
    if only.player_id is not None:
        return indexes.player_key(lane, tenant, only.player_id)
    if only.kind is not None:
        return indexes.kind_key(lane, tenant, only.kind)
    if only.status is not None:
        return indexes.status_key(lane, tenant, only.status)
    return indexes.tenant_key(lane, tenant)


def _matches(record: Record, tenant: str, only: GameFilter) -> bool:
    """Every filter but the creation time, checked on the record (the chosen index answers
    for one of them)."""
    return (
        record.tenant == tenant
        and (only.status is None or only.status == record.status())
        and (only.kind is None or only.kind == record.kind)
        and (only.player_id is None or only.player_id in record.player_ids)
        and acts(record, only)
    )


def acts(record: Record, only: GameFilter) -> bool:
    """The `toActPlayerId` filter, checked on the record (as a spectator sees it, too)."""
    return only.to_act_player_id is None or any(
        record.player_ids[s] == only.to_act_player_id for s in record.acting
    )
