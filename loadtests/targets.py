"""What each benchmark target sends. A target prepares its next request untimed (from the
game scripts, so no read is needed between moves), the runner times only the request, and the
target checks the answer.

Apply targets play real games: every move is the next of a script made with the engine, sent
by the seat whose turn it is with its expectedVersion and a fresh idempotency key. Read
targets read those games, as the seat to act, wherever the apply phases left them. The floor
plays real moves of the same kind against real records of the same size.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import secrets
from collections import deque
from dataclasses import dataclass
from typing import Any

import msgspec
from graphql import GraphQLObjectType, GraphQLUnionType, get_named_type, is_leaf_type

from loadtests.scripts import Table, play_random, random_players, record_of
from loadtests.wire import Connection
from service.api.graphql import struct_types
from service.api.graphql.schema import build_schema
from service.games import games
from service.settings import Settings
from service.store import RedisStore, connect

GAME_FIELDS = """id kind version status players toAct viewer state
  legalMoves { move label }
  scores { final winners entries { seat points breakdown tiebreak } }"""

APPLY = f"""mutation Apply($input: ApplyMoveInput!) {{
  applyMove(input: $input) {{
    __typename
    ... on MoveApplied {{ replayed game {{ {GAME_FIELDS} }} }}
    ... on MoveRejected {{ code message currentVersion }}
  }}
}}"""

APPLY_LEAN = """mutation Apply($input: ApplyMoveInput!) {
  applyMove(input: $input) {
    __typename
    ... on MoveApplied { game { version status toAct } }
    ... on MoveRejected { code message currentVersion }
  }
}"""

READ = f"""query Game($id: ID!) {{ game(id: $id) {{ {GAME_FIELDS} }} }}"""


def typed_read(kind: str) -> str:
    """READ with the typed twins instead of the JSON fields: every field of `kind`'s view,
    of its move types and of the score items (docs/api.md, section 10)."""
    schema = build_schema().documents.schema
    assert schema is not None
    prefix = struct_types.BUILDER.prefix(games()[kind].view_type)

    def fields(type_name: str) -> str:
        named = schema.get_type(type_name)
        if isinstance(named, GraphQLUnionType):
            members = [m.name for m in named.types if struct_types.of_game(m.name, prefix)]
            return "__typename " + " ".join(f"... on {m} {{ {fields(m)} }}" for m in members)
        assert isinstance(named, GraphQLObjectType)
        return " ".join(
            name
            if is_leaf_type(get_named_type(f.type))
            else f"{name} {{ {fields(get_named_type(f.type).name)} }}"
            for name, f in named.fields.items()
        )

    return f"""query Game($id: ID!) {{ game(id: $id) {{
  id kind version status players toAct viewer view {{ {fields("GameView")} }}
  legalMoves {{ label typedMove {{ {fields("TypedMove")} }} }}
  scores {{ final winners entries {{ seat points tiebreak typedBreakdown {{ {fields("ScoreItem")} }} }} }}
}} }}"""


_json = msgspec.json.Encoder()


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: bytes
    headers: str
    kind: str


def _auth(token: str) -> str:
    return f"Authorization: Bearer {token}\r\n"


class Pool:
    """Games created on the service with a script each, shared by the apply targets."""

    def __init__(self, host: str, port: int, seed: int = 7) -> None:
        self.host, self.port = host, port
        self.chooser = random.Random(seed)
        self.kinds = itertools.cycle(sorted(games()))
        self.waiting: deque[Table] = deque()
        self.played: list[Table] = []
        self.created = 0

    @property
    def moves_left(self) -> int:
        return sum(len(t.script.decisions) - t.next for t in self.waiting)

    async def _create(self, connection: Connection) -> Table:
        kind = next(self.kinds)
        players = random_players(kind, self.chooser)
        seed = secrets.token_hex(8)
        script, _, _ = play_random(kind, players, seed, random.Random(seed))
        body = _json.encode({"kind": kind, "players": players, "seed": seed})
        status, answer = await connection.request("POST", "/v1/games", body)
        if status != 201:
            raise RuntimeError(f"creating a game failed: {status} {answer[:300]!r}")
        created = msgspec.json.decode(answer)
        self.created += 1
        tokens = [seat["token"] for seat in created["seats"]]
        return Table(created["game"]["id"], tokens, script)

    async def fill(self, moves: int, parallel: int = 4) -> None:
        """Create games until the waiting ones hold at least `moves` scripted moves."""

        async def creator() -> None:
            connection = Connection(self.host, self.port)
            while self.moves_left < moves:
                self.waiting.append(await self._create(connection))
            await connection.close()

        await asyncio.gather(*(creator() for _ in range(parallel)))

    async def take(self, connection: Connection) -> Table:
        while self.waiting:
            table = self.waiting.popleft()
            if not table.done:
                self.played.append(table)
                return table
        table = await self._create(connection)  # the pool ran dry: untimed, but load
        self.played.append(table)
        return table

    def give_back(self, tables: list[Table | None]) -> None:
        for table in tables:
            if table is not None and not table.done:
                self.waiting.appendleft(table)


class Target:
    name = ""
    kind_of_work = ""  # "apply" or "read"

    async def prepare(self, client: int, connection: Connection) -> Request:
        raise NotImplementedError

    def check(self, client: int, status: int, body: bytes) -> bool:
        raise NotImplementedError

    def finish(self) -> None:
        """Called when a phase ends."""


class ApplyTarget(Target):
    kind_of_work = "apply"

    def __init__(self, pool: Pool, clients: int) -> None:
        self.pool = pool
        self.tables: list[Table | None] = [None] * clients

    async def prepare(self, client: int, connection: Connection) -> Request:
        table = self.tables[client]
        if table is None or table.done:
            table = self.tables[client] = await self.pool.take(connection)
        return self.request(table, table.script.decisions[table.next])

    def request(self, table: Table, decision: Any) -> Request:
        raise NotImplementedError

    def accepted(self, status: int, body: bytes) -> bool:
        raise NotImplementedError

    def check(self, client: int, status: int, body: bytes) -> bool:
        table = self.tables[client]
        assert table is not None
        if self.accepted(status, body):
            table.next += 1
            return True
        table.next = len(table.script.decisions)  # out of step: drop this game
        return False

    def finish(self) -> None:
        self.pool.give_back(self.tables)
        self.tables = [None] * len(self.tables)


class GraphQLApply(ApplyTarget):
    name = "GraphQL applyMove"
    query = APPLY

    def request(self, table: Table, decision: Any) -> Request:
        variables = {
            "input": {
                "gameId": table.id,
                "move": decision.move,
                "expectedVersion": decision.version,
                "idempotencyKey": secrets.token_hex(8),
            }
        }
        body = _json.encode({"query": self.query, "variables": variables})
        return Request(
            "POST", "/graphql", body, _auth(table.tokens[decision.seat]), table.script.kind
        )

    def accepted(self, status: int, body: bytes) -> bool:
        return status == 200 and b'"MoveApplied"' in body


class GraphQLApplyLean(GraphQLApply):
    name = "GraphQL applyMove (lean)"
    query = APPLY_LEAN


class RestApply(ApplyTarget):
    name = "REST apply"

    def request(self, table: Table, decision: Any) -> Request:
        headers = (
            f'{_auth(table.tokens[decision.seat])}If-Match: "{decision.version}"\r\n'
            f"Idempotency-Key: {secrets.token_hex(8)}\r\n"
        )
        body = _json.encode({"move": decision.move})
        return Request("POST", f"/v1/games/{table.id}/moves", body, headers, table.script.kind)

    def accepted(self, status: int, body: bytes) -> bool:
        return status == 200


class RestApplyMinimal(RestApply):
    name = "REST apply (minimal)"

    def request(self, table: Table, decision: Any) -> Request:
        request = super().request(table, decision)
        headers = f"{request.headers}Prefer: return=minimal\r\n"
        return Request(request.method, request.path, request.body, headers, request.kind)


class ReadTarget(Target):
    kind_of_work = "read"

    def __init__(self, pool: Pool, clients: int) -> None:
        tables = pool.played or list(pool.waiting)
        self.cycles = [itertools.cycle(tables[i::clients] or tables) for i in range(clients)]

    async def prepare(self, client: int, connection: Connection) -> Request:
        return self.request(next(self.cycles[client]))

    def request(self, table: Table) -> Request:
        raise NotImplementedError

    def check(self, client: int, status: int, body: bytes) -> bool:
        return status == 200 and b'"legalMoves"' in body


class GraphQLRead(ReadTarget):
    name = "GraphQL game read"

    def request(self, table: Table) -> Request:
        body = _json.encode({"query": READ, "variables": {"id": table.id}})
        return Request(
            "POST", "/graphql", body, _auth(table.tokens[table.seat_to_act]), table.script.kind
        )


class CompressedRead(GraphQLRead):
    """GraphQLRead asking for `encoding`: the server CPU that compressing a seat's view adds
    (service/api/edge/compression.py)."""

    encoding = ""

    def request(self, table: Table) -> Request:
        read = super().request(table)
        headers = f"{read.headers}Accept-Encoding: {self.encoding}\r\n"
        return Request(read.method, read.path, read.body, headers, read.kind)

    def check(self, client: int, status: int, body: bytes) -> bool:
        return status == 200 and bool(body)  # compressed: the field names are not readable


class GzipRead(CompressedRead):
    name = "GraphQL game read (gzip)"
    encoding = "gzip"


class BrotliRead(CompressedRead):
    name = "GraphQL game read (br)"
    encoding = "br"


class GraphQLTypedRead(ReadTarget):
    """The same read as GraphQLRead with typed fields: answered by strawberry, not the fast
    path, so it shows what the typed view costs."""

    name = "GraphQL typed read"

    def __init__(self, pool: Pool, clients: int) -> None:
        super().__init__(pool, clients)
        self.documents = {kind: typed_read(kind) for kind in games()}

    def request(self, table: Table) -> Request:
        query = self.documents[table.script.kind]
        body = _json.encode({"query": query, "variables": {"id": table.id}})
        return Request(
            "POST", "/graphql", body, _auth(table.tokens[table.seat_to_act]), table.script.kind
        )


class RestRead(ReadTarget):
    name = "REST game read"

    def request(self, table: Table) -> Request:
        token = table.tokens[table.seat_to_act]
        return Request("GET", f"/v1/games/{table.id}", b"", _auth(token), table.script.kind)


@dataclass
class FloorGame:
    id: str
    kind: str
    moves: list[Any]


class Floor(Target):
    """Real records of real games at random stages, each written to Redis with the service's
    own store; each client cycles through its games, sending real moves of the same kind."""

    name = "floor"
    kind_of_work = "apply"

    def __init__(self, floor_games: list[FloorGame], clients: int) -> None:
        self.cycles = [
            itertools.cycle(floor_games[i::clients] or floor_games) for i in range(clients)
        ]
        self.counter = itertools.count()

    @staticmethod
    async def seed(redis_url: str, count: int, seed: int = 11) -> list[FloorGame]:
        chooser = random.Random(seed)
        store = RedisStore(connect(Settings(), redis_url), Settings())
        kinds = itertools.cycle(sorted(games()))
        made = []
        try:
            for _ in range(count):
                kind = next(kinds)
                players = random_players(kind, chooser)
                game_seed = secrets.token_hex(16)
                whole, _, _ = play_random(kind, players, game_seed, random.Random(game_seed))
                stop = chooser.randrange(max(1, len(whole.decisions)))
                _, state, version = play_random(
                    kind, players, game_seed, random.Random(game_seed), stop_at=stop
                )
                record = record_of(kind, players, game_seed, state, version)
                game_id = f"floor-{secrets.token_urlsafe(9)}"
                await store.create(game_id, record, [])
                moves = [d.move for d in whole.decisions] or [{"type": "none"}]
                made.append(FloorGame(game_id, kind, moves))
        finally:
            await store.close()
        return made

    async def prepare(self, client: int, connection: Connection) -> Request:
        game = next(self.cycles[client])
        move = game.moves[next(self.counter) % len(game.moves)]
        body = _json.encode({"move": move})
        headers = f"Idempotency-Key: {secrets.token_hex(8)}\r\n"
        return Request("POST", f"/floor/games/{game.id}/moves", body, headers, game.kind)

    def check(self, client: int, status: int, body: bytes) -> bool:
        return status == 200


class Noop(Target):
    """The floor app's empty route: HTTP, uvicorn and the machine's own noise, nothing else."""

    name = "HTTP no-op"
    kind_of_work = "read"

    async def prepare(self, client: int, connection: Connection) -> Request:
        return Request("GET", "/floor/noop", b"", "", "none")

    def check(self, client: int, status: int, body: bytes) -> bool:
        return status == 200
