"""The webhook outboxes the commit scripts write (service/webhooks reads them): one stream per
tenant and lane, in the lane's slot so a game's commit can append to it atomically, written
only while the tenant's switch key exists (it has an enabled endpoint)."""

from __future__ import annotations

OUTBOX_MAX = 100_000  # entries an outbox stream keeps (per tenant and lane) if no worker reads


def outbox_key(lane: int, tenant: str) -> str:
    return f"wh:{{bots-{lane}}}:o:{tenant}"


def enabled_key(lane: int, tenant: str) -> str:
    return f"wh:{{bots-{lane}}}:on:{tenant}"
