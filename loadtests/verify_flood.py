"""The verify-flood benchmark: do anonymous records to verify delay another tenant's reads?

    python -m loadtests.verify_flood [--seconds 5] [--clients 2] [--json PATH]

One API process as loadtests/servers.py starts it on a private redis-server (one tenant, the
rate limits lifted, RULES_VERIFY_PROCESSES as shipped: 1). A finished game's record is taken
with a field of 1 MiB of arrays nested 30 deep added (within the JSON depth limit), as the
issue's attacker sent it. A reader process (loadtests/catch_up.py's) reads the tenant's
`GET /v1/games/{id}/scores` back to back for `--seconds`: alone (idle); while `--clients`
anonymous clients post that body back to back to a route that does not exist (the floor:
what bodies of a megabyte cost the machine and the server's socket whatever the route does);
and while they post it to `POST /v1/game-records/verify` (the flood).

It prints each phase's reads (count, p50, p99, max in ms, non-200), p99 flood / idle, and the
verify answers by status (a verify refused as busy is a 503 the attacker gets, not the
tenant, with its connection closed: status 0 when the client was still uploading). The target (the blast-walls issue): read p99 within 2x of idle; reported, not
asserted. Exit status 0 unless the run could not be made.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import msgspec

from loadtests.catch_up import Reader, phase_row
from loadtests.servers import SERVICE_APP, asgi
from service.store.embedded import EmbeddedRedis

KEY = secrets.token_hex(16)
SETTINGS = {
    "RULES_API_KEYS": f"alpha:{KEY}",
    "RULES_RATE_LIMIT_PER_TOKEN": "0",
    "RULES_RATE_LIMIT_PER_ADDRESS": "0",
}
CREATE = """
mutation C($input: CreateGameInput!) {
  createGame(input: $input) { game { id } seats { seat token } }
}"""
READ = "query R($id: ID!) { game(id: $id) { status toAct legalMoves { move } } }"
APPLY = """
mutation A($input: ApplyMoveInput!) { applyMove(input: $input) { __typename } }"""


def hostile_record(record: dict[str, Any]) -> bytes:
    """`record` with a 1 MiB field of arrays nested 30 deep, as text."""
    nested = "[" * 30 + "]" * 30
    padding = "[" + ",".join([nested] * (1_000_000 // (len(nested) + 1))) + "]"
    body = json.dumps(record)
    return (body[:-1] + ', "padding": ' + padding + "}").encode()


async def finished_record(http: httpx.AsyncClient) -> dict[str, Any]:
    async def gql(query: str, variables: dict[str, Any], token: str = "") -> Any:
        headers = {"x-api-key": KEY, **({"authorization": f"Bearer {token}"} if token else {})}
        answer = await http.post(
            "/graphql", json={"query": query, "variables": variables}, headers=headers
        )
        return answer.json()["data"]

    created = (await gql(CREATE, {"input": {"kind": "TREELINGS", "players": 2}}))["createGame"]
    game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
    while True:
        seen = (await gql(READ, {"id": game_id}, tokens[0]))["game"]
        if seen["status"] != "ACTIVE":
            break
        seat = seen["toAct"][0]
        moves = (await gql(READ, {"id": game_id}, tokens[seat]))["game"]["legalMoves"]
        await gql(APPLY, {"input": {"gameId": game_id, "move": moves[0]["move"]}}, tokens[seat])
    exported: dict[str, Any] = (await http.get(f"/v1/games/{game_id}/record")).json()
    return exported


async def flood(
    url: str, path: str, body: bytes, clients: int, stop: asyncio.Event
) -> Counter[int]:
    statuses: Counter[int] = Counter()

    async def client() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=120) as http:
            while not stop.is_set():
                try:
                    answer = await http.post(
                        path,
                        content=body,
                        headers={"content-type": "application/json"},
                    )
                    statuses[answer.status_code] += 1
                except httpx.TransportError:  # refused busy, the connection closed mid-upload
                    statuses[0] += 1

    await asyncio.gather(*(client() for _ in range(clients)))
    return statuses


async def run(url: str, seconds: float, clients: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        record = await finished_record(http)
        created = await http.post(
            "/v1/games", json={"kind": "TREETOPIA", "players": 2}, headers={"x-api-key": KEY}
        )
        game_id = created.json()["game"]["id"]
    body = hostile_record(record)
    path = f"/v1/games/{game_id}/scores"
    rows = []
    statuses: dict[str, Counter[int]] = {}
    for phase, target in (
        ("idle", None),
        ("floor flood", "/v1/no-such-route"),
        ("verify flood", "/v1/game-records/verify"),
    ):
        reader = Reader(url, path, seconds, KEY)
        reader.ready()
        stop = asyncio.Event()
        flooding = None
        if target is not None:
            flooding = asyncio.create_task(flood(url, target, body, clients, stop))
        reads = await asyncio.to_thread(reader.reads)
        stop.set()
        if flooding is not None:
            statuses[phase] = await flooding
        reader.stop()
        rows.append(phase_row(phase, reads))
    idle, floor, verify = (row["p99_ms"] for row in rows)
    return {
        "body_bytes": len(body),
        "phases": rows,
        "p99_ratio": verify / idle if idle else None,
        "p99_ratio_to_floor": verify / floor if floor else None,
        "statuses": {
            phase: {str(status): n for status, n in sorted(counted.items())}
            for phase, counted in statuses.items()
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", type=int, default=2)
    parser.add_argument("--json", default="loadtests/results/verify_flood.json")
    args = parser.parse_args()
    redis = EmbeddedRedis().start()
    try:
        with asgi("service", SERVICE_APP, redis.url, settings=SETTINGS) as server:
            results = asyncio.run(run(server.url, args.seconds, args.clients))
    finally:
        redis.cleanup()
    print(f"a record of {results['body_bytes']:,} bytes, {args.clients} clients posting it")
    print(f"{'phase':<14} {'reads':>6} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'non-200':>8}")
    for row in results["phases"]:
        print(
            f"{row['phase']:<14} {row['reads']:>6} {row['p50_ms']:>8.2f} {row['p99_ms']:>8.2f} "
            f"{row['max_ms']:>8.2f} {row['non_200']:>8}"
        )
    ratio, floor = results["p99_ratio"], results["p99_ratio_to_floor"]
    print(f"read p99, verify flood / idle: {ratio:.2f} (target: within 2)" if ratio else "-")
    print(f"read p99, verify flood / floor flood (the same bodies to no route): {floor:.2f}")
    print(f"answers by status: {results['statuses']}")
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(msgspec.json.format(msgspec.json.encode(results)))


if __name__ == "__main__":
    main()
