"""The engine's refusals: a decision the rules refuse (with a code of the service's one
vocabulary, service/refusals.py) and create input no game can start from."""

from __future__ import annotations

from service.engine.texts import Message
from service.refusals import Code


class IllegalMove(Exception):
    """A decision the rules do not allow now. Nothing has been changed when it is raised."""

    def __init__(
        self,
        code: Code,
        message: str,
        reason: str | None = None,
        rule: str | None = None,
        localized: Message | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason  # ILLEGAL_MOVE only: why (explain.py), and the ruling it comes from
        self.rule = rule
        self.localized = localized  # `message` as a message of a catalog


class BadSetup(Exception):
    """createGame input the game cannot start from (player count, options)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
