"""Rules: the same client without asyncio, for scripts, notebooks and threaded servers.

Each Rules runs an AsyncRules on an event loop of its own, in a thread (anyio's blocking
portal), and waits for each call: the same methods, arguments, answers, errors and retries.
Close it (`close()`, or `with Rules(...) as rules:`) to stop that thread.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from functools import partial
from types import TracebackType
from typing import TypeVar

from anyio.from_thread import BlockingPortal, start_blocking_portal
from pydantic import JsonValue

from ._generated import (
    Challenge,
    ClockInput,
    CreatedGame,
    Game,
    GameEvent,
    GameHistory,
    GameInfo,
    GameKind,
    GamePage,
    GameScores,
    GameStatus,
    GameSummary,
    JoinedGame,
    Language,
    LegalMoves,
    Lobby,
    MatchmakingStatus,
    MoveApplied,
    MoveValidation,
    PastView,
    PendingChallenge,
    PlayerToken,
    PlayerTokensRevoked,
    Rating,
    RatingPage,
    RatingPolicy,
    RecordSigningKey,
    RecordVerification,
    Rematch,
    RematchSeat,
    SeatCredential,
    SeedReveal,
    Strategy,
    Suggestion,
    TakebackPolicy,
    TypedOptionsInput,
    WebhookEndpoint,
    WebhookEndpointWithSecret,
    WebhookEventPage,
    WebhookEventType,
)
from .aio import AsyncRules, Move
from .retry import RetryPolicy

T = TypeVar("T")


class Rules:
    """A client of the service at `url`; the arguments are AsyncRules'."""

    def __init__(
        self,
        url: str = "http://127.0.0.1:8000",
        *,
        token: str | None = None,
        api_key: str | None = None,
        language: str | None = None,
        retry: RetryPolicy | None = None,
        timeout: float = 30.0,
    ) -> None:
        self._running: AbstractContextManager[BlockingPortal] | None = start_blocking_portal()
        self._portal = self._running.__enter__()
        self._owner: Rules | None = None
        self._rules = AsyncRules(
            url, token=token, api_key=api_key, language=language, retry=retry, timeout=timeout
        )

    @classmethod
    def _sharing(cls, owner: Rules, rules: AsyncRules) -> Rules:
        twin = cls.__new__(cls)
        twin._running, twin._portal, twin._owner, twin._rules = None, owner._portal, owner, rules
        return twin

    def with_token(self, token: str | None) -> Rules:
        """The same client acting as another seat; it shares this one's thread and
        connections and is closed with it."""
        return Rules._sharing(self._owner or self, self._rules.with_token(token))

    def close(self) -> None:
        if self._running is not None:
            self._portal.call(self._rules.aclose)
            self._running.__exit__(None, None, None)
            self._running = None

    def __enter__(self) -> Rules:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def events(self, game_id: str, *, after_version: int | None = None) -> Iterator[GameEvent]:
        """Every version after `after_version` (or the current one first), then each new one,
        until the game is over, resumed after a dropped socket (AsyncRules.events)."""
        return self._iterate(self._rules.events(game_id, after_version=after_version))

    def player_events(self, player_id: str | None = None) -> Iterator[MatchmakingStatus]:
        """The player's matchmaking now, then each match made for it (AsyncRules.player_events)."""
        return self._iterate(self._rules.player_events(player_id))

    def _iterate(self, stream: AsyncGenerator[T, None]) -> Iterator[T]:
        try:
            while True:
                try:
                    yield self._portal.call(anext, stream)
                except StopAsyncIteration:
                    return
        finally:
            self._portal.call(stream.aclose)

    def catalog(self) -> list[GameInfo]:
        """The hosted games: player counts, create options with their defaults, rules versions."""
        return self._portal.call(self._rules.catalog)

    def create_game(
        self,
        kind: GameKind | str,
        players: int,
        *,
        seed: str | None = None,
        options: TypedOptionsInput | None = None,
        bots: Mapping[int, Strategy] | None = None,
        player_ids: Sequence[str | None] | None = None,
        clock: ClockInput | None = None,
        spectator_delay: int = 0,
        takebacks: TakebackPolicy = TakebackPolicy.NONE,
        open_seats: Mapping[int, str | None] | None = None,
        fill_with_bots_after_seconds: int | None = None,
        fill_with_bots_strategy: Strategy = Strategy.GREEDY,
    ) -> CreatedGame:
        """A new game and one token per human seat (shown this once). `bots` maps the seats
        the server plays to their strategy; `open_seats` the seats left for players to join
        (`join_game`) to the player each is reserved for, or None. Not retried after it may
        have reached the service: a retry could create a second game."""
        return self._portal.call(
            partial(
                self._rules.create_game,
                kind,
                players,
                seed=seed,
                options=options,
                bots=bots,
                player_ids=player_ids,
                clock=clock,
                spectator_delay=spectator_delay,
                takebacks=takebacks,
                open_seats=open_seats,
                fill_with_bots_after_seconds=fill_with_bots_after_seconds,
                fill_with_bots_strategy=fill_with_bots_strategy,
            )
        )

    def game(self, game_id: str, *, as_seat: int | None = None) -> Game:
        """The game as this client may see it: its summary and its typed view."""
        return self._portal.call(partial(self._rules.game, game_id, as_seat=as_seat))

    def legal_moves(
        self, game_id: str, *, as_seat: int | None = None, language: str | None = None
    ) -> LegalMoves:
        """This seat's legal decisions now; pass one to `apply_move` as it is."""
        return self._portal.call(
            partial(self._rules.legal_moves, game_id, as_seat=as_seat, language=language)
        )

    def validate_move(
        self, game_id: str, move: Move, *, as_seat: int | None = None, language: str | None = None
    ) -> MoveValidation:
        """A dry run of `apply_move`: whether it would be accepted now, and if not, why."""
        return self._portal.call(
            partial(self._rules.validate_move, game_id, move, as_seat=as_seat, language=language)
        )

    def apply_move(
        self,
        game_id: str,
        move: Move,
        *,
        expected_version: int | None = None,
        as_seat: int | None = None,
        idempotency_key: str | None = None,
        language: str | None = None,
    ) -> MoveApplied:
        """One decision: a legal move (or a suggestion, or its typed input). A refusal raises
        RejectedError (NOT_YOUR_TURN, STALE_VERSION, ILLEGAL_MOVE with `reason` and `rule`,
        ...). Every retry sends the same idempotency key (one is made when none is given), so
        the move is applied once; `replayed` is true when the answer is a retry's."""
        return self._portal.call(
            partial(
                self._rules.apply_move,
                game_id,
                move,
                expected_version=expected_version,
                as_seat=as_seat,
                idempotency_key=idempotency_key,
                language=language,
            )
        )

    def resign(
        self,
        game_id: str,
        *,
        expected_version: int | None = None,
        as_seat: int | None = None,
        language: str | None = None,
    ) -> MoveApplied:
        """This seat resigns: the game is FINISHED with an `outcome`."""
        return self._portal.call(
            partial(
                self._rules.resign,
                game_id,
                expected_version=expected_version,
                as_seat=as_seat,
                language=language,
            )
        )

    def request_takeback(
        self,
        game_id: str,
        *,
        expected_version: int | None = None,
        as_seat: int | None = None,
        idempotency_key: str | None = None,
        language: str | None = None,
    ) -> MoveApplied:
        """Take back this seat's last decision, alone or once the others consent (the game's
        `takebacks` policy)."""
        return self._portal.call(
            partial(
                self._rules.request_takeback,
                game_id,
                expected_version=expected_version,
                as_seat=as_seat,
                idempotency_key=idempotency_key,
                language=language,
            )
        )

    def answer_takeback(
        self,
        game_id: str,
        accept: bool,
        *,
        expected_version: int | None = None,
        as_seat: int | None = None,
        idempotency_key: str | None = None,
        language: str | None = None,
    ) -> MoveApplied:
        """Accept or decline another seat's takeback request."""
        return self._portal.call(
            partial(
                self._rules.answer_takeback,
                game_id,
                accept,
                expected_version=expected_version,
                as_seat=as_seat,
                idempotency_key=idempotency_key,
                language=language,
            )
        )

    def abandon_game(self, game_id: str, *, language: str | None = None) -> MoveApplied:
        """The game's tenant (api_key) calls it off: ABANDONED, no winners."""
        return self._portal.call(partial(self._rules.abandon_game, game_id, language=language))

    def reissue_seat_token(self, game_id: str, seat: int) -> SeatCredential:
        """The game's tenant (api_key) gets a new token for a human seat; the old one stops
        working at once."""
        return self._portal.call(partial(self._rules.reissue_seat_token, game_id, seat))

    def suggest_move(
        self,
        game_id: str,
        *,
        strategy: Strategy = Strategy.SEARCH,
        budget_ms: int | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        as_seat: int | None = None,
    ) -> Suggestion:
        """A hint: one of this seat's legal moves (pass it to `apply_move`)."""
        return self._portal.call(
            partial(
                self._rules.suggest_move,
                game_id,
                strategy=strategy,
                budget_ms=budget_ms,
                iterations=iterations,
                seed=seed,
                as_seat=as_seat,
            )
        )

    def scores(
        self, game_id: str, *, as_seat: int | None = None, language: str | None = None
    ) -> GameScores:
        """Live scores, or the final ones with the winners."""
        return self._portal.call(
            partial(self._rules.scores, game_id, as_seat=as_seat, language=language)
        )

    def history(
        self,
        game_id: str,
        *,
        after: int | None = None,
        as_seat: int | None = None,
        language: str | None = None,
    ) -> GameHistory:
        """The decisions applied after version `after`, oldest first."""
        return self._portal.call(
            partial(self._rules.history, game_id, after=after, as_seat=as_seat, language=language)
        )

    def view_at(self, game_id: str, version: int, *, as_seat: int | None = None) -> PastView:
        """The view as of an earlier version, for the same viewer."""
        return self._portal.call(partial(self._rules.view_at, game_id, version, as_seat=as_seat))

    def seed_reveal(self, game_id: str) -> SeedReveal:
        """Once the game is over: the seed and salt behind its `seed_commitment`."""
        return self._portal.call(partial(self._rules.seed_reveal, game_id))

    def games(
        self,
        *,
        status: GameStatus | None = None,
        kind: GameKind | None = None,
        player_id: str | None = None,
        to_act_player_id: str | None = None,
        created_after: datetime | None = None,
        first: int = 20,
        after: str | None = None,
    ) -> GamePage:
        """The tenant's (api_key) games, newest first; the next page `after` its end cursor."""
        return self._portal.call(
            partial(
                self._rules.games,
                status=status,
                kind=kind,
                player_id=player_id,
                to_act_player_id=to_act_player_id,
                created_after=created_after,
                first=first,
                after=after,
            )
        )

    def export_game(self, game_id: str) -> dict[str, JsonValue]:
        """A game that is over as one portable record (GAME_NOT_OVER before)."""
        return self._portal.call(partial(self._rules.export_game, game_id))

    def verify_game_record(self, record: Mapping[str, JsonValue]) -> RecordVerification:
        """Replays a record on the service's rules: valid and the scores, or the first step
        that differs, and its signature checked."""
        return self._portal.call(partial(self._rules.verify_game_record, record))

    def record_signing_keys(self) -> list[RecordSigningKey]:
        """The public keys a signed record may name (for an offline verifier)."""
        return self._portal.call(self._rules.record_signing_keys)

    def webhook_endpoints(self, *, last: int = 20) -> list[WebhookEndpoint]:
        """The tenant's endpoints (never their secrets), each with its `last` deliveries."""
        return self._portal.call(partial(self._rules.webhook_endpoints, last=last))

    def webhook_endpoint(self, endpoint_id: str, *, last: int = 20) -> WebhookEndpoint:
        """One of the tenant's endpoints with its `last` deliveries (NOT_FOUND: none such)."""
        return self._portal.call(partial(self._rules.webhook_endpoint, endpoint_id, last=last))

    def webhook_events(
        self,
        *,
        after: str | None = None,
        types: Sequence[WebhookEventType] | None = None,
        first: int = 20,
    ) -> WebhookEventPage:
        """The tenant's events, oldest first, by cursor (to catch up after an outage)."""
        return self._portal.call(
            partial(self._rules.webhook_events, after=after, types=types, first=first)
        )

    def create_webhook_endpoint(
        self,
        url: str,
        *,
        events: Sequence[WebhookEventType] | None = None,
        description: str | None = None,
    ) -> WebhookEndpointWithSecret:
        """A new endpoint; its signing `secret` is in this answer only."""
        return self._portal.call(
            partial(
                self._rules.create_webhook_endpoint, url, events=events, description=description
            )
        )

    def update_webhook_endpoint(
        self,
        endpoint_id: str,
        *,
        url: str | None = None,
        events: Sequence[WebhookEventType] | None = None,
        description: str | None = None,
        enabled: bool | None = None,
    ) -> WebhookEndpoint:
        """Changes the fields given (None: kept; `events=[]`: every type)."""
        return self._portal.call(
            partial(
                self._rules.update_webhook_endpoint,
                endpoint_id,
                url=url,
                events=events,
                description=description,
                enabled=enabled,
            )
        )

    def delete_webhook_endpoint(self, endpoint_id: str) -> bool:
        """The endpoint, its log and its undelivered events are gone."""
        return self._portal.call(partial(self._rules.delete_webhook_endpoint, endpoint_id))

    def rotate_webhook_secret(
        self, endpoint_id: str, *, idempotency_key: str | None = None
    ) -> WebhookEndpointWithSecret:
        """A new secret, in this answer only (the previous one signs 24 hours more). A retry
        sends the same key and answers the same secret."""
        return self._portal.call(
            partial(self._rules.rotate_webhook_secret, endpoint_id, idempotency_key=idempotency_key)
        )

    def redeliver_webhook_event(self, endpoint_id: str, event_id: str) -> bool:
        """Sends a kept event to the endpoint again."""
        return self._portal.call(
            partial(self._rules.redeliver_webhook_event, endpoint_id, event_id)
        )

    def retry_webhook_event(self, endpoint_id: str, event_id: str) -> bool:
        """Sends an event now: one still retrying at once, a given-up one again."""
        return self._portal.call(partial(self._rules.retry_webhook_event, endpoint_id, event_id))

    def send_test_webhook_event(self, endpoint_id: str) -> str:
        """A signed `webhook.test` event to that endpoint; its event id."""
        return self._portal.call(partial(self._rules.send_test_webhook_event, endpoint_id))

    def lobby(self, game_id: str) -> Lobby:
        """A game's join code, invite link and open seats."""
        return self._portal.call(partial(self._rules.lobby, game_id))

    def join_game(self, *, code: str | None = None, game_id: str | None = None) -> JoinedGame:
        """This client's player (a player token) takes an open seat of the game its join `code`
        or `game_id` names; joining again answers the same seat (GAME_FULL: none left)."""
        return self._portal.call(partial(self._rules.join_game, code=code, game_id=game_id))

    def leave_game(self, game_id: str) -> GameSummary:
        """This client's player gives back its seats before the game starts."""
        return self._portal.call(partial(self._rules.leave_game, game_id))

    def my_games(
        self,
        *,
        status: GameStatus | None = None,
        kind: GameKind | None = None,
        first: int = 20,
        after: str | None = None,
    ) -> GamePage:
        """The games this client's player (a player token) sits in or is awaited in."""
        return self._portal.call(
            partial(self._rules.my_games, status=status, kind=kind, first=first, after=after)
        )

    def issue_player_token(self, player_id: str, *, ttl_seconds: int = 3600) -> PlayerToken:
        """The tenant (api_key) gets a token for one of its players, good for `ttl_seconds`."""
        return self._portal.call(
            partial(self._rules.issue_player_token, player_id, ttl_seconds=ttl_seconds)
        )

    def revoke_player_tokens(self, player_id: str) -> PlayerTokensRevoked:
        """The tenant (api_key) revokes every token of the player issued until now."""
        return self._portal.call(partial(self._rules.revoke_player_tokens, player_id))

    def matchmaking(self, player_id: str | None = None) -> MatchmakingStatus:
        """A player's matchmaking now: `player_id` with the tenant's api_key, or left out by a
        client made `with_token(player_token)` (AsyncRules.matchmaking)."""
        return self._portal.call(partial(self._rules.matchmaking, player_id))

    def enter_matchmaking(
        self,
        kind: GameKind | str,
        players: int,
        player_id: str | None = None,
        *,
        options: JsonValue = None,
        rating: float | None = None,
    ) -> MatchmakingStatus:
        """The player waits for a game of `kind` with `players` seats, matched by rating;
        entering the same pool again is the same seek (ALREADY_QUEUED: another one).
        `player_id` and `rating` with the tenant's api_key; with a player token the token's
        own player, at its rating (AsyncRules.enter_matchmaking)."""
        return self._portal.call(
            partial(
                self._rules.enter_matchmaking,
                kind,
                players,
                player_id,
                options=options,
                rating=rating,
            )
        )

    def leave_matchmaking(self, player_id: str | None = None) -> MatchmakingStatus:
        """The player's seek is withdrawn (NOT_QUEUED: it waits in none)."""
        return self._portal.call(partial(self._rules.leave_matchmaking, player_id))

    def create_challenge(
        self,
        kind: GameKind | str,
        opponents: Sequence[str],
        *,
        challenger_id: str | None = None,
        options: JsonValue = None,
        clock: ClockInput | None = None,
        spectator_delay: int = 0,
        takebacks: TakebackPolicy = TakebackPolicy.NONE,
        expires_in_seconds: int = 3600,
    ) -> Challenge:
        """A game of the challenger (seat 0) with a seat kept for each of `opponents`, who
        accept with `join_game` (AsyncRules.create_challenge)."""
        return self._portal.call(
            partial(
                self._rules.create_challenge,
                kind,
                opponents,
                challenger_id=challenger_id,
                options=options,
                clock=clock,
                spectator_delay=spectator_delay,
                takebacks=takebacks,
                expires_in_seconds=expires_in_seconds,
            )
        )

    def decline_challenge(self, game_id: str) -> GameSummary:
        """One of the challenge's players (a player token) ends it for everyone: ABANDONED."""
        return self._portal.call(partial(self._rules.decline_challenge, game_id))

    def my_challenges(self) -> list[PendingChallenge]:
        """The challenges waiting for this client's player (a player token), newest first."""
        return self._portal.call(self._rules.my_challenges)

    def offer_rematch(
        self, game_id: str, *, expires_in_seconds: int = 3600, as_seat: int | None = None
    ) -> RematchSeat:
        """A seat of a game that is over offers it again (AsyncRules.offer_rematch)."""
        return self._portal.call(
            partial(
                self._rules.offer_rematch,
                game_id,
                expires_in_seconds=expires_in_seconds,
                as_seat=as_seat,
            )
        )

    def accept_rematch(self, game_id: str, *, as_seat: int | None = None) -> RematchSeat:
        """A seat of the game that is over takes its seat of the rematch offered."""
        return self._portal.call(partial(self._rules.accept_rematch, game_id, as_seat=as_seat))

    def decline_rematch(self, game_id: str, *, as_seat: int | None = None) -> GameSummary:
        """A seat of the game that is over ends its waiting rematch for everyone (ABANDONED)."""
        return self._portal.call(partial(self._rules.decline_rematch, game_id, as_seat=as_seat))

    def rematch(self, game_id: str, *, as_seat: int | None = None) -> Rematch | None:
        """The rematch of a game that is over once a seat offered it; None before."""
        return self._portal.call(partial(self._rules.rematch, game_id, as_seat=as_seat))

    def leaderboard(
        self, kind: GameKind | str, *, first: int = 20, after: str | None = None
    ) -> RatingPage:
        """The tenant's (api_key) players of one kind, best first."""
        return self._portal.call(partial(self._rules.leaderboard, kind, first=first, after=after))

    def rating(self, player_id: str, kind: GameKind | str) -> Rating | None:
        """A player's rating in one kind; None until one of its games is rated."""
        return self._portal.call(partial(self._rules.rating, player_id, kind))

    def rating_policy(self) -> RatingPolicy:
        """The tenant's (api_key) rating policy."""
        return self._portal.call(self._rules.rating_policy)

    def set_rating_policy(self, max_takebacks: int) -> RatingPolicy:
        """The tenant's (api_key) policy for the games rated from now on."""
        return self._portal.call(partial(self._rules.set_rating_policy, max_takebacks))

    def languages(self) -> list[Language]:
        """The languages the texts come in, each with its coverage (ask with `language=`)."""
        return self._portal.call(self._rules.languages)
