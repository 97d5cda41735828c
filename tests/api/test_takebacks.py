"""Takebacks over GraphQL and REST alike: the create option shown on the game, a
takeback alone, a request answered by the other seat, the typed refusals, idempotent retries
(service/core/takebacks/policy.py; the policy case by case is in tests/core/test_takebacks.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from service.app import create_app
from service.engine.texts import is_pseudo
from service.settings import Settings
from tests.conftest import Api, client_for
from tests.core.takeback_scenes import decisions, first_answered
from tests.support import gql
from tests.support.play import create_game
from tests.support.tenants import ACME, post, tenants_app

SEED = "tb-TREELINGS"
MADE = decisions("TREELINGS", 2, SEED)
SAFE = MADE[0]  # takeColour: nothing drawn yet (tests/core/takeback_scenes.py)
K = first_answered(MADE)

FIELDS = """
  version state takebacks
  takebackRequest { seat toVersion acceptedBy waitingFor expires }
"""
CREATE = f"""
mutation Create($input: CreateGameInput!) {{
  createGame(input: $input) {{ game {{ id {FIELDS} }} seats {{ seat token }} }}
}}"""
RESULT = f"""
  __typename
  ... on MoveApplied {{ replayed game {{ {FIELDS} }} }}
  ... on MoveRejected {{ code message currentVersion }}
