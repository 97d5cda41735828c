"""The game service both API adapters call: create, read, apply, history.

It joins the engine (rules) and the store (Redis); the adapters only parse and shape.
Checks run in a fixed order so every refusal has one clear code: the game exists, the token
fits a seat of it, the idempotency key was not used already, the expected version is current,
then the engine's own checks (game over, seat to act, well-formed, legal).
"""

from __future__ import annotations

import hmac
import secrets
import time
from typing import Any

import msgspec

from service import metrics
from service.api import clocks
from service.api.folding import Labels, fold_finished
from service.api.hints import HintPool, HintRequest
from service.api.parsing import seat_token
from service.api.table import (
    DEFAULT_TENANT,
    Applied,
    NoPastState,
    Rejected,
    Table,
    Unauthorized,
    acting,
    advance,
    best_of,
    bot_due,
    bot_seed,
    ended,
    enforce_clock,
    fingerprint,
    history_entries,
    key_hash,
    new_token,
    parse_api_keys,
    seat_of,
)
from service.bots import STRATEGIES
from service.engine import (
    BadSetup,
    Game,
    IllegalMove,
    RejectCode,
    check,
    games,
    replay,
)
from service.engine import play as engine_play
from service.engine import start as engine_start
from service.engine.play import decode_state, encode_state, to_move
from service.store import FORMAT, Done, HistoryRecord, Record, RedisStore
from service.store.jobs import new_game_id
from service.store.records import Outcome
from service.webhooks.events import of_commit as webhook_events

MAX_SEED = 200
MAX_PLAYER_ID = 128
DEFAULT_BUDGET_MS = 100
MAX_SUGGEST_ITERATIONS = 5000
MAX_IDEMPOTENCY_KEY = 200
RETRIES_WITHOUT_EXPECTED_VERSION = 3


