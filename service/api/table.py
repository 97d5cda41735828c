"""One game as the service handles it, between the engine and the store: the Table a request
sees, the outcomes of a request (Applied, Rejected), what a decision does to the record
(advance), what a turn clock's timeout does (timeout_step, enforce_clock), and the helpers of
seats, tokens, tenants and bot seats. service/api/tables.py is the service built on them."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec

from service import metrics
from service.api import clocks
from service.api.folding import fold_finished
from service.api.parsing import seat_token
from service.bots import Strategy
from service.bots import suggest as bot_suggest
from service.engine import (
    Game,
    Played,
    RejectCode,
    Scores,
    games,
)
from service.engine import play as engine_play
from service.engine.play import Step, decode_state, encode_state
from service.engine.rng import seed_to_int
from service.store import FORMAT, HistoryRecord, Record, RedisStore
from service.store.records import Outcome
from service.webhooks.events import of_commit as webhook_events

MAX_TIMEOUTS = 64  # timeouts one read applies at most (a bank at 0 times out every decision)
DEFAULT_TENANT = "default"  # the tenant of every game when RULES_API_KEYS is not set


class Unauthorized(Exception):
    """A token was given but it is not a seat token of this game."""


class NoPastState(Exception):
    """A past version that cannot be answered: out of range, or a record without options."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class Table:
    """One game as loaded from the store, seen by one viewer (None: a spectator)."""

    id: str
    record: Record
    game: Game[Any, Any]
    viewer: int | None
    _state: Any = field(default=None, repr=False)
    _moves: list[Any] | None = field(default=None, repr=False)  # the viewer's, when known
    _to_act: list[int] | None = field(default=None, repr=False)

    @property
    def state(self) -> Any:
        if self._state is None:
            self._state = decode_state(self.game, self.record.state)
        return self._state

    @property
    def to_act(self) -> list[int]:  # kept as state is (cached_property takes a lock in 3.11)
        if self._to_act is None:
            # resigned, abandoned, timed out: nobody acts
            ended = self.record.outcome is not None
            self._to_act = [] if ended else self.game.to_act(self.state)
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
                "playerId": ids[seat] if own and seat < len(ids) else None,
                "bot": self.record.bots.get(seat),
            }
            for seat in range(self.record.players)
        ]

    def as_json(self, tenant: str | None = None) -> dict[str, Any]:
        """The game as REST returns it (player ids for the game's own `tenant`); the same
        fields GraphQL's `Game` offers."""
        return {
            "id": self.id,
            "kind": self.record.kind,
            "version": self.record.version,
            "status": self.status(),
            "players": self.record.players,
            "toAct": self.to_act,
            "viewer": self.viewer,
            "state": self.view(),
            "legalMoves": [{"move": m, "label": label} for m, label in self.legal_moves()],
            "scores": self.scores(),
            "seats": self.seats(tenant),
            "outcome": outcome_json(self.record.outcome),
            "seedCommitment": self.seed_commitment(),
            "seedReveal": self.seed_reveal(),
            "clock": clocks.clock_json(self.record),
        }


def seed_commitment(record: Record) -> str:
    """SHA-256 (hex) of the salt followed by the seed: fixed at create, checkable at the end."""
    return hashlib.sha256((record.salt + record.seed).encode()).hexdigest()


