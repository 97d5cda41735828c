"""Idempotency keys as Stripe has them: a key remembers its request, a replay answers the first
answer (the game as of that move), and another request under a used key is refused."""

from __future__ import annotations

from typing import Any

from service.settings import Settings
from service.store import connect
from tests.conftest import Api
from tests.support import gql
from tests.support.play import apply, create


async def _legal(api: Api, game_id: str, token: str) -> list[Any]:
    seen = (await api.gql(gql.GAME, {"id": game_id}, token))["game"]
    return [entry["move"] for entry in seen["legalMoves"]]


async def _play_on(api: Api, game: dict[str, Any], tokens: list[str], moves: int) -> int:
    """`moves` more decisions (the first legal one each), with no key; the version after."""
    version = game["version"]
    for _ in range(moves):
        seen = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[game["toAct"][0]]))["game"]
        result = await apply(api, game["id"], tokens[seen["viewer"]], seen["legalMoves"][0]["move"])
        assert result["__typename"] == "MoveApplied", result
        game, version = result["game"], result["game"]["version"]
    return version


async def test_a_used_key_with_another_move_is_refused_and_applies_nothing(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="idem-reuse")
    first, second = (await _legal(api, game["id"], tokens[0]))[:2]
    applied = await apply(api, game["id"], tokens[0], first, idempotencyKey="k")
    refused = await apply(api, game["id"], tokens[0], second, idempotencyKey="k")
    assert refused["__typename"] == "MoveRejected"
    assert refused["code"] == "IDEMPOTENCY_KEY_REUSED"
    assert refused["currentVersion"] == applied["game"]["version"]
    history = (await api.gql(gql.HISTORY, {"id": game["id"]}))["game"]
    assert history["version"] == applied["game"]["version"], "the second move was not applied"


async def test_a_used_key_with_another_expected_version_is_refused(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="idem-expected")
    move = (await _legal(api, game["id"], tokens[0]))[0]
    await apply(api, game["id"], tokens[0], move, idempotencyKey="k", expectedVersion=0)
    refused = await apply(api, game["id"], tokens[0], move, idempotencyKey="k")
    assert refused["__typename"] == "MoveRejected"
    assert refused["code"] == "IDEMPOTENCY_KEY_REUSED"


async def test_a_replay_answers_the_game_as_of_the_first_answer(api: Api) -> None:
    options = {"startSeat": 1}  # not the default: the rebuild must use the game's options
    game, tokens = await create(api, "TREELINGS", 2, seed="idem-first", options=options)
    move = (await _legal(api, game["id"], tokens[1]))[0]
    first = await apply(api, game["id"], tokens[1], move, idempotencyKey="first")
    later = await _play_on(api, first["game"], tokens, 3)
    assert later > first["game"]["version"]
    again = await apply(api, game["id"], tokens[1], move, idempotencyKey="first")
    assert again["__typename"] == "MoveApplied" and again["replayed"] is True
    assert {**again["game"]} == {**first["game"]}, "the recorded first answer, not the game now"
    history = await api.gql(gql.HISTORY, {"id": game["id"]})
    assert history["game"]["version"] == later, "a replay changes nothing"


async def test_a_replay_after_the_game_finished_shows_it_as_it_was_then(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="idem-end")
    move = (await _legal(api, game["id"], tokens[0]))[0]
    first = await apply(api, game["id"], tokens[0], move, idempotencyKey="opening")
    game = first["game"]
    while game["status"] == "ACTIVE":
        await _play_on(api, game, tokens, 1)
        game = (await api.gql(gql.GAME, {"id": game["id"]}))["game"]
    again = await apply(api, game["id"], tokens[0], move, idempotencyKey="opening")
    assert again["replayed"] is True
    assert again["game"]["status"] == "ACTIVE"
    assert again["game"]["version"] == first["game"]["version"]


async def test_an_entry_of_an_earlier_release_replays_the_game_as_it_is_now(
    api: Api, redis_url: str
) -> None:
    """Entries written before fingerprints existed hold only the version: they replay as that
    release did, with the current game, and never refuse."""
    game, tokens = await create(api, "TREELINGS", 2, seed="idem-old")
    move = (await _legal(api, game["id"], tokens[0]))[0]
    await apply(api, game["id"], tokens[0], move, idempotencyKey="old")
    redis = connect(Settings(), redis_url)  # one server or a cluster, as the service does
    try:
        assert await redis.hdel(f"g:{{{game['id']}}}:i", "f:0:old") == 1  # type: ignore[misc]
    finally:
        await redis.aclose()
    later = await _play_on(api, (await api.gql(gql.GAME, {"id": game["id"]}))["game"], tokens, 1)
    again = await apply(api, game["id"], tokens[0], {"type": "anything"}, idempotencyKey="old")
    assert again["__typename"] == "MoveApplied" and again["replayed"] is True
    assert again["game"]["version"] == later


async def test_rest_refuses_a_reused_key_with_422_and_replays_the_first_answer(api: Api) -> None:
    http = api.http
    created = (await http.post("/v1/games", json={"kind": "TREELINGS", "players": 2})).json()
    game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
    first_move, other_move = (await _legal(api, game_id, tokens[0]))[:2]

    async def send(move: Any) -> Any:
        headers = {"authorization": f"Bearer {tokens[0]}", "idempotency-key": "rest-k"}
        return await http.post(f"/v1/games/{game_id}/moves", json={"move": move}, headers=headers)

    first = await send(first_move)
    assert first.status_code == 200
    await _play_on(api, first.json()["game"], tokens, 2)
    refused = await send(other_move)
    assert refused.status_code == 422
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "IDEMPOTENCY_KEY_REUSED"
    again = await send(first_move)
    assert again.status_code == 200 and again.headers["idempotent-replayed"] == "true"
    assert again.json() == {**first.json(), "replayed": True}
    assert again.headers["etag"] == first.headers["etag"]


async def test_if_none_match_with_the_current_etag_answers_304_without_a_body(api: Api) -> None:
    http = api.http
    created = (await http.post("/v1/games", json={"kind": "TREELINGS", "players": 2})).json()
    url = f"/v1/games/{created['game']['id']}"
    fresh = await http.get(url)
    etag = fresh.headers["etag"]
    cached = await http.get(url, headers={"if-none-match": etag})
    assert cached.status_code == 304 and cached.content == b""
    assert cached.headers["etag"] == etag
    weak = await http.get(url, headers={"if-none-match": f'"999", W/{etag}'})
    assert weak.status_code == 304
    other = await http.get(url, headers={"if-none-match": '"999"'})
    assert other.status_code == 200 and other.json() == fresh.json()
