"""The playground's files (service/api/static/playground/) without a browser: served at /play where
the setting allows it, no request to anything but the service, and every GraphQL document it
sends valid against the public schema. The page itself runs in tests/clients/test_playground.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from graphql import parse, validate

from service.api.graphql.schema import build_schema
from service.app import PLAYGROUND_DIR, create_app
from service.settings import Settings
from tests.conftest import Api, client_for

ROOT = Path(__file__).parents[3]
FILES = sorted(path.name for path in PLAYGROUND_DIR.iterdir())
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}


def _source(name: str) -> str:
    return (PLAYGROUND_DIR / name).read_text()


async def test_the_page_and_its_modules_are_served_in_development(api: Api) -> None:
    moved = await api.http.get("/play")
    assert moved.status_code == 307 and moved.headers["location"].endswith("/play/")
    page = await api.http.get("/play/")
    assert page.status_code == 200 and '<script type="module" src="play.js">' in page.text
    for name in FILES:
        served = await api.http.get(f"/play/{name}")
        assert served.status_code == 200, name
        assert served.headers["content-type"].startswith(TYPES[name[name.rindex(".") :]]), name
        assert served.text == _source(name)


@pytest.mark.parametrize(
    ("settings", "served"),
    [
        (Settings(env="production"), False),
        (Settings(env="production", playground=True), True),
        (Settings(playground=False), False),
    ],
    ids=["production", "production-turned-on", "development-turned-off"],
)
async def test_the_setting_turns_the_playground_on_and_off(
    redis_url: str, settings: Settings, served: bool
) -> None:
    async with client_for(create_app(settings, redis_url)) as http:
        answer = await http.get("/play/play.js")
    if served:
        assert answer.status_code == 200
    else:  # a typed refusal like any unknown route
        assert answer.status_code == 404 and answer.json()["code"] == "UNKNOWN_ROUTE"


@pytest.mark.parametrize(
    ("environment", "on"),
    [({}, True), ({"RULES_ENV": "production"}, False),
     ({"RULES_ENV": "production", "RULES_PLAYGROUND": "1"}, True),
     ({"RULES_PLAYGROUND": "0"}, False)],
)  # fmt: skip
def test_rules_playground_reads_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], on: bool
) -> None:
    for name in ("RULES_ENV", "RULES_PLAYGROUND"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert Settings.from_env().serves_playground is on


def test_nothing_is_fetched_from_anywhere_but_the_service() -> None:
    for name in FILES:
        source = _source(name).replace("http://www.w3.org/2000/svg", "")  # a name, not a fetch
        assert not re.search(r"\w+://", source), name  # no absolute URL: http, https, ws, wss
        assert not re.search(r"""(src|href)=["']//""", source), name  # nor protocol-relative
        assert "@import" not in source and "url(" not in source, name
        imports = re.findall(r"""^import .* from ["']([^"']+)["']""", source, re.MULTILINE)
        assert all(path.startswith("./") and path.endswith(".js") for path in imports), name


def test_what_the_api_returns_is_shown_as_text_never_parsed_as_html() -> None:
    for name in FILES:
        assert not re.search(
            r"innerHTML|outerHTML|insertAdjacentHTML|document\.write", _source(name)
        )


def test_only_api_js_talks_to_the_network_and_only_to_graphql() -> None:
    for name in FILES:
        calls = re.findall(r"\b(fetch|WebSocket|XMLHttpRequest|EventSource)\(", _source(name))
        assert calls == [] or name == "api.js", name
    endpoints = re.findall(r'new URL\("([^"]+)"', _source("api.js"))
    assert endpoints == ["/graphql"]


def test_every_graphql_document_of_the_page_is_valid_against_the_public_schema() -> None:
    schema = build_schema(Settings(env="production"))._schema  # no introspection needed
    literal = r"""= [`"]((?:query|mutation|subscription|\{)[^`"]+)[`"]"""
    documents = [
        text for name in ("api.js", "play.js") for text in re.findall(literal, _source(name))
    ]
    # catalog, create, game, move, stateAt, the two takeback mutations; the events subscription
    assert len(documents) == 8
    for document in documents:
        assert validate(schema, parse(document)) == [], document


def test_the_readme_shows_each_game_in_the_playground() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "http://127.0.0.1:8000/play" in readme and "make screenshots" in readme
    for kind in ("treeline", "treelings", "treetopia", "tree_lined_avenue"):
        picture = f"docs/images/playground-{kind}.png"
        assert f"]({picture})" in readme
        assert (ROOT / picture).read_bytes().startswith(b"\x89PNG") and (
            ROOT / picture
        ).stat().st_size < 300_000
