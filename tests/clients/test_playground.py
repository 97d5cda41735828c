"""The playground at /play in a real browser (headless Chromium through Playwright), against a
real service process and, for bot seats, a real worker process.

The cheap test (a game created, one move by keyboard, a refusal) runs in `make test`; a spectator
on a phone-sized screen and whole games of the four kinds against bots are marked slow. With RULES_SCREENSHOTS=<dir> (`make
screenshots`) the pictures go to that folder (docs/images) instead of the test's tmp_path.
"""

from __future__ import annotations

import os
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Page, Request

from tests.clients.conftest import KINDS, TIMEOUT_MS, Service, only_to
from tests.core.takeback_scenes import decisions, first_answered
from tests.support.workers import WorkerProcess, worker_process

GAME = """query($id: ID!) { game(id: $id) {
  version status toAct viewer legalMoves { label } scores { final winners entries { seat points } }
} }"""
# the page is settled: nothing loading, and either a move to make or nothing left to do
SETTLED = """() => document.body.dataset.busy === '0' && document.body.dataset.version !== undefined
  && (document.querySelectorAll('#moves button').length > 0
      || document.body.dataset.status === 'FINISHED')"""
pytestmark = pytest.mark.xdist_group("chromium")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


async def _picture(page: Page, name: str, tmp_path: Path, always: bool = True) -> None:
    """A screenshot into RULES_SCREENSHOTS (make screenshots) or the test's tmp_path; the cheap
    test takes its own only for `make screenshots`."""
    folder = os.environ.get("RULES_SCREENSHOTS")
    if folder or always:
        Path(folder or tmp_path).mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=Path(folder or tmp_path) / f"{name}.png")


@pytest.fixture(scope="module")
def bots(redis_url: str) -> Iterator[WorkerProcess]:
    with worker_process(redis_url) as worker:
        yield worker


@pytest.fixture
async def http(service: Service) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=service.url, timeout=60) as client:
        yield client


async def _game(http: httpx.AsyncClient, game_id: str, token: str | None) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = await http.post("/graphql", headers=headers,
                             json={"query": GAME, "variables": {"id": game_id}})  # fmt: skip
    game: dict[str, Any] = answer.json()["data"]["game"]
    return game


async def _open(
    browser: Browser, service: Service, viewport: dict[str, int]
) -> tuple[Page, list[str]]:
    page = await browser.new_page(viewport=viewport)  # type: ignore[arg-type]
    blocked = await only_to(page, {service.url})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    await page.goto(f"{service.url}/play/", timeout=TIMEOUT_MS)
    await page.wait_for_function("() => document.body.dataset.ready === '1'", timeout=TIMEOUT_MS)
    return page, blocked + errors


