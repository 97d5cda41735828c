"""`@graphql-codegen/cli` (client preset) on schema/schema.graphql gives real types, not `unknown`.

The generator and its version are pinned in tests/typed_node (package.json, package-lock.json);
the test installs them with `npm ci` when node is present, once per lock file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from service.api.contracts import SCHEMA_DIR

NODE_DIR = Path(__file__).parents[2] / "typed_node"
CHECKED = [
    "TypedGameQuery",
    "TypedCatalogQuery",
    "TypedMoveInput",
    "TypedOptionsInput",
    "TreelineOptionsInput",
]


def _node_or_skip() -> None:
    if shutil.which("node") and shutil.which("npm"):
        return
    if os.environ.get("RULES_REQUIRE_ALL_TESTS") == "1":
        pytest.fail("node and npm are needed (RULES_REQUIRE_ALL_TESTS=1)")
    pytest.skip("node and npm are not installed: the graphql-codegen check needs them")


def _install() -> Path:
    """`npm ci` unless node_modules already holds this very lock file's packages."""
    lock = hashlib.sha256((NODE_DIR / "package-lock.json").read_bytes()).hexdigest()
    stamp = NODE_DIR / "node_modules" / ".installed-lock"
    if not stamp.exists() or stamp.read_text() != lock:
        subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
            cwd=NODE_DIR,
            check=True,
            capture_output=True,
            timeout=600,
        )
        stamp.write_text(lock)
    return NODE_DIR / "node_modules" / ".bin" / "graphql-codegen"


def _types(source: str) -> dict[str, str]:
    """Each `export type Name = ...;` of the generated module, by name."""
    return {
        match[1]: match[2]
        for match in re.finditer(
            r"^export type (\w+)\s*=(.*?);\n(?=\n|export|/\*)", source, re.S | re.M
        )
    }


def test_codegen_types_views_moves_options_and_breakdowns_without_unknown(
    tmp_path: Path,
) -> None:
    _node_or_skip()
    codegen = _install()
    config = {
        "schema": str(SCHEMA_DIR / "schema.graphql"),
        "documents": [str(NODE_DIR / "typed.graphql")],
        "generates": {f"{tmp_path}/out/": {"preset": "client"}},
    }
    (tmp_path / "codegen.json").write_text(json.dumps(config))
    run = subprocess.run(
        [str(codegen), "--config", str(tmp_path / "codegen.json")],
        cwd=NODE_DIR,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    types = _types((tmp_path / "out" / "graphql.ts").read_text())
    game_inputs = [
        n for n in types if re.match(r"(Treeline|Treelings|Treetopia|Avenue)\w*Input$", n)
    ]
    assert len(game_inputs) > 10, sorted(types)
    for name in [*CHECKED, *game_inputs]:
        assert not re.search(r"\b(unknown|any)\b", types[name]), f"{name} = {types[name]}"
    query = types["TypedGameQuery"]
    for enum in ("TreelineKind", "TreelineToward"):
        assert f": {enum}" in query and enum in types, enum
    assert "'TreelineReforest'" in query and "'AvenueView'" in query
