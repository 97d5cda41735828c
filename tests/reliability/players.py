"""Clients that play the same games concurrently through several service processes and record
every request, and the audit that checks the stored games against that record afterwards."""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import msgspec
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from service.core.game.folding import replayed_steps
from service.engine import encode_state, play, start
from service.games import games
from service.store.records import HistoryRecord, Record, label_digest, unfold

GAME = "query G($id: ID!) { game(id: $id) { version status toAct viewer legalMoves { move } } }"
APPLY = """mutation A($input: ApplyMoveInput!) { applyMove(input: $input) { __typename
  ... on MoveApplied { replayed game { version status } }
  ... on MoveRejected { code currentVersion } } }"""
CREATE = """mutation C($input: CreateGameInput!) {
  createGame(input: $input) { game { id version } seats { token } } }"""

APPLIED, REPLAYED, UNAVAILABLE, TRANSPORT = "APPLIED", "REPLAYED", "UNAVAILABLE", "TRANSPORT"


@dataclass
class PlayedGame:
    id: str
    kind: str
    players: int
    tokens: list[str]
    finished: bool = False


@dataclass
class Request:
    """One HTTP request: what, to which service, when, how long, and how it ended."""

    operation: str
    server: int
    started: float
    seconds: float
    outcome: str  # APPLIED, REPLAYED, a reject code, UNAVAILABLE, TRANSPORT, OK, or an error code
    version: int | None = None


@dataclass
class Intent:
    """One decision a client wants applied, under one idempotency key, with every attempt."""

    game_id: str
    seat: int
    move: Any
    key: str
    seen: int  # the version the client chose the move at
    expected: int | None  # what it sent as expectedVersion
    attempts: list[Request] = field(default_factory=list)

    @property
    def acked(self) -> bool:
        return any(a.outcome in (APPLIED, REPLAYED) for a in self.attempts)

    @property
    def rejected(self) -> str | None:
        if self.acked:
            return None
        codes = [a.outcome for a in self.attempts if a.outcome not in (UNAVAILABLE, TRANSPORT)]
        return codes[0] if codes else None

    @property
    def unknown(self) -> bool:
        return not self.acked and self.rejected is None


@dataclass
class Record_:
    requests: list[Request] = field(default_factory=list)
    intents: list[Intent] = field(default_factory=list)