async def _create(page: Page, kind: str, players: int, seats: dict[int, str], seed: str) -> str:
    await page.select_option("#kind", kind)
    await page.select_option("#players", str(players))
    for seat in range(players):
        await page.select_option(f"#seat-{seat}", seats.get(seat, "HUMAN"))
    await page.fill("#seed", seed)
    await page.click("#create-game")
    await page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    return str(await page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')"))


async def _tokens(page: Page) -> dict[int, str]:
    rows = await page.eval_on_selector_all(
        "#tokens li", "items => items.map(li => li.querySelector('code')?.textContent ?? null)"
    )
    return {seat: token for seat, token in enumerate(rows) if token}


async def _shown(page: Page) -> dict[str, Any]:
    """What the page says: version, seat to act, move labels, points per seat."""
    result: dict[str, Any] = await page.evaluate(
        """() => ({
        version: Number(document.body.dataset.version),
        status: document.body.dataset.status,
        toAct: document.querySelector('#status').dataset.toAct,
        viewer: document.body.dataset.viewer,
        moves: [...document.querySelectorAll('#moves button')].map(b => b.textContent),
        points: Object.fromEntries([...document.querySelectorAll('#scores tbody tr')]
            .map(tr => [tr.dataset.seat, Number(tr.querySelector('.points').textContent)])),
        winners: [...document.querySelectorAll('#scores tr.winner')].map(tr => Number(tr.dataset.seat)),
    })"""
    )
    return result


def _agrees(shown: dict[str, Any], game: dict[str, Any]) -> None:
    assert shown["version"] == game["version"]
    assert shown["status"] == game["status"]
    assert shown["toAct"] == ",".join(map(str, game["toAct"]))
    assert shown["moves"] == [move["label"] for move in game["legalMoves"]]
    assert shown["points"] == {str(e["seat"]): e["points"] for e in game["scores"]["entries"]}


async def test_the_page_creates_a_game_and_plays_a_move_by_keyboard(
    browser: Browser, service: Service, http: httpx.AsyncClient, tmp_path: Path
) -> None:
    page, trouble = await _open(browser, service, DESKTOP)
    game_id = await _create(page, "TREELINGS", 2, {}, "playground")  # hot seat: two humans
    tokens = await _tokens(page)
    assert sorted(tokens) == [0, 1]
    _agrees(await _shown(page), await _game(http, game_id, tokens[0]))

    # a market pile is a button on the board: Tab to it, Enter takes that colour
    target = page.locator("#board [data-target].target").first
    await target.focus()
    await page.keyboard.press("Enter")
    await page.wait_for_function(
        "() => Number(document.body.dataset.version) >= 1 && document.body.dataset.busy === '0'",
        timeout=TIMEOUT_MS,
    )
    focused = "() => document.activeElement?.matches('#board .target, #moves button')"
    await page.wait_for_function(focused, timeout=TIMEOUT_MS)  # keyboard play goes on
    after = await _game(http, game_id, None)
    seat = after["toAct"][0]
    await page.wait_for_function(
        f"() => document.body.dataset.viewer === '{seat}'", timeout=TIMEOUT_MS
    )
    _agrees(await _shown(page), await _game(http, game_id, tokens[seat]))  # hot seat turned

    await page.click("#raw-move summary")
    await page.fill("#raw", '{"type": "plantAt", "row": 0}')
    await page.click("#send-raw")
    await page.wait_for_selector("#refusal[data-code='MALFORMED_MOVE']", timeout=TIMEOUT_MS)
    assert (await _game(http, game_id, None))["version"] == after["version"]  # nothing changed
    await _picture(page, "playground-refusal", tmp_path, always=False)
    assert trouble == []
    await page.close()


async def test_the_takeback_buttons_ask_and_accept(
    browser: Browser, service: Service, http: httpx.AsyncClient
) -> None:
    """A seat takes back alone with one click; a request waiting for the seat shown
    is accepted with another (the game's `takebacks`: WITH_CONSENT, the page's default)."""
    made = decisions("TREELINGS", 2, "tb-TREELINGS")
    k = first_answered(made)
    page, trouble = await _open(browser, service, DESKTOP)
    game_id = await _create(page, "TREELINGS", 2, {}, "tb-TREELINGS")
    tokens = await _tokens(page)

    async def played(upto: int) -> None:
        for d in made[:upto]:
            answer = await http.post(
                "/graphql",
                headers={"authorization": f"Bearer {tokens[d.seat]}"},
                json={"query": MOVE, "variables": {"id": game_id, "move": d.move}},
            )
            assert answer.json()["data"]["applyMove"]["__typename"] == "MoveApplied", answer.text

    async def at_version(version: int) -> None:
        await page.wait_for_function(
            f"() => Number(document.body.dataset.version) === {version}"
            " && document.body.dataset.busy === '0'",
            timeout=TIMEOUT_MS,
        )

    await played(1)  # seat 0 takes cards: nothing drawn yet
    await at_version(1)
    await page.click("#ask-takeback")
    await at_version(2)
    game = await _game(http, game_id, None)
    assert game["version"] == 2 and game["toAct"] == [made[0].seat]

    await played(k + 2)  # the same decisions again, and the other seat's after them
    version = (await _game(http, game_id, None))["version"]
    asked = await http.post(
        "/graphql",
        headers={"authorization": f"Bearer {tokens[made[k].seat]}"},
        json={"query": ASK, "variables": {"id": game_id}},
    )
    assert asked.json()["data"]["requestTakeback"]["__typename"] == "MoveApplied", asked.text
    await at_version(version + 1)
    await page.click(f"#seats button[data-viewer='{made[k + 1].seat}']")
    await page.wait_for_selector("#accept-takeback:not([hidden])", timeout=TIMEOUT_MS)
    await page.click("#accept-takeback")
    await at_version(version + 2)
    assert (await _game(http, game_id, None))["version"] == version + 2
    assert trouble == []
    await page.close()


MOVE = """mutation($id: ID!, $move: JSON!) {
  applyMove(input: {gameId: $id, move: $move}) { __typename }
}"""
ASK = "mutation($id: ID!) { requestTakeback(gameId: $id) { __typename } }"


@pytest.mark.slow
async def test_a_spectator_follows_a_live_game_on_a_phone_sized_screen(
    browser: Browser, service: Service, http: httpx.AsyncClient, tmp_path: Path
) -> None:
    created = (await http.post("/v1/games", json={"kind": "TREE_LINED_AVENUE", "players": 2,
                                                  "seed": "spectator"})).json()  # fmt: skip
    game_id = created["game"]["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    page, trouble = await _open(browser, service, PHONE)
    authorized: list[str] = []

    def spy(request: Request) -> None:
        if "authorization" in request.headers:
            authorized.append(request.url)

    page.on("request", spy)
    await page.goto(f"{service.url}/play/#game={game_id}&as=spectator", timeout=TIMEOUT_MS)
    await page.wait_for_function(
        "() => document.body.dataset.viewer === 'spectator'", timeout=TIMEOUT_MS
    )
    chooser = random.Random(7)
    for _ in range(6):  # the test plays both seats over HTTP; the page only listens
        game = await _game(http, game_id, None)
        seat = game["toAct"][0]
        auth = {"authorization": f"Bearer {tokens[seat]}"}
        legal = (await http.get(f"/v1/games/{game_id}/legal-moves", headers=auth)).json()
        move = chooser.choice(legal["legalMoves"])["move"]
        moved = (await http.post(f"/v1/games/{game_id}/moves", headers=auth,
                                 json={"move": move})).json()  # fmt: skip
        version = moved["game"]["version"]
        await page.wait_for_function(
            f"() => Number(document.body.dataset.version) >= {version}"
            " && document.body.dataset.busy === '0'",
            timeout=TIMEOUT_MS,
        )
    shown = await _shown(page)
    _agrees(shown, await _game(http, game_id, None))
    assert shown["moves"] == [] and shown["viewer"] == "spectator"
    assert await page.locator("#tokens code").count() == 0
    assert authorized == [], "a spectator page sent a seat token"
    overflow = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than a phone"
    await _picture(page, "playground-phone-spectator", tmp_path)
    assert trouble == []
    await page.close()


SEATS = {"TREELINE": (2, "GREEDY"), "TREELINGS": (3, "RANDOM"), "TREETOPIA": (2, "GREEDY"),
         "TREE_LINED_AVENUE": (2, "GREEDY")}  # fmt: skip


async def _slide(page: Page, version: int) -> None:
    """The history slider moved to `version`, and the page showing it."""
    await page.eval_on_selector(
        "#slider", "(s, v) => { s.value = v; s.dispatchEvent(new Event('input')); }", str(version)
    )
    await page.wait_for_function(
        f"() => document.querySelector('#shown-version').textContent.startsWith('{version} of')",
        timeout=TIMEOUT_MS,
    )


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
async def test_a_whole_game_against_bots_shows_what_the_api_says(
    browser: Browser,
    service: Service,
    http: httpx.AsyncClient,
    bots: WorkerProcess,
    kind: str,
    tmp_path: Path,
) -> None:
    players, strategy = SEATS[kind]
    page, trouble = await _open(browser, service, DESKTOP)
    game_id = await _create(page, kind, players, dict.fromkeys(range(1, players), strategy), "doc")
    token = (await _tokens(page))[0]
    chooser = random.Random(kind)
    compared = decisions = 0
    seen: list[int] = []
    while True:
        await page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
        shown = await _shown(page)
        if shown["status"] == "FINISHED":
            break
        game = await _game(http, game_id, token)
        if game["version"] == shown["version"]:  # else a bot moved meanwhile: look again
            _agrees(shown, game)
            compared += 1
        seen.append(shown["version"])
        if decisions == 6:
            await _picture(page, f"playground-{kind.lower()}", tmp_path)
        buttons = page.locator("#moves button")
        await buttons.nth(chooser.randrange(await buttons.count())).click()
        decisions += 1
        assert decisions < 2000, "the game did not end"
        await page.wait_for_function(
            f"() => Number(document.body.dataset.version) > {shown['version']}"
            " || document.querySelector('#refusal:not([hidden])')",
            timeout=TIMEOUT_MS,
        )
    final = await _game(http, game_id, token)
    assert final["scores"]["final"] and compared > 0
    _agrees(shown, final)
    assert shown["winners"] == final["scores"]["winners"]

    # the history slider: back to a version the page saw, read only
    past = seen[len(seen) // 2]
    await _slide(page, past)
    assert await page.locator("#moves button").count() == 0
    assert await page.locator("#board svg").count() == 1
    assert await page.locator("#history li.future").count() == final["version"] - past
    as_seen = await page.locator("#board-text li").all_text_contents()
    # a fresh page saw only the last version: the server replays the past one (stateAt), and
    # the board is drawn as the page drew it when it saw that version
    await page.reload()
    await page.wait_for_function(SETTLED, timeout=TIMEOUT_MS)
    await _slide(page, past)
    await page.wait_for_function(
        "() => document.querySelector('#past').textContent.includes('server replays it for seat 0')",
        timeout=TIMEOUT_MS,
    )
    assert await page.locator("#moves button").count() == 0
    assert await page.locator("#board-text li").all_text_contents() == as_seen
    assert trouble == []
    await page.close()
