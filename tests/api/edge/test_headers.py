"""Security headers on every kind of HTTP answer (service/api/edge/headers.py): nosniff, no
referrer and no framing on the API; the two pages also get a policy that runs only their own
script files. tests/clients/test_csp.py runs the pages under that policy in a real browser."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from service.api.graphql.app import GRAPHIQL_PAGE
from service.app import PLAYGROUND_DIR, create_app
from service.settings import Settings
from tests.conftest import Api, client_for
from tests.support import gql
from tests.support.play import create

PAGE_DIRECTIVES = {
    "default-src": "'self'",
    "script-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'none'",
    "form-action": "'none'",
    "object-src": "'none'",
}
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)


def _policy(answer: httpx.Response) -> dict[str, str]:
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"
    parts = answer.headers["content-security-policy"].split(";")
    return dict(part.strip().split(" ", 1) for part in parts)


def _api_headers(answer: httpx.Response) -> None:
    assert _policy(answer) == {"frame-ancestors": "'none'"}


async def test_graphql_answers_carry_the_headers_on_the_fast_path_and_strawberry(api: Api) -> None:
    game, _ = await create(api, "TREELINGS", 2)
    fast = await api.post(gql.GAME, {"id": game["id"]})  # a plain read: the fast path
    assert fast.status_code == 200 and fast.json()["data"]["game"]["id"] == game["id"]
    slow = await api.post("{ catalog { kind } }")  # no plan for it: strawberry
    assert slow.status_code == 200 and slow.json()["data"]["catalog"]
    refused = await api.http.post(
        "/graphql", content=b"{", headers={"content-type": "application/json"}
    )
    assert refused.status_code == 400
    for answer in (fast, slow, refused):
        _api_headers(answer)


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/v1/games", 200),
        ("GET", "/v1/games/no-such-game", 404),  # a problem+json refusal
        ("GET", "/no/such/route", 404),
        ("DELETE", "/healthz", 405),
        ("GET", "/healthz", 200),
        ("GET", "/readyz", 200),
        ("GET", "/metrics", 200),
        ("GET", "/openapi.json", 200),
    ],
)
async def test_rest_and_operational_answers_carry_the_headers(
    api: Api, method: str, path: str, status: int
) -> None:
    answer = await api.http.request(method, path)
    assert answer.status_code == status, answer.text
    _api_headers(answer)


async def test_the_guards_refusals_carry_the_headers(api: Api, redis_url: str) -> None:
    too_large = await api.http.post("/graphql", content=b" " * (Settings().max_body_bytes + 1))
    assert too_large.status_code == 413
    _api_headers(too_large)

    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=1)
    async with client_for(create_app(settings, redis_url)) as http:
        answers = [await http.get("/v1/games") for _ in range(3)]  # one allowed, then 429s
    limited = answers[-1]
    assert limited.status_code == 429 and limited.json()["code"] == "RATE_LIMITED"
    _api_headers(limited)


@pytest.mark.parametrize(
    ("path", "headers", "style"),
    [
        ("/play/", {}, "'self'"),
        ("/play/play.js", {}, "'self'"),
        ("/graphql", {"accept": "text/html"}, "'self' 'unsafe-inline'"),
        ("/graphiql/start.js", {}, "'self' 'unsafe-inline'"),
    ],
)
async def test_the_pages_carry_a_policy_without_inline_script(
    api: Api, path: str, headers: dict[str, Any], style: str
) -> None:
    answer = await api.http.get(path, headers=headers)
    assert answer.status_code == 200
    policy = _policy(answer)
    assert {name: policy[name] for name in PAGE_DIRECTIVES} == PAGE_DIRECTIVES
    assert policy["style-src"] == style  # GraphiQL's dialogs add a <style> (headers.py)


def test_the_pages_hold_no_inline_script_or_handler() -> None:
    for page in (GRAPHIQL_PAGE, (PLAYGROUND_DIR / "index.html").read_text()):
        assert INLINE_SCRIPT.search(page) is None
        assert re.search(r"\son[a-z]+\s*=", page) is None
