"""The package's version and dependency pins, the service's own (../../pyproject.toml)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from hatchling.metadata.plugin.interface import MetadataHookInterface

NAME = re.compile(r"[A-Za-z0-9._-]+")


class RecordsMetadata(MetadataHookInterface):
    def update(self, metadata: dict[str, Any]) -> None:
        own = tomllib.loads((Path(self.root) / "pyproject.toml").read_text())
        service = tomllib.loads((Path(self.root).parents[1] / "pyproject.toml").read_text())
        pins = {_name(spec): spec for spec in service["project"]["dependencies"]}
        wanted = own["tool"]["records"]["dependencies"]
        missing = [name for name in wanted if _name(name) not in pins]
        if missing:
            raise ValueError(f"the service's pyproject.toml has no dependency {missing}")
        metadata["version"] = service["project"]["version"]
        metadata["dependencies"] = [pins[_name(name)] for name in wanted]


def _name(spec: str) -> str:
    found = NAME.match(spec)
    assert found is not None, spec
    return re.sub(r"[-_.]+", "-", found.group()).lower()
