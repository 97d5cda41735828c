"""Secondary indexes of a tenant's games, laid out for Redis Cluster (docs/reliability.md).

Five kinds of sorted set, all members scored 0 and ordered by their text
`<created ms, 15 digits>:<game id>` (newest last, so listings read them in reverse):

    ix:{bots-n}:t:<tenant>             every game of the tenant
    ix:{bots-n}:k:<tenant>:<kind>      the tenant's games of one kind
    ix:{bots-n}:s:<tenant>:<status>    the tenant's games by status (ACTIVE, FINISHED, ABANDONED)
    ix:{bots-n}:p:<tenant>:<player>    the games a player id sits in
    ix:{bots-n}:a:<tenant>:<player>    the games where that player must decide now

and, per lane and tenant, `clocks:{bots-n}:<tenant>`: the deadlines of the tenant's games with a
turn clock (member the game id, score the deadline), swept by the workers tenant by tenant in
turn (service/worker). The lane's own `clocks:{bots-n}` holds the deadlines written by earlier
releases: a commit removes the game's entry there (the sweep claims it until then).

`{bots-n}` is the hash tag of the game's lane (service/store/jobs.py): new game ids hash to a
lane's slot, so a game's record and its index entries share one slot and the commit script
updates them in the same atomic step as the move. A tenant's index is thus split into LANES
sorted sets; a listing reads the same range of each and merges them. Player ids are hashed
into the key (bounded length, any characters). An index key's TTL is pushed to the longest
game TTL at every write, so it outlives its newest game; members of games that expired are
dropped when a listing meets them.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib

from service.store.jobs import LANES, lane_of
from service.store.records import Record

MEMBER_DIGITS = 15
STATUSES = ("ACTIVE", "FINISHED", "ABANDONED")


def _tag(lane: int) -> str:
    return f"bots-{lane}"


def _player(player_id: str) -> str:
    return hashlib.sha256(player_id.encode()).hexdigest()[:32]


def tenant_key(lane: int, tenant: str) -> str:
    return f"ix:{{{_tag(lane)}}}:t:{tenant}"


def kind_key(lane: int, tenant: str, kind: str) -> str:
    return f"ix:{{{_tag(lane)}}}:k:{tenant}:{kind}"


def status_key(lane: int, tenant: str, status: str) -> str:
    return f"ix:{{{_tag(lane)}}}:s:{tenant}:{status}"


def player_key(lane: int, tenant: str, player_id: str) -> str:
    return f"ix:{{{_tag(lane)}}}:p:{tenant}:{_player(player_id)}"


def acting_key(lane: int, tenant: str, player_id: str) -> str:
    return f"ix:{{{_tag(lane)}}}:a:{tenant}:{_player(player_id)}"


def clock_key(lane: int, tenant: str) -> str:
    """`tenant`'s turn-clock deadlines in `lane`: member the game id, score its deadline (epoch
    s); the lane's own set (earlier releases' entries) for tenant ""."""
    return f"clocks:{{{_tag(lane)}}}:{tenant}" if tenant else f"clocks:{{{_tag(lane)}}}"


def member(game_id: str, record: Record) -> str:
    return f"{int(record.created * 1000):0{MEMBER_DIGITS}d}:{game_id}"


def game_of(member: str) -> str:
    return member.partition(":")[2]


def since(created_ms: int) -> str:
    """The lowest member of games created at or after `created_ms`."""
    return f"{created_ms:0{MEMBER_DIGITS}d}"


def updates(game_id: str, record: Record) -> tuple[list[str], str]:
    """The index keys a write of `record` touches and, per key, '+' (add) or '-' (remove).
    Nothing for games without a tenant (earlier releases: their ids may hash outside the lanes)."""
    if not record.tenant:
        return [], ""
    players = tuple(dict.fromkeys(p for p in record.player_ids if p is not None))
    keys = _keys(lane_of(game_id), record.tenant, record.kind, players, record.clock is not None)
    status = record.status()
    # the tenant and kind sets at every write (a game never changes kind; the write pushes
    # their TTL, and adds the games of earlier releases at their next write)
    flags = "++" + "".join("+" if s == status else "-" for s in STATUSES)
    acting = {record.player_ids[s] for s in record.acting if s < len(record.player_ids)}
    for player_id in players:
        flags += "+" + ("+" if player_id in acting and not record.finished else "-")
    if record.clock is not None:  # 'c': the deadline, scored; 'x': no deadline now
        flags += ("c" if record.deadline is not None else "x") + "x"  # 'x': the lane's own set
    return list(keys), flags


@functools.lru_cache(maxsize=4096)  # a game's keys stay the same from its first write on
def _keys(
    lane: int, tenant: str, kind: str, players: tuple[str, ...], clocked: bool
) -> tuple[str, ...]:
    keys = [tenant_key(lane, tenant), kind_key(lane, tenant, kind)]
    keys += [status_key(lane, tenant, s) for s in STATUSES]
    for player_id in players:
        keys += [player_key(lane, tenant, player_id), acting_key(lane, tenant, player_id)]
    if clocked:
        keys += [clock_key(lane, tenant), clock_key(lane, "")]
    return tuple(keys)


def lanes() -> range:
    return range(LANES)


def encode_cursor(member: str) -> str:
    return base64.urlsafe_b64encode(member.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> str | None:
    """The member a cursor names, or None when it is not one of ours."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    created, _, game_id = raw.partition(":")
    if len(created) != MEMBER_DIGITS or not created.isdigit() or not game_id.isascii():
        return None
    return raw
