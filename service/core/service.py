"""The game service both API adapters and the workers call: create, read, apply, history,
hints, listings. `GameService` is the one protocol-neutral entry point.

It joins the engine (rules) and the store (Redis); the adapters only parse and shape. It
fails one way: `Refused` (service/refusals.py), whose code each adapter translates with one
table. Checks run in a fixed order so every refusal has one clear code: the game exists, the
token fits a seat of it, the idempotency key was not used already, the expected version is
current, then the engine's own checks (game over, seat to act, well-formed, legal).
docs/architecture.md follows an applyMove through here.

The longer paths live in the folders beside it, each a module of plain functions (or, with
state of its own, an object the service holds) that receives what it needs and never the
service: who asks and as which seat (access/), one game as loaded, its clock, its past
versions and its folded history (game/), a decision from opening the game to its commit
(moves/), takebacks (takebacks/), portable records (records/), and answers that change
nothing: dry runs, hints, history, listings, subscriptions (reads/). docs/architecture.md,
"The core's rooms", draws them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import msgspec

from service import metrics
from service.bots.hints import HintPool
from service.core.access import callers
from service.core.access.callers import Caller, caller_of
from service.core.access.keys import KeyNeeded, Tenants, new_token, tenant_seat
from service.core.access.players import Player, open_seats, player_seat
from service.core.game import clocks
from service.core.game.creation import new_game
from service.core.game.folding import Labels
from service.core.game.loaded_game import Applied, LoadedGame
from service.core.game.past_versions import PastVersions
from service.core.moves import applying, endings
from service.core.moves.decisions import bot_due, history_entries
from service.core.moves.opening import (
    Opened,
    check_idempotency_key,
    not_found,
    open_for_decision,
    timeouts,
)
from service.core.players import challenges, lobby, rematch, seating
from service.core.players.tokens import PlayerTokens, looks_like_player_token
from service.core.reads import answers, following, listing
from service.core.records import requests as record_requests
from service.core.records.format import RecordSigningKeys
from service.core.records.signing import NO_KEYS, Keyring
from service.core.takebacks import policy as takebacks
from service.core.takebacks import steps as takeback_steps
from service.engine import BadSetup
from service.games import game_for, games
from service.refusals import Code, Refused
from service.store import HistoryRecord, RedisStore
from service.store.events import Subscriber
from service.store.jobs import new_game_id
from service.webhooks.events import of_commit as webhook_events

__all__ = ["Caller", "GameService"]

RETRIES_WITHOUT_EXPECTED_VERSION = 3  # decisions that lost a race, tried again

CREATE_NEEDS_KEY = "creating games needs an API key (X-API-Key)"
SEED_NEEDS_KEY = (
    "choosing the seed needs a tenant's API key (X-API-Key, RULES_API_KEYS) on this server: "
    "leave `seed` out and the server draws one"
)
LIST_NEEDS_KEY = "listing games needs the tenant's API key (X-API-Key)"
PLAYERS_NEED_KEY = "player tokens are issued and revoked with the tenant's API key (X-API-Key)"
PLAYER_TOKEN_NEEDED = "this needs a player token (Authorization: Bearer <player token>)"
WEBHOOKS_NEED_KEY = "webhooks are managed with the tenant's API key (X-API-Key)"


class GameService:
    def __init__(
        self,
        store: RedisStore,
        api_keys: tuple[str, ...] = (),
        max_suggest_ms: int = 1000,
        hints: HintPool | None = None,
        requeue_after: float = 30.0,
        seeds_need_key: bool = False,
        acting_needs_key: bool = False,
        takeback_seconds: float = 300.0,
        record_keys: Keyring = NO_KEYS,
        player_tokens: PlayerTokens | None = None,
        invite_base_url: str = "",
    ) -> None:
        self.store = store
        # player tokens and open seats (core/players/; docs/api.md, "Players")
        self.player_tokens = player_tokens or PlayerTokens(store)
        self.invite_base_url = invite_base_url
        self.takeback_seconds = takeback_seconds  # RULES_TAKEBACK_SECONDS
        self.tenants = Tenants(api_keys)
        # whoever chooses the seed knows the deck: in production only tenants keyed by
        # RULES_API_KEYS may, for tests and replays (docs/security.md)
        self.seeds_need_key = seeds_need_key
        # acting for a seat (and reissuing its token) without RULES_API_KEYS, where every
        # caller is the one default tenant, only outside production (docs/security.md)
        self.tenants_may_act = self.tenants.keyed or not acting_needs_key
        self.max_suggest_ms = max_suggest_ms
        self.hints = hints or HintPool(1)
        self.requeue_after = requeue_after
        self.labels = Labels(store)
        self.past_versions = PastVersions(store, self.tenants)
        # game records replayed at once by this process, each on a thread of its own: the
        # replay is CPU-bound (records/format.py's MAX_STEPS bounds one) and the event loop goes on
        self.replays = asyncio.Semaphore(record_requests.REPLAYS_AT_ONCE)
        # the key records are signed with and those a signature may name (records/signing.py)
        self.record_keys = record_keys

    def tenant_of(self, api_key: str | None) -> str | None:
        """The tenant an X-API-Key names; None for no or an unknown key (keys.Tenants)."""
        return self.tenants.of(api_key)

    def webhook_tenant(self, api_key: str | None) -> str:
        """The tenant whose webhook endpoints the caller manages."""
        tenant = self.tenant_of(api_key)
        if tenant is None:
            raise KeyNeeded(WEBHOOKS_NEED_KEY)
        return tenant

    async def create(
        self,
        kind: str,
        players: int,
        seed: str | None,
        options: object,
        api_key: str | None = None,
        bots: dict[int, str] | None = None,
        player_ids: list[str | None] | None = None,
        clock: object = None,
        spectator_delay: int = 0,
        takeback_policy: object = None,
        open_seats: list[seating.OpenSeat] | None = None,
        fill_after: float | None = None,
        fill_strategy: str = lobby.FILL_STRATEGY,
    ) -> tuple[LoadedGame, dict[int, str]]:
        """A new game and the tokens of its human seats (bot seats get none: nobody may see
        or act as a bot's seat). The answer is its tenant's, who sees it live."""
        tenant = self.tenant_of(api_key)
        if tenant is None:
            raise KeyNeeded(CREATE_NEEDS_KEY)
        if seed is not None and self.seeds_need_key and not self.tenants.keyed:
            # With RULES_API_KEYS the tenant above was named by a valid key; without, anyone
            # may create here but no key names a tenant. BAD_INPUT, not UNAUTHORIZED: no key
            # would help, leaving the field out does.
            raise Refused(Code.BAD_INPUT, SEED_NEEDS_KEY)
        try:
            record, played, tokens = new_game(
                tenant,
                kind,
                players,
                seed,
                options,
                bots or {},
                player_ids or [],
                clock,
                spectator_delay,
            )
            record, tokens = seating.opened(
                record, tokens, open_seats or [], fill_after, fill_strategy
            )
        except BadSetup as exc:
            raise Refused(Code.BAD_INPUT, exc.message) from None
        record = msgspec.structs.replace(record, takebacks=takebacks.parse_policy(takeback_policy))
        game = games()[kind]
        history = history_entries(0, played.steps)
        waits = seating.waiting(record)
        due = None if waits else bot_due(game, played.state, record.bots)
        game_id = new_game_id()
        while not await self.store.create(
            game_id, record, history, due, webhook_events(game_id, None, record, history)
        ):
            game_id = new_game_id()
        if waits:
            await lobby.register(self.store, game_id, record, fill_strategy)
        metrics.GAMES_CREATED.labels(kind).inc()
        return LoadedGame(game_id, record, game, None, played.state), tokens

    async def resign(
        self, game_id: str, caller: Caller | str | None, expected_version: int | None
    ) -> Applied:
        """The caller's seat gives up: the game is over, the best of the other seats win."""
        return await endings.resign(
            self.store, self.tenants_may_act, game_id, await self._who(caller), expected_version
        )

    async def abandon(self, game_id: str, tenant: str | None) -> Applied:
        """The game's tenant calls it off: ABANDONED, no winners (endings.abandon)."""
        return await endings.abandon(self.store, game_id, tenant)

    async def read(self, game_id: str, caller: Caller | str | None) -> LoadedGame:
        """The game as the caller's seat sees it (no token nor seat: a spectator, kept
        `spectatorDelay` versions behind unless it is the game's tenant:
        PastVersions.as_seen)."""
        caller = await self._who(caller)
        record, _ = await self.store.load(game_id)
        if record is None:
            raise not_found(game_id)
        viewer = callers.viewer(game_id, record, caller, self.tenants_may_act)
        if clocks.due(record, time.time()):
            record = await timeouts(self.store, game_id, record)
            if record is None:
                raise not_found(game_id)
        loaded = LoadedGame(game_id, record, game_for(record.kind, record.rules), viewer)
        if record.bots and not record.finished and self.store.queues_after_commit(game_id):
            await self._requeue_if_stuck(loaded)
        return await self.past_versions.as_seen(loaded, caller.tenant)

    def events(
        self, game_id: str, on_drop: Callable[[], None]
    ) -> AbstractAsyncContextManager[Subscriber]:
        """The game's new versions as they are committed, for one subscriber (gameEvents):
        subscribe first, then read the game, so no version falls between the two."""
        return self.store.events(game_id, on_drop)

    def follow(
        self,
        game_id: str,
        caller: Caller | str | None,
        after: int | None,
        on_drop: Callable[[], None],
        subscribed: Callable[[], None] = following.nothing,
    ) -> AsyncGenerator[following.Version, None]:
        """Every version after `after`, then each new one as it is committed, as the caller
        may see it (gameEvents: reads/following.py); `subscribed` is told once Redis has
        confirmed the game's channel."""
        return following.follow(self.read, self.events, game_id, caller, after, on_drop, subscribed)

    async def _requeue_if_stuck(self, loaded: LoadedGame) -> None:
        """A game from before the lanes, on a cluster, whose bot turn was not queued (the
        process that committed died before appending it): queued again once it has waited
        longer than a worker's reclaim timeout."""
        if time.time() - loaded.record.updated < self.requeue_after:
            return
        seat = bot_due(loaded.game, loaded.state, loaded.record.bots)
        if seat is not None:
            record = loaded.record
            await self.store.requeue(
                loaded.id, record.tenant, record.version, seat, self.requeue_after
            )

    async def list_games(
        self, tenant: str | None, only: listing.GameFilter, first: int, after: str | None
    ) -> listing.Page:
        """A page of the caller's tenant's games, newest first (service/core/reads/listing.py)."""
        if tenant is None:
            raise KeyNeeded(LIST_NEEDS_KEY)
        page = await listing.list_games(self.store, tenant, only, first, after)
        if not any(loaded.record.spectator_delay for _, loaded in page.games):
            return page
        # each game as a spectator sees it (PastVersions.as_seen): live for its keyed tenant,
        # else delayed; a delayed game that does not match `toActPlayerId` as seen is left out
        # (the index knows the live turn, which a spectator may not learn)
        shown = []
        for cursor, loaded in page.games:
            seen = await self.past_versions.as_seen(loaded, tenant)
            if seen.delay and not listing.acts(seen.record, only):
                continue
            shown.append((cursor, seen))
        return listing.Page(shown, page.end_cursor, page.has_next)

    async def apply(
        self,
        game_id: str,
        caller: Caller | str | None,
        move: object,
        expected_version: int | None,
        idempotency_key: str | None,
    ) -> Applied:
        """The caller's seat plays `move`: the game opened (moves/opening.py), the move
        decided and committed (moves/applying.py)."""
        kind = "unknown"  # the game's kind once it is opened, for the metrics

        async def decide(opened: Opened) -> Applied | None:
            nonlocal kind
            kind = opened.record.kind
            return await applying.decide(
                self.store,
                self.past_versions,
                game_id,
                opened,
                move,
                expected_version,
                idempotency_key,
            )

        try:
            applied = await self._decided(game_id, caller, idempotency_key, decide)
        except Refused as refused:
            metrics.child(metrics.MOVES, kind, refused.code.value).inc()
            raise
        metrics.child(metrics.MOVES, kind, "ACCEPTED").inc()
        return applied

    async def request_takeback(
        self,
        game_id: str,
        caller: Caller | str | None,
        expected_version: int | None,
        idempotency_key: str | None,
    ) -> Applied:
        """The caller's seat takes back its last decision, or asks the others to agree
        (takebacks/steps.py)."""
        return await self._takeback(game_id, caller, "ask", expected_version, idempotency_key)

    async def answer_takeback(
        self,
        game_id: str,
        caller: Caller | str | None,
        accept: bool,
        expected_version: int | None,
        idempotency_key: str | None,
    ) -> Applied:
        """The caller's seat accepts or declines the pending takeback request."""
        what = "accept" if accept else "decline"
        return await self._takeback(game_id, caller, what, expected_version, idempotency_key)

    async def _takeback(
        self,
        game_id: str,
        caller: Caller | str | None,
        what: str,
        expected_version: int | None,
        idempotency_key: str | None,
    ) -> Applied:
        async def decide(opened: Opened) -> Applied | None:
            return await takeback_steps.decide(
                self.store,
                self.past_versions,
                self.takeback_seconds,
                game_id,
                opened,
                what,
                expected_version,
                idempotency_key,
            )

        return await self._decided(game_id, caller, idempotency_key, decide)

    async def _decided(
        self,
        game_id: str,
        caller: Caller | str | None,
        idempotency_key: str | None,
        decide: Callable[[Opened], Awaitable[Applied | None]],
    ) -> Applied:
        """A decision on the game opened for the caller's seat, opened again and decided again
        while it loses races (None: only without an expected version, or to a retried key)."""
        check_idempotency_key(idempotency_key)
        caller = await self._who(caller)
        for _ in range(RETRIES_WITHOUT_EXPECTED_VERSION):
            opened = await open_for_decision(
                self.store, game_id, caller, idempotency_key, self.tenants_may_act
            )
            applied = await decide(opened)
            if applied is not None:
                return applied
        raise Refused(Code.STALE_VERSION, "other decisions kept winning the race; try again")

    # the webhook endpoints' idempotency keys are checked as decisions' are
    check_idempotency_key = staticmethod(check_idempotency_key)

    async def at_version(self, loaded: LoadedGame, version: int) -> LoadedGame:
        """The game as of `version` (0 up to its own), seen by the same viewer
        (PastVersions.at_version)."""
        return await self.past_versions.at_version(loaded, version)

    async def state_at(self, loaded: LoadedGame, version: int) -> Any:
        """The game's state at `version` (at most its own; PastVersions.state_at)."""
        return await self.past_versions.state_at(loaded, version)

    async def validate(
        self, game_id: str, caller: Caller | str | None, move: object
    ) -> Refused | None:
        """A dry run of `apply`: the refusal it would give now, or None (answers.validate)."""
        return await answers.validate(
            self.store, self.tenants_may_act, game_id, await self._who(caller), move
        )

    async def suggest(
        self,
        game_id: str,
        caller: Caller | str | None,
        strategy: str,
        budget_ms: int | None,
        iterations: int | None,
        seed: int | None,
    ) -> tuple[int, Any, str]:
        """A hint for the caller's seat: the seat, a legal move and its label (answers.suggest)."""
        opened = await open_for_decision(
            self.store, game_id, await self._who(caller), None, self.tenants_may_act
        )
        return await answers.suggest(
            self.hints,
            self.max_suggest_ms,
            opened.record,
            opened.seat,
            strategy,
            budget_ms,
            iterations,
            seed,
        )

    async def history(self, loaded: LoadedGame, after: int | None) -> list[HistoryRecord]:
        """Entries after `after` up to the game's version (answers.history)."""
        return await answers.history(self.store, self.labels, loaded, after)

    async def export_record(self, game_id: str, caller: Caller | str | None) -> dict[str, Any]:
        """The portable record of a game that is over (service/core/records/documents.py), for
        whoever may read its history and seed reveal: anyone, once it is over. Before, the
        record would tell the seed, and with it every hidden card (RULINGS ALL-4)."""
        loaded = await self.read(game_id, caller)
        return await record_requests.export(self.store, self.replays, loaded, self.record_keys)

    def record_signing_keys(self) -> RecordSigningKeys:
        """The public keys a record this service signed may name: its signing key first."""
        return self.record_keys.published()

    async def reissue_token(
        self, game_id: str, tenant: str | None, seat: int
    ) -> tuple[str, str | None]:
        """A new token for a human seat of the tenant's game (keys.tenant_seat) and the
        seat's player id; the seat's
        earlier tokens stop working with the next request, on every replica (every request
        loads the record and its reissued tokens: RedisStore.load)."""
        record, _ = await self.store.load(game_id)
        if record is None:
            raise not_found(game_id)
        tenant_seat(game_id, record, tenant, self.tenants_may_act, seat)
        token, token_hash = new_token(seat)
        if not await self.store.reissue(game_id, seat, token_hash):
            raise not_found(game_id)
        metrics.TOKENS_REISSUED.inc()
        ids = record.player_ids
        return token, ids[seat] if seat < len(ids) else None

    # Players: tokens, open seats and join codes (core/players/; docs/api.md, "Players").

    async def _who(self, caller: Caller | str | None) -> Caller:
        """The caller, its player token (if that is what it bears) verified into its player."""
        caller = caller_of(caller)
        if not looks_like_player_token(caller.token):
            return caller
        assert caller.token is not None
        player = await self.player_tokens.verify(caller.token)
        return msgspec.structs.replace(caller, token=None, player=player)

    async def player_of(self, caller: Caller | str | None) -> Player:
        """The player a request's player token names; UNAUTHORIZED without one."""
        found = (await self._who(caller)).player
        if found is None:
            raise Refused(Code.UNAUTHORIZED, PLAYER_TOKEN_NEEDED)
        return found

    def issue_player_token(self, tenant: str | None, player_id: str, ttl: int) -> tuple[str, float]:
        """A player token for one of the tenant's player ids, and when it expires."""
        if tenant is None:
            raise KeyNeeded(PLAYERS_NEED_KEY)
        return self.player_tokens.issue(tenant, player_id, ttl)

    async def revoke_player_tokens(self, tenant: str | None, player_id: str) -> float:
        """Every token of the player issued until now refused from now on; the epoch."""
        if tenant is None:
            raise KeyNeeded(PLAYERS_NEED_KEY)
        return await self.player_tokens.revoke(tenant, player_id)

    async def join_game(
        self, caller: Caller | str | None, game_id: str | None, code: str | None
    ) -> tuple[LoadedGame, int]:
        """The player takes a seat of the game its id or join code names (lobby.join) and sees
        it from there."""
        player = await self.player_of(caller)
        if (game_id is None) == (code is None):
            raise Refused(Code.BAD_INPUT, "give the game's id or its join code, one of the two")
        if code is not None:
            game_id = await lobby.game_of_code(self.store, player.tenant, code)
        assert game_id is not None
        record, seat = await lobby.join(self.store, game_id, player)
        return LoadedGame(game_id, record, game_for(record.kind, record.rules), seat), seat

    async def leave_game(self, caller: Caller | str | None, game_id: str) -> LoadedGame:
        """The player's joined seats open again; only before the game starts."""
        player = await self.player_of(caller)
        record = await lobby.leave(self.store, game_id, player)
        return LoadedGame(game_id, record, game_for(record.kind, record.rules), None)

    async def lobby(self, game_id: str) -> Lobby:
        """The game's join code, invite link and open seats (a game without open seats at
        create has no code). Anyone who may read the game may read this."""
        record, _ = await self.store.load(game_id)
        if record is None:
            raise not_found(game_id)
        code = (await lobby.lobby_of(self.store, game_id)).get("code")
        invite = f"{self.invite_base_url}{code}" if code and self.invite_base_url else None
        seats = [(seat, record.player_ids[seat] is not None) for seat in open_seats(record)]
        return Lobby(game_id, record.tenant, code, invite, seats, not seating.waiting(record))

    async def player_games(
        self, caller: Caller | str | None, only: listing.GameFilter, first: int, after: str | None
    ) -> listing.Page:
        """A page of the games the caller's player sits in or is awaited in, newest first,
        each as its seat sees it."""
        player = await self.player_of(caller)
        only = listing.GameFilter(only.status, only.kind, player.id, None, only.created_after)
        page = await listing.list_games(self.store, player.tenant, only, first, after)
        shown = []
        for cursor, loaded in page.games:
            viewer = player_seat(loaded.id, loaded.record, player, None)
            if viewer is None:
                seen = await self.past_versions.as_seen(loaded, None)
            else:
                seen = LoadedGame(loaded.id, loaded.record, loaded.game, viewer)
            shown.append((cursor, seen))
        return listing.Page(shown, page.end_cursor, page.has_next)

    # Rematch and challenges (core/players/rematch.py, challenges.py; docs/api.md, "Rematch
    # and challenges").

    async def create_challenge(
        self,
        caller: Caller | str | None,
        asked: challenges.Challenge,
        takeback_policy: object = None,
        challenger_id: str | None = None,
    ) -> tuple[LoadedGame, str]:
        """A challenge by the caller's player (a player token), or by the tenant (X-API-Key)
        for `challenger_id`: the game, waiting, and the challenger's seat token."""
        who = await self._who(caller)
        if who.player is not None:
            tenant, challenger = who.player.tenant, who.player.id
        elif who.tenant is None:
            raise KeyNeeded(CREATE_NEEDS_KEY)
        elif challenger_id is None:
            raise challenges.refused(Code.BAD_INPUT, "refusal.challengerNeeded")
        else:
            tenant, challenger = who.tenant, challenger_id
        if not 0 < len(challenger) <= seating.MAX_PLAYER_ID:
            raise Refused(Code.BAD_INPUT, f"a playerId has 1 to {seating.MAX_PLAYER_ID} characters")
        asked = msgspec.structs.replace(asked, takebacks=takebacks.parse_policy(takeback_policy))
        game_id, record, token = await challenges.create(self.store, tenant, challenger, asked)
        seen = 0 if who.player is not None else None  # the tenant sees what it creates live
        return LoadedGame(game_id, record, game_for(record.kind, record.rules), seen), token

    async def decline_challenge(self, caller: Caller | str | None, game_id: str) -> LoadedGame:
        """The challenge ends for everyone: one of its players (a player token) declines."""
        player = await self.player_of(caller)
        record = await challenges.decline(self.store, game_id, player)
        return LoadedGame(game_id, record, game_for(record.kind, record.rules), None)

    async def my_challenges(self, caller: Caller | str | None) -> list[tuple[LoadedGame, int]]:
        """The challenges waiting for the caller's player (a player token), newest first,
        each with the seat kept for it (the player holds none yet: it sees them as a
        spectator would)."""
        player = await self.player_of(caller)
        only = listing.GameFilter("ACTIVE", None, player.id, None, None)
        page = await listing.list_games(self.store, player.tenant, only, listing.MAX_PAGE, None)
        waiting = []
        for _, loaded in page.games:
            seat = challenges.pending_for(loaded.record, player.id)
            if seat is None:
                continue
            if challenges.is_challenge(await lobby.lobby_of(self.store, loaded.id)):
                waiting.append((await self.past_versions.as_seen(loaded, None), seat))
        return waiting

    async def offer_rematch(
        self, caller: Caller | str | None, game_id: str, expires_in: int = rematch.DEFAULT_EXPIRY
    ) -> tuple[LoadedGame, int, str | None]:
        """The game's one rematch (created by the first offer) with the caller's seat taken:
        the game as that seat sees it, the seat and, without a player token, its token."""
        who = await self._who(caller)
        seated = await rematch.offer(self.store, self.tenants_may_act, game_id, who, expires_in)
        return self._seated(seated), seated.seat, seated.token

    async def accept_rematch(
        self, caller: Caller | str | None, game_id: str
    ) -> tuple[LoadedGame, int, str | None]:
        """The caller's seat of the game's rematch taken (named by the game that is over)."""
        who = await self._who(caller)
        seated = await rematch.accept(self.store, self.tenants_may_act, game_id, who)
        return self._seated(seated), seated.seat, seated.token

    async def decline_rematch(self, caller: Caller | str | None, game_id: str) -> LoadedGame:
        """The game's rematch ends for everyone, declined by a seat of the game."""
        who = await self._who(caller)
        record = await rematch.decline(self.store, self.tenants_may_act, game_id, who)
        new_id = rematch.rematch_id(game_id)
        return LoadedGame(new_id, record, game_for(record.kind, record.rules), None)

    async def rematch_of(self, caller: Caller | str | None, game_id: str) -> str | None:
        """The id of the game's rematch once offered, for whoever may read the game."""
        await self.read(game_id, caller)
        return await self.rematch_offered(game_id)

    async def rematch_offered(self, game_id: str) -> str | None:
        """The id of the rematch of a game the caller has read already, once offered."""
        return await rematch.rematch_of(self.store, game_id)

    def _seated(self, seated: rematch.Seated) -> LoadedGame:
        record = seated.record
        game = game_for(record.kind, record.rules)
        return LoadedGame(seated.game_id, record, game, seated.seat)


class Lobby(msgspec.Struct, frozen=True):
    """A game's join code, invite link, open seats (seat, reserved for someone) and whether it
    started."""

    game_id: str
    tenant: str
    code: str | None
    invite_url: str | None
    open_seats: list[tuple[int, bool]]
    started: bool
