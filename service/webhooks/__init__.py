"""Webhooks: signed, retried, at-least-once events to a tenant's backend (docs/webhooks.md)."""
