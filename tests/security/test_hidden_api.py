"""ALL-4 through the real app: no GraphQL or REST answer gives a seat (or a spectator) a value
it may not see, every viewer reads the same history, and the seed never shows while the game
runs.

Each game is played with random legal moves over the ASGI app. At checkpoints the stored
record is read back from Redis: every answer's `state`, `legalMoves` and `scores` must be
exactly what the engine gives that viewer (so the engine-level proof in test_hidden_engine.py
carries over), the secret values of the other seats must be absent from the fields that would
carry them, and the seed and the RNG state must be absent from every answer's raw text.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import msgspec
import pytest

from service.api.edge.localized import message_json
from service.engine import Game, IllegalMove, check
from service.engine.play import decode_state
from service.games import games
from service.games.treeline.cards import GLADES
from service.settings import Settings
from service.store import RedisStore, connect
from tests.conftest import Api
from tests.security.hidden import secret_values
from tests.support import gql

MOVES = 24  # decisions per game
EVERY = 8  # a checkpoint every EVERY decisions, the first at the start

GAME = f"""
query Game($id: ID!) {{
  game(id: $id) {{ {gql.GAME_FIELDS} history {{
    version seat move label forced event actedBy takeback {{ step toVersion askedBy agreedBy }}
  }} }}
}}"""
VALIDATE = """
query Validate($id: ID!, $move: JSON!) {
  validateMove(gameId: $id, move: $move) { valid code message currentVersion }
}"""

CASES = [
    ("TREELINGS", 5, None),
    ("TREETOPIA", 4, None),
    ("TREELINE", 4, {"fullGame": True}),
    ("TREELINE", 2, {"fullGame": True, "strategicStart": True}),
    ("TREE_LINED_AVENUE", 4, None),
    ("TREE_LINED_AVENUE", 2, None),
]


@pytest.fixture(scope="module")
async def store(redis_url: str) -> AsyncIterator[RedisStore]:
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    yield store
    await store.close()


class Answers:
    """Every raw answer a viewer received, to search for what it must not hold."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, str]] = []

    def keep(self, what: str, response: httpx.Response) -> Any:
        assert response.status_code < 500, f"{what}: {response.status_code} {response.text}"
        self.texts.append((what, response.text))
        return response.json()


