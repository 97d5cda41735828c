"""The Python SDK as a studio ships it: the wheel `uv build` makes of sdk/python, its version
naming the schema, installed into a fresh virtualenv, and its example playing a game there
against a real service process with API keys (RULES_API_KEYS), the key from RULES_API_KEY or
--api-key; a missing key and a key written as its `tenant:secret` entry are told apart.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.api.contracts import SCHEMA_DIR
from tests.support.processes import service_processes

ROOT = Path(__file__).parents[2]
SDK = ROOT / "sdk" / "python"
UV = Path(sys.executable).parent / "uv"
SECRET = "wheel-studio-secret"
pytestmark = pytest.mark.slow  # a build, a virtualenv, a service process and a whole game


@pytest.fixture(scope="module")
def keyed_service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("service") / "stderr.log"
    settings = {"RULES_API_KEYS": f"studio:{SECRET}", "RULES_RATE_LIMIT_PER_TOKEN": "0"}
    with log.open("wb") as stderr:
        try:
            with service_processes(redis_url, 1, settings, log=stderr) as urls:
                yield urls[0]
        except AssertionError as exc:
            raise AssertionError(f"{exc}\n{log.read_text()[-4000:]}") from None


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from a copy of sdk/python (so the build leaves nothing in the tree),
    installed alone into a new virtualenv; its python."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "python"
    shutil.copytree(SDK, source, ignore=shutil.ignore_patterns(".venv", "__pycache__", "build"))
    run([UV, "build", "--wheel", source, "--out-dir", work / "dist"], work)
    wheels = list((work / "dist").glob("*.whl"))
    assert len(wheels) == 1, wheels
    digest = hashlib.sha256((SCHEMA_DIR / "schema.graphql").read_bytes()).hexdigest()
    assert f"+schema.{digest[:12]}-" in wheels[0].name, wheels[0].name  # the schema it speaks
    run([UV, "venv", "--python", sys.executable, work / "venv"], work)
    python = work / "venv" / "bin" / "python"
    run([UV, "pip", "install", "--python", python, wheels[0]], work)
    return python


def run(command: list[object], cwd: Path, **options: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, capture_output=True, text=True, timeout=600,
        **options,  # type: ignore[call-overload]
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def play(
    python: Path, url: str, *flags: str, key: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "RULES_API_KEY"}}
    if key is not None:
        env["RULES_API_KEY"] = key
    return subprocess.run(
        [python, SDK / "examples" / "play.py", url, "TREELINGS", "2", *flags],
        cwd=python.parent, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def test_the_installed_wheel_plays_a_game_with_an_api_key(
    installed: Path, keyed_service: str
) -> None:
    where = run([installed, "-c", "import rules_client; print(rules_client.__file__)"], ROOT)
    assert str(installed.parents[1]) in where.stdout, "imported from the wheel, not the tree"
    played = play(installed, keyed_service, "--seed", "wheel", key=SECRET)
    assert played.returncode == 0, played.stderr
    assert '"record_valid": true' in played.stdout and '"kind": "TREELINGS"' in played.stdout
    flagged = play(installed, keyed_service, "--seed", "wheel-flag", f"--api-key={SECRET}")
    assert flagged.returncode == 0, flagged.stderr


def test_a_missing_and_a_malformed_key_are_told_apart(installed: Path, keyed_service: str) -> None:
    missing = play(installed, keyed_service)
    assert missing.returncode == 2, missing.stderr
    assert "needs an API key" in missing.stderr, missing.stderr
    malformed = play(installed, keyed_service, key=f"studio:{SECRET}")
    assert malformed.returncode == 2, malformed.stderr
    assert "tenant:secret" in malformed.stderr and "after the colon" in malformed.stderr
    unknown = play(installed, keyed_service, key="not-the-secret")
    assert unknown.returncode == 2 and "refused the API key" in unknown.stderr, unknown.stderr
