"""Game records in Redis: one hash per game, scripts that commit atomically, the lanes of
background work, the indexes and the event channels (docs/architecture.md, "Records and keys").

Its names load with the module that holds them, when first asked for: a record's Structs
(records.py) come without Redis's client, so `python -m service.replay` runs without redis-py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.lazy import lazy_names

if TYPE_CHECKING:
    from service.store.connection import (
        Client,
        NotReplicated,
        StoreUnavailable,
        UnreadableRecord,
        UpgradeInProgress,
        connect,
    )
    from service.store.records import FORMAT, HistoryRecord, Record
    from service.store.redis_store import Committed, Done, RedisStore

_MODULES = {
    **dict.fromkeys(
        ("Client", "NotReplicated", "StoreUnavailable", "UnreadableRecord", "UpgradeInProgress"),
        "connection",
    ),
    "connect": "connection",
    **dict.fromkeys(("FORMAT", "HistoryRecord", "Record"), "records"),
    **dict.fromkeys(("Committed", "Done", "RedisStore"), "redis_store"),
}


__getattr__ = lazy_names(__name__, _MODULES)

__all__ = [
    "FORMAT",
    "Client",
    "Committed",
    "Done",
    "HistoryRecord",
    "NotReplicated",
    "Record",
    "RedisStore",
    "StoreUnavailable",
    "UnreadableRecord",
    "UpgradeInProgress",
    "connect",
]
