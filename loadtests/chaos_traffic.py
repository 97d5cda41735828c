"""The chaos scenario's traffic through the load balancer: what each kind of client
does and what it was told, for the audit (loadtests/chaos_audit.py).

- players (tests/reliability/players.py `Players`): read, then move with an idempotency key and
  usually the expected version, retrying with the same key after a lost answer, on human games;
- a creator keeps a few live human games;
- followers: each plays seat 0 of a game against bot seats, moving when a `gameEvents` event
  (graphql-transport-ws over the load balancer) says it is its turn; a dropped socket is opened
  again, with `afterVersion` where the schema has it;
- solo clients (the client of an outside audit): each plays both seats of its own
  TREELINGS game, a fresh idempotency key and the expected version per decision, the very same
  request again after a lost answer or a typed UNAVAILABLE for as long as it takes (through
  the load balancer, so on any API replica, across failovers); half of them send the document
  the GraphQL fast path answers, half one that only strawberry answers (it also reads the
  commit's entries, `history(after: expectedVersion)`, in the answer); every `MoveApplied` is
  checked against the stored history (loadtests/chaos_audit.py);
- clock games nobody plays: each must time out (FORFEIT) on the workers' sweep;
- a webhook receiver (https on loopback, in this process) that keeps every webhook-id.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import ssl
import subprocess
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import websockets

from service.store.embedded import free_port
from tests.reliability.players import (
    APPLIED,
    APPLY,
    GAME,
    REPLAYED,
    TRANSPORT,
    UNAVAILABLE,
    Intent,
    PlayedGame,
    Players,
    Request,
)

ROOT = Path(__file__).resolve().parents[1]
API_KEY = {"x-api-key": "chaos-secret"}
CREATE = """mutation C($input: CreateGameInput!) {
  createGame(input: $input) { game { id version } seats { seat token } } }"""
HOOK = """mutation H($url: String!) { createWebhookEndpoint(url: $url,
  events: [GAME_FINISHED, GAME_TIMEOUT]) { endpoint { id } } }"""
# gameEvents resumes after a version once the schema has it (events follow a failover)
RESUMES = "afterVersion" in (ROOT / "schema" / "schema.graphql").read_text()
EVENTS = (
    "subscription E($id: ID!, $after: Int) { gameEvents(gameId: $id, afterVersion: $after) { version status } }"
    if RESUMES
    else "subscription E($id: ID!) { gameEvents(gameId: $id) { version status } }"
)
# the solo clients' applyMove documents: the fast path answers the first (tests/reliability
# players.APPLY), strawberry the second (a second variable: service/api/graphql/fastpath.py)
SOLO_APPLY = (
    APPLY,
    """mutation S($input: ApplyMoveInput!, $after: Int) { applyMove(input: $input) {
  __typename ... on MoveApplied { replayed game { version status
    history(after: $after) { version seat move forced } } }
  ... on MoveRejected { code currentVersion } } }""",
)
SOLO_THINK_SECONDS = 0.5  # at most, before each decision: about the outside audit's pace
# answers that are the service's failure, not the client's mistake (GraphQL answers them with 200)
SERVER_CODES = ("UNAVAILABLE", "INTERNAL_SERVER_ERROR", "ERROR")
KINDS = ("TREELINGS", "TREELINE", "TREETOPIA", "TREE_LINED_AVENUE")


@dataclass
class Answer:
    """An answer of the service's failure (HTTP 500 or more, or a GraphQL error with one of
    SERVER_CODES): when its request started and ended, the status, its typed code if any."""

    at: float
    ended: float
    status: int
    code: str
    body: str


@dataclass
class Followed:
    """A game of one human seat against bots, followed over gameEvents: the versions each
    socket saw, in order (a new list per socket)."""

    game: PlayedGame
    sockets: list[list[int]] = field(default_factory=list)
    reconnects: int = 0


class ChaosPlayers(Players):
    """`Players` through one load balancer (two clients to it, so a move is sometimes sent
    twice at once), with the tenant's API key on creates, every server error kept."""

    def __init__(self, url: str, seed: int) -> None:
        super().__init__([url, url], [], seed)
        self.errors: list[Answer] = []

    async def post(
        self, server: int, operation: str, query: str, variables: dict[str, Any], token: str | None
    ) -> tuple[Request, dict[str, Any] | None]:
        headers = {"authorization": f"Bearer {token}"} if token else dict(API_KEY)
        started = time.monotonic()
        request = Request(operation, server, started, 0.0, TRANSPORT)
        self.record.requests.append(request)
        try:
            response = await self.http[server].post(
                "/graphql", json={"query": query, "variables": variables}, headers=headers
            )
        except httpx.HTTPError:
            request.seconds = time.monotonic() - started
            return request, None
        request.seconds = time.monotonic() - started
        try:
            body = response.json()
        except ValueError:
            body = {}
        errors = body.get("errors") or []
        code = errors[0].get("extensions", {}).get("code", "ERROR") if errors else ""
        if response.status_code >= 500 or code in SERVER_CODES:
            code = code or body.get("code", "")
            answer = Answer(
                started, started + request.seconds, response.status_code, code, response.text[:120]
            )
            self.errors.append(answer)
        if "data" not in body or body["data"] is None or errors:
            request.outcome = code or TRANSPORT
            return request, None
        request.outcome = "OK"
        data: dict[str, Any] = body["data"]
        return request, data

    async def create(self, kind: str, players: int, seed: str, **extra: Any) -> PlayedGame | None:  # type: ignore[override]
        variables = {"input": {"kind": kind, "players": players, "seed": seed, **extra}}
        for _ in range(20):  # a create is retried on an outage; a duplicate game is harmless
            _, data = await self.post(0, "create", CREATE, variables, None)
            if data is not None:
                payload = data["createGame"]
                tokens = [s["token"] for s in payload["seats"]]
                return PlayedGame(payload["game"]["id"], kind, players, tokens)
            await asyncio.sleep(0.5)
        return None


