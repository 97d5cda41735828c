"""docs/api.md's examples run, in order, against a real service process.

Each ```sh or ```python block runs with BASE and the values saved by earlier blocks in its
environment. A `<!-- doc-test: ... -->` line after a block says what to check:
`save NAME=path`, `expect path=value` (or just `path`: it must exist), or `skip`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.processes import service_processes
from tests.support.workers import WorkerProcess

DOC = Path(__file__).parents[2] / "docs" / "api.md"
SDK_PYTHON = Path(__file__).parents[2] / "sdk" / "python"
BLOCK = re.compile(r"```(sh|python|text)\n(.*?)```\n(?:<!-- doc-test: (.*?) -->)?", re.S)


def _at(value: Any, path: str) -> Any:
    for part in path.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def examples() -> list[tuple[str, str, str]]:
    return [(m[1], m[2], m[3] or "") for m in BLOCK.finditer(DOC.read_text())]


def test_the_doc_has_examples_for_graphql_rest_and_python() -> None:
    languages = [language for language, _, _ in examples()]
    assert languages.count("sh") >= 10 and "python" in languages


@pytest.mark.skipif(shutil.which("curl") is None, reason="the shell examples need curl")
def test_every_documented_example_runs(redis_url: str, bot_worker: WorkerProcess) -> None:
    with service_processes(redis_url, 1) as (base,):
        # the Python examples import the committed typed client (docs/api.md, "Typed clients")
        saved = {"BASE": base, "PYTHONPATH": str(SDK_PYTHON)}
        for language, code, directive in examples():
            if language == "text" or directive.strip() == "skip" or directive.startswith("skip"):
                continue
            command = ["bash", "-euo", "pipefail", "-c", code]
            if language == "python":
                command = [sys.executable, "-c", code]
            run = subprocess.run(
                command, env={**os.environ, **saved}, capture_output=True, text=True, timeout=60
            )
            assert run.returncode == 0, f"{code}\n{run.stderr}"
            answer = json.loads(run.stdout)
            assert "errors" not in answer, f"{code}\n{answer}"
            words = directive.split()
            mode = words[0] if words else ""
            for word in words[1:]:
                path, _, expected = word.partition("=")
                if mode == "save":
                    saved[path] = _text(_at(answer, expected))
                elif expected:
                    assert _text(_at(answer, path)) == expected, f"{code}\n{answer}"
                else:
                    _at(answer, path)
