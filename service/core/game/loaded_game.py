"""One game as loaded from the store and seen by one viewer: what every answer about a game is
read from (views, legal moves, scores, seats, clock, seed commitment)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from service.core.access.players import is_player_id, open_seats
from service.engine import Game, Scores
from service.engine.play import decode_state
from service.engine.texts import Said
from service.store import Record
from service.store.records import Outcome


@dataclass
class LoadedGame:
    """One game as loaded from the store, seen by one viewer (None: a spectator)."""

    id: str
    record: Record
    game: Game[Any, Any]
    viewer: int | None
    _state: Any = field(default=None, repr=False)
    _moves: list[Any] | None = field(default=None, repr=False)  # the viewer's, when known
    _to_act: list[int] | None = field(default=None, repr=False)
    # the versions this viewer is kept behind the live game (a delayed spectator:
    # keys.spectator_delay); `record` is then the game as of that earlier version; 0: live
    delay: int = 0

    @property
    def state(self) -> Any:
        if self._state is None:
            self._state = decode_state(self.game, self.record.state)
        return self._state

    @property
    def to_act(self) -> list[int]:  # kept as state is (cached_property takes a lock in 3.11)
        if self._to_act is None:
            # resigned, abandoned, timed out, or still waiting for players: nobody acts
            record = self.record
            idle = record.outcome is not None or (not record.finished and bool(open_seats(record)))
            self._to_act = [] if idle else self.game.to_act(self.state)
        return self._to_act

    # Views, moves and scores stay msgspec Structs: the JSON encoder writes them directly.
    def view(self) -> Any:
        return self.game.view(self.state, self.viewer)

    def legal_moves(self) -> list[tuple[Any, str]]:
        if self.viewer is None or self.viewer not in self.to_act:
            return []
        moves = self._moves
        if moves is None:
            moves = self.game.legal_moves(self.state, self.viewer)
        return [(m, self.game.label(self.state, self.viewer, m)) for m in moves]

    def said_moves(self) -> list[tuple[Any, str, Said]]:
        """`legal_moves` with each label's catalog key and values too (what `label_message`
        says): an answer with both works each label out once."""
        if self.viewer is None or self.viewer not in self.to_act:
            return []
        moves = self._moves
        if moves is None:
            moves = self.game.legal_moves(self.state, self.viewer)
        game, state, seat, texts = self.game, self.state, self.viewer, self.game.texts
        said_moves = []
        for move in moves:
            key, values = game.label_said(state, seat, move)
            said_moves.append((move, texts.text(key, values), (key, values)))
        return said_moves

    def scores(self) -> Scores:
        return self.game.scores(self.state)

    def status(self) -> str:
        return self.record.status()

    def outcome(self) -> Outcome | None:
        return self.record.outcome

    def seed_commitment(self) -> str:
        return seed_commitment(self.record)

    def seed_reveal(self) -> dict[str, Any] | None:
        """The seed, salt and create options once the game is over (never before: they would
        tell every shuffle to come), so anyone can replay it from its history."""
        if not self.record.finished:
            return None
        options = self.record.options if self.record.options is not None else {}
        return {"seed": self.record.seed, "salt": self.record.salt, "options": options}

    def seats(self, tenant: str | None) -> list[dict[str, Any]]:
        """Each seat with its bot strategy and, for the game's own tenant only, its player id."""
        own = tenant is not None and tenant == self.record.tenant
        ids = self.record.player_ids
        return [
            {
                "seat": seat,
                "playerId": ids[seat]
                if own and seat < len(ids) and is_player_id(ids[seat])
                else None,
                "bot": self.record.bots.get(seat),
            }
            for seat in range(self.record.players)
        ]


def acting(game: Game[Any, Any], state: Any) -> list[int]:
    """The seats the indexes list as owing a decision (none once the game is over)."""
    return [] if game.is_over(state) else game.to_act(state)


def seed_commitment(record: Record) -> str:
    """SHA-256 (hex) of the salt followed by the seed: fixed at create, checkable at the end."""
    return hashlib.sha256((record.salt + record.seed).encode()).hexdigest()


@dataclass(frozen=True)
class Applied:
    """A decision committed (or, `replayed`, the first answer to a retried idempotency key)."""

    game: LoadedGame
    replayed: bool = False
