"""Game records in Redis: one hash per game, scripts that commit atomically, the lanes of
background work, the indexes and the event channels (docs/architecture.md, "Records and keys")."""

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
