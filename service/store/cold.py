"""The archive of finished games as the store sees it (service/archive implements it): a game
Redis no longer holds, by id, and a listing's archived games, each as its Redis hash fields
(service/store/archived.py)."""

from __future__ import annotations

from typing import Protocol


class Cold(Protocol):
    async def load(self, game_id: str) -> dict[str, bytes] | None:
        """The game's hash fields as archived; None if the archive does not hold it. Raises
        StoreUnavailable when the archive does not answer."""
        ...

    async def listed(
        self,
        tenant: str,
        below: str | None,
        floor: str | None,
        count: int,
        kind: str | None = None,
        status: str | None = None,
        player_id: str | None = None,
    ) -> list[tuple[str, dict[str, bytes]]]:
        """Up to `count` archived games of `tenant` (and the filters given) whose index member
        (indexes.member) is below `below` and at or above `floor`, newest first: (member,
        fields)."""
        ...
