"""Hostile HTTP clients against the real ASGI app: every refusal typed, never a 500."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest

from service.app import create_app
from service.settings import Settings
from tests.conftest import Api, client_for
from tests.hostile.ws import one_window
from tests.support import gql
from tests.support.play import create

HUGE = "9" * 5000
DEEP_MOVE = "[" * 3000 + "]" * 3000


def typed(response: httpx.Response) -> str:
    """The refusal's code: problem details' `code` or the first GraphQL error's."""
    assert response.status_code < 500, response.text
    body = response.json()
    if response.headers["content-type"].startswith("application/problem+json"):
        code: str = body["code"]
        return code
    return str(body["errors"][0]["extensions"]["code"])


@pytest.fixture(scope="module")
async def game(api: Api) -> tuple[dict[str, Any], list[str]]:
    return await create(api, "TREELINGS", 2, seed="hostile-http")


TWELVE = [  # the original twelve, and the REST router's own two
    ("POST", "/graphql", {"content-type": "application/json"}, b"{bad"),
    ("POST", "/graphql", {"content-type": "application/json"}, b'[{"query": "{ catalog { kind } }"}]'),
    ("POST", "/graphql", {"content-type": "application/json"}, b""),
    # GET answers queries only: a mutation over GET is 405, with Allow
    ("GET", "/graphql?query=mutation%7Bresign(gameId:%22x%22)%7B__typename%7D%7D", {}, b""),
    ("POST", "/graphql", {"content-type": "multipart/form-data; boundary=x"}, b"--x\r\n"),
    ("POST", "/graphql", {"content-type": "application/x-www-form-urlencoded"}, b"query=x"),
    ("POST", "/graphql", {"content-type": "text/plain"}, b'{"query": "{ catalog { kind } }"}'),
    ("POST", "/graphql", {"content-type": "application/json"}, b'{"query": "query A { catalog { kind } }", "operationName": "B"}'),
    ("POST", "/graphql", {"content-type": "application/json"}, b'{"query": "{ catalog { kind } }", "variables": [1]}'),
    ("POST", "/graphql", {"content-type": "application/json"}, b'{"query": "{ catalog { kind } }", "operationName": {}}'),
    ("GET", "/v1/no-such-route", {}, b""),
    ("DELETE", "/v1/games", {}, b""),
    ("POST", "/graphql", {"content-type": "application/json"}, b'"hello"'),
    ("POST", "/graphql", {"content-type": "application/json"}, b"42"),
    ("POST", "/graphql", {"content-type": "application/json"}, b"null"),
    ("PUT", "/graphql", {}, b""),
    # a subscription over HTTP: once a masked INTERNAL_SERVER_ERROR and a traceback in the log
    ("POST", "/graphql", {"content-type": "application/json"}, b'{"query": "subscription { gameEvents(gameId: \\"x\\") { version } }"}'),
]  # fmt: skip


@pytest.mark.parametrize(("method", "path", "headers", "body"), TWELVE)
async def test_every_refusal_is_typed(
    api: Api, method: str, path: str, headers: dict[str, str], body: bytes
) -> None:
    response = await api.http.request(method, path, headers=headers, content=body)
    assert 400 <= response.status_code < 500
    assert typed(response) in {"BAD_REQUEST", "UNKNOWN_ROUTE", "METHOD_NOT_ALLOWED"}
    if response.status_code == 405:
        assert response.headers["allow"]


async def test_numbers_with_thousands_of_digits_are_refused_typed(
    api: Api, game: tuple[dict[str, Any], list[str]]
) -> None:
    (found, tokens), http = game, api.http
    path = f"/v1/games/{found['id']}"
    auth = {"authorization": f"Bearer {tokens[0]}"}
    assert typed(await http.get(f"{path}/history?after={HUGE}")) == "BAD_REQUEST"
    moved = await http.post(f"{path}/moves", json={"move": {}}, headers={**auth, "if-match": HUGE})
    assert typed(moved) == "BAD_REQUEST"
    seat = {"authorization": f"Bearer {HUGE}.{tokens[0].partition('.')[2]}"}
    assert typed(await http.get(path, headers=seat)) == "UNAUTHORIZED"
    literal = f'{{ game(id: "{found["id"]}") {{ history(after: {HUGE}) {{ version }} }} }}'
    assert typed(await api.post(literal)) == "GRAPHQL_PARSE_FAILED"
    variable = (
        b'{"query": "query($a: Int) { catalog { kind } }", "variables": {"a": '
        + HUGE.encode()
        + b"}}"
    )
    response = await http.post(
        "/graphql", content=variable, headers={"content-type": "application/json"}
    )
    assert typed(response) in {"BAD_REQUEST", "GRAPHQL_VALIDATION_FAILED"}
    assert typed(await api.post(gql.GAME, {"id": found["id"]}, f"{HUGE}.x")) == "UNAUTHORIZED"


