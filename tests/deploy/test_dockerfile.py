"""The image recipe: lint-clean, shaped for Kubernetes, and replayed here so it cannot rot.

No container engine runs on this machine, so `built_image` replays the Dockerfile's stages in
a scratch folder (tests/deploy/dockerfile.py): every RUN runs verbatim under /bin/sh with the
stage's ENV, COPY copies from the build context that .dockerignore leaves, and the app is
started with ENTRYPOINT + CMD exactly, except that the `--host`/`--port` values are swapped for
a free loopback port (what `docker run -p` does for a container). The python:3.11 base image
is stood in for by this machine's Python 3.11; pip may reuse its cache.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from service.store.embedded import free_port
from tests.deploy.dockerfile import Replay, Stage, context_files, parse

# One worker replays the image for all of this file's tests (`make test` runs pytest-xdist).
pytestmark = pytest.mark.xdist_group("image")

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"
BIN = Path(sys.executable).parent
MACHINE_SETTINGS = ("PIP_", "UV_", "SSL_CERT_", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
                    "http_proxy", "https_proxy", "no_proxy")  # fmt: skip


def stages() -> list[Stage]:
    return parse(DOCKERFILE.read_text())


def final() -> Stage:
    return stages()[-1]


def tool(name: str) -> str:
    path = BIN / name
    assert path.exists(), f"{name} is missing: `make test` installs it (the dev extra)"
    return str(path)


# Lint and shape.


def test_hadolint_finds_nothing_in_the_dockerfile() -> None:
    done = subprocess.run(
        [tool("hadolint"), "--no-color", "--failure-threshold", "style", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_hadolint_flags_an_unpinned_shell_form_recipe() -> None:
    bad = "FROM python:latest\nRUN pip install redis\nCMD uvicorn service.app:app\n"
    done = subprocess.run(
        [tool("hadolint"), "--no-color", "-"], input=bad, capture_output=True, text=True
    )
    assert done.returncode != 0
    for rule in ("DL3007", "DL3013", "DL3025"):
        assert rule in done.stdout, done.stdout


def test_image_is_multi_stage_on_one_pinned_slim_python() -> None:
    found = stages()
    assert len(found) >= 2
    bases = {stage.base for stage in found}
    assert len(bases) == 1, bases
    (base,) = bases
    assert re.fullmatch(r"python:3\.\d+(\.\d+)?-slim(-\w+)?", base), base
    assert not final().all("RUN"), "the runtime stage installs nothing"
    copies = final().all("COPY")
    assert copies and all(ins.flags == (f"--from={found[0].name}",) for ins in copies)


def test_runtime_runs_as_a_numeric_non_root_user() -> None:
    user = final().last("USER")
    assert user is not None
    uid, _, gid = user.value.partition(":")
    assert uid.isdigit() and int(uid) != 0, user.value
    assert gid == "" or (gid.isdigit() and int(gid) != 0), user.value


def test_app_starts_in_exec_form_with_the_uvicorn_factory() -> None:
    entrypoint, cmd = final().last("ENTRYPOINT"), final().last("CMD")
    assert entrypoint is not None and cmd is not None
    argv = entrypoint.exec_form() + cmd.exec_form()
    assert argv[0] == "uvicorn"
    assert argv[argv.index("--factory") + 1] == "service.app:from_env"
    assert argv[argv.index("--host") + 1] == "0.0.0.0"
    exposed = final().last("EXPOSE")
    # the first port is the clients' (the metrics' is RULES_METRICS_PORT's, k8s/base)
    assert exposed is not None and argv[argv.index("--port") + 1] == exposed.value.split()[0]
    assert "--workers" not in argv, "one process per pod: the metrics are per process"


def test_build_context_is_pyproject_the_lock_and_the_service_package_only() -> None:
    files = context_files(ROOT)
    assert {"pyproject.toml", "uv.lock", "service/app.py"} <= set(files)
    assert any(path.endswith(".json") for path in files if path.startswith("service/games/"))
    top = {"pyproject.toml", "uv.lock"}
    strays = [p for p in files if p not in top and not p.startswith("service/")]
    assert not strays, strays
    assert not [p for p in files if "__pycache__" in p or p.endswith(".pyc")]


# The replay.


@dataclass
class BuiltImage:
    replay: Replay
    log: Path
    output: Path

    def argv(self, port: int) -> list[str]:
        argv = list(self.replay.argv)
        argv[argv.index("--host") + 1] = "127.0.0.1"
        argv[argv.index("--port") + 1] = str(port)
        return argv

    def start(self, port: int, extra_env: dict[str, str]) -> subprocess.Popen[bytes]:
        with self.output.open("w") as out:
            return subprocess.Popen(
                self.argv(port),
                cwd=self.replay.workdir,
                env={**self.replay.env, **extra_env},
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def stop(self, process: subprocess.Popen[bytes]) -> str:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        return self.output.read_text()


def base_python(base: str) -> Path:
    version = re.search(r":(\d+\.\d+)", base)
    assert version is not None, base
    if f"{sys.version_info[0]}.{sys.version_info[1]}" != version.group(1):
        pytest.skip(f"the image is on Python {version.group(1)}; these tests run on another")
    return Path(getattr(sys, "_base_executable", sys.executable)).resolve()


@pytest.fixture(scope="module")
def built_image(tmp_path_factory: pytest.TempPathFactory) -> BuiltImage:
    scratch = tmp_path_factory.mktemp("image")
    context = scratch / "context"
    for rel in context_files(ROOT):
        (context / rel).parent.mkdir(parents=True, exist_ok=True)
        (context / rel).write_bytes((ROOT / rel).read_bytes())
    found = stages()
    # The base image: its Python first on PATH, and the machine's pip settings (index, cache).
    python = base_python(found[0].base)
    base_bin = scratch / "base-bin"
    base_bin.mkdir()
    for name in ("python", "python3"):
        (base_bin / name).symlink_to(python)
    base_env = {
        "PATH": f"{base_bin}:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "HOME": os.environ.get("HOME", str(scratch)),
        **{k: v for k, v in os.environ.items() if k.startswith(MACHINE_SETTINGS)},
    }
    replay = Replay(context=context, root=scratch / "root", base_env=base_env)
    log = scratch / "build.log"
    for stage in found:
        replay.run_stage(stage, log)
    return BuiltImage(replay, log, scratch / "app.log")


def wait_ready(process: subprocess.Popen[bytes], base: str, log: Path, deadline: float) -> None:
    while time.monotonic() < deadline:
        assert process.poll() is None, f"the app exited:\n{log.read_text()}"
        try:
            if httpx.get(f"{base}/readyz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise AssertionError("the app did not become ready in time")


def tree(path: Path) -> set[str]:
    return {str(p.relative_to(path)) for p in path.rglob("*")}


def test_image_recipe_installs_and_serves_against_redis_url(
    built_image: BuiltImage, redis_url: str
) -> None:
    replay = built_image.replay
    venv = Path(replay.env["VIRTUAL_ENV"])
    found = subprocess.run(
        ["sh", "-c", 'command -v "$0"', replay.argv[0]], env=replay.env, capture_output=True
    )
    assert found.stdout.decode().strip() == str(venv / "bin" / replay.argv[0])
    before = tree(replay.root)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = built_image.start(port, {"REDIS_URL": redis_url})
    try:
        wait_ready(process, base, built_image.output, time.monotonic() + 120)
        assert httpx.get(f"{base}/healthz", timeout=5).text == "ok"
        created = httpx.post(
            f"{base}/graphql",
            json={"query": "mutation { createGame(input: {kind: TREELINGS, players: 2}) "
                           "{ game { id version } } }"},
            timeout=10,
        )  # fmt: skip
        assert created.status_code == 200, created.text
        assert created.json()["data"]["createGame"]["game"]["version"] == 0
        exported = httpx.get(f"{base}/metrics", timeout=5).text
        # The series prometheus-adapter turns into the HPA's request-rate metric.
        assert re.search(r'^rules_request_seconds_count\{operation="createGame"\} 1\.0$',
                         exported, re.M), exported  # fmt: skip
    finally:
        output = built_image.stop(process)
    # A clean stop: uvicorn drains, then re-raises SIGTERM as its exit status.
    assert process.returncode in (0, -signal.SIGTERM), output
    assert "Application shutdown complete" in output
    # Read-only root: nothing was written into the image's filesystem while it ran.
    assert tree(replay.root) == before


def test_image_refuses_to_start_without_redis_url(built_image: BuiltImage) -> None:
    process = built_image.start(free_port(), {})
    process.wait(timeout=30)
    output = built_image.stop(process)
    assert process.returncode != 0
    assert "REDIS_URL is not set" in output
