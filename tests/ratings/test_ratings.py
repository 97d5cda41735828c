"""Ratings (service/ratings, service/worker/rating.py) on a real Redis and a real PostgreSQL,
through the real ASGI app and a worker's archive pass: a finished game is rated exactly once
(a second pass, a racing worker or a replay changes nothing), games with a bot, abandoned,
without player ids or with more takebacks than the tenant allows are recorded as not rated,
the leaderboards page by cursor in order, a tenant sees only its own players, and a
PostgreSQL that does not answer delays a rating without losing it."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import msgspec
import pytest

from service import metrics
from service.app import create_app
from service.archive.archive import Archive, lazy_pool
from service.archive.database import open_pool
from service.ratings.ledger import Ledger
from service.ratings.standings import Standing
from service.settings import Settings
from service.store.archived import archive_key
from service.store.embedded import free_port
from service.store.jobs import lane_of
from service.worker import Worker
from service.worker.archiving import Archiver
from service.worker.rating import Rater
from tests.conftest import Api, client_for, own_redis
from tests.core.takeback_scenes import decisions
from tests.support import gql
from tests.support.play import bot_seats, create_game, play_to_end

LEADERBOARD = """
query Board($kind: GameKind!, $first: Int!, $after: String) {
  leaderboard(kind: $kind, first: $first, after: $after) {
    edges { cursor node { playerId kind mu sigma ordinal games } }
    pageInfo { hasNextPage endCursor }
  }
}"""
RATING = """
query Rating($player: String!, $kind: GameKind!) {
  rating(playerId: $player, kind: $kind) { playerId kind mu sigma ordinal games }
}"""
SET_POLICY = "mutation P($n: Int!) { setRatingPolicy(maxTakebacks: $n) { maxTakebacks } }"
POLICY = "query { ratingPolicy { maxTakebacks } }"
ASK_TAKEBACK = """
mutation Ask($id: ID!) {
  requestTakeback(gameId: $id) { __typename ... on MoveRejected { code message } }
}"""
TAKEBACK_SEED = "tb-TREELINGS"  # its first decision may be taken back alone
FIRST = decisions("TREELINGS", 2, TAKEBACK_SEED, 1)[0]


@dataclass
class Setup:
    http: httpx.AsyncClient
    worker: Worker
    archiver: Archiver
    ledger: Ledger
    keys: list[str]  # two tenants' API keys
    tenants: list[str]
    settings: Settings
    redis_url: str

    async def gql(
        self, query: str, variables: dict[str, Any], key: str | None, token: str | None = None
    ) -> dict[str, Any]:
        headers = {"x-api-key": key} if key else {}
        if token:
            headers["authorization"] = f"Bearer {token}"
        response = await self.http.post(
            "/graphql", json={"query": query, "variables": variables}, headers=headers
        )
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body


@pytest.fixture
async def setup(database_url: str) -> AsyncIterator[Setup]:
    """The API with two tenants of this test's own (the PostgreSQL is shared: fresh tenant
    names keep each test's ratings apart) and an in-process worker whose archive passes the
    test runs; no grace: a finished game is due at once."""
    suffix = secrets.token_hex(4)
    tenants, keys = [f"acme{suffix}", f"globex{suffix}"], [f"a-{suffix}", f"g-{suffix}"]
    settings = Settings(
        api_keys=tuple(f"{tenant}:{key}" for tenant, key in zip(tenants, keys, strict=True)),
        rate_limit_per_token=0,
        rate_limit_per_address=0,
        idempotency_grace=0,
        database_url=database_url,
    )
    with own_redis() as url:
        async with client_for(create_app(settings, url)) as http:
            worker = await _worker(settings, url, "ratings-test")
            assert worker.archiver is not None and worker.archiver.archive is not None
            ledger = Ledger(worker.archiver.archive.pool)
            yield Setup(http, worker, worker.archiver, ledger, keys, tenants, settings, url)
            await _close(worker)


async def _worker(settings: Settings, url: str, name: str) -> Worker:
    worker = Worker(settings, url, name)
    assert worker.archiver is not None
    worker.archiver.archive = Archive(await open_pool(settings.database_url))
    return worker


async def _close(worker: Worker) -> None:
    if worker.archiver is not None and worker.archiver.archive is not None:
        await worker.archiver.archive.pool.close()
    await worker.store.close()


async def _resigned(
    setup: Setup, players: list[str] | None, key: str | None = None, **fields: Any
) -> str:
    """A 2-seat TREELINGS game that its last human seat resigns (seat 1: seat 0 wins)."""
    key = key or setup.keys[0]
    more = {} if players is None else {"playerIds": players}
    created = await create_game(setup.http, key=key, seed="ratings", **more, **fields)
    game_id, last = created["game"]["id"], created["seats"][-1]  # a bot's seat has no token
    resigned = await setup.gql(gql.RESIGN, {"id": game_id}, None, last["token"])
    assert resigned["data"]["resign"]["__typename"] == "MoveApplied", resigned
    return game_id


async def _verdict(setup: Setup, game_id: str, tenant: int = 0) -> tuple[str, str] | None:
    return await setup.ledger.verdict(setup.tenants[tenant], game_id)


async def _rating(setup: Setup, player: str, kind: str = "TREELINGS", key: int = 0) -> Any:
    answer = await setup.gql(RATING, {"player": player, "kind": kind}, setup.keys[key])
    assert "errors" not in answer, answer
    return answer["data"]["rating"]


def _counted(outcome: str, reason: str) -> float:
    value: float = metrics.RATED_GAMES.labels(outcome, reason)._value.get()
    return value


async def test_a_two_seat_game_is_rated_once_and_a_second_pass_changes_nothing(
    setup: Setup,
) -> None:
    rated = _counted("rated", "")
    game_id = await _resigned(setup, ["ann", "bob"])
    assert await _rating(setup, "ann") is None, "not rated before it is archived"

    assert await setup.archiver.one(game_id) == "archived"

    assert await _verdict(setup, game_id) == ("RATED", "")
    assert _counted("rated", "") == rated + 1
    ann, bob = await _rating(setup, "ann"), await _rating(setup, "bob")
    assert ann["games"] == bob["games"] == 1
    assert ann["mu"] > 25 > bob["mu"], "the winner up, the player who resigned down"
    assert ann["sigma"] < 25 / 3 and ann["ordinal"] == pytest.approx(ann["mu"] - 3 * ann["sigma"])
    # read back into Redis (the short tail) and marked again: archived again, not rated again
    game = await setup.http.get(f"/v1/games/{game_id}", headers={"x-api-key": setup.keys[0]})
    assert game.status_code == 200
    await setup.worker.store.redis.zadd(archive_key(lane_of(game_id)), {game_id: 0})
    assert await setup.archiver.one(game_id) == "archived"
    assert await _rating(setup, "ann") == ann and await _rating(setup, "bob") == bob
    assert _counted("rated", "") == rated + 1


async def test_a_four_seat_game_is_rated_by_its_final_scores(setup: Setup) -> None:
    players = ["cy", "di", "ed", "flo"]
    created = await create_game(
        setup.http, key=setup.keys[0], players=4, seed="ratings-4", playerIds=players
    )
    tokens = [s["token"] for s in created["seats"]]
    over = await play_to_end(Api(setup.http), created["game"], tokens, "ratings-4")
    assert over["status"] == "FINISHED"
    scores = over["scores"]

    assert await setup.archiver.one(over["id"]) == "archived"

    assert await _verdict(setup, over["id"]) == ("RATED", "")
    ratings = {p: await _rating(setup, p) for p in players}
    assert all(r["games"] == 1 for r in ratings.values())
    best = max(e["points"] for e in scores["entries"])
    for entry in scores["entries"]:
        mu = ratings[players[entry["seat"]]]["mu"]
        if entry["seat"] in scores["winners"]:
            assert mu > 25, (entry, scores["winners"])
        if entry["points"] < best:
            assert mu < max(r["mu"] for r in ratings.values())
    # a better place never rates lower
    placed = sorted(
        scores["entries"],
        key=lambda e: (e["seat"] in scores["winners"], e["points"], e["tiebreak"]),
    )
    mus = [ratings[players[e["seat"]]]["mu"] for e in placed]
    assert mus == sorted(mus), (placed, mus)


async def test_two_workers_rate_a_game_once(setup: Setup) -> None:
    game_id = await _resigned(setup, ["gus", "hal"])
    other = await _worker(setup.settings, setup.redis_url, "ratings-other")
    assert other.archiver is not None
    try:
        outcomes = await asyncio.gather(setup.archiver.one(game_id), other.archiver.one(game_id))
    finally:
        await _close(other)
    assert "archived" in outcomes, outcomes
    assert (await _rating(setup, "gus"))["games"] == 1
    assert (await _rating(setup, "hal"))["games"] == 1


async def test_a_standing_recorded_at_once_by_many_is_rated_once(setup: Setup) -> None:
    """The rated_games key decides in one transaction with the ratings: concurrent replays
    of one game rate it once, and games sharing players queue on their rows."""
    tenant = setup.tenants[0]

    def standing(game_id: str) -> Standing:
        return Standing(
            game_id=game_id,
            tenant=tenant,
            kind="TREELINGS",
            teams=[["ivy"], ["jo"], ["kit"]],
            ranks=[1, 2, 2],
            takebacks=0,
            excluded=None,
        )

    verdicts = await asyncio.gather(*(setup.ledger.record(standing("g-once")) for _ in range(6)))
    assert verdicts.count(None) == 5 and ("RATED", "") in verdicts
    await asyncio.gather(*(setup.ledger.record(standing(f"g-{n}")) for n in range(5)))
    ivy, jo, kit = [await _rating(setup, p) for p in ("ivy", "jo", "kit")]
    assert ivy["games"] == jo["games"] == kit["games"] == 6
    assert ivy["mu"] > jo["mu"] == kit["mu"], "a tie shares a place"


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("bot", "BOT_SEAT"),
        ("abandoned", "ABANDONED"),
        ("no player id", "NO_PLAYER_ID"),
        ("one player twice", "SHARED_PLAYER_ID"),
    ],
)
async def test_games_that_say_nothing_of_skill_are_not_rated(
    setup: Setup, case: str, reason: str
) -> None:
    excluded = _counted("excluded", reason)
    if case == "bot":
        game_id = await _resigned(setup, ["lu"], bots=bot_seats({1: "RANDOM"}))
    elif case == "abandoned":
        created = await create_game(
            setup.http, key=setup.keys[0], seed="ratings", playerIds=["lu", "mo"]
        )
        game_id = created["game"]["id"]
        abandoned = await setup.gql(gql.ABANDON, {"id": game_id}, setup.keys[0])
        assert abandoned["data"]["abandonGame"]["__typename"] == "MoveApplied", abandoned
    elif case == "no player id":
        game_id = await _resigned(setup, None)
    else:
        game_id = await _resigned(setup, ["lu", "lu"])

    assert await setup.archiver.one(game_id) == "archived"

    assert await _verdict(setup, game_id) == ("EXCLUDED", reason)
    assert _counted("excluded", reason) == excluded + 1
    assert await _rating(setup, "lu") is None and await _rating(setup, "mo") is None


async def _taken_back(setup: Setup, players: list[str]) -> str:
    """A game whose first decision was taken back once, then resigned."""
    created = await create_game(
        setup.http,
        key=setup.keys[0],
        seed=TAKEBACK_SEED,
        playerIds=players,
        takebacks="OWN_DECISIONS",
    )
    game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
    moved = await setup.gql(
        gql.APPLY, {"input": {"gameId": game_id, "move": FIRST.move}}, None, tokens[FIRST.seat]
    )
    assert moved["data"]["applyMove"]["__typename"] == "MoveApplied", moved
    taken = await setup.gql(ASK_TAKEBACK, {"id": game_id}, None, tokens[FIRST.seat])
    assert taken["data"]["requestTakeback"]["__typename"] == "MoveApplied", taken
    resigned = await setup.gql(gql.RESIGN, {"id": game_id}, None, tokens[1])
    assert resigned["data"]["resign"]["__typename"] == "MoveApplied", resigned
    return game_id


async def test_takebacks_beyond_the_tenants_policy_leave_a_game_unrated(setup: Setup) -> None:
    answer = await setup.gql(POLICY, {}, setup.keys[0])
    assert answer["data"]["ratingPolicy"] == {"maxTakebacks": 0}, "by default none"
    strict = await _taken_back(setup, ["ned", "oz"])
    assert await setup.archiver.one(strict) == "archived"
    assert await _verdict(setup, strict) == ("EXCLUDED", "TAKEBACKS")
    assert await _rating(setup, "ned") is None

    changed = await setup.gql(SET_POLICY, {"n": 1}, setup.keys[0])
    assert changed["data"]["setRatingPolicy"] == {"maxTakebacks": 1}
    other = await setup.http.get("/v1/rating-policy", headers={"x-api-key": setup.keys[1]})
    assert other.json() == {"maxTakebacks": 0}, "another tenant's policy is its own"
    lenient = await _taken_back(setup, ["ned", "oz"])
    assert await setup.archiver.one(lenient) == "archived"
    assert await _verdict(setup, lenient) == ("RATED", "")
    assert (await _rating(setup, "ned"))["games"] == 1


async def test_leaderboards_page_by_cursor_in_order_and_each_tenant_sees_its_own(
    setup: Setup,
) -> None:
    tenant = setup.tenants[0]
    players = [f"p{n}" for n in range(7)]
    for n in range(4):  # p0 wins most; p5 and p6 never play against each other: equal
        teams = [[players[n]], [players[n + 1]], [players[5]], [players[6]]]
        await setup.ledger.record(
            Standing(
                game_id=f"board-{n}",
                tenant=tenant,
                kind="TREELINGS",
                teams=teams,
                ranks=[1, 2, 3, 3],
                takebacks=0,
                excluded=None,
            )
        )
    expected = sorted(
        [await _rating(setup, p) for p in players],
        key=lambda r: (-r["ordinal"], r["playerId"]),
    )
    assert len(expected) == 7 and expected[-1]["ordinal"] == expected[-2]["ordinal"]

    seen: list[Any] = []
    after = None
    while True:
        variables = {"kind": "TREELINGS", "first": 3, "after": after}
        board = (await setup.gql(LEADERBOARD, variables, setup.keys[0]))["data"]["leaderboard"]
        seen += [edge["node"] for edge in board["edges"]]
        if not board["pageInfo"]["hasNextPage"]:
            break
        after = board["pageInfo"]["endCursor"]
    assert seen == [{**r, "kind": "TREELINGS"} for r in expected]

    rest: list[Any] = []
    url: str | None = "/v1/leaderboards/TREELINGS?first=2"
    while url is not None:
        page = await setup.http.get(url, headers={"x-api-key": setup.keys[0]})
        assert page.status_code == 200, page.text
        rest += page.json()["ratings"]
        url = page.links.get("next", {}).get("url")
        if url is not None:
            url = url.removeprefix(str(setup.http.base_url).rstrip("/"))
    assert [r["playerId"] for r in rest] == [r["playerId"] for r in expected]

    mine = await setup.http.get("/v1/players/p0/ratings", headers={"x-api-key": setup.keys[0]})
    assert [r["games"] for r in mine.json()["ratings"]] == [1]
    # the other tenant: no players, no ratings, whatever the ids
    theirs = {"kind": "TREELINGS", "first": 10, "after": None}
    board = (await setup.gql(LEADERBOARD, theirs, setup.keys[1]))["data"]["leaderboard"]
    assert board == {"edges": [], "pageInfo": {"hasNextPage": False, "endCursor": None}}
    assert await _rating(setup, "p0", key=1) is None
    other = await setup.http.get("/v1/players/p0/ratings", headers={"x-api-key": setup.keys[1]})
    assert other.status_code == 404 and other.json()["code"] == "NOT_FOUND"


async def test_bad_input_is_refused_with_a_typed_code(setup: Setup) -> None:
    key = setup.keys[0]
    for variables in (
        {"kind": "TREELINGS", "first": 0},
        {"kind": "TREELINGS", "first": 101},
        {"kind": "TREELINGS", "first": 5, "after": "not-a-cursor!"},
        {"kind": "TREELINGS", "first": 5, "after": "abc"},
    ):
        answer = await setup.gql(LEADERBOARD, variables, key)
        assert answer["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", answer
    long_id = {"player": "x" * 129, "kind": "TREELINGS"}
    answer = await setup.gql(RATING, long_id, key)
    assert answer["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    answer = await setup.gql(SET_POLICY, {"n": -1}, key)
    assert answer["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    answer = await setup.gql(RATING, {"player": "ann", "kind": "TREELINGS"}, None)
    assert answer["errors"][0]["extensions"]["code"] == "UNAUTHORIZED"

    headers = {"x-api-key": key}
    for url, code in (
        ("/v1/leaderboards/CHESS", "NOT_FOUND"),
        ("/v1/leaderboards/TREELINGS?first=x", "BAD_REQUEST"),
        ("/v1/leaderboards/TREELINGS?after=%3F%3F", "BAD_REQUEST"),
        ("/v1/leaderboards/TREELINGS?sort=mu", "BAD_REQUEST"),
        ("/v1/players/ann/ratings?kind=CHESS", "BAD_REQUEST"),
    ):
        answer = await setup.http.get(url, headers=headers)
        status = 404 if code == "NOT_FOUND" else 400
        assert answer.status_code == status and answer.json()["code"] == code, (url, answer.text)
    refused = await setup.http.get("/v1/leaderboards/TREELINGS")
    assert refused.status_code == 401 and refused.json()["code"] == "UNAUTHORIZED"
    for bad in (b'{"maxTakebacks": -1}', b'{"maxTakebacks": "1"}', b"{}"):
        answer = await setup.http.put("/v1/rating-policy", content=bad, headers=headers)
        assert answer.status_code == 400, (bad, answer.text)
    kept = await setup.http.put("/v1/rating-policy", json={"maxTakebacks": 2}, headers=headers)
    assert kept.status_code == 200 and kept.json() == {"maxTakebacks": 2}


async def test_a_database_that_does_not_answer_delays_the_rating_and_loses_none(
    setup: Setup,
) -> None:
    archiver, worker = setup.archiver, setup.worker
    game_id = await _resigned(setup, ["pia", "quin"])
    working = archiver.archive
    dead = lazy_pool(f"postgresql://nobody@127.0.0.1:{free_port()}/none", timeout=1)
    await dead.open(wait=False)
    archiver.archive = Archive(dead)  # connections refused: the rating is the first to fail
    try:
        assert await archiver.one(game_id) == "unavailable"
    finally:
        archiver.archive = working
        await dead.close()
    assert await _verdict(setup, game_id) is None
    assert await worker.store.redis.exists(f"g:{{{game_id}}}"), "kept in Redis"

    await worker.store.redis.zadd(archive_key(lane_of(game_id)), {game_id: 0})  # lease over
    await archiver.once()

    assert await _verdict(setup, game_id) == ("RATED", "")
    assert (await _rating(setup, "pia"))["games"] == 1
    assert not await worker.store.redis.exists(f"g:{{{game_id}}}"), "then archived"


async def test_a_game_that_cannot_be_scored_is_set_aside_once_and_the_archive_goes_on(
    setup: Setup,
) -> None:
    game_id = await _resigned(setup, ["rae", "sol"])
    record, _ = await setup.worker.store.load(game_id)
    assert record is not None
    broken = msgspec.structs.replace(record, state=b"\x00 not a state")
    rater, set_aside = Rater(setup.ledger), _counted("set_aside", "error")

    assert await rater.rate(game_id, broken, []) == "SET_ASIDE"
    assert await rater.rate(game_id, broken, []) == "", "once"

    verdict = await _verdict(setup, game_id)
    assert verdict is not None and verdict[0] == "SET_ASIDE" and "Error: " in verdict[1]
    assert _counted("set_aside", "error") == set_aside + 1
    assert await setup.archiver.one(game_id) == "archived", "the archive goes on"
    assert await _rating(setup, "rae") is None


async def test_without_an_archive_the_boards_are_empty_and_bad_input_is_still_refused() -> None:
    settings = Settings(rate_limit_per_token=0, rate_limit_per_address=0)
    with own_redis() as url:
        async with client_for(create_app(settings, url)) as http:
            api = Api(http)
            board = await api.gql(LEADERBOARD, {"kind": "TREELINGS", "first": 5})
            assert board["leaderboard"]["edges"] == []
            for variables in (
                {"kind": "TREELINGS", "first": 0},
                {"kind": "TREELINGS", "first": 1, "after": "abc"},
            ):
                refused = await http.post(
                    "/graphql", json={"query": LEADERBOARD, "variables": variables}
                )
                assert refused.json()["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
            too_many = await http.get("/v1/leaderboards/TREELINGS?first=1000")
            assert too_many.status_code == 400
            policy = await http.put("/v1/rating-policy", json={"maxTakebacks": 1})
            assert policy.status_code == 422 and "DATABASE_URL" in policy.json()["detail"]