async def test_deeply_nested_moves_are_refused_typed_on_every_route(
    api: Api, game: tuple[dict[str, Any], list[str]]
) -> None:
    (found, tokens), http = game, api.http
    auth = {"authorization": f"Bearer {tokens[0]}", "content-type": "application/json"}
    body = ('{"move": ' + DEEP_MOVE + "}").encode()
    for route in ("moves", "validate"):
        response = await http.post(f"/v1/games/{found['id']}/{route}", content=body, headers=auth)
        assert typed(response) == "BAD_REQUEST"
    variables = '{"input": {"gameId": "' + found["id"] + '", "move": ' + DEEP_MOVE + "}}"
    document = (
        '{"query": ' + f'"{gql.APPLY}"'.replace("\n", " ") + ', "variables": ' + variables + "}"
    )
    response = await http.post("/graphql", content=document.encode(), headers=auth)
    assert typed(response) == "BAD_REQUEST"
    literal = "[" * 200 + "]" * 200
    inline = f'mutation {{ applyMove(input: {{gameId: "{found["id"]}", move: {literal}}}) {{ __typename }} }}'
    assert typed(await api.post(inline, {}, tokens[0])) in {
        "GRAPHQL_PARSE_FAILED",
        "GRAPHQL_VALIDATION_FAILED",
    }
    again = (await api.gql(gql.GAME, {"id": found["id"]}))["game"]
    assert again["version"] == found["version"], "nothing was applied"


@pytest.mark.parametrize(
    "authorization",
    ["Token {t}", "{t}", "Basic {t}", "Bearer 000{t}", "Bearer {t}=", "Bearer", "bearer  "],
)
async def test_a_bad_credential_is_unauthorized_never_a_spectator(
    api: Api, game: tuple[dict[str, Any], list[str]], authorization: str
) -> None:
    (found, tokens), http = game, api.http
    header = {"authorization": authorization.format(t=tokens[0])}
    assert typed(await http.get(f"/v1/games/{found['id']}", headers=header)) == "UNAUTHORIZED"
    body = {"query": gql.GAME, "variables": {"id": found["id"]}}
    assert typed(await http.post("/graphql", json=body, headers=header)) == "UNAUTHORIZED"


async def test_a_respelled_token_is_no_new_rate_limit_subject(redis_url: str) -> None:
    await one_window()
    settings = Settings(rate_limit_per_token=3, rate_limit_per_address=0)
    async with client_for(create_app(settings, redis_url)) as http:
        limited = Api(http)
        found, tokens = await create(limited, "TREELINGS", 2, seed="respelled")
        seat, _, secret = tokens[0].partition(".")
        for _ in range(3):
            assert (await limited.post(gql.GAME, {"id": found["id"]}, tokens[0])).status_code == 200
        assert (await limited.post(gql.GAME, {"id": found["id"]}, tokens[0])).status_code == 429
        for spelling in (
            f"0{seat}.{secret}",
            f"+{seat}.{secret}",
            f"{seat}.{secret}.",
            f"{seat}.{secret}x",
        ):
            answer = await limited.post(gql.GAME, {"id": found["id"]}, spelling)
            assert typed(answer) == "UNAUTHORIZED", "a respelling is no credential at all"


@pytest.mark.parametrize(("trusted", "admitted"), [((), {1, 2}), (("127.0.0.1",), {4})])
async def test_forwarded_addresses_are_believed_only_from_configured_proxies(
    redis_url: str, trusted: tuple[str, ...], admitted: set[int]
) -> None:
    await one_window()
    settings = Settings(
        rate_limit_per_token=0, rate_limit_per_address=2, forwarded_allow_ips=trusted
    )
    async with client_for(create_app(settings, redis_url)) as http:
        statuses = [
            (
                await http.post(
                    "/graphql",
                    json={"query": "{ catalog { kind } }"},
                    headers={"x-forwarded-for": f"203.0.113.{n // 2}"},
                )
            ).status_code
            for n in range(4)
        ]
    # Untrusted, the four share the peer's allowance of 2 (other tests' requests from the same
    # loopback address in this minute may have used some of it); trusted, each forwarded
    # address has its own.
    assert statuses.count(200) in admitted, statuses


async def test_an_ipv6_client_counts_by_its_slash_64(redis_url: str) -> None:
    """A network hands each subscriber a whole /64: a fresh address of it is no fresh
    allowance; the next /64 counts on its own, and an IPv4-mapped address as its IPv4."""
    await one_window()
    app = create_app(Settings(rate_limit_per_token=0, rate_limit_per_address=2), redis_url)
    net, ipv4 = secrets.randbelow((1 << 16) - 1), f"198.51.100.{secrets.randbelow(250) + 1}"

    async def status(host: str) -> int:
        transport = httpx.ASGITransport(app=app, client=(host, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            answer = await http.post("/graphql", json={"query": "{ catalog { kind } }"})
            return answer.status_code

    async with client_for(app):
        assert [await status(f"2001:db8:1:{net:x}::{n}") for n in (1, 2, 3)] == [200, 200, 429]
        assert await status(f"2001:db8:1:{net + 1:x}::1") == 200
        assert [await status(f"::ffff:{ipv4}"), await status(f"::ffff:{ipv4}")] == [200, 200]
        assert await status(ipv4) == 429
