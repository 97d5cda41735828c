"""Whole games over GraphQL, for every game this server hosts."""

from __future__ import annotations

import pytest

from service.games import games
from tests.conftest import Api
from tests.support import gql
from tests.support.play import create, play_to_end

KINDS = list(games())


@pytest.mark.parametrize(
    ("kind", "players"),
    [("TREELINGS", 2), ("TREELINGS", 5)]
    + [(kind, games()[kind].max_players) for kind in KINDS if kind != "TREELINGS"],
)
async def test_whole_game_with_only_the_returned_tokens(api: Api, kind: str, players: int) -> None:
    if kind not in KINDS:
        pytest.skip(f"{kind} is not hosted yet")
    game, tokens = await create(api, kind, players, seed=f"whole-{kind}-{players}")
    assert len(tokens) == players and len(set(tokens)) == players
    final = await play_to_end(api, game, tokens, seed=kind)
    assert final["status"] == "FINISHED" and final["toAct"] == []
    assert final["scores"]["final"] and final["scores"]["winners"]
    history = (await api.gql(gql.HISTORY, {"id": final["id"]}))["game"]["history"]
    assert [e["version"] for e in history] == list(range(1, final["version"] + 1))


async def test_every_legal_move_list_belongs_to_the_seat_to_act(api: Api) -> None:
    game, tokens = await create(api, "TREELINGS", 3, seed="who-acts")
    for seat, token in enumerate(tokens):
        seen = (await api.gql(gql.GAME, {"id": game["id"]}, token))["game"]
        assert seen["viewer"] == seat
        assert bool(seen["legalMoves"]) == (seat in seen["toAct"])
    spectator = (await api.gql(gql.GAME, {"id": game["id"]}))["game"]
    assert spectator["viewer"] is None and spectator["legalMoves"] == []


async def test_catalog_lists_every_hosted_game_with_counts_and_defaults(api: Api) -> None:
    data = await api.gql("{ catalog { kind title players { min max } options cards } }")
    listed = {g["kind"]: g for g in data["catalog"]}
    assert sorted(listed) == sorted(KINDS)
    assert listed["TREELINGS"]["players"] == {"min": 2, "max": 5}
    assert listed["TREELINGS"]["options"]["startSeat"] == 0
