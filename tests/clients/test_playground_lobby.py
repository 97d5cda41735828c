"""The playground's lobby at /play/lobby.html in a real browser (headless Chromium through
Playwright), against a real service process: two players, each in a browser context of its
own, meet by join code, by invite link and by quick match, and land in the playground's game
view acting with their player tokens (docs/api.md, "Players" and "Matchmaking")."""

from __future__ import annotations

import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, BrowserContext, Page

from tests.clients.conftest import TIMEOUT_MS, Service, only_to
from tests.clients.test_csp import LISTEN

pytestmark = [pytest.mark.xdist_group("chromium"), pytest.mark.slow]

GAME = """query($id: ID!) { game(id: $id) {
  version status toAct viewer legalMoves { label }
} }"""
# the game view is settled on a started game: nothing loading, someone to act
IN_GAME = """() => location.pathname.endsWith('/play/') && document.body.dataset.busy === '0'
  && document.body.dataset.status === 'ACTIVE'
  && (document.querySelector('#status')?.dataset.toAct ?? '') !== ''"""


@pytest.fixture
async def http(service: Service) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=service.url, timeout=60) as client:
        yield client


class Player:
    """One person: a browser context of its own (its own sessionStorage), on the lobby page."""

    def __init__(self, page: Page, trouble: list[str], name: str) -> None:
        self.page, self.trouble, self.name = page, trouble, name

    async def identify(self) -> None:
        await self.page.fill("#player-id", self.name)
        await self.page.click("#get-token")
        await self.page.wait_for_selector("#player:not([hidden])", timeout=TIMEOUT_MS)
        assert self.name in (await self.page.locator("#whoami").text_content() or "")

    async def clean(self) -> None:
        """No script error, no request to another origin, no violation of the policy."""
        violations = await self.page.evaluate("window.violations ?? []")
        assert self.trouble == [] and violations == [], (self.trouble, violations)

    async def in_game(self) -> tuple[str, int, str]:
        """The game, seat and token the game view shows, once it shows the started game."""
        await self.page.wait_for_function(IN_GAME, timeout=TIMEOUT_MS)
        game_id = str(
            await self.page.evaluate("new URLSearchParams(location.hash.slice(1)).get('game')")
        )
        saved = await self.page.evaluate(f"JSON.parse(sessionStorage.getItem('play:{game_id}'))")
        ((seat, token),) = saved["tokens"].items()
        assert await self.page.evaluate("document.body.dataset.viewer") == seat
        return game_id, int(seat), token


Meet = Callable[..., Awaitable[Player]]


@pytest.fixture
async def meet(browser: Browser, service: Service) -> AsyncIterator[Meet]:
    """Opens the lobby (or `url`) for a new player named `name`-<random>, in a context of its own."""
    contexts: list[BrowserContext] = []

    async def player(name: str, url: str = "") -> Player:
        context = await browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        page = await context.new_page()
        trouble = await only_to(page, {service.url})
        await page.add_init_script(LISTEN)  # the pages' content security policy, as in test_csp
        page.on("pageerror", lambda error: trouble.append(str(error)))
        await page.goto(url or f"{service.url}/play/lobby.html", timeout=TIMEOUT_MS)
        await page.wait_for_function(
            "() => document.body.dataset.ready === '1'", timeout=TIMEOUT_MS
        )
        return Player(page, trouble, f"{name}-{secrets.token_hex(4)}")

    yield player
    for context in contexts:
        await context.close()


async def _game(http: httpx.AsyncClient, game_id: str, token: str) -> dict[str, Any]:
    answer = await http.post("/graphql", headers={"authorization": f"Bearer {token}"},
                             json={"query": GAME, "variables": {"id": game_id}})  # fmt: skip
    game: dict[str, Any] = answer.json()["data"]["game"]
    return game


async def _create(player: Player, kind: str, players: int) -> str:
    await player.page.select_option("#kind", kind)
    await player.page.select_option("#players", str(players))
    await player.page.click("#create-open")
    await player.page.wait_for_selector("#invite:not([hidden])", timeout=TIMEOUT_MS)
    return await player.page.locator("#join-code").text_content() or ""


async def _both_play(http: httpx.AsyncClient, ann: Player, bob: Player) -> None:
    """Both views show one started game, each as its own seat; the seat to act plays a move
    from its page and the other page sees it (gameEvents)."""
    (game_id, ann_seat, ann_token), (bob_game, bob_seat, bob_token) = [
        await ann.in_game(),
        await bob.in_game(),
    ]
    assert game_id == bob_game and {ann_seat, bob_seat} == {0, 1}
    seen = {ann_seat: await _game(http, game_id, ann_token)}
    seen[bob_seat] = await _game(http, game_id, bob_token)
    assert [seen[seat]["viewer"] for seat in (0, 1)] == [0, 1]  # each token plays its own seat
    first = seen[0]["toAct"][0]
    mover = ann if first == ann_seat else bob
    moves = await mover.page.locator("#moves button").all_text_contents()
    assert moves == [move["label"] for move in seen[first]["legalMoves"]]
    version = seen[first]["version"]
    await mover.page.locator("#moves button").first.click()
    for player in (ann, bob):
        await player.page.wait_for_function(
            f"() => Number(document.body.dataset.version) > {version}", timeout=TIMEOUT_MS
        )
    assert (await _game(http, game_id, ann_token))["version"] == version + 1
    await ann.clean()
    await bob.clean()


