"""An ariadne-codegen plugin: the generated package says which schema it was made from.

`SCHEMA_SHA256` is the SHA-256 of schema/schema.graphql as the generator read it, and
`__version__` the release of sdk/python/pyproject.toml's `[tool.rules-client]` with the first
12 hex digits of that hash as its local label (`0.2.0+schema.1a2b3c4d5e6f`): the wheel's version
(pyproject.toml reads it) names the schema it speaks, and two schemas never share a version.
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path
from typing import Any

from ariadne_codegen.plugins.base import Plugin


class SchemaVersion(Plugin):
    def generate_init_module(self, module: ast.Module) -> ast.Module:
        config: dict[str, Any] = self.config_dict
        schema = Path(config["tool"]["ariadne-codegen"]["schema_path"]).read_bytes()
        digest = hashlib.sha256(schema).hexdigest()
        release = config["tool"]["rules-client"]["release"]
        module.body.extend(
            [
                _constant("SCHEMA_SHA256", digest),
                _constant("__version__", f"{release}+schema.{digest[:12]}"),
            ]
        )
        return module


def _constant(name: str, value: str) -> ast.Assign:
    return ast.Assign(targets=[ast.Name(id=name)], value=ast.Constant(value=value), lineno=0)
