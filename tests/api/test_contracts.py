"""The committed contracts in schema/ are what the code serves, and never break by accident."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from graphql import DangerousChangeType, build_schema, find_breaking_changes, find_dangerous_changes

from service.api.contracts import SCHEMA_DIR, contracts, sdl
from tests.conftest import Api

ALLOWED = SCHEMA_DIR / "allowed-breaking-changes.txt"
ALLOWED_ADDITIONS = SCHEMA_DIR / "allowed-dangerous-changes.txt"
# what a client's exhaustive switch meets (new optional inputs and arguments are harmless)
UNEXPECTED_VALUES = {
    DangerousChangeType.VALUE_ADDED_TO_ENUM,
    DangerousChangeType.TYPE_ADDED_TO_UNION,
}


def _listed(path: Path) -> set[str]:
    lines = path.read_text().splitlines() if path.exists() else []
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def test_committed_contracts_are_current() -> None:
    generated = contracts()
    committed = {
        str(p.relative_to(SCHEMA_DIR)): p.read_text()
        for p in [
            SCHEMA_DIR / "schema.graphql",
            *sorted(SCHEMA_DIR.glob("*.json")),  # openapi.json, game-record.json
            *sorted((SCHEMA_DIR / "games").glob("*.json")),
            *sorted((SCHEMA_DIR / "webhooks").glob("*.json")),
        ]
    }
    stale = sorted(name for name in generated if committed.get(name) != generated[name])
    assert not stale, f"stale contracts {stale}: run `make schema` and commit schema/"
    assert sorted(committed) == sorted(generated), "schema/ holds a file nothing generates"


def test_no_breaking_graphql_change_against_the_released_schema() -> None:
    """A breaking change must be deliberate: listed in schema/allowed-breaking-changes.txt."""
    released = build_schema((SCHEMA_DIR / "released.graphql").read_text())
    allowed = _listed(ALLOWED)
    breaking = [
        change.description
        for change in find_breaking_changes(released, build_schema(sdl()))
        if change.description not in allowed
    ]
    assert not breaking, f"breaking GraphQL changes: {breaking}"


def test_every_new_enum_value_or_union_member_is_listed_as_deliberate() -> None:
    """A new RejectCode (IDEMPOTENCY_KEY_REUSED) is additive, not breaking, yet a client built
    on the released schema may not handle it: each is listed in
    schema/allowed-dangerous-changes.txt, and the list holds nothing that did not happen."""
    released = build_schema((SCHEMA_DIR / "released.graphql").read_text())
    added = {
        change.description
        for change in find_dangerous_changes(released, build_schema(sdl()))
        if change.type in UNEXPECTED_VALUES
    }
    listed = _listed(ALLOWED_ADDITIONS)
    assert not added - listed, f"list in {ALLOWED_ADDITIONS.name}: {sorted(added - listed)}"
    assert not listed - added, f"listed but not made: {sorted(listed - added)}"


async def test_the_served_openapi_is_the_committed_one(api: Api) -> None:
    response = await api.http.get("/openapi.json")
    assert response.status_code == 200
    assert response.json() == json.loads((SCHEMA_DIR / "openapi.json").read_text())


def _pairs(schema: Any) -> Iterator[tuple[Any, ...]]:
    """Every (key, value) pair anywhere in `schema`."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            yield key, value
            yield from _pairs(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _pairs(value)


def test_the_openapi_document_is_one_generators_accept() -> None:
    """What openapi-python-client once tripped on, checked without running it (the client
    suite does, in the slow tier): unique model names, no self-reference, no `items: false`."""
    document = json.loads((SCHEMA_DIR / "openapi.json").read_text())
    schemas = document["components"]["schemas"]
    titles = [schema["title"] for schema in schemas.values() if "title" in schema]
    assert len(titles) == len(set(titles)), "two components share a title (a model name)"
    assert not set(titles) - set(schemas), "a title names no component (models are named by it)"
    for name, schema in schemas.items():
        assert schema.get("$ref") != f"#/components/schemas/{name}", f"{name} refers to itself"
    pairs = list(_pairs(document))
    for key, value in pairs:
        if key == "$ref":
            assert value.removeprefix("#/components/schemas/") in schemas, value
    assert ("items", False) not in pairs


ERRORS = {"400", "413", "429", "503"}  # any route: bad request, too large, rate limited, outage
OPEN = {
    "verifyGameRecord",
    "recordSigningKeys",
    "languages",
}  # no credential, no stored game: no 401


# Operations whose handler acts for a player named by the tenant's key or by its own player
# token: they declare both credentials (read from the handlers: service/api/rest/lobby.py,
# rematch.py's createChallenge).
EITHER = {
    "enterMatchmaking",
    "leaveMatchmaking",
    "getMatchmaking",
    "getPlayerEvents",
    "createChallenge",
}


def test_every_operation_declares_its_refusals_as_problem_details_and_its_credentials() -> None:
    document = json.loads((SCHEMA_DIR / "openapi.json").read_text())
    schemes = document["components"]["securitySchemes"]
    assert schemes["seatToken"] == {"type": "http", "scheme": "bearer"}
    assert schemes["apiKey"]["type"] == "apiKey" and schemes["apiKey"]["name"] == "X-API-Key"
    problem = {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    operations = {
        op["operationId"]: (path, op)
        for path, methods in document["paths"].items()
        for op in methods.values()
    }
    for name, (path, op) in operations.items():
        statuses = set(op["responses"])
        required = ERRORS | ({"401"} if name not in OPEN else set())
        required |= {"404"} if "{" in path else set()
        assert required <= statuses, f"{name} leaves out {sorted(required - statuses)}"
        for status, answer in op["responses"].items():
            if status >= "400":
                assert answer["content"] == problem, f"{name} {status}"
            if status in ("429", "503"):
                assert "Retry-After" in answer["headers"], f"{name} {status}"
        security = [scheme for requirement in op["security"] for scheme in requirement]
        assert (security or name in OPEN) and set(security) <= set(schemes), name
        needs_key = (
            path.startswith("/v1/webhooks")
            or name in EITHER
            or name
            in {
                "createGame",
                "listGames",
                "abandonGame",
                "reissueSeatToken",
                "getLeaderboard",
                "getPlayerRatings",
                "getRatingPolicy",
                "setRatingPolicy",
                "issuePlayerToken",
                "revokePlayerTokens",
            }
        )
        # a seat-scoped route takes a seat token, or the tenant's key acting for a seat;
        # a route of EITHER the tenant's key naming a player, or that player's own token
        acts = any(p.get("name") == "X-Act-As-Seat" for p in op.get("parameters", []))
        both = "seatToken" in security and "apiKey" in security
        assert both == (acts or name in EITHER), f"{name}: either credential"
        assert ("apiKey" in security) == (needs_key or acts), f"{name}: the X-API-Key scheme"
    assert {"401", "404", "409", "412", "422"} <= set(operations["applyMove"][1]["responses"])
