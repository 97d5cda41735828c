"""GraphiQL is served entirely by the service: its page asks only for assets the service
serves, pinned by tools/graphiql/ and shipped with their licences. (The browser test in
tests/clients/test_browser.py runs it with every other request blocked.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

from service.api.graphql.app import GRAPHIQL_DIR
from tests.conftest import Api

TOOLS = Path(__file__).parents[3] / "tools" / "graphiql"
ASSET = re.compile(r"""(?:src|href)=["']([^"']+)["']""")


async def test_the_graphiql_page_needs_nothing_but_the_service(api: Api) -> None:
    page = await api.http.get("/graphql", headers={"accept": "text/html"})
    assert page.status_code == 200 and "GraphiQL" in page.text
    assets = [url for url in ASSET.findall(page.text) if not url.startswith("data:")]
    assert len(assets) >= 4, assets
    for url in assets:
        assert url.startswith("/graphiql/"), f"the page asks another origin for {url}"
        served = await api.http.get(url)
        assert served.status_code == 200 and served.content, url
    assert not re.search(r"\bimport\s*\(|https?://(unpkg|cdn|esm)", page.text)


def test_every_shipped_asset_is_pinned_and_licensed() -> None:
    pinned = json.loads((TOOLS / "package.json").read_text())["dependencies"]
    locked = json.loads((TOOLS / "package-lock.json").read_text())["packages"]
    licences = (GRAPHIQL_DIR / "LICENSES.txt").read_text()
    for package, version in pinned.items():
        assert locked[f"node_modules/{package}"]["version"] == version, package
        assert f"== {package} {version} ==" in licences, f"{package} {version}: no licence"