"""
ASK = f"""
mutation Ask($id: ID!, $expected: Int, $key: String) {{
  requestTakeback(gameId: $id, expectedVersion: $expected, idempotencyKey: $key) {{ {RESULT} }}
}}"""
GAME_REQUEST = "query G($id: ID!) { game(id: $id) { takebackRequest { seat } } }"
ANSWER = f"""
mutation Answer($id: ID!, $accept: Boolean!) {{
  answerTakeback(gameId: $id, accept: $accept) {{ {RESULT} }}
}}"""


async def _game(api: Api, policy: str | None) -> tuple[dict[str, Any], list[str]]:
    fields = {} if policy is None else {"takebacks": policy}
    payload = await create_game(api.http, document=CREATE, seed=SEED, **fields)
    return payload["game"], [s["token"] for s in payload["seats"]]


async def _play(api: Api, game_id: str, tokens: list[str], upto: int) -> dict[str, Any]:
    for d in MADE[:upto]:
        result = await api.gql(
            gql.APPLY, {"input": {"gameId": game_id, "move": d.move}}, tokens[d.seat]
        )
        assert result["applyMove"]["__typename"] == "MoveApplied", result
    game: dict[str, Any] = (await api.gql(gql.GAME, {"id": game_id}))["game"]
    return game


async def test_graphql_a_seat_takes_back_alone_and_retries_are_replayed(api: Api) -> None:
    created, tokens = await _game(api, "OWN_DECISIONS")
    assert created["takebacks"] == "OWN_DECISIONS" and created["takebackRequest"] is None
    then = (await api.gql(gql.GAME, {"id": created["id"]}, tokens[SAFE.seat]))["game"]
    before = await _play(api, created["id"], tokens, 1)
    variables = {"id": created["id"], "expected": before["version"], "key": "undo"}

    taken = (await api.gql(ASK, variables, tokens[SAFE.seat]))["requestTakeback"]
    again = (await api.gql(ASK, variables, tokens[SAFE.seat]))["requestTakeback"]

    assert taken["__typename"] == "MoveApplied" and not taken["replayed"]
    assert taken["game"]["version"] == before["version"] + 1
    assert taken["game"]["state"] == then["state"], "back to the table before the decision"
    assert again["replayed"] and again["game"]["version"] == taken["game"]["version"]
    history = (await api.gql(gql.HISTORY, {"id": created["id"]}))["game"]["history"]
    assert history[-1]["takeback"] == {
        "step": "TAKEN",
        "toVersion": created["version"],
        "askedBy": SAFE.seat,
        "agreedBy": [],
    }
    assert history[-1]["move"] is None and history[-1]["event"] is None


async def test_graphql_with_consent_the_other_seat_answers(api: Api) -> None:
    created, tokens = await _game(api, "WITH_CONSENT")
    await _play(api, created["id"], tokens, K + 2)
    asker, other = MADE[K].seat, MADE[K + 1].seat

    asked = (await api.gql(ASK, {"id": created["id"]}, tokens[asker]))["requestTakeback"]
    request = asked["game"]["takebackRequest"]
    assert request["seat"] == asker and request["waitingFor"] == [other]
    assert request["acceptedBy"] == [] and request["expires"]
    spectator = await api.gql(GAME_REQUEST, {"id": created["id"]})
    assert spectator["game"]["takebackRequest"]["seat"] == asker, "everyone sees who asks"

    answered = (await api.gql(ANSWER, {"id": created["id"], "accept": True}, tokens[other]))[
        "answerTakeback"
    ]
    assert answered["__typename"] == "MoveApplied"
    assert answered["game"]["takebackRequest"] is None
    assert answered["game"]["version"] == asked["game"]["version"] + 1


async def test_graphql_refusals_are_typed(api: Api) -> None:
    created, tokens = await _game(api, None)
    assert created["takebacks"] == "NONE"
    await _play(api, created["id"], tokens, 1)
    refused = (await api.gql(ASK, {"id": created["id"]}, tokens[SAFE.seat]))["requestTakeback"]
    assert refused["__typename"] == "MoveRejected" and refused["code"] == "TAKEBACK_NOT_ALLOWED"
    nobody = (await api.gql(ASK, {"id": created["id"]}))["requestTakeback"]
    assert nobody["code"] == "UNAUTHORIZED"
    answer = (await api.gql(ANSWER, {"id": created["id"], "accept": True}, tokens[1]))[
        "answerTakeback"
    ]
    assert answer["code"] == "TAKEBACK_NOT_ALLOWED"
    bad = await api.post(CREATE, {"input": {"kind": "TREELINGS", "players": 2, "takebacks": "X"}})
    assert bad.json()["errors"], "not a TakebackPolicy"


def _auth(token: str, **headers: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}", **headers}


async def _rest_game(http: httpx.AsyncClient, policy: str) -> tuple[dict[str, Any], list[str]]:
    response = await http.post(
        "/v1/games", json={"kind": "TREELINGS", "players": 2, "seed": SEED, "takebacks": policy}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["game"]["takebacks"] == policy and body["game"]["takebackRequest"] is None
    return body["game"], [s["token"] for s in body["seats"]]


async def test_rest_a_takeback_alone_with_if_match_and_idempotency_key(api: Api) -> None:
    http = api.http
    created, tokens = await _rest_game(http, "OWN_DECISIONS")
    url = f"/v1/games/{created['id']}"
    then = (await http.get(url, headers=_auth(tokens[SAFE.seat]))).json()
    before = await _play(api, created["id"], tokens, 1)
    headers = _auth(
        tokens[SAFE.seat], **{"if-match": f'"{before["version"]}"', "idempotency-key": "u1"}
    )

    response = await http.post(f"/v1/games/{created['id']}/takeback", headers=headers)
    again = await http.post(f"/v1/games/{created['id']}/takeback", headers=headers)

    assert response.status_code == 200, response.text
    body = response.json()
    assert body["replayed"] is False and body["game"]["state"] == then["state"]
    assert response.headers["etag"].startswith(f'"{before["version"] + 1}.')
    assert again.status_code == 200 and again.headers["idempotent-replayed"] == "true"
    history = (await http.get(f"/v1/games/{created['id']}/history")).json()["history"]
    assert history[-1]["takeback"]["step"] == "TAKEN" and history[-1]["event"] is None


async def test_rest_a_request_answered_and_the_refusals(api: Api) -> None:
    http = api.http
    created, tokens = await _rest_game(http, "WITH_CONSENT")
    await _play(api, created["id"], tokens, K + 2)
    asker, other = MADE[K].seat, MADE[K + 1].seat
    url = f"/v1/games/{created['id']}/takeback"

    asked = await http.post(url, headers=_auth(tokens[asker]))
    assert asked.status_code == 200, asked.text
    assert asked.json()["game"]["takebackRequest"]["waitingFor"] == [other]
    twice = await http.post(url, headers=_auth(tokens[asker]))
    assert twice.status_code == 409 and twice.json()["code"] == "TAKEBACK_NOT_ALLOWED"
    malformed = await http.post(f"{url}/answer", json={"yes": 1}, headers=_auth(tokens[other]))
    assert malformed.status_code == 400, malformed.text
    declined = await http.post(
        f"{url}/answer", json={"accept": False}, headers=_auth(tokens[other])
    )
    assert declined.status_code == 200 and declined.json()["game"]["takebackRequest"] is None
    late = await http.post(f"{url}/answer", json={"accept": True}, headers=_auth(tokens[other]))
    assert late.status_code == 409 and late.json()["code"] == "TAKEBACK_NOT_ALLOWED"
    bad = await http.post("/v1/games", json={"kind": "TREELINGS", "players": 2, "takebacks": "X"})
    assert bad.status_code == 422 and bad.json()["code"] == "BAD_USER_INPUT"


async def test_the_tenant_takes_back_for_a_seat_and_another_seat_may_not(redis_url: str) -> None:
    """Authorized like a move: a seat token for its own seat, the game's tenant with asSeat
    (recorded as TENANT); another seat's token may not act for it."""
    async with tenants_app(redis_url) as http:
        variables = {
            "input": {"kind": "TREELINGS", "players": 2, "seed": SEED, "takebacks": "WITH_CONSENT"}
        }
        created = (await post(http, CREATE, variables, ACME))["data"]["createGame"]
        game_id, tokens = created["game"]["id"], [s["token"] for s in created["seats"]]
        move = {"input": {"gameId": game_id, "move": SAFE.move}}
        assert "errors" not in await post(http, gql.APPLY, move, token=tokens[SAFE.seat])
        other = await post(http, AS_SEAT, {"id": game_id, "seat": SAFE.seat}, token=tokens[1])
        assert other["errors"][0]["extensions"]["code"] == "FORBIDDEN", other
        taken = await post(http, AS_SEAT, {"id": game_id, "seat": SAFE.seat}, ACME)
        assert taken["data"]["requestTakeback"]["__typename"] == "MoveApplied", taken
        history = (await post(http, gql.HISTORY, {"id": game_id}))["data"]["game"]["history"]
        assert history[-1]["takeback"]["step"] == "TAKEN"
        assert history[-1]["actedBy"] == "TENANT"


