"""applyMove: every reject code, versions, idempotency, races, authorization."""

from __future__ import annotations

import asyncio

from tests.conftest import Api
from tests.support import gql
from tests.support.play import apply, create


async def _first_move(api: Api, game_id: str, token: str) -> dict[str, object]:
    seen = (await api.gql(gql.GAME, {"id": game_id}, token))["game"]
    move: dict[str, object] = seen["legalMoves"][0]["move"]
    return move


async def test_accepted_move_bumps_the_version_once_per_decision(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="bump")
    move = await _first_move(api, game["id"], tokens[0])
    result = await apply(api, game["id"], tokens[0], move)
    assert result["__typename"] == "MoveApplied" and result["replayed"] is False
    history = (await api.gql(gql.HISTORY, {"id": game["id"]}))["game"]
    assert result["game"]["version"] == history["version"] == len(history["history"])
    assert history["history"][-1]["move"] == move or history["history"][-1]["forced"]


async def test_stale_expected_version_is_rejected_with_the_current_version(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="stale")
    move = await _first_move(api, game["id"], tokens[0])
    result = await apply(api, game["id"], tokens[0], move, expectedVersion=game["version"] + 5)
    assert result == {
        "__typename": "MoveRejected",
        "code": "STALE_VERSION",
        "message": f"the game is at version {game['version']}, not {game['version'] + 5}",
        "currentVersion": game["version"],
    }


async def test_idempotent_retry_returns_the_first_result_without_a_second_change(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="idem")
    move = await _first_move(api, game["id"], tokens[0])
    first = await apply(api, game["id"], tokens[0], move, idempotencyKey="k-1")
    again = await apply(api, game["id"], tokens[0], move, idempotencyKey="k-1")
    assert first["__typename"] == again["__typename"] == "MoveApplied"
    assert again["replayed"] is True
    assert again["game"]["version"] == first["game"]["version"]
    assert again["game"]["state"] == first["game"]["state"]
    history = (await api.gql(gql.HISTORY, {"id": game["id"]}))["game"]["history"]
    assert len(history) == first["game"]["version"]


async def test_idempotency_keys_are_per_seat(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="idem-seat")
    move = await _first_move(api, game["id"], tokens[0])
    await apply(api, game["id"], tokens[0], move, idempotencyKey="shared")
    other = await apply(api, game["id"], tokens[1], move, idempotencyKey="shared")
    assert other["__typename"] == "MoveRejected", "seat 1's key is not seat 0's key"
    assert other["code"] in {"NOT_YOUR_TURN", "ILLEGAL_MOVE"}


async def test_two_concurrent_moves_on_one_version_exactly_one_wins(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="race")
    seen = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[0]))["game"]
    moves = [m["move"] for m in seen["legalMoves"][:2]] * 2
    results = await asyncio.gather(
        *(apply(api, game["id"], tokens[0], m, expectedVersion=seen["version"]) for m in moves[:2])
    )
    kinds = sorted(r["__typename"] for r in results)
    assert kinds == ["MoveApplied", "MoveRejected"]
    loser = next(r for r in results if r["__typename"] == "MoveRejected")
    assert loser["code"] == "STALE_VERSION" and loser["currentVersion"] > seen["version"]
    history = (await api.gql(gql.HISTORY, {"id": game["id"]}))["game"]
    assert len(history["history"]) == history["version"]


async def test_concurrent_retries_with_one_key_apply_once(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="race-idem")
    move = await _first_move(api, game["id"], tokens[0])
    results = await asyncio.gather(
        *(apply(api, game["id"], tokens[0], move, idempotencyKey="same") for _ in range(4))
    )
    assert {r["__typename"] for r in results} == {"MoveApplied"}
    assert sorted(r["replayed"] for r in results) == [False, True, True, True]
    history = (await api.gql(gql.HISTORY, {"id": game["id"]}))["game"]
    assert len(history["history"]) == history["version"] == results[0]["game"]["version"]


async def test_reject_codes(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="codes")
    _, other_tokens = await create(api, "TREELINGS", 2, seed="codes-2")
    move = await _first_move(api, game["id"], tokens[0])
    cases = {
        "NOT_FOUND": (await apply(api, "no-such-game", tokens[0], move)),
        "UNAUTHORIZED": (await apply(api, game["id"], None, move)),
        "NOT_YOUR_TURN": (await apply(api, game["id"], tokens[1], move)),
        "MALFORMED_MOVE": (await apply(api, game["id"], tokens[0], {"type": "fly"})),
        "ILLEGAL_MOVE": (
            await apply(
                api, game["id"], tokens[0], {"type": "place", "colour": "red", "side": "left"}
            )
        ),
    }
    cases["UNAUTHORIZED_OTHER_GAME"] = await apply(api, game["id"], other_tokens[0], move)
    cases["UNAUTHORIZED_GARBAGE"] = await apply(api, game["id"], "0.garbage", move)
    for expected, result in cases.items():
        assert result["__typename"] == "MoveRejected", expected
        assert result["code"] == expected.split("_OTHER")[0].split("_GARBAGE")[0], result
        assert tokens[0] not in result["message"]
    after = (await api.gql(gql.GAME, {"id": game["id"]}))["game"]
    assert after["version"] == game["version"], "a rejected move changed nothing"


async def test_illegal_move_that_decodes_is_illegal_not_malformed(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 2, seed="illegal")
    seen = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[0]))["game"]
    absent = {"blue", "brown", "green", "purple", "red", "yellow"} - {
        m["move"].get("colour") for m in seen["legalMoves"]
    }
    result = await apply(api, game["id"], tokens[0], {"type": "takeColour", "colour": min(absent)})
    assert result["code"] in {"ILLEGAL_MOVE", "MALFORMED_MOVE"}


async def test_game_over_is_rejected(api: Api) -> None:
    from tests.support.play import play_to_end

    game, tokens = await create(api, "TREELINGS", 2, seed="over")
    final = await play_to_end(api, game, tokens, seed="over")
    result = await apply(api, final["id"], tokens[0], {"type": "takeSingletons"})
    assert result["code"] == "GAME_OVER" and result["currentVersion"] == final["version"]


async def test_a_bad_token_on_a_read_is_an_unauthorized_error(api: Api) -> None:
    game, _ = await create(api, "TREELINGS", 2, seed="read-bad-token")
    response = await api.post(gql.GAME, {"id": game["id"]}, token="0.not-a-token")
    body = response.json()
    assert body["data"]["game"] is None
    assert body["errors"][0]["extensions"]["code"] == "UNAUTHORIZED"


async def test_unknown_game_reads_as_null(api: Api) -> None:
    assert (await api.gql(gql.GAME, {"id": "missing"}))["game"] is None


async def test_bad_setup_is_a_typed_error(api: Api) -> None:
    response = await api.post(gql.CREATE, {"input": {"kind": "TREELINGS", "players": 9}})
    body = response.json()
    assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    assert "2 to 5 players" in body["errors"][0]["message"]
    response = await api.post(
        gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2, "options": {"bogus": 1}}}
    )
    assert response.json()["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
