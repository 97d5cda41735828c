"""Explained refusals through both APIs: the reason, the rule and a sentence naming
the offending part, the same from applyMove, validateMove and REST."""

from __future__ import annotations

from typing import Any

from tests.conftest import Api
from tests.support.play import create_game
from tests.support.tenants import ACME, tenants_app

REFUSE = """mutation($input: ApplyMoveInput!) { applyMove(input: $input) {
  ... on MoveRejected { code reason rule message currentVersion } } }"""
VALIDATE = """query($id: ID!, $move: JSON!) { validateMove(gameId: $id, move: $move) {
  valid code reason rule message } }"""


async def _treelings(api: Api) -> tuple[str, str, list[str]]:
    """A game, seat 0's token, and a colour that is not in its market."""
    created = await api.http.post(
        "/v1/games", json={"kind": "TREELINGS", "players": 2, "seed": "refusals"}
    )
    body = created.json()
    game_id, token = body["game"]["id"], body["seats"][0]["token"]
    market = {m["colour"] for m in body["game"]["state"]["market"]}
    absent = [c for c in ("blue", "green", "purple", "red", "yellow", "brown") if c not in market]
    return game_id, token, absent


async def test_an_illegal_move_names_its_reason_and_rule_on_every_path(api: Api) -> None:
    game_id, token, absent = await _treelings(api)
    move = {"type": "takeColour", "colour": absent[0]}
    auth = {"authorization": f"Bearer {token}"}
    applied = await api.gql(REFUSE, {"input": {"gameId": game_id, "move": move}}, token)
    refusal = applied["applyMove"]
    assert (refusal["code"], refusal["reason"], refusal["rule"]) == (
        "ILLEGAL_MOVE", "COLOUR_NOT_IN_MARKET", "TG-4"
    )  # fmt: skip
    assert absent[0] in refusal["message"] and "it holds" in refusal["message"]
    validated = (await api.gql(VALIDATE, {"id": game_id, "move": move}, token))["validateMove"]
    assert validated == {"valid": False, **{k: refusal[k] for k in validated if k != "valid"}}
    rest = await api.http.post(f"/v1/games/{game_id}/moves", json={"move": move}, headers=auth)
    problem: dict[str, Any] = rest.json()
    assert rest.status_code == 422 and problem["code"] == "ILLEGAL_MOVE"
    assert (problem["reason"], problem["rule"], problem["detail"]) == (
        refusal["reason"], refusal["rule"], refusal["message"]
    )  # fmt: skip
    check = await api.http.post(f"/v1/games/{game_id}/validate", json={"move": move}, headers=auth)
    assert check.json()["reason"] == "COLOUR_NOT_IN_MARKET"


async def test_other_refusals_carry_no_reason(api: Api) -> None:
    game_id, token, _ = await _treelings(api)
    malformed = await api.gql(
        REFUSE, {"input": {"gameId": game_id, "move": {"type": "fly"}}}, token
    )
    assert malformed["applyMove"]["code"] == "MALFORMED_MOVE"
    assert malformed["applyMove"]["reason"] is None and malformed["applyMove"]["rule"] is None


async def test_a_refusal_for_want_of_a_tenant_key_says_so_in_every_language(
    redis_url: str,
) -> None:
    """The text of KeyNeeded's message names the tenant's key only, as its detail does (the
    code's own sentence names a seat token too, which would not do here)."""
    async with tenants_app(redis_url) as http:
        token = (await create_game(http, key=ACME))["seats"][0]["token"]
        auth = {"authorization": f"Bearer {token}"}
        for language, key_words in (("en", "API key"), ("fr", "clé d'API")):
            headers = {**auth, "accept-language": language}
            listed = await http.get("/v1/games", headers=headers)
            assert listed.status_code == 401, listed.text
            said = listed.json()["message"]
            assert said["id"] == "common.refusal.keyNeeded", said
            assert key_words in said["text"] and "X-API-Key" in listed.json()["detail"], said
            asked = await http.post(
                "/graphql", json={"query": "{ games { edges { cursor } } }"}, headers=headers
            )
            error = asked.json()["errors"][0]
            assert error["extensions"]["code"] == "UNAUTHORIZED"
            assert error["extensions"]["message"] == said, error
