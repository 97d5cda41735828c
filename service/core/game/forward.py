"""Games moved forward to newer rules (docs/architecture.md, "Rules versions"): a game created
under rules a release has since changed goes on under its own version, unless its history
replays to the very same state under the newest one; then it is played on under the newest,
from its next decision (the record's `rules` moves with the write). Judged once per game and
version, on a thread (a replay of the whole history), and remembered for the latest games.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

import msgspec

from service.engine import BadSetup, Game, IllegalMove
from service.engine import play as engine_play
from service.engine import start as engine_start
from service.engine.play import encode_state
from service.games import games
from service.store import HistoryRecord, Record, RedisStore

JUDGED_KEPT = 1024
_judged: OrderedDict[tuple[str, int], bool] = OrderedDict()


async def forward(store: RedisStore, game_id: str, record: Record) -> Record:
    """`record` under the newest rules of its kind if its history replays the same there,
    else as it is."""
    newest = games().get(record.kind)
    if newest is None or record.rules >= newest.rules_version or record.options is None:
        return record
    key = (game_id, record.version)
    same = _judged.get(key)
    if same is None:
        entries = await store.history(game_id, 0, record.version)
        same = await asyncio.to_thread(replays_the_same, newest, record, entries)
        _judged[key] = same
        while len(_judged) > JUDGED_KEPT:
            _judged.popitem(last=False)
    return msgspec.structs.replace(record, rules=newest.rules_version) if same else record


def replays_the_same(game: Game[Any, Any], record: Record, entries: list[HistoryRecord]) -> bool:
    """Whether `game` plays the decisions of `entries` from the record's seed to the record's
    state, byte for byte (a history with a takeback, or an ending, is not judged: no)."""
    try:
        played = engine_start(game, record.players, record.options, record.seed)
        state = played.state
        for entry in entries:
            if entry.takeback is not None or entry.move is None:
                return False
            if not entry.forced:
                state = engine_play(game, state, entry.seat, entry.move, copy=False).state
    except (IllegalMove, BadSetup):
        return False
    return encode_state(state) == record.state
