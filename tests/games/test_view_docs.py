"""Every field of every game's view is documented in docs/rules/<game>.md, under
a heading named for its object, so that client teams never meet an unexplained field."""

from __future__ import annotations

from typing import Any

import pytest
from msgspec import inspect

from service.games import games
from tests.games.docs import rules_doc


def view_structs(kind: str) -> dict[str, inspect.StructType]:
    found: dict[str, inspect.StructType] = {}

    def walk(info: Any) -> None:
        if isinstance(info, inspect.StructType) and info.cls.__name__ not in found:
            found[info.cls.__name__] = info
            for field in info.fields:
                walk(field.type)
        for inner in ("item_type", "item_types", "types"):
            child = getattr(info, inner, None)
            for part in child if isinstance(child, tuple) else [child] if child else []:
                walk(part)

    walk(inspect.type_info(games()[kind].view_type))
    return found


@pytest.mark.parametrize("kind", sorted(games()))
def test_every_view_field_is_documented(kind: str) -> None:
    doc = rules_doc(kind)
    sections = doc.read_text().split("\n### ")
    for name, struct in view_structs(kind).items():
        section = next((s for s in sections if s.startswith(f"{name}\n")), "")
        assert section, f"{doc.name}: no '### {name}' section"
        for field in struct.fields:
            assert f"| `{field.encode_name}` |" in section, f"{name}.{field.encode_name}"