AS_SEAT = """
mutation Ask($id: ID!, $seat: Int) {
  requestTakeback(gameId: $id, asSeat: $seat) {
    __typename ... on MoveRejected { code }
  }
}"""


TEXTS = """query($id: ID!) { game(id: $id) {
  history { label labelMessage { id text } } } }"""


async def test_every_takeback_step_is_said_through_the_catalog(api: Api) -> None:
    """Asked, declined, asked again, accepted and taken: each history entry's label is a message
    of the shared catalog (no verbatim text), pseudo-localized under en-XA."""
    created, tokens = await _game(api, "WITH_CONSENT")
    await _play(api, created["id"], tokens, K + 2)
    asker, other = MADE[K].seat, MADE[K + 1].seat
    ids = {"id": created["id"]}
    await api.gql(ASK, ids, tokens[asker])
    await api.gql(ANSWER, {**ids, "accept": False}, tokens[other])
    await api.gql(ASK, ids, tokens[asker])
    await api.gql(ANSWER, {**ids, "accept": True}, tokens[other])
    pseudo = {"authorization": f"Bearer {tokens[0]}", "accept-language": "en-XA"}
    answer = await api.http.post(
        "/graphql", json={"query": TEXTS, "variables": ids}, headers=pseudo
    )
    entries = answer.json()["data"]["game"]["history"][K + 2 :]
    said = [entry["labelMessage"]["id"] for entry in entries]
    assert said == [
        "common.history.takebackAsked",
        "common.history.takebackDeclined",
        "common.history.takebackAsked",
        "common.history.tookBackAgreedBySeat",
    ], entries
    assert all(is_pseudo(entry["labelMessage"]["text"]) for entry in entries), entries
    refused = await api.http.post(
        "/graphql",
        json={"query": TEXTS_REFUSED, "variables": ids},
        headers={**pseudo, "authorization": f"Bearer {tokens[other]}"},
    )
    message = refused.json()["data"]["answerTakeback"]["localizedMessage"]
    assert message["id"] == "common.refused.TAKEBACK_NOT_ALLOWED" and is_pseudo(message["text"])


TEXTS_REFUSED = """mutation($id: ID!) { answerTakeback(gameId: $id, accept: true) {
  ... on MoveRejected { code localizedMessage { id text } } } }"""


async def test_a_request_waits_as_long_as_rules_takeback_seconds_says(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES_TAKEBACK_SECONDS reaches the request's `expires` through the app (README, Settings)."""
    monkeypatch.setenv("RULES_TAKEBACK_SECONDS", "42")
    assert Settings.from_env().takeback_seconds == 42.0
    async with client_for(create_app(Settings(takeback_seconds=3600), redis_url)) as http:
        api = Api(http)
        created, tokens = await _game(api, "WITH_CONSENT")
        await _play(api, created["id"], tokens, K + 2)
        asked = await api.gql(ASK, {"id": created["id"]}, tokens[MADE[K].seat])
    expires = datetime.fromisoformat(asked["requestTakeback"]["game"]["takebackRequest"]["expires"])
    waits = (expires - datetime.now(UTC)).total_seconds()
    assert 3000 < waits <= 3600, "an hour, not the default 5 minutes"
