"""The TypeScript SDK as a team ships it: `npm pack` builds the package (compiled JS and .d.ts in
dist/, no sources, no example), a fresh project installs the tarball, type-checks against its
declarations under `tsc --strict`, and plays a whole game with it from node against a real
service that needs an API key."""

from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path

import pytest

from tests.clients.conftest import require
from tests.clients.test_typescript_sdk import KEY, SDK, _run, keyed, node_modules  # noqa: F401

pytestmark = pytest.mark.slow  # npm pack, npm install, tsc and a whole game

SCRIPTS = Path(__file__).parent / "node" / "sdk"
SOURCES = ["package.json", "package-lock.json", "tsconfig.json", "README.md", "src", "scripts"]


@pytest.fixture(scope="module")
def tarball(node_modules: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    """`npm pack` in a clean copy of sdk/typescript (its prepack builds dist/ with tsc)."""
    npm = require("npm", "apt-get install npm")
    copy = tmp_path_factory.mktemp("sdk-ts-pack")
    for name in SOURCES:
        source = SDK / name
        if source.is_dir():
            shutil.copytree(source, copy / name)
        else:
            shutil.copy(source, copy / name)
    (copy / "node_modules").symlink_to(node_modules)
    packed = json.loads(_run([npm, "pack", "--json", "--loglevel=error"], copy, 300))
    filename: str = packed[0]["filename"]
    return copy / filename


@pytest.fixture(scope="module")
def app(tarball: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh project with the tarball installed (its dependencies from npm's cache)."""
    npm = require("npm", "apt-get install npm")
    project = tmp_path_factory.mktemp("sdk-ts-app")
    manifest = {"name": "an-app", "private": True, "type": "module"}
    (project / "package.json").write_text(json.dumps(manifest))
    _run([npm, "install", tarball, "--prefer-offline", "--no-audit", "--no-fund",
          "--loglevel=error"], project, 300)  # fmt: skip
    return project


def test_the_tarball_holds_the_compiled_package_only(tarball: Path) -> None:
    with tarfile.open(tarball) as packed:
        names = set(packed.getnames())
    manifest = json.loads((SDK / "package.json").read_text())
    assert tarball.name == f"{manifest['name']}-{manifest['version']}.tgz"
    for needed in ["index.js", "index.d.ts", "rules.d.ts", "websocket.js", "websocket-node.js"]:
        assert f"package/dist/{needed}" in names, needed
    assert {"package/package.json", "package/README.md"} <= names
    assert not [name for name in names if name.startswith("package/src/")], "no sources"
    assert not [name for name in names if "/play." in name], "the example stays out"


def test_a_typescript_app_type_checks_against_the_installed_declarations(
    app: Path,
    node_modules: Path,  # noqa: F811
) -> None:
    shutil.copy(SCRIPTS / "consumer.ts", app / "consumer.ts")
    options = {
        "strict": True, "noEmit": True, "module": "NodeNext", "moduleResolution": "NodeNext",
        "target": "ES2022", "lib": ["ES2022", "DOM"], "types": [], "skipLibCheck": False,
    }  # fmt: skip
    config = {"compilerOptions": options, "files": ["consumer.ts"]}
    (app / "tsconfig.json").write_text(json.dumps(config))
    _run([node_modules / ".bin" / "tsc", "-p", "."], app)


def test_an_app_plays_a_game_with_the_installed_package(app: Path, keyed: str) -> None:  # noqa: F811
    node = require("node", "apt-get install nodejs")
    shutil.copy(SCRIPTS / "packaged_game.mjs", app / "game.mjs")
    output = _run([node, "game.mjs", keyed], app, 300, RULES_API_KEY=KEY)
    summary = json.loads(output.strip().splitlines()[-1])
    version = json.loads((SDK / "package.json").read_text())["version"]
    assert summary["status"] == "FINISHED" and summary["final"] is True, summary
    versions = summary["versions"]
    assert versions == list(range(versions[0], versions[0] + len(versions))), versions
    assert summary["listed"] is True, "games() lists the tenant's game"
    pseudo = summary["pseudo"]  # the label's catalog message in the language asked for
    assert pseudo["text"].startswith("⟦") and pseudo["text"] != pseudo["label"], pseudo
    assert summary["sdkVersion"] == summary["installed"] == version, summary
