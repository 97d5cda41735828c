"""Games a worker set aside (docs/reliability.md "Unreadable records").

A bot job or a turn clock whose game fails to decode or to play is not retried in a loop: the
worker sets the game aside, one hash per lane in the lane's slot (so it works on Redis
Cluster), game id -> why, when, and by which loop:

    quarantine:{bots-n}  hash: game id -> JSON {"loop": "job" | "clock", "reason": ..., "at": ...}

The job is acknowledged and the game's deadline removed from its tenant's clocks
(`clocks:{bots-n}:<tenant>`), so neither loop meets it again. An operator lists them and
retries one (`python -m service.worker quarantine list|retry <game id>`,
service/worker/quarantine.py); a retried game that still fails comes back here with its reason.
"""

from __future__ import annotations

import time
from typing import Any

import msgspec

from service.store.jobs import LANES, lane_of

REASON_LENGTH = 300  # characters of a reason kept


class Quarantined(msgspec.Struct, frozen=True):
    loop: str  # "job" or "clock"
    reason: str
    at: float  # epoch seconds


def quarantine_key(lane: int) -> str:
    return f"quarantine:{{bots-{lane}}}"


async def set_aside(redis: Any, game_id: str, loop: str, reason: str) -> None:
    entry = Quarantined(loop, reason[:REASON_LENGTH], time.time())
    await redis.hset(quarantine_key(lane_of(game_id)), game_id, msgspec.json.encode(entry))


async def listed(redis: Any) -> list[tuple[str, Quarantined]]:
    """Every game set aside, oldest first."""
    found = []
    for lane in range(LANES):
        for game_id, raw in (await redis.hgetall(quarantine_key(lane))).items():
            found.append((game_id.decode(), msgspec.json.decode(raw, type=Quarantined)))
    return sorted(found, key=lambda item: item[1].at)


async def take(redis: Any, game_id: str) -> bool:
    """The game no longer set aside; False if it was not."""
    return bool(await redis.hdel(quarantine_key(lane_of(game_id)), game_id))
