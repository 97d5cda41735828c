"""The game service both API adapters call: create, read, apply, history, hints, listings.

It joins the engine (rules) and the store (Redis); the adapters only parse and shape. It
fails one way: `Refused` (service/refusals.py), whose code each adapter translates with one
table. Checks run in a fixed order so every refusal has one clear code: the game exists, the
token fits a seat of it, the idempotency key was not used already, the expected version is
current, then the engine's own checks (game over, seat to act, well-formed, legal).
docs/architecture.md follows an applyMove through here.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import msgspec

from service import metrics
from service.bots import STRATEGIES
from service.bots.hints import HintPool, HintRequest
from service.core import clocks, game_records, listing, takebacks
from service.core.access import (
    KeyNeeded,
    Tenants,
    new_token,
    seat_token,
    spectator_delay,
    tenant_seat,
    viewer_of,
)
from service.core.creation import new_game
from service.core.decisions import (
    LAZY_TIMEOUTS,
    acting,
    advance,
    best_of,
    bot_due,
    bot_seed,
    ended,
    enforce_clock,
    fingerprint,
    history_entries,
    playable,
)
from service.core.folding import Labels, fold_finished
from service.core.loaded import Applied, LoadedGame
from service.core.record_format import RecordVerification, Unverifiable
from service.engine import BadSetup, Game, IllegalMove, casing, check, replay, resume
from service.engine import play as engine_play
from service.engine.play import decode_state, encode_state, to_move
from service.games import games
from service.refusals import Code, Refused
from service.store import (
    FORMAT,
    Done,
    HistoryRecord,
    Record,
    RedisStore,
    UnreadableRecord,
    UpgradeInProgress,
)
from service.store.events import Subscriber
from service.store.jobs import new_game_id
from service.store.records import ACTED_BY_TENANT, Outcome
from service.webhooks.events import of_commit as webhook_events

DEFAULT_BUDGET_MS = 100
MAX_SUGGEST_ITERATIONS = 5000
MAX_IDEMPOTENCY_KEY = 200
RETRIES_WITHOUT_EXPECTED_VERSION = 3
PAST_VERSIONS_KEPT = 256  # delayed spectators' past versions kept per process (_as_seen)
REPLAYS_AT_ONCE = 2


CREATE_NEEDS_KEY = "creating games needs an API key (X-API-Key)"
SEED_NEEDS_KEY = (
    "choosing the seed needs a tenant's API key (X-API-Key, RULES_API_KEYS) on this server: "
    "leave `seed` out and the server draws one"
)
LIST_NEEDS_KEY = "listing games needs the tenant's API key (X-API-Key)"
ABANDON_NEEDS_KEY = "abandoning needs the game's API key"
MOVES_NEED_TOKEN = "moves need a seat token, or the game's tenant's API key and asSeat"
WEBHOOKS_NEED_KEY = "webhooks are managed with the tenant's API key (X-API-Key)"
# what decisions.playable refuses: a game this release may read but not play
UNPLAYABLE = (Code.UPGRADE_IN_PROGRESS, Code.RULES_CHANGED)


def _refused(exc: IllegalMove, version: int) -> Refused:
    return Refused(exc.code, exc.message, version, exc.reason, exc.rule, exc.localized)


def _not_found(game_id: str) -> Refused:
    return Refused(Code.NOT_FOUND, f"no game {game_id!r}")


class Caller(msgspec.Struct, frozen=True):
    """Who asks: a seat token, and the tenant its X-API-Key names (None: no or an unknown
    key) with the seat it acts for (`as_seat`; access.viewer_of). Neither: a spectator."""

    token: str | None = None
    tenant: str | None = None
    as_seat: int | None = None

    @property
    def for_tenant(self) -> bool:
        """The tenant acts for a seat (no token): its decisions are recorded as such."""
        return self.as_seat is not None and self.token is None


def _stale(version: int, expected: int) -> Refused:
    return Refused(Code.STALE_VERSION, f"the game is at version {version}, not {expected}", version)


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
    ) -> None:
        self.store = store
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
        # (game id, version) -> (record, state) as delayed spectators see it, least recently
        # used first (dicts keep their order)
        self.past_versions: dict[tuple[str, int], tuple[Record, Any]] = {}
        # game records replayed at once by this process, each on a thread of its own: the
        # replay is CPU-bound (game_records.MAX_STEPS bounds one) and the event loop goes on
        self.replays = asyncio.Semaphore(REPLAYS_AT_ONCE)

    def _viewer(self, game_id: str, record: Record, caller: Caller) -> int | None:
        """The seat `caller` acts as in this game; None for a spectator."""
        return viewer_of(
            game_id, record, caller.token, caller.tenant, self.tenants_may_act, caller.as_seat
        )

    def _seat(self, game_id: str, record: Record, caller: Caller) -> int:
        """The seat a decision is made for."""
        seat = self._viewer(game_id, record, caller)
        if seat is None:
            raise Refused(Code.UNAUTHORIZED, MOVES_NEED_TOKEN)
        return seat

    def tenant_of(self, api_key: str | None) -> str | None:
        """The tenant an X-API-Key names; None for no or an unknown key (access.Tenants)."""
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
        except BadSetup as exc:
            raise Refused(Code.BAD_INPUT, exc.message) from None
        record = msgspec.structs.replace(record, takebacks=takebacks.parse_policy(takeback_policy))
        game = games()[kind]
        history = history_entries(0, played.steps)
        due = bot_due(game, played.state, record.bots)
        game_id = new_game_id()
        while not await self.store.create(
            game_id, record, history, due, webhook_events(game_id, None, record, history)
        ):
            game_id = new_game_id()
        metrics.GAMES_CREATED.labels(kind).inc()
        return LoadedGame(game_id, record, game, None, played.state), tokens

    async def resign(
        self, game_id: str, caller: Caller | str | None, expected_version: int | None
    ) -> Applied:
        """The caller's seat gives up: the game is over, the best of the other seats win."""
        caller = _caller(caller)
        record, _ = await self._load(game_id, caller, None)
        seat = self._seat(game_id, record, caller)
        if expected_version is not None and expected_version != record.version:
            raise _stale(record.version, expected_version)
        game = games()[record.kind]
        playable(game_id, record, game)
        winners = best_of(game.scores(decode_state(game, record.state)), exclude=seat)
        outcome = Outcome("RESIGNED", seat, winners)
        by = ACTED_BY_TENANT if caller.for_tenant else ""
        return await self.end(game_id, record, outcome, seat, f"seat {seat} resigned", by)

    async def abandon(self, game_id: str, tenant: str | None) -> Applied:
        """The game's tenant calls it off: ABANDONED, no winners. Another tenant's key is
        told there is no such game (it may not learn which games exist)."""
        if tenant is None:
            raise KeyNeeded(ABANDON_NEEDS_KEY)
        record, _ = await self.store.load(game_id)
        if record is None or record.tenant != tenant:
            raise _not_found(game_id)
        outcome = Outcome("ABANDONED", None, [])
        return await self.end(game_id, record, outcome, -1, "abandoned by its tenant")

    async def end(
        self, game_id: str, record: Record, outcome: Outcome, seat: int, label: str, by: str = ""
    ) -> Applied:
        """One version more that ends the game without a move of its rules: a history entry
        labelled `outcome.reason`, the event, the metric, all in one version-checked commit."""
        if record.finished or record.outcome is not None:
            raise Refused(Code.GAME_OVER, "the game is over", record.version)
        version = record.version + 1
        ended_record = msgspec.structs.replace(
            record,
            format=FORMAT,
            version=version,
            finished=True,
            updated=time.time(),
            acting=[],
            outcome=outcome,
            deadline=None,
        )
        entry = HistoryRecord(version, seat, None, label, event=outcome.reason, acted_by=by)
        events = webhook_events(game_id, record, ended_record, [entry])
        committed = await self.store.commit(
            game_id, record.version, ended_record, [entry], None, events=events
        )
        if committed.outcome == "gone":
            raise _not_found(game_id)
        if committed.outcome != "ok":
            raise Refused(
                Code.STALE_VERSION,
                f"another decision was accepted first; the game is at version {committed.version}",
                committed.version,
            )
        metrics.GAMES_ENDED.labels(record.kind, outcome.reason).inc()
        await fold_finished(self.store, game_id, ended_record)
        viewer = seat if seat >= 0 else None
        return Applied(LoadedGame(game_id, ended_record, games()[record.kind], viewer))

    async def read(self, game_id: str, caller: Caller | str | None) -> LoadedGame:
        """The game as the caller's seat sees it (no token nor seat: a spectator, kept
        `spectatorDelay` versions behind unless it is the game's tenant: `_as_seen`)."""
        caller = _caller(caller)
        record, _ = await self.store.load(game_id)
        if record is None:
            raise _not_found(game_id)
        viewer = self._viewer(game_id, record, caller)
        if clocks.due(record, time.time()):
            record = await self._timeouts(game_id, record)
            if record is None:
                raise _not_found(game_id)
        loaded = LoadedGame(game_id, record, games()[record.kind], viewer)
        if record.bots and not record.finished and self.store.queues_after_commit(game_id):
            await self._requeue_if_stuck(loaded)
        return await self._as_seen(loaded, caller.tenant)

    async def _as_seen(self, loaded: LoadedGame, tenant: str | None) -> LoadedGame:
        """The one place the spectator delay is applied (issue 32): `loaded` as its viewer may
        see it, the game as of `spectatorDelay` versions ago for a delayed spectator
        (access.spectator_delay), rebuilt as `stateAt` rebuilds a past version. Every answer
        read from it follows: version, status, toAct, state, scores, history (cut at its
        version), `stateAt` (later versions OUT_OF_RANGE, as the future is), events, ETags.
        Its clock shows no deadline nor remaining time, and no takeback request shows: they
        would tell the live game."""
        record = loaded.record
        delay = spectator_delay(record, loaded.viewer, tenant, self.tenants.keyed)
        if delay == 0:
            return loaded
        version = max(record.version - delay, 0)
        # a streamed game's spectators all read the same past version: rebuilt once per
        # process (a game's version v never changes once committed)
        known = self.past_versions.pop((loaded.id, version), None)
        if known is None:
            then = await self.at_version(loaded, version)
            shown = msgspec.structs.replace(
                then.record,
                acting=acting(then.game, then.state),
                deadline=None,
                remaining=[],
                outcome=None,
                takeback=None,  # a request waiting now is live news too
            )
            known = shown, then.state
        self.past_versions[(loaded.id, version)] = known
        while len(self.past_versions) > PAST_VERSIONS_KEPT:
            del self.past_versions[next(iter(self.past_versions))]
        return LoadedGame(loaded.id, known[0], loaded.game, None, known[1], delay=delay)

    def events(
        self, game_id: str, on_drop: Callable[[], None]
    ) -> AbstractAsyncContextManager[Subscriber]:
        """The game's new versions as they are committed, for one subscriber (gameEvents):
        subscribe first, then read the game, so no version falls between the two."""
        return self.store.events(game_id, on_drop)

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
        """A page of the caller's tenant's games, newest first (service/core/listing.py)."""
        if tenant is None:
            raise KeyNeeded(LIST_NEEDS_KEY)
        page = await listing.list_games(self.store, tenant, only, first, after)
        if not any(loaded.record.spectator_delay for _, loaded in page.games):
            return page
        # each game as a spectator sees it (_as_seen): live for its keyed tenant, else delayed;
        # a delayed game that does not match `toActPlayerId` as seen is left out (the index
        # knows the live turn, which a spectator may not learn)
        shown = []
        for cursor, loaded in page.games:
            seen = await self._as_seen(loaded, tenant)
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
        kind = "unknown"  # the game's kind once it is loaded, for the metrics
        caller = _caller(caller)
        try:
            self.check_idempotency_key(idempotency_key)
            for _ in range(RETRIES_WITHOUT_EXPECTED_VERSION):
                record, done = await self._load(game_id, caller, idempotency_key)
                kind = record.kind
                seat = self._seat(game_id, record, caller)
                by = ACTED_BY_TENANT if caller.for_tenant else ""
                applied = await self._decide(
                    game_id, record, seat, done, move, expected_version, idempotency_key, by
                )
                if applied is not None:
                    metrics.child(metrics.MOVES, kind, "ACCEPTED").inc()
                    return applied
            raise Refused(Code.STALE_VERSION, "other moves kept winning the race; try again")
        except Refused as refused:
            metrics.child(metrics.MOVES, kind, refused.code.value).inc()
            raise

    @staticmethod
    def check_idempotency_key(idempotency_key: str | None) -> None:
        if idempotency_key is not None and not 0 < len(idempotency_key) <= MAX_IDEMPOTENCY_KEY:
            raise Refused(
                Code.MALFORMED_MOVE,
                f"idempotencyKey must have 1 to {MAX_IDEMPOTENCY_KEY} characters",
            )

    async def request_takeback(
        self,
        game_id: str,
        caller: Caller | str | None,
        expected_version: int | None,
        idempotency_key: str | None,
    ) -> Applied:
        """The caller's seat takes back its last decision, or asks the others to agree
        (service/core/takebacks.py)."""
        return await takebacks.ask(
            self, game_id, _caller(caller), expected_version, idempotency_key
        )

    async def answer_takeback(
        self,
        game_id: str,
        caller: Caller | str | None,
        accept: bool,
        expected_version: int | None,
        idempotency_key: str | None,
    ) -> Applied:
        """The caller's seat accepts or declines the pending takeback request."""
        return await takebacks.answer(
            self, game_id, _caller(caller), accept, expected_version, idempotency_key
        )

    # what service/core/takebacks.py shares with applyMove: loading, the seat, replays
    async def load_for(
        self, game_id: str, caller: Caller, idempotency_key: str | None
    ) -> tuple[Record, Done | None]:
        return await self._load(game_id, caller, idempotency_key)

    def seat_for(self, game_id: str, record: Record, caller: Caller) -> int:
        return self._seat(game_id, record, caller)

    async def replayed(
        self, game_id: str, record: Record, game: Game[Any, Any], seat: int, done: Done, asked: str
    ) -> Applied:
        return await self._replayed(game_id, record, game, seat, done, asked)

    async def _decide(
        self,
        game_id: str,
        record: Record,
        seat: int,
        done: Done | None,
        move: object,
        expected_version: int | None,
        idempotency_key: str | None,
        by: str = "",
    ) -> Applied | None:
        """The move played on `record` and committed, its entry acted `by` (HistoryRecord);
        None when another request with the same idempotency key won the race or, without an
        expected version, another move did (the caller loads the game again)."""
        game = games()[record.kind]
        if idempotency_key is not None:  # "GREEN" and "green" are one move (engine/casing.py)
            move = casing.json_move(game.move_type, move)
        asked = fingerprint(game_id, seat, move, expected_version)
        if done is not None:
            return await self._replayed(game_id, record, game, seat, done, asked)
        if expected_version is not None and expected_version != record.version:
            raise _stale(record.version, expected_version)
        if record.outcome is not None:
            raise ended(record)
        playable(game_id, record, game)
        state = decode_state(game, record.state)
        try:
            played = engine_play(game, state, seat, move, copy=False)
        except IllegalMove as exc:
            raise _refused(exc, record.version) from None
        new_record, history = advance(record, game, played)
        if by:  # the decision's entry; the forced steps after it are nobody's
            history[0] = msgspec.structs.replace(history[0], acted_by=by)
        field_key = None if idempotency_key is None else f"{seat}:{idempotency_key}"
        committed = await self.store.commit(
            game_id,
            record.version,
            new_record,
            history,
            field_key,
            asked,
            bot_due=bot_due(game, played.state, record.bots),
            events=webhook_events(game_id, record, new_record, history),
        )
        if committed.outcome == "ok":
            if new_record.finished:
                await fold_finished(self.store, game_id, new_record)
            moves = played.options.get(seat)
            return Applied(LoadedGame(game_id, new_record, game, seat, played.state, moves))
        if committed.outcome == "gone":
            raise _not_found(game_id)
        if committed.outcome == "dup":
            return None  # another request with this key won the race; load its result
        metrics.VERSION_CONFLICTS.labels(record.kind).inc()
        if expected_version is not None:
            raise Refused(
                Code.STALE_VERSION,
                f"another move was accepted first; the game is at version {committed.version}",
                committed.version,
            )
        return None

    async def _replayed(
        self, game_id: str, record: Record, game: Game[Any, Any], seat: int, done: Done, asked: str
    ) -> Applied:
        """The first answer to a key already used: the game as of the version its move made.
        Entries of earlier releases have no fingerprint and records of earlier releases no
        options: those answer the game as it is now, as those releases did; so do games created
        under other rules than this release's (no replay by other rules). With
        RULES_REPLICA_ACK it too waits for the replicas (the first try may have answered
        UNAVAILABLE because they had not confirmed the move)."""
        if done.fingerprint is not None and done.fingerprint != asked:
            raise Refused(
                Code.IDEMPOTENCY_KEY_REUSED,
                "this idempotencyKey was used with a different request; use a new key",
                record.version,
            )
        await self.store.confirm_replicated(game_id)
        loaded = LoadedGame(game_id, record, game, seat)
        if (
            done.fingerprint is None
            or record.options is None
            or record.rules != game.rules_version
            or done.version == record.version
        ):
            return Applied(loaded, replayed=True)
        return Applied(await self._then(loaded, done.version), True)

    async def at_version(self, loaded: LoadedGame, version: int) -> LoadedGame:
        """The game as of `version` (0 up to its own), seen by the same viewer: replayed from
        the latest checkpoint at or below it (else the seed and the options) and the history's
        decisions after it, at most about records.CHECKPOINT_EVERY. A version inside a run of forced
        steps answers the state before the decision that started it: the run was committed
        in one step, so no client ever saw the states inside it (nor anything they reveal)."""
        record = loaded.record
        if not 0 <= version <= record.version:
            raise Refused(
                Code.OUT_OF_RANGE, f"version is 0 to {record.version} for this game, not {version}"
            )
        if version == record.version:
            return loaded
        if record.options is None:
            raise Refused(
                Code.OUT_OF_RANGE, "this game was created by an older release: no past versions"
            )
        if record.rules != loaded.game.rules_version:
            raise Refused(
                Code.OUT_OF_RANGE,
                f"this game was created under version {record.rules} of its rules and this "
                f"release has version {loaded.game.rules_version}: its past versions cannot be "
                "rebuilt here",
            )
        return await self._then(loaded, version)

    async def _then(self, loaded: LoadedGame, version: int) -> LoadedGame:
        """`loaded` replayed up to `version` (below its own); see `at_version` for a version
        inside a run of forced steps."""
        record, game = loaded.record, loaded.game
        state = await self.state_at(loaded, version)
        then = msgspec.structs.replace(
            record,
            version=version,
            finished=game.is_over(state),
            state=encode_state(state),
        )
        return LoadedGame(loaded.id, then, game, loaded.viewer, state)

    async def state_at(self, loaded: LoadedGame, version: int) -> Any:
        """The game's state at `version` (at most its own), replayed as `_then` says. A
        takeback at or below `version` (service/core/takebacks.py) restarts the replay from the
        state of the version it went back to, found the same way."""
        record, game = loaded.record, loaded.game
        assert record.options is not None
        # a checkpoint is a committed version, never inside a run: the decision that starts
        # the run `version` may be inside comes after it
        checkpoint = await self.store.checkpoint(loaded.id, version)
        after = 0 if checkpoint is None else checkpoint.version
        entries = await self.store.history(loaded.id, after, version + 1)
        taken = [
            e
            for e in entries
            if e.version <= version and e.takeback is not None and e.takeback.step == "TAKEN"
        ]
        base = None
        if taken:  # a state from before the checkpoint, perhaps: found on its own
            assert taken[-1].takeback is not None
            base = await self.state_at(loaded, taken[-1].takeback.to_version)
            entries = [e for e in entries if e.version > taken[-1].version]
        decided = [e for e in entries if e.version <= version and not e.forced]
        decided = [e for e in decided if e.move is not None]  # events (resign...) are no moves
        inside_run = any(e.version == version + 1 and e.forced for e in entries)
        if inside_run and decided:
            decided.pop()
        decisions = [(e.seat, e.move) for e in decided]
        if base is not None:
            return resume(game, base, decisions)
        if checkpoint is None:
            return replay(game, record.players, record.options, record.seed, decisions)
        return resume(game, decode_state(game, checkpoint.state), decisions)

    async def _load(
        self, game_id: str, caller: Caller, idempotency_key: str | None
    ) -> tuple[Record, Done | None]:
        """The record, its due timeouts applied (LAZY_TIMEOUTS at most: a game still due then is
        taken as it is, the workers catch up), and with a key the caller's seat's entry for it
        (the same entry whether the seat's token or its tenant made the move)."""
        parsed = seat_token(caller.token) if caller.token else None
        seat = parsed[0] if parsed is not None else caller.as_seat
        field_key = None
        if idempotency_key is not None and seat is not None:
            field_key = f"{seat}:{idempotency_key}"
        record, done = await self.store.load(game_id, field_key)
        if record is not None and clocks.due(record, time.time()):
            # the time ran out before this request came: the timeout first, then the request
            record = await self._timeouts(game_id, record)
        if record is None:
            raise _not_found(game_id)
        return record, done

    async def _timeouts(self, game_id: str, record: Record) -> Record | None:
        """The record once its due timeouts are applied, LAZY_TIMEOUTS at most; a game this
        release may not play (decisions.playable) is taken as it is: its clock is left to a
        release that may (the request itself is refused, or answered if it only reads)."""
        try:
            return await enforce_clock(self.store, game_id, record, limit=LAZY_TIMEOUTS)
        except Refused as refused:
            if refused.code not in UNPLAYABLE:
                raise
            return record

    async def validate(
        self, game_id: str, caller: Caller | str | None, move: object
    ) -> Refused | None:
        """A dry run of `apply`: the refusal it would give now, or None. Writes nothing."""
        caller = _caller(caller)
        try:
            record, _ = await self._load(game_id, caller, None)
            seat = self._seat(game_id, record, caller)
        except Refused as refused:
            if refused.code not in (Code.NOT_FOUND, Code.UNAUTHORIZED):
                raise  # the store's faults (UNAVAILABLE, UNREADABLE_RECORD) are no verdict
            return refused
        if record.outcome is not None:
            return ended(record)
        game = games()[record.kind]
        try:
            check(game, decode_state(game, record.state), seat, move)
        except IllegalMove as exc:
            return _refused(exc, record.version)
        return None

    async def suggest(
        self,
        game_id: str,
        caller: Caller | str | None,
        strategy: str,
        budget_ms: int | None,
        iterations: int | None,
        seed: int | None,
    ) -> tuple[int, Any, str]:
        """A hint for the caller's seat: the seat, a legal move and its label. With `iterations`
        the answer is reproducible; else SEARCH stops after `budget_ms` (capped)."""
        caller = _caller(caller)
        record, _ = await self._load(game_id, caller, None)
        seat, game = self._seat(game_id, record, caller), games()[record.kind]
        state = decode_state(game, record.state)
        if game.is_over(state) or record.outcome is not None:
            raise Refused(Code.GAME_OVER, "the game is over", record.version)
        if seat not in game.to_act(state):
            raise Refused(Code.NOT_YOUR_TURN, f"seat {seat} does not act now", record.version)
        if strategy not in STRATEGIES:
            raise Refused(Code.MALFORMED_MOVE, f"strategy is one of {STRATEGIES}")
        budget_ms = max(min(budget_ms or DEFAULT_BUDGET_MS, self.max_suggest_ms), 1)
        if iterations is not None:
            iterations = min(max(iterations, 1), MAX_SUGGEST_ITERATIONS)
            budget_ms = self.max_suggest_ms  # iterations, but never past the time cap (#15)
        request = HintRequest(
            record.kind,
            record.state,
            seat,
            strategy,
            str(seed if seed is not None else bot_seed(record.seed, record.version)),
            iterations,
            budget_ms,
        )
        move, label = await self.hints.suggest(request)
        return seat, to_move(game, move), label

    async def history(self, loaded: LoadedGame, after: int | None) -> list[HistoryRecord]:
        """Entries after `after` up to the game's version (a replayed answer is an earlier
        version of the game than the one stored)."""
        after = min(max(after or 0, 0), loaded.record.version)
        if after == loaded.record.version:
            return []
        entries, digest = await self.store.read_history(loaded.id, after, loaded.record.version)
        if digest is None:
            return entries
        return await self.labels.relabel(loaded.id, loaded.record, entries, digest)

    async def export_record(self, game_id: str, caller: Caller | str | None) -> dict[str, Any]:
        """The portable record of a game that is over (service/core/game_records.py), for
        whoever may read its history and seed reveal: anyone, once it is over. Before, the
        record would tell the seed, and with it every hidden card (RULINGS ALL-4)."""
        loaded = await self.read(game_id, caller)
        record, game = loaded.record, loaded.game
        if not record.finished:
            raise Refused(
                Code.GAME_NOT_OVER,
                "a game's record is given once the game is over: it reveals the seed",
                record.version,
            )
        if record.options is None:
            raise Refused(
                Code.OUT_OF_RANGE, "this game was created by an older release: it has no record"
            )
        if record.rules > game.rules_version:
            raise UpgradeInProgress(game_id, f"{record.kind} rules {record.rules}")
        if record.rules < game.rules_version:
            raise Refused(
                Code.RULES_CHANGED,
                f"this game was played under version {record.rules} of the rules of "
                f"{record.kind}, which this release no longer has: it cannot replay it",
            )
        entries, _ = await self.store.read_history(game_id, 0, record.version)
        async with self.replays:
            try:
                exported = await asyncio.to_thread(game_records.export, game_id, record, entries)
            except Unverifiable as failed:  # the stored history does not replay
                raise UnreadableRecord(game_id, f"record: {failed.difference}") from None
        document: dict[str, Any] = msgspec.to_builtins(exported)
        return document

    async def verify_record(self, document: object) -> RecordVerification:
        """Whether a game record replays step by step to its result (game_records.verify),
        on this instance's engine alone: no stored game is read."""
        async with self.replays:
            return await asyncio.to_thread(game_records.verify, document)

    async def reissue_token(
        self, game_id: str, tenant: str | None, seat: int
    ) -> tuple[str, str | None]:
        """A new token for a human seat of the tenant's game (access.tenant_seat) and the
        seat's player id; the seat's
        earlier tokens stop working with the next request, on every replica (every request
        loads the record and its reissued tokens: RedisStore.load)."""
        record, _ = await self.store.load(game_id)
        if record is None:
            raise _not_found(game_id)
        tenant_seat(game_id, record, tenant, self.tenants_may_act, seat)
        token, token_hash = new_token(seat)
        if not await self.store.reissue(game_id, seat, token_hash):
            raise _not_found(game_id)
        metrics.TOKENS_REISSUED.inc()
        ids = record.player_ids
        return token, ids[seat] if seat < len(ids) else None


def _caller(caller: Caller | str | None) -> Caller:
    """A bare token (or None) is the caller with that token and nothing else."""
    return caller if isinstance(caller, Caller) else Caller(token=caller)
