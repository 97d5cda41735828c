"""Every machine-readable contract the service publishes, as committed under schema/: the
GraphQL SDL, OpenAPI 3.1 (with the per-game JSON Schemas) and the webhook payloads.

`python -m service.api.contracts` (`make schema`) writes them; a test fails when the
committed files differ from what the code generates.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import msgspec

from service.api.graphql.schema import build_schema
from service.api.rest.openapi import game_schema, openapi
from service.core.records.format import json_schema as game_record_schema
from service.games import games
from service.webhooks.model import ALL_TYPES
from service.webhooks.schemas import event_schema

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schema"


def sdl() -> str:
    return build_schema().as_str() + "\n"


def _json(value: Any) -> str:
    return msgspec.json.format(msgspec.json.encode(value), indent=2).decode() + "\n"


def contracts() -> dict[str, str]:
    """Every committed contract file, by its path under schema/."""
    files = {"schema.graphql": sdl(), "openapi.json": _json(openapi())}
    files["game-record.json"] = _json(game_record_schema())
    for kind, game in games().items():
        files[f"games/{kind.lower()}.json"] = _json(game_schema(game))
    for event_type in ALL_TYPES:
        files[f"webhooks/{event_type}.json"] = _json(event_schema(event_type))
    return files


def write(directory: Path = SCHEMA_DIR) -> None:
    for name, text in contracts().items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


if __name__ == "__main__":
    write(Path(sys.argv[1]) if len(sys.argv) > 1 else SCHEMA_DIR)