class Tables:
    def __init__(
        self,
        store: RedisStore,
        api_keys: tuple[str, ...] = (),
        max_suggest_ms: int = 1000,
        hints: HintPool | None = None,
        requeue_after: float = 30.0,
    ) -> None:
        self.store = store
        self.tenants = parse_api_keys(api_keys)
        self.max_suggest_ms = max_suggest_ms
        self.hints = hints or HintPool(1)
        self.requeue_after = requeue_after
        self.labels = Labels(store)

    def tenant_of(self, api_key: str | None) -> str | None:
        """The tenant an X-API-Key names (every key compared, in constant time); None for no
        or an unknown key. Without RULES_API_KEYS every caller is the one default tenant."""
        if not self.tenants:
            return DEFAULT_TENANT
        offered = key_hash(api_key or "")
        found = None
        for tenant, known in self.tenants:
            if hmac.compare_digest(offered, known):
                found = tenant
        return found

    def may_create(self, api_key: str | None) -> bool:
        """With RULES_API_KEYS set, creating a game needs one of those keys."""
        return self.tenant_of(api_key) is not None

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
    ) -> tuple[Table, dict[int, str]]:
        """A new game and the tokens of its human seats (bot seats get none: nobody may see
        or act as a bot's seat)."""
        tenant = self.tenant_of(api_key)
        if tenant is None:
            raise Unauthorized
        game = games().get(kind)
        if game is None:
            raise BadSetup(f"{kind} is not available on this server")
        if seed is not None and len(seed) > MAX_SEED:
            raise BadSetup(f"the seed may have at most {MAX_SEED} characters")
        bots = bots or {}
        if any(seat not in range(players) for seat in bots) or len(bots) >= players:
            raise BadSetup("bots must name seats of the game and leave at least one human seat")
        if any(strategy not in STRATEGIES for strategy in bots.values()):
            raise BadSetup(f"a bot's strategy is one of {', '.join(STRATEGIES)}")
        player_ids = player_ids or []
        if len(player_ids) > players:
            raise BadSetup("playerIds has one entry per seat, at most `players` of them")
        if any(p is not None and not 0 < len(p) <= MAX_PLAYER_ID for p in player_ids):
            raise BadSetup(f"a playerId has 1 to {MAX_PLAYER_ID} characters")
        turn_clock = clocks.parse_clock(clock)
        salt = "" if seed is not None else secrets.token_hex(16)
        seed = seed if seed is not None else secrets.token_hex(16)
        played = engine_start(game, players, options, seed)
        tokens = {seat: new_token(seat) for seat in range(players) if seat not in bots}
        now = time.time()
        record = Record(
            format=FORMAT,
            kind=kind,
            players=players,
            version=len(played.steps),
            finished=game.is_over(played.state),
            seed=seed,
            token_hashes=[tokens[seat][1] if seat in tokens else b"" for seat in range(players)],
            state=encode_state(played.state),
            created=now,
            updated=now,
            bots=bots,
            options=options if options is not None else {},
            tenant=tenant,
            player_ids=[*player_ids, *[None] * (players - len(player_ids))],
            acting=acting(game, played.state),
            salt=salt,
            clock=turn_clock,
        )
        record = clocks.started(record)
        history, due = history_entries(0, played.steps), bot_due(game, played.state, bots)
        game_id = new_game_id()
        while not await self.store.create(
            game_id, record, history, due, webhook_events(game_id, None, record, history)
        ):
            game_id = new_game_id()
        metrics.GAMES_CREATED.labels(kind).inc()
        table = Table(game_id, record, game, None, played.state)
        return table, {seat: token for seat, (token, _) in tokens.items()}

    async def resign(
        self, game_id: str, token: str | None, expected_version: int | None
    ) -> Applied | Rejected:
        """The token's seat gives up: the game is over, the best of the other seats win."""
        record, seat_or_rejection = await self._load_for_move(game_id, token, None)
        if isinstance(seat_or_rejection, Rejected):
            return seat_or_rejection
        assert record is not None
        seat = seat_or_rejection[0]
        if expected_version is not None and expected_version != record.version:
            return Rejected(
                RejectCode.STALE_VERSION,
                f"the game is at version {record.version}, not {expected_version}",
                record.version,
            )
        game = games()[record.kind]
        winners = best_of(game.scores(decode_state(game, record.state)), exclude=seat)
        outcome = Outcome("RESIGNED", seat, winners)
        return await self.end(game_id, record, outcome, seat, f"seat {seat} resigned")

    async def abandon(self, game_id: str, tenant: str | None) -> Applied | Rejected:
        """The game's tenant calls it off: ABANDONED, no winners. Another tenant's key is
        told there is no such game (it may not learn which games exist)."""
        if tenant is None:
            return Rejected(RejectCode.UNAUTHORIZED, "abandoning needs the game's API key")
        record, _ = await self.store.load(game_id)
        if record is None or record.tenant != tenant:
            return Rejected(RejectCode.NOT_FOUND, f"no game {game_id!r}")
        outcome = Outcome("ABANDONED", None, [])
        return await self.end(game_id, record, outcome, -1, "abandoned by its tenant")

    async def end(
        self, game_id: str, record: Record, outcome: Outcome, seat: int, label: str
    ) -> Applied | Rejected:
        """One version more that ends the game without a move of its rules: a history entry
        labelled `outcome.reason`, the event, the metric, all in one version-checked commit."""
        if record.finished or record.outcome is not None:
            return Rejected(RejectCode.GAME_OVER, "the game is over", record.version)
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
        entry = HistoryRecord(version, seat, None, label, event=outcome.reason)
        events = webhook_events(game_id, record, ended_record, [entry])
        committed = await self.store.commit(
            game_id, record.version, ended_record, [entry], None, events=events
        )
        if committed.outcome == "gone":
            return Rejected(RejectCode.NOT_FOUND, f"no game {game_id!r}")
        if committed.outcome != "ok":
            return Rejected(
                RejectCode.STALE_VERSION,
                f"another decision was accepted first; the game is at version {committed.version}",
                committed.version,
            )
        metrics.GAMES_ENDED.labels(record.kind, outcome.reason).inc()
        await fold_finished(self.store, game_id, ended_record)
        viewer = seat if seat >= 0 else None
        return Applied(Table(game_id, ended_record, games()[record.kind], viewer))

    async def read(self, game_id: str, token: str | None) -> Table | None:
        record, _ = await self.store.load(game_id)
        if record is None:
            return None
        viewer = seat_of(record, token)
        if clocks.due(record, time.time()):
            record = await enforce_clock(self.store, game_id, record)
            if record is None:
                return None
        table = Table(game_id, record, games()[record.kind], viewer)
        if record.bots and not record.finished and self.store.queues_after_commit(game_id):
            await self._requeue_if_stuck(table)
        return table

    async def _requeue_if_stuck(self, table: Table) -> None:
        """A game from before the lanes, on a cluster, whose bot turn was not queued (the
        process that committed died before appending it): queued again once it has waited
        longer than a worker's reclaim timeout."""
        if time.time() - table.record.updated < self.requeue_after:
            return
        seat = bot_due(table.game, table.state, table.record.bots)
        if seat is not None:
            await self.store.requeue(table.id, table.record.version, seat, self.requeue_after)

    async def apply(
        self,
        game_id: str,
        token: str | None,
        move: object,
        expected_version: int | None,
        idempotency_key: str | None,
    ) -> Applied | Rejected:
        kind, result = await self._apply(game_id, token, move, expected_version, idempotency_key)
        outcome = "ACCEPTED" if isinstance(result, Applied) else result.code.value
        metrics.child(metrics.MOVES, kind, outcome).inc()
        return result

    async def _apply(
        self,
        game_id: str,
        token: str | None,
        move: object,
        expected_version: int | None,
        idempotency_key: str | None,
    ) -> tuple[str, Applied | Rejected]:
        """The game's kind (for the metrics) and the outcome."""
        if idempotency_key is not None and not 0 < len(idempotency_key) <= MAX_IDEMPOTENCY_KEY:
            return "unknown", Rejected(
                RejectCode.MALFORMED_MOVE,
                f"idempotencyKey must have 1 to {MAX_IDEMPOTENCY_KEY} characters",
            )
        for _ in range(RETRIES_WITHOUT_EXPECTED_VERSION):
            record, seat_or_rejection = await self._load_for_move(game_id, token, idempotency_key)
            if isinstance(seat_or_rejection, Rejected):
                return record.kind if record else "unknown", seat_or_rejection
            seat, done = seat_or_rejection
            assert record is not None
            kind, game = record.kind, games()[record.kind]
            asked = fingerprint(game_id, seat, move, expected_version)
            if done is not None:
                return kind, await self._replayed(game_id, record, game, seat, done, asked)
            if expected_version is not None and expected_version != record.version:
                return kind, Rejected(
                    RejectCode.STALE_VERSION,
                    f"the game is at version {record.version}, not {expected_version}",
                    record.version,
                )
            if record.outcome is not None:
                return kind, ended(record)
            state = decode_state(game, record.state)
            try:
                played = engine_play(game, state, seat, move, copy=False)
            except IllegalMove as exc:
                return kind, Rejected(exc.code, exc.message, record.version, exc.reason, exc.rule)
            new_record, history = advance(record, game, played)
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
                return kind, Applied(Table(game_id, new_record, game, seat, played.state, moves))
            if committed.outcome == "gone":
                return kind, Rejected(RejectCode.NOT_FOUND, f"no game {game_id!r}")
            if committed.outcome == "dup":
                continue  # another request with this key won the race; load its result
            metrics.VERSION_CONFLICTS.labels(record.kind).inc()
            if expected_version is not None:
                return kind, Rejected(
                    RejectCode.STALE_VERSION,
                    f"another move was accepted first; the game is at version {committed.version}",
                    committed.version,
                )
        return "unknown", Rejected(
            RejectCode.STALE_VERSION, "other moves kept winning the race; try again", None
        )

    async def _replayed(
        self, game_id: str, record: Record, game: Game[Any, Any], seat: int, done: Done, asked: str
    ) -> Applied | Rejected:
        """The first answer to a key already used: the game as of the version its move made.
        Entries of earlier releases have no fingerprint and records of earlier releases no
        options: those answer the game as it is now, as those releases did."""
        if done.fingerprint is not None and done.fingerprint != asked:
            return Rejected(
                RejectCode.IDEMPOTENCY_KEY_REUSED,
                "this idempotencyKey was used with a different request; use a new key",
                record.version,
            )
        if done.fingerprint is None or record.options is None or done.version == record.version:
            return Applied(Table(game_id, record, game, seat), replayed=True)
        return Applied(await self._then(Table(game_id, record, game, seat), done.version), True)

    async def at_version(self, table: Table, version: int) -> Table:
        """The table as of `version` (0 up to its own), seen by the same viewer: replayed from
        the seed, the options and the history's decisions. A version inside a run of forced
        steps answers the state before the decision that started it: the run was committed
        in one step, so no client ever saw the states inside it (nor anything they reveal)."""
        record = table.record
        if not 0 <= version <= record.version:
            raise NoPastState(f"version is 0 to {record.version} for this game, not {version}")
        if version == record.version:
            return table
        if record.options is None:
            raise NoPastState("this game was created by an older release: no past versions")
        return await self._then(table, version)

    async def _then(self, table: Table, version: int) -> Table:
        """`table` replayed up to `version` (below its own); see `at_version` for a version
        inside a run of forced steps."""
        record, game = table.record, table.game
        assert record.options is not None
        entries = await self.store.history(table.id, 0, version + 1)
        decided = [e for e in entries if e.version <= version and not e.forced]
        decided = [e for e in decided if e.move is not None]  # events (resign...) are no moves
        inside_run = any(e.version == version + 1 and e.forced for e in entries)
        if inside_run and decided:
            decided.pop()
        decisions = [(e.seat, e.move) for e in decided]
        state = replay(game, record.players, record.options, record.seed, decisions)
        then = msgspec.structs.replace(
            record,
            version=version,
            finished=game.is_over(state),
            state=encode_state(state),
        )
        return Table(table.id, then, game, table.viewer, state)

    async def _load_for_move(
        self, game_id: str, token: str | None, idempotency_key: str | None
    ) -> tuple[Record | None, tuple[int, Done | None] | Rejected]:
        """Load the record and, if the token is valid, the idempotency entry of its seat."""
        parsed = seat_token(token) if token else None
        field_key = None
        if idempotency_key is not None and parsed is not None:
            field_key = f"{parsed[0]}:{idempotency_key}"
        record, done = await self.store.load(game_id, field_key)
        if record is not None and clocks.due(record, time.time()):
            # the time ran out before this request came: the timeout first, then the request
            record = await enforce_clock(self.store, game_id, record)
        if record is None:
            return None, Rejected(RejectCode.NOT_FOUND, f"no game {game_id!r}")
        try:
            seat = seat_of(record, token)
        except Unauthorized:
            return record, Rejected(
                RejectCode.UNAUTHORIZED, "that token is not a seat of this game"
            )
        if seat is None:
            return record, Rejected(RejectCode.UNAUTHORIZED, "moves need a seat token")
        return record, (seat, done)

    async def validate(self, game_id: str, token: str | None, move: object) -> Rejected | None:
        """A dry run of `apply`: the rejection it would give now, or None. Writes nothing."""
        record, seat_or_rejection = await self._load_for_move(game_id, token, None)
        if isinstance(seat_or_rejection, Rejected):
            return seat_or_rejection
        assert record is not None
        if record.outcome is not None:
            return ended(record)
        game = games()[record.kind]
        try:
            check(game, decode_state(game, record.state), seat_or_rejection[0], move)
        except IllegalMove as exc:
            return Rejected(exc.code, exc.message, record.version, exc.reason, exc.rule)
        return None

    async def suggest(
        self,
        game_id: str,
        token: str | None,
        strategy: str,
        budget_ms: int | None,
        iterations: int | None,
        seed: int | None,
    ) -> tuple[int, Any, str] | Rejected:
        """A hint for the token's seat: the seat, a legal move and its label. With `iterations` the
        answer is reproducible; else SEARCH stops after `budget_ms` (capped)."""
        record, seat_or_rejection = await self._load_for_move(game_id, token, None)
        if isinstance(seat_or_rejection, Rejected):
            return seat_or_rejection
        assert record is not None
        seat, game = seat_or_rejection[0], games()[record.kind]
        state = decode_state(game, record.state)
        if game.is_over(state) or record.outcome is not None:
            return Rejected(RejectCode.GAME_OVER, "the game is over", record.version)
        if seat not in game.to_act(state):
            return Rejected(
                RejectCode.NOT_YOUR_TURN, f"seat {seat} does not act now", record.version
            )
        if strategy not in STRATEGIES:
            return Rejected(RejectCode.MALFORMED_MOVE, f"strategy is one of {STRATEGIES}")
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

    async def history(self, table: Table, after: int | None) -> list[HistoryRecord]:
        """Entries after `after` up to the table's version (a replayed answer is an earlier
        version of the game than the one stored)."""
        after = min(max(after or 0, 0), table.record.version)
        if after == table.record.version:
            return []
        entries, digest = await self.store.read_history(table.id, after, table.record.version)
        if digest is None:
            return entries
        return await self.labels.relabel(table.id, table.record, entries, digest)