class Players:
    """`clients` concurrent players over `servers` (base URLs), until a deadline or budget."""

    def __init__(self, servers: list[str], played: list[PlayedGame], seed: int = 0) -> None:
        self.servers = servers
        self.games = played
        self.seed = seed
        self.record = Record_()
        self.stopped = False
        self.http = [
            httpx.AsyncClient(base_url=url, timeout=60, limits=httpx.Limits(max_connections=64))
            for url in servers
        ]

    async def aclose(self) -> None:
        for http in self.http:
            await http.aclose()

    async def post(
        self, server: int, operation: str, query: str, variables: dict[str, Any], token: str | None
    ) -> tuple[Request, dict[str, Any] | None]:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        started = time.monotonic()
        try:
            response = await self.http[server].post(
                "/graphql", json={"query": query, "variables": variables}, headers=headers
            )
            body = response.json()
        except (httpx.HTTPError, ValueError):
            request = Request(operation, server, started, time.monotonic() - started, TRANSPORT)
            self.record.requests.append(request)
            return request, None
        request = Request(operation, server, started, time.monotonic() - started, "OK")
        self.record.requests.append(request)
        if body.get("errors"):
            request.outcome = body["errors"][0].get("extensions", {}).get("code", "ERROR")
            return request, None
        data: dict[str, Any] = body["data"]
        return request, data

    async def create(self, kind: str, players: int, seed: str) -> PlayedGame:
        variables = {"input": {"kind": kind, "players": players, "seed": seed}}
        _, data = await self.post(0, "create", CREATE, variables, None)
        assert data is not None, "creating a game failed"
        payload = data["createGame"]
        tokens = [s["token"] for s in payload["seats"]]
        return PlayedGame(payload["game"]["id"], kind, players, tokens)

    async def read(self, server: int, played_game: PlayedGame, seat: int) -> dict[str, Any] | None:
        _, data = await self.post(
            server, "read", GAME, {"id": played_game.id}, played_game.tokens[seat]
        )
        return None if data is None else data["game"]

    async def send(self, intent: Intent, server: int, token: str) -> Request:
        variables: dict[str, Any] = {
            "input": {"gameId": intent.game_id, "move": intent.move, "idempotencyKey": intent.key}
        }
        if intent.expected is not None:
            variables["input"]["expectedVersion"] = intent.expected
        request, data = await self.post(server, "apply", APPLY, variables, token)
        if data is not None:
            result = data["applyMove"]
            if result["__typename"] == "MoveApplied":
                request.outcome = REPLAYED if result["replayed"] else APPLIED
                request.version = result["game"]["version"]
            else:
                request.outcome = result["code"]
                request.version = result["currentVersion"]
        intent.attempts.append(request)
        return request

    async def run(self, clients: int, seconds: float, budget: int) -> None:
        deadline = time.monotonic() + seconds
        await asyncio.gather(*(self._player(i, deadline, budget) for i in range(clients)))

    async def _player(self, index: int, deadline: float, budget: int) -> None:
        rng = random.Random(f"{self.seed}-{index}")
        count = 0
        while (
            not self.stopped and time.monotonic() < deadline and len(self.record.intents) < budget
        ):
            live = [t for t in self.games if not t.finished]
            if not live:
                return
            played_game = rng.choice(live)
            server = rng.randrange(len(self.servers))
            seat = rng.randrange(played_game.players)
            seen = await self.read(server, played_game, seat)
            if seen is not None and seen["status"] == "ACTIVE" and seat not in seen["toAct"]:
                seat = rng.choice(seen["toAct"])
                seen = await self.read(server, played_game, seat)
            if seen is None:
                await asyncio.sleep(0.05)  # the store is out: do not spin
                continue
            if seen["status"] == "FINISHED":
                played_game.finished = True
                continue
            if not seen["legalMoves"]:
                continue  # someone moved in between
            count += 1
            intent = self._intent(rng, played_game, seat, seen, f"p{index}-{count}")
            self.record.intents.append(intent)
            await self._deliver(rng, intent, played_game.tokens[seat])

    def _intent(
        self, rng: random.Random, played_game: PlayedGame, seat: int, seen: dict[str, Any], key: str
    ) -> Intent:
        version = seen["version"]
        roll = rng.random()
        if roll < 0.75:
            expected: int | None = version
        elif roll < 0.87 and version > 0:
            expected = max(0, version - 1 - rng.randrange(3))  # stale on purpose
        else:
            expected = None
        move = rng.choice(seen["legalMoves"])["move"]
        return Intent(played_game.id, seat, move, key, version, expected)

    async def _deliver(self, rng: random.Random, intent: Intent, token: str) -> None:
        """Send, retrying with the same key after a lost reply; sometimes give up instead;
        sometimes send one request to two replicas at once; sometimes repeat an answered one."""
        for attempt in range(4):
            if attempt == 0 and len(self.servers) > 1 and rng.random() < 0.05:
                answers = await asyncio.gather(
                    *(self.send(intent, s, token) for s in range(len(self.servers)))
                )
            else:
                answers = [await self.send(intent, rng.randrange(len(self.servers)), token)]
            if any(a.outcome not in (UNAVAILABLE, TRANSPORT) for a in answers):
                break
            if rng.random() < 0.15:
                return  # the client gives up: the outcome stays unknown to it
            await asyncio.sleep(0.02 * (attempt + 1))
        if intent.acked and rng.random() < 0.08:
            await self.send(intent, rng.randrange(len(self.servers)), token)


@dataclass
class Audit:
    games: int = 0
    versions: int = 0
    commits: int = 0
    applied_unknown: int = 0
    answers: int = 0  # MoveApplied answers checked against the history (check_answers)
    problems: list[str] = field(default_factory=list)