def walk(value: Any, key: str) -> Iterator[Any]:
    """Every value stored under `key`, at any depth."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == key:
                yield v
            yield from walk(v, key)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item, key)


def as_json(value: Any) -> Any:
    return msgspec.json.decode(msgspec.json.encode(value))


def flat(value: Any) -> list[Any]:
    return [x for item in value for x in flat(item)] if isinstance(value, list) else [value]


def assert_no_secret_fields(kind: str, state: Any, viewer: int | None, answer: Any) -> None:
    for key, secrets in secret_values(kind, state, viewer).items():
        if kind == "TREELINE":
            hidden = {GLADES[k].id for k in secrets} | {GLADES[k].name for k in secrets}
            found = hidden & set(flat(list(walk(answer, key))))
            assert not found, f"{viewer} sees the Town-side glades {found}"
            continue
        seen = [x for v in walk(answer, key) for x in flat(v)]
        assert not set(seen) & set(secrets), f"{viewer} sees {key} {set(seen) & set(secrets)}"


def expected_moves(
    game: Game[Any, Any], state: Any, viewer: int | None, messages: bool = False
) -> list[Any]:
    """The viewer's legal moves as an answer gives them; REST's with their labelMessage."""
    if viewer is None or viewer not in game.to_act(state):
        return []
    return [
        {
            "move": msgspec.to_builtins(m),
            "label": game.label(state, viewer, m),
            **(
                {"labelMessage": message_json(game.label_message(state, viewer, m))}
                if messages
                else {}
            ),
        }
        for m in game.legal_moves(state, viewer)
    ]


def without_messages(scores: dict[str, Any]) -> dict[str, Any]:
    """REST's scores without each entry's detailMessages, once their texts are the details."""
    entries = []
    for entry in scores["entries"]:
        entry = dict(entry)
        messages = entry.pop("detailMessages", None)
        if messages is not None:
            assert [m["text"] for m in messages] == [i["detail"] for i in entry["breakdown"]]
        entries.append(entry)
    return {**scores, "entries": entries}


def engine_rejection(game: Game[Any, Any], state: Any, seat: int, move: object) -> Any:
    try:
        check(game, state, seat, move)
    except IllegalMove as exc:
        return exc.code.value, exc.message
    return None


async def checkpoint(
    api: Api, store: RedisStore, game_id: str, tokens: list[str], chooser: random.Random
) -> tuple[int, int]:
    """Every viewer reads the game over GraphQL and REST and sends probe moves; returns the
    number of answers checked and of secret values that were there to leak."""
    record, _ = await store.load(game_id)
    assert record is not None and not record.finished
    game = games()[record.kind]
    state = decode_state(game, record.state)
    answers = Answers()
    histories = []
    secrets = 0
    probes: list[Any] = [{"type": "noSuchMove"}, {"type": 3}]
    probes += [
        m["move"] for s in game.to_act(state) for m in as_json(expected_moves(game, state, s))
    ]
    probes = probes[:2] + chooser.sample(probes[2:], min(2, len(probes) - 2))
    for viewer in [None, *range(record.players)]:
        token = None if viewer is None else tokens[viewer]
        headers = {} if token is None else {"authorization": f"Bearer {token}"}
        seen = answers.keep("graphql game", await api.post(GAME, {"id": game_id}, token))
        assert "errors" not in seen, seen
        table = seen["data"]["game"]
        rest = answers.keep(
            "rest game", await api.http.get(f"/v1/games/{game_id}", headers=headers)
        )
        for answer, messages in ((table, False), (rest, True)):
            assert answer["viewer"] == viewer and answer["version"] == record.version
            assert answer["state"] == as_json(game.view(state, viewer))
            assert answer["legalMoves"] == as_json(expected_moves(game, state, viewer, messages))
            assert_no_secret_fields(record.kind, state, viewer, answer)
            assert without_messages(answer["scores"]) == as_json(game.scores(state))
        moves = answers.keep(
            "rest legal moves",
            await api.http.get(f"/v1/games/{game_id}/legal-moves", headers=headers),
        )
        assert moves["legalMoves"] == rest["legalMoves"]
        scores = answers.keep(
            "rest scores", await api.http.get(f"/v1/games/{game_id}/scores", headers=headers)
        )
        assert_no_secret_fields(record.kind, state, viewer, scores)
        assert without_messages(scores) == table["scores"]
        history = answers.keep(
            "rest history", await api.http.get(f"/v1/games/{game_id}/history", headers=headers)
        )
        for entry in history["history"]:  # what GraphQL's query here does not ask for
            assert entry.pop("labelMessage")["text"] == entry["label"]
        histories += [table["history"], history["history"]]
        secrets += sum(len(v) for v in secret_values(record.kind, state, viewer).values())
        for probe in probes:
            expected = engine_rejection(game, state, viewer, probe) if viewer is not None else None
            checked = answers.keep(
                "graphql validateMove",
                await api.post(VALIDATE, {"id": game_id, "move": probe}, token),
            )["data"]["validateMove"]
            if viewer is None:
                assert checked["code"] == "UNAUTHORIZED"
            elif expected is None:
                assert checked["valid"], checked
            else:
                assert (checked["code"], checked["message"]) == expected
                rejected = answers.keep(
                    "graphql applyMove",
                    await api.post(gql.APPLY, {"input": {"gameId": game_id, "move": probe}}, token),
                )["data"]["applyMove"]
                assert (rejected["code"], rejected["message"]) == expected
                problem = answers.keep(
                    "rest move",
                    await api.http.post(
                        f"/v1/games/{game_id}/moves", json={"move": probe}, headers=headers
                    ),
                )
                assert (problem["code"], problem["detail"]) == expected
    for h in histories:
        assert h == histories[0], "viewers read different histories"
    assert [e["version"] for e in histories[0]] == list(range(1, record.version + 1))
    rng = str(state.rng.state)
    for what, text in answers.texts:
        assert record.seed not in text, f"{what} shows the seed"
        assert len(rng) < 12 or rng not in text, f"{what} shows the RNG state"
    after, _ = await store.load(game_id)
    assert after is not None and after.version == record.version, "a probe changed the game"
    return len(answers.texts), secrets


@pytest.mark.parametrize(("kind", "players", "options"), CASES)
async def test_all4_api_answers_hold_no_secret_and_one_history_for_all(
    api: Api, store: RedisStore, kind: str, players: int, options: dict[str, Any] | None
) -> None:
    seed = f"secret-seed-{kind}-{players}-{random.getrandbits(32):08x}"
    chooser = random.Random(seed)
    created = await api.gql(
        gql.CREATE, {"input": {"kind": kind, "players": players, "seed": seed, "options": options}}
    )
    game = created["createGame"]["game"]
    tokens = [s["token"] for s in created["createGame"]["seats"]]
    assert seed not in msgspec.json.encode(created).decode()
    answers = secrets = 0
    for decision in range(MOVES):
        if game["status"] != "ACTIVE":
            break
        if decision % EVERY == 0:
            checked, there = await checkpoint(api, store, game["id"], tokens, chooser)
            answers, secrets = answers + checked, secrets + there
        seat = chooser.choice(game["toAct"])
        seen = (await api.gql(gql.GAME, {"id": game["id"]}, tokens[seat]))["game"]
        move = chooser.choice(seen["legalMoves"])["move"]
        result = (
            await api.gql(gql.APPLY, {"input": {"gameId": game["id"], "move": move}}, tokens[seat])
        )["applyMove"]
        assert result["__typename"] == "MoveApplied", result
        game = result["game"]
    assert answers > 50
    assert secrets > 0 or kind in ("TREELINGS", "TREETOPIA")
    print(f"{kind} {players}: {answers} answers, {secrets} secret values looked for")


async def test_rest_history_entries_are_objects_as_the_openapi_contract_says(api: Api) -> None:
    created = await api.gql(
        gql.CREATE, {"input": {"kind": "TREELINGS", "players": 2, "seed": "rest-history"}}
    )
    game_id = created["createGame"]["game"]["id"]
    token = created["createGame"]["seats"][0]["token"]
    await api.gql(
        gql.APPLY, {"input": {"gameId": game_id, "move": {"type": "takeSingletons"}}}, token
    )
    graphql = (await api.gql(gql.HISTORY, {"id": game_id}))["game"]["history"]
    rest = (await api.http.get(f"/v1/games/{game_id}/history")).json()["history"]
    for entry in rest:
        assert entry.pop("labelMessage")["text"] == entry["label"]
    assert graphql and rest == graphql
