"""The committed contracts in schema/ are what the code serves, and never break by accident."""

from __future__ import annotations

import json

from graphql import build_schema, find_breaking_changes

from service.api.contracts import SCHEMA_DIR, contracts, sdl
from tests.conftest import Api

ALLOWED = SCHEMA_DIR / "allowed-breaking-changes.txt"


def test_committed_contracts_are_current() -> None:
    generated = contracts()
    committed = {
        str(p.relative_to(SCHEMA_DIR)): p.read_text()
        for p in [
            SCHEMA_DIR / "schema.graphql",
            SCHEMA_DIR / "openapi.json",
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
    allowed = {
        line.strip()
        for line in (ALLOWED.read_text().splitlines() if ALLOWED.exists() else [])
        if line.strip() and not line.startswith("#")
    }
    breaking = [
        change.description
        for change in find_breaking_changes(released, build_schema(sdl()))
        if change.description not in allowed
    ]
    assert not breaking, f"breaking GraphQL changes: {breaking}"


async def test_the_served_openapi_is_the_committed_one(api: Api) -> None:
    response = await api.http.get("/openapi.json")
    assert response.status_code == 200
    assert response.json() == json.loads((SCHEMA_DIR / "openapi.json").read_text())