@dataclass
class SoloAnswer:
    """A MoveApplied answer of a solo client that read its commit's entries with it (the
    strawberry document): the audit compares them with the stored history."""

    intent: Intent
    request: Request
    entries: list[dict[str, Any]]


@dataclass
class Traffic:
    """Every client of the run and what they were told."""

    url: str
    seed: int = 30
    live_games: int = 6
    players: ChaosPlayers = field(init=False)
    human: list[PlayedGame] = field(default_factory=list)
    followed: list[Followed] = field(default_factory=list)
    clocked: list[PlayedGame] = field(default_factory=list)
    solo: list[PlayedGame] = field(default_factory=list)
    solo_answers: list[SoloAnswer] = field(default_factory=list)
    receiver: Receiver | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def __post_init__(self) -> None:
        self.players = ChaosPlayers(self.url, self.seed)
        self.players.games = self.human

    async def run(self, clients: int, followers: int, solo: int = 0) -> None:
        """Until `stop` is set."""
        tasks = [self._creator(), self._clocks()]
        tasks += [self._player(i) for i in range(clients)]
        tasks += [self._follower(i) for i in range(followers)]
        tasks += [self._solo(i) for i in range(solo)]
        await asyncio.gather(*tasks)

    async def _solo(self, index: int) -> None:
        """One game after another, both seats played by this client (the outside audit's)."""
        rng = random.Random(f"{self.seed}-solo-{index}")
        count = 0
        game: PlayedGame | None = None
        while not self.stop.is_set():
            if game is None or game.finished:
                count += 1
                game = await self.players.create(
                    "TREELINGS", 2, f"solo-{self.seed}-{index}-{count}"
                )
                if game is None:
                    continue
                self.solo.append(game)
            if not await self._solo_decision(index, game, rng):
                await asyncio.sleep(0.1)  # the store is out: do not spin

    async def _solo_decision(self, index: int, game: PlayedGame, rng: random.Random) -> bool:
        """Read the game as the seat to act, pick a random legal move, send it with a fresh key
        and the version read as expectedVersion, and send the same request again after a lost
        answer or a typed UNAVAILABLE until it has another answer (or the run stops). False
        when the game could not be read."""
        _, data = await self.players.post(0, "read", GAME, {"id": game.id}, game.tokens[0])
        if data is None:
            return False
        seen = data["game"]
        if seen["status"] != "ACTIVE":
            game.finished = True
            return True
        if not seen["toAct"]:
            return True
        seat = seen["toAct"][0]
        if seat != 0:
            _, data = await self.players.post(0, "read", GAME, {"id": game.id}, game.tokens[seat])
            if data is None:
                return False
            seen = data["game"]
        if seen["status"] != "ACTIVE" or not seen["legalMoves"]:
            return True
        await asyncio.sleep(SOLO_THINK_SECONDS * rng.random())  # a player, not a benchmark
        move = rng.choice(seen["legalMoves"])["move"]
        version = seen["version"]
        intent = Intent(game.id, seat, move, f"s{index}-{uuid.uuid4().hex}", version, version)
        self.players.record.intents.append(intent)
        document = SOLO_APPLY[index % len(SOLO_APPLY)]
        attempt = 0
        while True:
            outcome = await self._solo_send(intent, game.tokens[seat], document)
            if outcome not in (UNAVAILABLE, TRANSPORT) or self.stop.is_set():
                return True
            attempt += 1
            await asyncio.sleep(min(0.05 * attempt, 0.5))

    async def _solo_send(self, intent: Intent, token: str, document: str) -> str:
        variables: dict[str, Any] = {
            "input": {
                "gameId": intent.game_id,
                "move": intent.move,
                "expectedVersion": intent.expected,
                "idempotencyKey": intent.key,
            }
        }
        if document is not APPLY:
            variables["after"] = intent.expected
        request, data = await self.players.post(0, "apply", document, variables, token)
        if data is not None:
            result = data["applyMove"]
            if result["__typename"] == "MoveApplied":
                request.outcome = REPLAYED if result["replayed"] else APPLIED
                request.version = result["game"]["version"]
                if "history" in result["game"]:
                    entries = result["game"]["history"]
                    self.solo_answers.append(SoloAnswer(intent, request, entries))
            else:
                request.outcome = result["code"]
                request.version = result["currentVersion"]
        intent.attempts.append(request)
        return request.outcome

    async def _player(self, index: int) -> None:
        """`Players._player` (it returns when no game is live: then again, under new keys)."""
        rounds = 0
        while not self.stop.is_set():
            if not [g for g in self.human if not g.finished]:
                await asyncio.sleep(0.2)
                continue
            rounds += 1
            await self.players._player(index * 100_000 + rounds, time.monotonic() + 1e9, 1 << 62)

    async def _creator(self) -> None:
        rng = random.Random(f"{self.seed}-creator")
        count = 0
        while not self.stop.is_set():
            if len([g for g in self.human if not g.finished]) < self.live_games:
                kind = KINDS[count % len(KINDS)]
                count += 1
                game = await self.players.create(kind, 2, f"chaos-{self.seed}-{count}")
                if game is not None:
                    self.human.append(game)
            await asyncio.sleep(0.2 + rng.random() * 0.2)

    async def _clocks(self) -> None:
        """A game on a 1 s clock every few seconds, never played: the sweep must end each."""
        clock = {"perDecisionSeconds": 1, "onTimeout": "FORFEIT"}
        count = 0
        while not self.stop.is_set():
            count += 1
            kind = KINDS[count % len(KINDS)]
            game = await self.players.create(kind, 2, f"clock-{self.seed}-{count}", clock=clock)
            if game is not None:
                self.clocked.append(game)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stop.wait(), 4)

    async def _follower(self, index: int) -> None:
        rng = random.Random(f"{self.seed}-follower-{index}")
        count = 0
        while not self.stop.is_set():
            count += 1
            kind = KINDS[(index + count) % len(KINDS)]
            bots = [{"seat": 1, "strategy": "RANDOM"}]
            game = await self.players.create(
                kind, 2, f"bots-{self.seed}-{index}-{count}", bots=bots
            )
            if game is None:
                continue
            followed = Followed(game)
            self.followed.append(followed)
            await self._follow(followed, rng)

    async def _follow(self, followed: Followed, rng: random.Random) -> None:
        """Play seat 0 on its events until the game ends or the run stops."""
        game, last = followed.game, 0
        ws = self.url.replace("http://", "ws://") + "/graphql"
        while not self.stop.is_set() and not game.finished:
            seen: list[int] = []
            followed.sockets.append(seen)
            try:
                async with websockets.connect(ws, subprotocols=["graphql-transport-ws"],  # type: ignore[list-item]
                                              open_timeout=30) as socket:  # fmt: skip
                    init = {"type": "connection_init",
                            "payload": {"authorization": f"Bearer {game.tokens[0]}"}}  # fmt: skip
                    await socket.send(json.dumps(init))
                    ack = json.loads(await asyncio.wait_for(socket.recv(), 30))
                    if ack["type"] != "connection_ack":
                        raise ConnectionError(str(ack))
                    variables: dict[str, Any] = {"id": game.id}
                    if RESUMES and last:
                        variables["after"] = last
                    await socket.send(json.dumps({"id": "1", "type": "subscribe",
                        "payload": {"query": EVENTS, "variables": variables}}))  # fmt: skip
                    await self._move_if_due(game, rng)  # the first turn (or one missed)
                    while not self.stop.is_set():
                        try:
                            message = json.loads(await asyncio.wait_for(socket.recv(), 2))
                        except TimeoutError:
                            await self._move_if_due(game, rng)  # an event lost with a replica
                            continue
                        if message["type"] == "complete":
                            game.finished = True
                            return
                        if message["type"] != "next" or message["payload"].get("errors"):
                            raise ConnectionError(str(message)[:200])
                        event = message["payload"]["data"]["gameEvents"]
                        seen.append(event["version"])
                        last = max(last, event["version"])
                        if event["status"] != "ACTIVE":
                            game.finished = True
                            return
                        await self._move_if_due(game, rng)
            except (OSError, ConnectionError, websockets.WebSocketException, TimeoutError):
                followed.reconnects += 1
                await asyncio.sleep(0.3)

    async def _move_if_due(self, game: PlayedGame, rng: random.Random) -> None:
        _, data = await self.players.post(0, "read", GAME, {"id": game.id}, game.tokens[0])
        if data is None:
            return
        seen = data["game"]
        if seen["status"] != "ACTIVE":
            game.finished = True
            return
        if 0 not in seen["toAct"] or not seen["legalMoves"]:
            return
        move = rng.choice(seen["legalMoves"])["move"]
        key = f"f-{game.id}-{seen['version']}-{rng.randrange(1 << 30)}"
        intent = Intent(game.id, 0, move, key, seen["version"], seen["version"])
        self.players.record.intents.append(intent)
        for attempt in range(6):
            answer = await self.players.send(intent, 0, game.tokens[0])
            if answer.outcome not in (UNAVAILABLE, TRANSPORT):
                return
            await asyncio.sleep(0.2 * (attempt + 1))

    async def register_webhook(self, url: str) -> None:
        for _ in range(20):
            _, data = await self.players.post(0, "webhook", HOOK, {"url": url}, None)
            if data is not None:
                return
            await asyncio.sleep(0.5)
        raise RuntimeError("the webhook endpoint could not be registered")


def acknowledged(intents: list[Intent]) -> list[Intent]:
    return [i for i in intents if any(a.outcome in (APPLIED, REPLAYED) for a in i.attempts)]


class Receiver:
    """A webhook receiver on https://localhost:<port>/hook, in a thread of this process, with a
    self-signed certificate (`cert`: the workers trust it by RULES_WEBHOOK_CA_FILE)."""

    def __init__(self, directory: Path) -> None:
        self.cert, key = str(directory / "hook.pem"), str(directory / "hook.key")
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
             "-keyout", key, "-out", self.cert, "-subj", "/CN=localhost",
             "-addext", "subjectAltName=DNS:localhost"],
            check=True, capture_output=True,
        )  # fmt: skip
        self.port = free_port()
        self.ids: set[str] = set()
        self.deliveries = 0
        lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                with lock:
                    receiver.ids.add(self.headers.get("webhook-id", ""))
                    receiver.deliveries += 1
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.cert, key)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"https://localhost:{self.port}/hook"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
