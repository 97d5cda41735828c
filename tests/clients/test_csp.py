"""The pages' content security policy in a real browser (headless Chromium through Playwright):
the playground plays and follows a game over its socket, and GraphiQL runs a query and a
subscription and opens a dialog, with no violation of the policy reported (docs/security.md).
The headers themselves are checked without a browser in tests/api/edge/test_headers.py."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from playwright.async_api import Browser, ConsoleMessage, Page

from tests.clients.conftest import TIMEOUT_MS, Service, only_to
from tests.clients.test_browser import _response_contains, _run

pytestmark = pytest.mark.xdist_group("chromium")

# Registered before any script of the page runs; the browser also says so in the console.
LISTEN = """document.addEventListener('securitypolicyviolation', (event) =>
  (window.violations ??= []).push(`${event.effectiveDirective} ${event.blockedURI}`), true)"""


async def _watched(browser: Browser, service: Service) -> tuple[Page, list[str]]:
    """A page that lists every violation, script error and request to another origin."""
    page = await browser.new_page(viewport={"width": 1400, "height": 900})
    trouble = await only_to(page, {service.url})
    await page.add_init_script(LISTEN)

    def console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            trouble.append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda error: trouble.append(str(error)))
    return page, trouble


async def _violations(page: Page) -> list[str]:
    found: list[str] = await page.evaluate("window.violations ?? []")
    return found


def _strict(policy: str) -> None:
    assert policy, "the page has no content security policy"
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'" and directives["frame-ancestors"] == "'none'"


@pytest.fixture
async def http(service: Service) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=service.url, timeout=60) as client:
        yield client


async def test_the_playground_plays_and_follows_a_game_under_the_policy(
    browser: Browser, service: Service, http: httpx.AsyncClient
) -> None:
    page, trouble = await _watched(browser, service)
    served = await page.goto(f"{service.url}/play/", timeout=TIMEOUT_MS)
    assert served is not None
    _strict(await served.header_value("content-security-policy") or "")
    await page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=TIMEOUT_MS)
    await page.select_option("#kind", "TREELINGS")
    await page.select_option("#players", "2")
    for seat in (0, 1):  # both seats held by this tab: the test moves for whichever acts
        await page.select_option(f"#seat-{seat}", "HUMAN")
    await page.click("#create-game")
    settled = "() => document.body.dataset.busy === '0' && document.body.dataset.version === '{}'"
    await page.wait_for_function(settled.format(0), timeout=TIMEOUT_MS)
    await page.locator("#moves button").first.click()  # a move from the page
    await page.wait_for_function(settled.format(1), timeout=TIMEOUT_MS)

    # a move from elsewhere reaches the page only through its graphql-transport-ws socket
    game_id = await page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
    # the token of the seat to act, as this tab keeps it, once the page shows that seat
    held = await page.wait_for_function(
        "(id) => { const seat = (document.querySelector('#status').dataset.toAct || '')"
        ".split(',')[0]; const saved = JSON.parse(sessionStorage.getItem(`play:${id}`) || 'null');"
        " return seat !== '' && saved && saved.tokens[seat]; }",
        arg=game_id,
        timeout=TIMEOUT_MS,
    )
    token = await held.json_value()
    auth = {"authorization": f"Bearer {token}"}
    legal = (await http.get(f"/v1/games/{game_id}/legal-moves", headers=auth)).json()
    moved = await http.post(f"/v1/games/{game_id}/moves", headers=auth,
                            json={"move": legal["legalMoves"][0]["move"]})  # fmt: skip
    assert moved.status_code == 200, moved.text
    await page.wait_for_function(settled.format(2), timeout=TIMEOUT_MS)

    violations = await _violations(page)
    assert violations == [] and trouble == [], (violations, trouble)
    await page.close()


async def test_graphiql_runs_a_query_and_a_subscription_under_the_policy(
    browser: Browser, service: Service, http: httpx.AsyncClient
) -> None:
    page, trouble = await _watched(browser, service)
    served = await page.goto(service.graphql, wait_until="load", timeout=TIMEOUT_MS)
    assert served is not None
    _strict(await served.header_value("content-security-policy") or "")
    await page.wait_for_selector(".graphiql-execute-button", timeout=TIMEOUT_MS)
    await _run(page, "{ catalog { kind title } }")
    await _response_contains(page, '"TREE_LINED_AVENUE"')

    created = (await http.post("/v1/games", json={"kind": "TREELINGS", "players": 2})).json()
    game_id = created["game"]["id"]
    await _run(page, f'subscription {{ gameEvents(gameId: "{game_id}") {{ version status }} }}')
    await _response_contains(page, f'"version": {created["game"]["version"]}')

    await page.click("[aria-label='Open settings dialog']")  # a dialog: styles added at run time
    await page.wait_for_selector(".graphiql-dialog", timeout=TIMEOUT_MS)
    await page.keyboard.press("Escape")
    await page.wait_for_selector(".graphiql-dialog", state="detached", timeout=TIMEOUT_MS)

    violations = await _violations(page)
    assert violations == [] and trouble == [], (violations, trouble)
    await page.close()
