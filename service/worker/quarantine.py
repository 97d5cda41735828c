"""`python -m service.worker quarantine list | retry <game id>`: the games the workers set
aside (service/store/quarantine.py), listed, or one given back to the loops once its record
was repaired or the release that reads it deployed (docs/reliability.md, "Unreadable records").
"""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime

from service.core.moves.decisions import bot_due
from service.engine.play import decode_state
from service.games import game_for
from service.settings import Settings
from service.store import RedisStore, StoreUnavailable, connect
from service.store.quarantine import listed, set_aside, take

USAGE = "usage: python -m service.worker quarantine list | retry <game id>"


async def retry(store: RedisStore, game_id: str) -> str:
    """The game's clock and its due bot turn back to the workers, and what was done; a game
    that still fails stays set aside with the new reason."""
    seat = None
    try:
        record, _ = await store.load(game_id)
        if record is not None and not record.finished:
            game = game_for(record.kind, record.rules)
            seat = bot_due(game, decode_state(game, record.state), record.bots)
    except StoreUnavailable:
        raise
    except Exception as exc:
        reason = f"retried: {exc}"
        await set_aside(store.redis, game_id, "retry", reason)
        return f"still set aside: {reason}"
    await take(store.redis, game_id)
    if record is None or record.finished:
        return "released (the game expired or is over)"
    if record.deadline is not None:
        await store.reclock(game_id, record.tenant, record.deadline)
    if seat is not None:
        await store.requeue(game_id, record.tenant, record.version, seat, every=1.0)
    return "released to the workers"


async def run(settings: Settings, redis_url: str, argv: list[str]) -> int:
    store = RedisStore(connect(settings, redis_url), settings)
    try:
        if argv == ["list"]:
            for game_id, entry in await listed(store.redis):
                at = datetime.fromtimestamp(entry.at, UTC).isoformat(timespec="seconds")
                print(f"{game_id}\t{entry.loop}\t{at}\t{entry.reason}")
            return 0
        if len(argv) == 2 and argv[0] == "retry":
            print(f"{argv[1]}: {await retry(store, argv[1])}")
            return 0
        print(USAGE, file=sys.stderr)
        return 2
    finally:
        await store.close()


def main(argv: list[str]) -> int:
    settings = Settings.from_env()
    if settings.redis_url is None:
        print("REDIS_URL is not set: it names the Redis of the workers", file=sys.stderr)
        return 2
    return asyncio.run(run(settings, settings.redis_url, argv))
