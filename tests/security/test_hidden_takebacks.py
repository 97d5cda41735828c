"""RULINGS ALL-4 for takebacks (service/core/takebacks/policy.py): a takeback never lets
anyone learn what it could not see.

- The verdict (may a seat take a decision back alone?) is the same in every twin of the state
  (tests/security/hidden.py: a copy that differs only in what one viewer may not see): a
  refusal, its message and the history entry of a takeback say nothing hidden.
- Through the real app, after a takeback every viewer sees exactly what it saw at the version
  taken back to, and no answer carries another seat's secret values, the seed or the RNG.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.engine import IllegalMove, check, play
from service.engine.play import decode_state
from service.games import games
from service.settings import Settings
from service.store import RedisStore, connect
from tests.conftest import Api
from tests.core.takeback_scenes import OPTIONS, decisions, first_answered
from tests.security.hidden import TWINS
from tests.security.test_hidden_api import assert_no_secret_fields
from tests.security.test_hidden_engine import games_in_play
from tests.support import gql
from tests.support.play import create_game

EXAMPLES = 6


@pytest.mark.parametrize("kind", sorted(games()))
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_the_takeback_verdict_is_the_same_in_every_twin(kind: str, data: st.DataObject) -> None:
    players = data.draw(st.integers(games()[kind].min_players, games()[kind].max_players))
    game, _, states = data.draw(games_in_play(kind, players))
    chooser = random.Random(data.draw(st.integers(0, 2**32)))
    judged = 0
    for state in chooser.sample(states, min(8, len(states))):
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        for move in chooser.sample(moves, min(3, len(moves))):
            raw = msgspec.to_builtins(move)
            verdict = game.takeback_safe(state, play(game, state, seat, raw).state)
            for viewer in [None, *range(players)]:
                twin = TWINS[kind](state, viewer, chooser)
                try:
                    check(game, twin, seat, raw)
                except IllegalMove:
                    continue  # not the same decision there (the viewer is not the seat)
                twin_after = play(game, twin, seat, raw).state
                assert game.takeback_safe(twin, twin_after) == verdict, (kind, viewer, raw)
                judged += 1
    # the seat's own twin keeps all it sees, its legal moves among them: never nothing judged
    assert judged or not states, kind


GAME = f"""
query Game($id: ID!) {{
  game(id: $id) {{
    {gql.GAME_FIELDS} takebackRequest {{ seat toVersion waitingFor }}
    history {{ version seat move label event takeback {{ step toVersion askedBy agreedBy }} }}
  }}
}}"""
ASK = """
mutation Ask($id: ID!) {
  requestTakeback(gameId: $id) { __typename ... on MoveRejected { code message } }
}"""
ANSWER = """
mutation Answer($id: ID!) {
  answerTakeback(gameId: $id, accept: true) { __typename ... on MoveRejected { code message } }
}"""


@pytest.mark.parametrize("kind", sorted(games()))
async def test_after_a_takeback_every_viewer_sees_what_it_saw_then(
    api: Api, redis_url: str, kind: str
) -> None:
    seed = f"tb-{kind}"
    made = decisions(kind, 2, seed)
    k = first_answered(made)
    payload = await create_game(
        api.http,
        kind=kind,
        players=2,
        seed=seed,
        options=OPTIONS.get(kind),
        takebacks="WITH_CONSENT",
    )
    game_id, tokens = payload["game"]["id"], [s["token"] for s in payload["seats"]]
    viewers: list[tuple[int | None, str | None]] = [(None, None), (0, tokens[0]), (1, tokens[1])]
    seen_then: dict[int | None, Any] = {}
    for i, d in enumerate(made[: k + 2]):
        if i == k:  # what each viewer saw just before the decision taken back
            for viewer, token in viewers:
                seen_then[viewer] = (await api.gql(GAME, {"id": game_id}, token))["game"]
        moved = await api.gql(
            gql.APPLY, {"input": {"gameId": game_id, "move": d.move}}, tokens[d.seat]
        )
        assert moved["applyMove"]["__typename"] == "MoveApplied", moved
    asked = await api.gql(ASK, {"id": game_id}, tokens[made[k].seat])
    assert asked["requestTakeback"]["__typename"] == "MoveApplied", asked
    answered = await api.gql(ANSWER, {"id": game_id}, tokens[made[k + 1].seat])
    assert answered["answerTakeback"]["__typename"] == "MoveApplied", answered

    store = RedisStore(connect(Settings(), redis_url), Settings())
    try:
        record, _ = await store.load(game_id)
    finally:
        await store.close()
    assert record is not None
    state = decode_state(games()[kind], record.state)
    for viewer, token in viewers:
        response = await api.post(GAME, {"id": game_id}, token)
        now = response.json()["data"]["game"]
        then = seen_then[viewer]
        assert now["state"] == then["state"], f"{viewer} sees another table than it saw then"
        assert now["legalMoves"] == then["legalMoves"] and now["toAct"] == then["toAct"]
        assert now["version"] > then["version"], "versions only grow"
        assert_no_secret_fields(kind, state, viewer, now)
        assert record.seed not in response.text
        assert str(state.rng.state) not in response.text
    steps = [e["takeback"]["step"] for e in now["history"] if e["takeback"]]
    assert steps == ["ASKED", "TAKEN"]
