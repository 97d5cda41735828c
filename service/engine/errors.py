"""Typed rejections. The codes are the API's `RejectCode` values."""

from __future__ import annotations

from enum import StrEnum


class RejectCode(StrEnum):
    ILLEGAL_MOVE = "ILLEGAL_MOVE"
    MALFORMED_MOVE = "MALFORMED_MOVE"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    STALE_VERSION = "STALE_VERSION"
    GAME_OVER = "GAME_OVER"
    UNAUTHORIZED = "UNAUTHORIZED"
    NOT_FOUND = "NOT_FOUND"
    IDEMPOTENCY_KEY_REUSED = "IDEMPOTENCY_KEY_REUSED"  # the key came with another request


class IllegalMove(Exception):
    """A decision the rules do not allow now. Nothing has been changed when it is raised."""

    def __init__(
        self, code: RejectCode, message: str, reason: str | None = None, rule: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason  # ILLEGAL_MOVE only: why (explain.py), and the ruling it comes from
        self.rule = rule


class BadSetup(Exception):
    """createGame input the game cannot start from (player count, options)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