def _plain(value: Any) -> Any:
    """JSON-shaped, as a client sees it (tuples become lists)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def _record_key(game_id: str) -> str:
    return f"g:{{{game_id}}}"


async def audit(
    redis: Redis | RedisCluster, played: list[PlayedGame], intents: list[Intent]
) -> Audit:
    """Check every game in Redis against the engine and against what the clients were told."""
    result = Audit()
    by_key = {intent.key: intent for intent in intents}
    for played_game in played:
        raw = await redis.hget(_record_key(played_game.id), "r")  # type: ignore[misc]
        assert raw is not None, f"game {played_game.id} is gone"
        record = msgspec.msgpack.decode(raw, type=Record)
        history = [
            msgspec.msgpack.decode(item, type=HistoryRecord)
            for item in await redis.lrange(_record_key(played_game.id) + ":h", 0, -1)  # type: ignore[misc]
        ]
        if not history:  # a finished game's history is folded into its record
            history = await _folded(redis, played_game.id, record)
        idem = {
            k.decode(): int(v)
            for k, v in (await redis.hgetall(_record_key(played_game.id) + ":i")).items()  # type: ignore[misc]
            if not k.startswith(b"f:")  # a key's request fingerprint, beside its version
        }
        result.games += 1
        result.versions += record.version
        _check_game(result, played_game, record, history, idem, by_key)
        for intent in intents:
            if intent.game_id == played_game.id:
                _check_intent(result, intent, idem)
                check_answers(result, intent, history)
    return result


async def _folded(redis: Redis | RedisCluster, game_id: str, record: Record) -> list[HistoryRecord]:
    """A folded history with its labels: those the engine gives back, which must be the
    ones folded (their digest)."""
    folded = await redis.hget(_record_key(game_id), "h")  # type: ignore[misc]
    if folded is None:
        return []
    history, digest = unfold(folded)
    if digest is None:
        return history
    steps = replayed_steps(games()[record.kind], record, history) or []
    labels = [step.label for step in steps]
    assert label_digest(labels) == digest, f"labels of {game_id} do not replay"
    return [
        msgspec.structs.replace(h, label=label) for h, label in zip(history, labels, strict=True)
    ]


def replay(
    problems: list[str], game_id: str, record: Record, history: list[HistoryRecord]
) -> dict[int, int] | None:
    """Replay a stored history from the seed with the engine and compare it with the record:
    for each commit, the version after it -> the version of its own move (its first entry);
    None (and a problem) if they disagree."""
    versions = [entry.version for entry in history]
    if versions != list(range(1, len(history) + 1)) or record.version != len(history):
        problems.append(f"{game_id}: versions {versions[:5]}... not 1..{record.version}")
        return None
    # Replay from the seed: the engine re-derives every forced step, so feed it the others.
    game = games()[record.kind]
    played = start(game, record.players, None, record.seed)
    state, position, ends = played.state, len(played.steps), {}
    while position < len(history):
        entry = history[position]
        if entry.forced:
            problems.append(f"{game_id}: v{entry.version} is forced but starts a commit")
            return None
        if entry.move is None:  # an ending without a move (a forfeit on time, a resignation)
            position += 1
            ends[position] = entry.version
            continue
        step = play(game, state, entry.seat, entry.move)
        recorded = history[position : position + len(step.steps)]
        replayed = [(s.seat, _plain(s.move), s.label, s.forced) for s in step.steps]
        stored = [(h.seat, _plain(h.move), h.label, h.forced) for h in recorded]
        if replayed != stored:
            problems.append(f"{game_id}: replay differs at v{entry.version}: {replayed} {stored}")
            return None
        position += len(step.steps)
        ends[position] = entry.version  # the version after the commit -> its own move
        state = step.state
    over = game.is_over(state) or record.outcome is not None
    if encode_state(state) != record.state or record.finished != over:
        problems.append(f"{game_id}: replaying the history does not give the stored state")
    return ends


def _check_game(
    result: Audit,
    played_game: PlayedGame,
    record: Record,
    history: list[HistoryRecord],
    idem: dict[str, int],
    by_key: dict[str, Intent],
) -> None:
    problems = result.problems
    ends = replay(problems, played_game.id, record, history)
    if ends is None:
        return
    result.commits += len(ends)
    # Every commit is one client move under exactly one key, and every key names one commit.
    if sorted(idem.values()) != sorted(ends):
        problems.append(f"{played_game.id}: commits {sorted(ends)} vs keys {sorted(idem.values())}")
        return
    for field_key, end in idem.items():
        seat, _, key = field_key.partition(":")
        intent = by_key.get(key)
        entry = history[ends[end] - 1]
        if intent is None:
            problems.append(
                f"{played_game.id}: v{entry.version} applied under an unknown key {key}"
            )
        elif (entry.seat, _plain(entry.move)) != (intent.seat, _plain(intent.move)) or int(
            seat
        ) != intent.seat:
            problems.append(f"{played_game.id}: v{entry.version} is not the move sent under {key}")
        elif intent.expected is not None and entry.version != intent.expected + 1:
            problems.append(f"{key}: applied at v{entry.version}, expected {intent.expected}")


def _check_intent(result: Audit, intent: Intent, idem: dict[str, int]) -> None:
    field_key = f"{intent.seat}:{intent.key}"
    applied = field_key in idem
    if intent.acked:
        if not applied:
            result.problems.append(f"{intent.key}: acknowledged but not in the history")
        for attempt in intent.attempts:
            if attempt.outcome in (APPLIED, REPLAYED) and attempt.version != idem.get(field_key):
                result.problems.append(f"{intent.key}: told v{attempt.version}, stored otherwise")
    elif intent.rejected is not None and applied:
        result.problems.append(f"{intent.key}: rejected ({intent.rejected}) but applied")
    elif intent.unknown and applied:
        result.applied_unknown += 1
    if intent.expected is not None and intent.expected < intent.seen and applied:
        result.problems.append(f"{intent.key}: a stale expectedVersion was applied")


def check_answers(result: Audit, intent: Intent, history: list[HistoryRecord]) -> None:
    """Every MoveApplied answer, first or replayed, against the stored history, as a client
    that kept its answers would check it: the version it names ends the commit of the move
    sent. Walking back from it over the forced steps the server applied after the decision
    (`forced: true`, which the answer's version includes) reaches the move, by its seat, at
    expectedVersion + 1 when one was sent; the version after it, if any, starts another
    commit. A move acknowledged and then lost in a failover fails this (another move, or
    none, at its version)."""
    versions = [entry.version for entry in history]
    if versions != list(range(1, len(history) + 1)):
        return  # `replay` reports it
    for attempt in intent.attempts:
        if attempt.outcome not in (APPLIED, REPLAYED) or attempt.version is None:
            continue
        result.answers += 1
        told = attempt.version
        if not 1 <= told <= len(history):
            result.problems.append(
                f"{intent.key}: told v{told} ({attempt.outcome}), the game has {len(history)}"
            )
            continue
        start = told
        while start > 1 and history[start - 1].forced:
            start -= 1
        entry = history[start - 1]
        sent = (intent.seat, _plain(intent.move))
        ends = told == len(history) or not history[told].forced
        if entry.forced or (entry.seat, _plain(entry.move)) != sent or not ends:
            result.problems.append(
                f"{intent.key}: told v{told} ({attempt.outcome}) for seat {intent.seat} "
                f"{_plain(intent.move)}, the history holds seat {entry.seat} "
                f"{_plain(entry.move)} at v{start}"
            )
        elif intent.expected is not None and start != intent.expected + 1:
            result.problems.append(
                f"{intent.key}: told v{told}, its move is at v{start}, expected {intent.expected}"
            )


def summary(record: Record_, audit_result: Audit, lost: int) -> dict[str, int]:
    outcomes = Counter(r.outcome for r in record.requests if r.operation == "apply")
    intents = record.intents
    return {
        "requests": len(record.requests),
        "apply_requests": sum(outcomes.values()),
        "games": audit_result.games,
        "versions": audit_result.versions,
        "moves": len(intents),
        "acknowledged": sum(i.acked for i in intents),
        "replayed": outcomes[REPLAYED],
        "conflicts": outcomes["STALE_VERSION"],
        "other_rejections": sum(
            n
            for code, n in outcomes.items()
            if code not in (APPLIED, REPLAYED, "STALE_VERSION")
            and code not in (UNAVAILABLE, TRANSPORT)
        ),
        "retries": sum(max(len(i.attempts) - 1, 0) for i in intents),
        "lost_replies_injected": lost,
        "unavailable": outcomes[UNAVAILABLE] + outcomes[TRANSPORT],
        "unknown_outcome": sum(i.unknown for i in intents),
        "unknown_applied": audit_result.applied_unknown,
    }
