"""AsyncRules: the rules service from asyncio, one method per operation of its GraphQL API.

Arguments and answers are snake_case; answers are the pydantic models named in
rules_client/__init__.py. Every failure raises a `RulesError` (errors.py); failures a retry
may cure are retried (retry.py), changes with the idempotency key made once per call.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import TypeVar, cast

import httpx
from pydantic import JsonValue

from ._engine import Engine, never_sent
from ._generated import (
    ApplyMoveInput,
    BotSeatInput,
    Challenge,
    ChallengeInput,
    ClockInput,
    CreatedGame,
    CreateGameInput,
    Game,
    GameEvent,
    GameFilter,
    GameHistory,
    GameInfo,
    GameKind,
    GamePage,
    GameScores,
    GameStatus,
    GameSummary,
    JoinedGame,
    Language,
    LegalMove,
    LegalMoves,
    Lobby,
    MatchmakingInput,
    MatchmakingStatus,
    MoveApplied,
    MoveRejected,
    MoveValidation,
    OpenSeatInput,
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
    TypedMoveInput,
    TypedOptionsInput,
    WebhookEndpoint,
    WebhookEndpointWithSecret,
    WebhookEventPage,
    WebhookEventType,
)
from ._generated.async_base_client import HttpClient
from .errors import ErrorCode, NotFoundError, RulesError, UnauthorizedError, error
from .events import follow, follow_player
from .retry import RetryPolicy, retryable

T = TypeVar("T")
Move = LegalMove | Suggestion | TypedMoveInput | Mapping[str, JsonValue]
MALFORMED_KEY = (
    "the API key looks like a RULES_API_KEYS entry (tenant:secret): send the secret alone, "
    "the part after the colon"
)


class AsyncRules:
    """A client of the service at `url` (`http://host:port`, or its `/graphql` address).

    `token` acts as a seat (a seat token from `create_game`), `api_key` as a tenant (the
    secret of RULES_API_KEYS, without the tenant's name); both may be left out (a spectator,
    or a development server without keys). `language` asks for texts in that language
    (Accept-Language), `retry` says how failures are retried. An `http_client` given is the
    caller's to close; otherwise `aclose()` (or `async with`) closes the one made here."""

    def __init__(
        self,
        url: str = "http://127.0.0.1:8000",
        *,
        token: str | None = None,
        api_key: str | None = None,
        language: str | None = None,
        retry: RetryPolicy | None = None,
        timeout: float = 30.0,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        self.url = url if url.rstrip("/").endswith("/graphql") else f"{url.rstrip('/')}/graphql"
        self.token, self.api_key, self.language = token, api_key, language
        self.retry = retry or RetryPolicy()
        self.timeout = timeout
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient(timeout=timeout)
        headers = {}
        if token is not None:
            headers["authorization"] = f"Bearer {token}"
        if api_key is not None:
            headers["x-api-key"] = api_key
        if language is not None:
            headers["accept-language"] = language
        self._headers = headers
        self._engine = Engine(
            url=self.url,
            http_client=cast(HttpClient, self._http),
            ws_url=self.url.replace("http", "ws", 1),
            ws_headers={k: v for k, v in headers.items() if k != "authorization"},
            ws_connection_init_payload=(
                {"authorization": headers["authorization"]} if token is not None else None
            ),
        )

    def with_token(self, token: str | None) -> AsyncRules:
        """The same client acting as another seat (or, with None, as a spectator or the
        tenant); it shares this one's connections and is closed with it."""
        return AsyncRules(
            self.url,
            token=token,
            api_key=self.api_key,
            language=self.language,
            retry=self.retry,
            timeout=self.timeout,
            http_client=self._http,
        )

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncRules:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    # --- games -----------------------------------------------------------------------------

    async def catalog(self) -> list[GameInfo]:
        """The hosted games: player counts, create options with their defaults, rules versions."""
        return list((await self._read(lambda h: self._engine.read_catalog(headers=h))).catalog)

    async def create_game(
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
        game = CreateGameInput.model_validate(
            {
                "kind": GameKind(kind),
                "players": players,
                "seed": seed,
                "typed_options": options,
                "bots": [BotSeatInput(seat=s, strategy=b) for s, b in (bots or {}).items()],
                "player_ids": list(player_ids) if player_ids is not None else None,
                "clock": clock,
                "spectator_delay": spectator_delay,
                "takebacks": takebacks,
                "open_seats": [
                    OpenSeatInput(seat=seat, reserved_for=player)
                    for seat, player in (open_seats or {}).items()
                ]
                or None,
                "fill_with_bots_after_seconds": fill_with_bots_after_seconds,
                "fill_with_bots_strategy": fill_with_bots_strategy,
            }
        )
        answer = await self._change(
            lambda h: self._engine.create_game(input=game, headers=h), keyed=False
        )
        return answer.create_game

    async def game(self, game_id: str, *, as_seat: int | None = None) -> Game:
        """The game as this client may see it: its summary and its typed view."""
        found = await self._read(lambda h: self._engine.read_game(game_id, as_seat, headers=h))
        return _found(found.game, game_id)

    async def legal_moves(
        self, game_id: str, *, as_seat: int | None = None, language: str | None = None
    ) -> LegalMoves:
        """This seat's legal decisions now; pass one to `apply_move` as it is."""
        found = await self._read(
            lambda h: self._engine.read_legal_moves(game_id, as_seat, language, headers=h)
        )
        return _found(found.game, game_id)

    async def validate_move(
        self,
        game_id: str,
        move: Move,
        *,
        as_seat: int | None = None,
        language: str | None = None,
    ) -> MoveValidation:
        """A dry run of `apply_move`: whether it would be accepted now, and if not, why."""
        typed = typed_move(move)
        found = await self._read(
            lambda h: self._engine.validate_move(game_id, typed, as_seat, language, headers=h)
        )
        return found.validate_move

    async def apply_move(
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
        sent = ApplyMoveInput.model_validate(
            {
                "game_id": game_id,
                "typed_move": typed_move(move),
                "expected_version": expected_version,
                "idempotency_key": idempotency_key or new_key(),
                "as_seat": as_seat,
            }
        )
        answer = await self._change(
            lambda h: self._engine.apply_move(sent, language, headers=h), keyed=True
        )
        return applied(answer.apply_move)

    async def resign(
        self,
        game_id: str,
        *,
        expected_version: int | None = None,
        as_seat: int | None = None,
        language: str | None = None,
    ) -> MoveApplied:
        """This seat resigns: the game is FINISHED with an `outcome`."""
        answer = await self._change(
            lambda h: self._engine.resign(game_id, expected_version, as_seat, language, headers=h),
            keyed=False,
        )
        return applied(answer.resign)

    async def request_takeback(
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
        key = idempotency_key or new_key()
        answer = await self._change(
            lambda h: self._engine.request_takeback(
                game_id, expected_version, key, as_seat, language, headers=h
            ),
            keyed=True,
        )
        return applied(answer.request_takeback)

    async def answer_takeback(
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
        key = idempotency_key or new_key()
        answer = await self._change(
            lambda h: self._engine.answer_takeback(
                game_id, accept, expected_version, key, as_seat, language, headers=h
            ),
            keyed=True,
        )
        return applied(answer.answer_takeback)

    async def abandon_game(self, game_id: str, *, language: str | None = None) -> MoveApplied:
        """The game's tenant (api_key) calls it off: ABANDONED, no winners."""
        answer = await self._change(
            lambda h: self._engine.abandon_game(game_id, language, headers=h), keyed=False
        )
        return applied(answer.abandon_game)

    async def reissue_seat_token(self, game_id: str, seat: int) -> SeatCredential:
        """The game's tenant (api_key) gets a new token for a human seat; the old one stops
        working at once."""
        answer = await self._change(
            lambda h: self._engine.reissue_seat_token(game_id, seat, headers=h), keyed=False
        )
        return answer.reissue_seat_token

    async def suggest_move(
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
        found = await self._read(
            lambda h: self._engine.suggest_move(
                game_id, strategy, budget_ms, iterations, seed, as_seat, headers=h
            )
        )
        return found.suggest_move

    async def scores(
        self, game_id: str, *, as_seat: int | None = None, language: str | None = None
    ) -> GameScores:
        """Live scores, or the final ones with the winners."""
        found = await self._read(
            lambda h: self._engine.read_scores(game_id, as_seat, language, headers=h)
        )
        return _found(found.game, game_id)

    async def history(
        self,
        game_id: str,
        *,
        after: int | None = None,
        as_seat: int | None = None,
        language: str | None = None,
    ) -> GameHistory:
        """The decisions applied after version `after`, oldest first."""
        found = await self._read(
            lambda h: self._engine.read_history(game_id, after, as_seat, language, headers=h)
        )
        return _found(found.game, game_id)

    async def view_at(self, game_id: str, version: int, *, as_seat: int | None = None) -> PastView:
        """The view as of an earlier version, for the same viewer."""
        found = await self._read(
            lambda h: self._engine.read_view_at(game_id, version, as_seat, headers=h)
        )
        return _found(found.game, game_id)

    async def seed_reveal(self, game_id: str) -> SeedReveal:
        """Once the game is over: the seed and salt behind its `seed_commitment`."""
        found = await self._read(lambda h: self._engine.read_seed_reveal(game_id, headers=h))
        return _found(found.game, game_id)

    async def games(
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
        only = GameFilter.model_validate(
            {
                "status": status,
                "kind": kind,
                "player_id": player_id,
                "to_act_player_id": to_act_player_id,
                "created_after": created_after,
            }
        )
        found = await self._read(lambda h: self._engine.list_games(first, only, after, headers=h))
        return found.games

    def events(
        self, game_id: str, *, after_version: int | None = None
    ) -> AsyncGenerator[GameEvent, None]:
        """Every version after `after_version` (or the current one first), then each new one,
        until the game is over. A dropped socket is subscribed again after the last version
        seen, with backoff; a refusal (NOT_FOUND, BAD_USER_INPUT for a version past the game's,
        UNAUTHORIZED) raises."""
        return follow(self._engine, game_id, after_version, self.retry)

    # --- records ---------------------------------------------------------------------------

    async def export_game(self, game_id: str) -> dict[str, JsonValue]:
        """A game that is over as one portable record (GAME_NOT_OVER before)."""
        found = await self._read(lambda h: self._engine.export_game(game_id, headers=h))
        record = found.export_game
        if not isinstance(record, dict):
            raise error("INTERNAL_SERVER_ERROR", "the record is not a JSON object")
        return record

    async def verify_game_record(self, record: Mapping[str, JsonValue]) -> RecordVerification:
        """Replays a record on the service's rules: valid and the scores, or the first step
        that differs, and its signature checked."""
        found = await self._read(lambda h: self._engine.verify_game_record(dict(record), headers=h))
        return found.verify_game_record

    async def record_signing_keys(self) -> list[RecordSigningKey]:
        """The public keys a signed record may name (for an offline verifier)."""
        found = await self._read(lambda h: self._engine.read_record_signing_keys(headers=h))
        return list(found.record_signing_keys)

    # --- webhook endpoints (the tenant's api_key) ------------------------------------------

    async def webhook_endpoints(self, *, last: int = 20) -> list[WebhookEndpoint]:
        """The tenant's endpoints (never their secrets), each with its `last` deliveries."""
        found = await self._read(lambda h: self._engine.list_webhook_endpoints(last, headers=h))
        return list(found.webhook_endpoints)

    async def webhook_endpoint(self, endpoint_id: str, *, last: int = 20) -> WebhookEndpoint:
        """One of the tenant's endpoints with its `last` deliveries (NOT_FOUND: none such)."""
        found = await self._read(
            lambda h: self._engine.read_webhook_endpoint(endpoint_id, last, headers=h)
        )
        if found.webhook_endpoint is None:
            raise NotFoundError(ErrorCode.NOT_FOUND, f"no webhook endpoint {endpoint_id!r}")
        return found.webhook_endpoint

    async def webhook_events(
        self,
        *,
        after: str | None = None,
        types: Sequence[WebhookEventType] | None = None,
        first: int = 20,
    ) -> WebhookEventPage:
        """The tenant's events, oldest first, by cursor (to catch up after an outage)."""
        kinds = list(types) if types is not None else None
        found = await self._read(
            lambda h: self._engine.list_webhook_events(first, after, kinds, headers=h)
        )
        return found.webhook_events

    async def create_webhook_endpoint(
        self,
        url: str,
        *,
        events: Sequence[WebhookEventType] | None = None,
        description: str | None = None,
    ) -> WebhookEndpointWithSecret:
        """A new endpoint; its signing `secret` is in this answer only."""
        kinds = list(events) if events is not None else None
        answer = await self._change(
            lambda h: self._engine.create_webhook_endpoint(url, 20, kinds, description, headers=h),
            keyed=False,
        )
        return answer.create_webhook_endpoint

    async def update_webhook_endpoint(
        self,
        endpoint_id: str,
        *,
        url: str | None = None,
        events: Sequence[WebhookEventType] | None = None,
        description: str | None = None,
        enabled: bool | None = None,
    ) -> WebhookEndpoint:
        """Changes the fields given (None: kept; `events=[]`: every type)."""
        kinds = list(events) if events is not None else None
        answer = await self._change(
            lambda h: self._engine.update_webhook_endpoint(
                endpoint_id, 20, url, kinds, description, enabled, headers=h
            ),
            keyed=True,  # setting the same fields twice changes nothing more
        )
        return answer.update_webhook_endpoint

    async def delete_webhook_endpoint(self, endpoint_id: str) -> bool:
        """The endpoint, its log and its undelivered events are gone."""
        answer = await self._change(
            lambda h: self._engine.delete_webhook_endpoint(endpoint_id, headers=h), keyed=False
        )
        return answer.delete_webhook_endpoint

    async def rotate_webhook_secret(
        self, endpoint_id: str, *, idempotency_key: str | None = None
    ) -> WebhookEndpointWithSecret:
        """A new secret, in this answer only (the previous one signs 24 hours more). A retry
        sends the same key and answers the same secret."""
        key = idempotency_key or new_key()
        answer = await self._change(
            lambda h: self._engine.rotate_webhook_secret(endpoint_id, 20, key, headers=h),
            keyed=True,
        )
        return answer.rotate_webhook_secret

    async def redeliver_webhook_event(self, endpoint_id: str, event_id: str) -> bool:
        """Sends a kept event to the endpoint again."""
        answer = await self._change(
            lambda h: self._engine.redeliver_webhook_event(endpoint_id, event_id, headers=h),
            keyed=False,
        )
        return answer.redeliver_webhook_event

    async def retry_webhook_event(self, endpoint_id: str, event_id: str) -> bool:
        """Sends an event now: one still retrying at once, a given-up one again."""
        answer = await self._change(
            lambda h: self._engine.retry_webhook_event(endpoint_id, event_id, headers=h),
            keyed=False,
        )
        return answer.retry_webhook_event

    async def send_test_webhook_event(self, endpoint_id: str) -> str:
        """A signed `webhook.test` event to that endpoint; its event id."""
        answer = await self._change(
            lambda h: self._engine.send_test_webhook_event(endpoint_id, headers=h), keyed=False
        )
        return answer.send_test_webhook_event

    # --- players, matchmaking, ratings, languages ---------------------------------------------

    async def lobby(self, game_id: str) -> Lobby:
        """A game's join code, invite link and open seats."""
        found = await self._read(lambda h: self._engine.read_lobby(game_id, headers=h))
        return found.lobby

    async def join_game(self, *, code: str | None = None, game_id: str | None = None) -> JoinedGame:
        """This client's player (a player token) takes an open seat of the game its join `code`
        or `game_id` names; joining again answers the same seat (GAME_FULL: none left)."""
        answer = await self._change(
            lambda h: self._engine.join_game(code, game_id, headers=h), keyed=True
        )
        return answer.join_game

    async def leave_game(self, game_id: str) -> GameSummary:
        """This client's player gives back its seats before the game starts."""
        answer = await self._change(
            lambda h: self._engine.leave_game(game_id, headers=h), keyed=False
        )
        return answer.leave_game

    async def my_games(
        self,
        *,
        status: GameStatus | None = None,
        kind: GameKind | None = None,
        first: int = 20,
        after: str | None = None,
    ) -> GamePage:
        """The games this client's player (a player token) sits in or is awaited in."""
        found = await self._read(
            lambda h: self._engine.list_my_games(first, status, kind, after, headers=h)
        )
        return found.my_games

    async def issue_player_token(self, player_id: str, *, ttl_seconds: int = 3600) -> PlayerToken:
        """The tenant (api_key) gets a token for one of its players, good for `ttl_seconds`."""
        answer = await self._change(
            lambda h: self._engine.issue_player_token(player_id, ttl_seconds, headers=h),
            keyed=False,
        )
        return answer.issue_player_token

    async def revoke_player_tokens(self, player_id: str) -> PlayerTokensRevoked:
        """The tenant (api_key) revokes every token of the player issued until now."""
        answer = await self._change(
            lambda h: self._engine.revoke_player_tokens(player_id, headers=h), keyed=True
        )
        return answer.revoke_player_tokens

    async def matchmaking(self, player_id: str | None = None) -> MatchmakingStatus:
        """A player's matchmaking now: `player_id` with the tenant's api_key; a client made
        `with_token(player_token)` reads its own player's (left out, or the same id: another
        is FORBIDDEN)."""
        found = await self._read(lambda h: self._engine.read_matchmaking(player_id, headers=h))
        return found.matchmaking

    async def enter_matchmaking(
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
        own player, at its rating for the kind (`rating` is ignored)."""
        seek = MatchmakingInput.model_validate(
            {
                "kind": GameKind(kind),
                "players": players,
                "player_id": player_id,
                "options": options,
                "rating": rating,
            }
        )
        answer = await self._change(
            lambda h: self._engine.enter_matchmaking(seek, headers=h), keyed=True
        )
        return answer.enter_matchmaking

    async def leave_matchmaking(self, player_id: str | None = None) -> MatchmakingStatus:
        """The player's seek is withdrawn (NOT_QUEUED: it waits in none); `player_id` as for
        `matchmaking`."""
        answer = await self._change(
            lambda h: self._engine.leave_matchmaking(player_id, headers=h), keyed=False
        )
        return answer.leave_matchmaking

    def player_events(
        self, player_id: str | None = None
    ) -> AsyncGenerator[MatchmakingStatus, None]:
        """The player's matchmaking now (`type_` None), then each match made for it (`type_`
        MATCHED, with its seat token) and its news (`type_` CHALLENGE_RECEIVED, REMATCH_OFFERED,
        GAME_STARTED: the game and the player's seat, no token); subscribed again after a dropped socket, refusals raised (as `events`).
        `player_id` as for `matchmaking`."""
        return follow_player(self._engine, player_id, self.retry)

    # --- rematch and challenges ---------------------------------------------------------------

    async def create_challenge(
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
        """A game of the challenger (seat 0: a player token's own player, or `challenger_id`
        with the tenant's api_key) with a seat kept for each of `opponents`, who accept with
        `join_game(game_id=...)` and decline with `decline_challenge`; it never fills with
        bots and lapses (ABANDONED) after `expires_in_seconds`. The answer holds seat 0's
        token. Not retried after it may have reached the service."""
        challenge = ChallengeInput.model_validate(
            {
                "kind": GameKind(kind),
                "opponents": list(opponents),
                "challenger_id": challenger_id,
                "options": options,
                "clock": clock,
                "spectator_delay": spectator_delay,
                "takebacks": takebacks,
                "expires_in_seconds": expires_in_seconds,
            }
        )
        answer = await self._change(
            lambda h: self._engine.create_challenge(challenge, headers=h), keyed=False
        )
        return answer.create_challenge

    async def decline_challenge(self, game_id: str) -> GameSummary:
        """One of the challenge's players (a player token) ends it for everyone: ABANDONED."""
        answer = await self._change(
            lambda h: self._engine.decline_challenge(game_id, headers=h), keyed=False
        )
        return answer.decline_challenge

    async def my_challenges(self) -> list[PendingChallenge]:
        """The challenges waiting for this client's player (a player token), newest first."""
        found = await self._read(lambda h: self._engine.list_my_challenges(headers=h))
        return list(found.my_challenges)

    async def offer_rematch(
        self, game_id: str, *, expires_in_seconds: int = 3600, as_seat: int | None = None
    ) -> RematchSeat:
        """A seat of a game that is over offers it again (GAME_NOT_OVER before the end): the
        first offer creates the rematch, every later one (also another seat's) answers the
        same game; this seat's taken. With a seat token (or the tenant's `as_seat`) the answer
        holds the new seat's token; with a player token none (the player token plays)."""
        answer = await self._change(
            lambda h: self._engine.offer_rematch(game_id, expires_in_seconds, as_seat, headers=h),
            keyed=True,
        )
        return answer.offer_rematch

    async def accept_rematch(self, game_id: str, *, as_seat: int | None = None) -> RematchSeat:
        """A seat of the game that is over (`game_id`, the old game) takes its seat of the
        rematch offered; the new seat's token is the same on every call."""
        answer = await self._change(
            lambda h: self._engine.accept_rematch(game_id, as_seat, headers=h), keyed=True
        )
        return answer.accept_rematch

    async def decline_rematch(self, game_id: str, *, as_seat: int | None = None) -> GameSummary:
        """A seat of the game that is over (`game_id`) ends its waiting rematch for everyone
        (ABANDONED); the answer is the rematch."""
        answer = await self._change(
            lambda h: self._engine.decline_rematch(game_id, as_seat, headers=h), keyed=False
        )
        return answer.decline_rematch

    async def rematch(self, game_id: str, *, as_seat: int | None = None) -> Rematch | None:
        """The rematch of a game that is over once a seat offered it; None before."""
        found = await self._read(lambda h: self._engine.read_rematch(game_id, as_seat, headers=h))
        return found.rematch

    async def leaderboard(
        self, kind: GameKind | str, *, first: int = 20, after: str | None = None
    ) -> RatingPage:
        """The tenant's (api_key) players of one kind, best first."""
        found = await self._read(
            lambda h: self._engine.read_leaderboard(GameKind(kind), first, after, headers=h)
        )
        return found.leaderboard

    async def rating(self, player_id: str, kind: GameKind | str) -> Rating | None:
        """A player's rating in one kind; None until one of its games is rated."""
        found = await self._read(
            lambda h: self._engine.read_rating(player_id, GameKind(kind), headers=h)
        )
        return found.rating

    async def rating_policy(self) -> RatingPolicy:
        """The tenant's (api_key) rating policy."""
        found = await self._read(lambda h: self._engine.read_rating_policy(headers=h))
        return found.rating_policy

    async def set_rating_policy(self, max_takebacks: int) -> RatingPolicy:
        """The tenant's (api_key) policy for the games rated from now on."""
        answer = await self._change(
            lambda h: self._engine.set_rating_policy(max_takebacks, headers=h), keyed=True
        )
        return answer.set_rating_policy

    async def languages(self) -> list[Language]:
        """The languages the texts come in, each with its coverage (ask with `language=`)."""
        found = await self._read(lambda h: self._engine.read_languages(headers=h))
        return list(found.languages)

    # --- how a call is made ----------------------------------------------------------------

    async def _read(self, run: Callable[[dict[str, str]], Awaitable[T]]) -> T:
        return await self._change(run, keyed=True)  # a read is safe to repeat

    async def _change(self, run: Callable[[dict[str, str]], Awaitable[T]], keyed: bool) -> T:
        tries = 0
        while True:
            try:
                return await run(self._headers)
            except RulesError as exc:
                tries += 1
                if tries >= self.retry.attempts or not retryable(exc, keyed, never_sent(exc)):
                    raise self._explained(exc) from exc.__cause__
                await asyncio.sleep(self.retry.delay(tries, exc.retry_after))

    def _explained(self, exc: RulesError) -> RulesError:
        """An UNAUTHORIZED for a key written as RULES_API_KEYS writes it says so."""
        if isinstance(exc, UnauthorizedError) and self.api_key and ":" in self.api_key:
            exc.message = f"{exc.message}; {MALFORMED_KEY}"
            exc.args = (f"{exc.code.value}: {exc.message}",)
        return exc


def new_key() -> str:
    return uuid.uuid4().hex


def typed_move(move: Move) -> TypedMoveInput:
    """A move as applyMove's `typedMove`: a legal move or a suggestion sent back as offered."""
    if isinstance(move, TypedMoveInput):
        return move
    if isinstance(move, LegalMove | Suggestion):
        return TypedMoveInput.model_validate(move.typed_move_input)
    return TypedMoveInput.model_validate(dict(move))


def applied(result: MoveApplied | MoveRejected) -> MoveApplied:
    if isinstance(result, MoveRejected):
        raise error(
            result.code.value,
            result.message,
            current_version=result.current_version,
            reason=result.reason,
            rule=result.rule,
            said=result.localized_message,
        )
    return result


def _found(game: T | None, game_id: str) -> T:
    if game is None:
        raise NotFoundError(ErrorCode.NOT_FOUND, f"no game {game_id!r}")
    return game
