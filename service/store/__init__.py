"""Game records in Redis: one hash per game, scripts that commit atomically, the lanes of
background work, the indexes and the event channels (docs/architecture.md, "Records and keys").

Its names load with the module that holds them, when first asked for: a record's Structs
(records.py) come without Redis's client, so `python -m service.replay` runs without redis-py."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

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


def __getattr__(name: str) -> object:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


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
