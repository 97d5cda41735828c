"""Persistence of game records in Redis (DESIGN.md, "Storage")."""

from service.store.records import FORMAT, HistoryRecord, Record
from service.store.redis_store import Committed, Done, RedisStore, StoreUnavailable, connect

__all__ = [
    "FORMAT",
    "Committed",
    "Done",
    "HistoryRecord",
    "Record",
    "RedisStore",
    "StoreUnavailable",
    "connect",
]