def outcome_json(outcome: Outcome | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {"reason": outcome.reason, "seat": outcome.seat, "winners": outcome.winners}


@dataclass(frozen=True)
class Applied:
    table: Table
    replayed: bool = False


@dataclass(frozen=True)
class Rejected:
    code: RejectCode
    message: str
    current_version: int | None = None
    reason: str | None = None  # ILLEGAL_MOVE: why, and the ruling (service/engine/explain.py)
    rule: str | None = None


def key_hash(secret: str) -> bytes:
    return hashlib.sha256(secret.encode()).digest()


def parse_api_keys(entries: tuple[str, ...]) -> list[tuple[str, bytes]]:
    """RULES_API_KEYS entries as (tenant id, sha256 of the secret). An entry is `id:secret`,
    or `id:sha256:<hex digest>` to keep only the hash at rest; an entry without an id (an
    earlier release's) is a tenant named by its hash's first 12 hex digits."""
    tenants = []
    for entry in entries:
        tenant, colon, secret = entry.partition(":")
        if not colon:
            digest = key_hash(entry)
            tenants.append((f"key-{digest.hex()[:12]}", digest))
        elif secret.startswith("sha256:"):
            tenants.append((tenant, bytes.fromhex(secret.removeprefix("sha256:"))))
        else:
            tenants.append((tenant, key_hash(secret)))
    return tenants


def acting(game: Game[Any, Any], state: Any) -> list[int]:
    """The seats the indexes list as owing a decision (none once the game is over)."""
    return [] if game.is_over(state) else game.to_act(state)


def new_token(seat: int) -> tuple[str, bytes]:
    secret = secrets.token_urlsafe(24)
    return f"{seat}.{secret}", key_hash(secret)


def seat_of(record: Record, token: str | None) -> int | None:
    """The seat `token` names in this game; None for no token; Unauthorized for a bad one."""
    if token is None:
        return None
    parsed = seat_token(token)
    if parsed is None or parsed[0] >= len(record.token_hashes):
        raise Unauthorized
    seat, secret = parsed
    if not hmac.compare_digest(record.token_hashes[seat], key_hash(secret)):
        raise Unauthorized
    return seat


def bot_seed(game_seed: str, version: int) -> int:
    """The seed of the bot decision taken at `version`: replays and retries agree."""
    return seed_to_int(f"{game_seed}:bots:{version}")


def bot_due(game: Game[Any, Any], state: Any, bots: dict[int, str]) -> int | None:
    """The bot seat that owes a decision now, if any (the first one: one job at a time)."""
    if not bots or game.is_over(state):
        return None
    return next((seat for seat in game.to_act(state) if seat in bots), None)


def fingerprint(game_id: str, seat: int, move: object, expected_version: int | None) -> str:
    """What an idempotency key remembers of its request: the same key with another request
    is refused (Stripe's rule), so a key never silently stands for two different moves."""
    request = msgspec.json.encode([game_id, seat, move, expected_version], order="sorted")
    return hashlib.sha256(request).hexdigest()[:32]


def history_entries(first_version: int, steps: list[Step]) -> list[HistoryRecord]:
    return [
        HistoryRecord(first_version + i, s.seat, msgspec.to_builtins(s.move), s.label, s.forced)
        for i, s in enumerate(steps, start=1)
    ]


def advance(
    record: Record, game: Game[Any, Any], played: Played, now: float | None = None
) -> tuple[Record, list[HistoryRecord]]:
    """The record after `played` and its history entries, ready for one commit (the turn
    clock charged to the seat that decided, if it was on the clock)."""
    now = time.time() if now is None else now
    new_record = msgspec.structs.replace(
        record,
        format=FORMAT,
        version=record.version + len(played.steps),
        finished=game.is_over(played.state),
        state=encode_state(played.state),
        updated=now,
        acting=acting(game, played.state),
    )
    decided = played.steps[0].seat if played.steps else None
    return clocks.charged(record, new_record, decided, now), history_entries(
        record.version, played.steps
    )


def timeout_step(
    record: Record, game: Game[Any, Any], now: float
) -> tuple[Record, list[HistoryRecord]]:
    """What the clock does to the seat on it when its time is up: FORFEIT ends the game
    (outcome TIMEOUT); AUTO_RANDOM / AUTO_GREEDY play that bot's move for it (seeded by the
    game's seed and version, so whoever applies it applies the same). Entries say TIMEOUT."""
    seat, clock = clocks.on_the_clock(record), record.clock
    assert seat is not None and clock is not None
    state = decode_state(game, record.state)
    version = record.version + 1
    if clock.on_timeout == "FORFEIT":
        outcome = Outcome("TIMEOUT", seat, best_of(game.scores(state), exclude=seat))
        ended = msgspec.structs.replace(
            record,
            format=FORMAT,
            version=version,
            finished=True,
            updated=now,
            acting=[],
            outcome=outcome,
            deadline=None,
        )
        label = f"seat {seat} ran out of time"
        return ended, [HistoryRecord(version, seat, None, label, event="TIMEOUT")]
    strategy: Strategy = "RANDOM" if clock.on_timeout == "AUTO_RANDOM" else "GREEDY"
    move = bot_suggest(
        game, state, seat, strategy, seed=seed_to_int(f"{record.seed}:timeout:{record.version}")
    )
    new_record, history = advance(
        record, game, engine_play(game, state, seat, msgspec.to_builtins(move)), now
    )
    first = history[0]
    history[0] = msgspec.structs.replace(first, label=f"timeout: {first.label}", event="TIMEOUT")
    return new_record, history


async def enforce_clock(
    store: RedisStore, game_id: str, record: Record, now: float | None = None
) -> Record | None:
    """The record once every timeout due by `now` is applied (each through the version-checked
    commit: a move or another sweeper that commits first wins, and this one reads again);
    None if the game is gone."""
    for _ in range(MAX_TIMEOUTS):
        at = time.time() if now is None else now
        if not clocks.due(record, at):
            return record
        game = games()[record.kind]
        new_record, history = timeout_step(record, game, at)
        new_state = decode_state(game, new_record.state)
        committed = await store.commit(
            game_id,
            record.version,
            new_record,
            history,
            None,
            bot_due=bot_due(game, new_state, record.bots) if not new_record.outcome else None,
            events=webhook_events(game_id, record, new_record, history),
        )
        if committed.outcome == "ok":
            metrics.CLOCK_TIMEOUTS.labels(record.kind, record.clock.on_timeout).inc()  # type: ignore[union-attr]
            if new_record.outcome is not None:
                metrics.GAMES_ENDED.labels(record.kind, "TIMEOUT").inc()
            if new_record.finished:
                await fold_finished(store, game_id, new_record)
            record = new_record
            continue
        reloaded, _ = await store.load(game_id)
        if reloaded is None:
            return None
        record = reloaded
    return record


def ended(record: Record) -> Rejected:
    assert record.outcome is not None
    return Rejected(
        RejectCode.GAME_OVER,
        f"the game is over ({record.outcome.reason.lower()})",
        record.version,
    )


def best_of(scores: Scores, exclude: int) -> list[int]:
    """The seats other than `exclude` with the most points now (all of them on a tie)."""
    others = [entry for entry in scores.entries if entry.seat != exclude]
    top = max((entry.points for entry in others), default=0)
    return sorted(entry.seat for entry in others if entry.points == top)