async def test_two_players_join_by_code_and_both_play_the_game(
    meet: Meet, service: Service, http: httpx.AsyncClient
) -> None:
    ann = await meet("ann")
    bob = await meet("bob")
    await ann.identify()
    code = await _create(ann, "TREELINGS", 2)
    assert re.fullmatch(r"[23456789ABCDEFGHJKMNPQRSTVWXYZ]{6}", code)
    await ann.page.wait_for_function(  # the creator waits on the lobby until the seat is taken
        "() => document.querySelector('#seats-open').textContent.includes('seat 1 open')",
        timeout=TIMEOUT_MS,
    )
    await bob.identify()
    await bob.page.fill("#code", code.lower())  # any case
    await bob.page.click("#join-game")
    await _both_play(http, ann, bob)


async def test_two_players_quick_match_each_other_into_one_game(
    meet: Meet, service: Service, http: httpx.AsyncClient
) -> None:
    ann = await meet("ann")
    bob = await meet("bob")
    for player in (ann, bob):
        await player.identify()
        await player.page.select_option("#match-kind", "TREETOPIA")  # a pool of this test's own
        await player.page.select_option("#match-players", "2")
    await ann.page.click("#quick-match")
    await ann.page.wait_for_selector("#matchmaking[data-state='WAITING']", timeout=TIMEOUT_MS)
    waiting = await ann.page.locator("#matchmaking").text_content() or ""
    assert re.fullmatch(r"Waiting \d+ s; rating window ±\d+\.\d\d \(.*\)\.", waiting), waiting
    assert await ann.page.locator("#leave-match").is_visible()
    await bob.page.click("#quick-match")  # the same pool, fitting windows: matched at once
    await _both_play(http, ann, bob)


async def test_an_invite_link_brings_the_second_player_in_and_lists_the_game(
    meet: Meet, service: Service, http: httpx.AsyncClient
) -> None:
    ann = await meet("ann")
    await ann.identify()
    code = await _create(ann, "TREE_LINED_AVENUE", 2)
    link = await ann.page.locator("#invite-link").get_attribute("href") or ""
    assert link.endswith(f"#code={code}")
    # the creator comes back to the lobby: the game waits among its games, and waits on again
    await ann.page.goto(f"{service.url}/play/lobby.html", timeout=TIMEOUT_MS)
    await ann.page.locator("#my-games li button").click(timeout=TIMEOUT_MS)  # its one game
    await ann.page.wait_for_selector("#invite:not([hidden])", timeout=TIMEOUT_MS)
    assert await ann.page.locator("#join-code").text_content() == code
    bob = await meet("bob", f"{service.url}{link}")
    assert await bob.page.input_value("#code") == code
    await bob.identify()
    await bob.page.click("#join-game")
    await _both_play(http, ann, bob)

    game_id = (await bob.in_game())[0]
    await bob.page.goto(f"{service.url}/play/lobby.html", timeout=TIMEOUT_MS)  # token kept
    await bob.page.wait_for_selector(f"#my-games li[data-game='{game_id}']", timeout=TIMEOUT_MS)
    listed = await bob.page.locator(f"#my-games li[data-game='{game_id}']").text_content() or ""
    assert "seat 1, active, version 1" in listed
    note = "No rated game of this kind yet"  # the board is read only; no archive here
    await bob.page.wait_for_function(
        f"() => document.querySelector('#leaderboard-note').textContent.startsWith('{note}')",
        timeout=TIMEOUT_MS,
    )
    await bob.clean()


@pytest.mark.parametrize(("code", "refusal"), [("ZZZZZZ", "NOT_FOUND"), ("abc", "BAD_USER_INPUT")])
async def test_a_bad_code_shows_the_typed_refusal(
    meet: Meet, service: Service, http: httpx.AsyncClient, code: str, refusal: str
) -> None:
    bob = await meet("bob")
    await bob.identify()
    await bob.page.fill("#code", code)
    await bob.page.click("#join-game")
    await bob.page.wait_for_selector(f"#refusal[data-code='{refusal}']", timeout=TIMEOUT_MS)
    token = await bob.page.evaluate("JSON.parse(sessionStorage.getItem('lobby:player')).token")
    answer = await http.post(
        "/graphql",
        headers={"authorization": f"Bearer {token}"},
        json={"query": 'mutation($c: String!) { joinGame(code: $c) { seat } }',
              "variables": {"c": code}},
    )  # fmt: skip
    error = answer.json()["errors"][0]
    assert error["extensions"]["code"] == refusal
    said = await bob.page.locator("#refusal").text_content()
    assert said == f"{refusal}: {error['extensions']['message']['text']}"
    assert bob.page.url.endswith("/play/lobby.html")  # still in the lobby
    await bob.clean()
