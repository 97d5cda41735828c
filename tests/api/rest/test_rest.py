"""The REST mirror: same semantics and codes as GraphQL, problem details, HTTP statuses."""

from __future__ import annotations

from typing import Any

import httpx

from tests.conftest import Api
from tests.support import gql
from tests.support.play import apply


async def _create(
    http: httpx.AsyncClient, seed: str, players: int = 2
) -> tuple[dict[str, Any], list[str]]:
    response = await http.post(
        "/v1/games", json={"kind": "TREELINGS", "players": players, "seed": seed}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert response.headers["location"] == f"/v1/games/{body['game']['id']}"
    return body["game"], [s["token"] for s in body["seats"]]


def _auth(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def _problem(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["code"] == code and body["title"] and body["detail"]
    return body


async def test_a_move_through_rest(api: Api) -> None:
    http = api.http
    game, tokens = await _create(http, "rest-move")
    moves = (await http.get(f"/v1/games/{game['id']}/legal-moves", headers=_auth(tokens[0]))).json()
    assert moves["version"] == game["version"] and moves["legalMoves"]
    move = moves["legalMoves"][0]["move"]
    response = await http.post(
        f"/v1/games/{game['id']}/moves",
        json={"move": move},
        headers={**_auth(tokens[0]), "if-match": f'"{game["version"]}"', "idempotency-key": "r1"},
    )
    assert response.status_code == 200, response.text
    applied = response.json()
    assert applied["replayed"] is False and applied["game"]["version"] > game["version"]
    assert response.headers["etag"].startswith(f'"{applied["game"]["version"]}.')
    again = await http.post(
        f"/v1/games/{game['id']}/moves",
        json={"move": move},
        headers={**_auth(tokens[0]), "if-match": f'"{game["version"]}"', "idempotency-key": "r1"},
    )
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert again.headers["idempotent-replayed"] == "true"
    history = (await http.get(f"/v1/games/{game['id']}/history?after=0")).json()
    assert len(history["history"]) == history["version"] == applied["game"]["version"]
    scores = (await http.get(f"/v1/games/{game['id']}/scores")).json()
    assert scores["final"] is False and len(scores["entries"]) == 2


ETAGGED = ["", "/legal-moves", "/scores", "/history?after=0"]


async def test_etags_are_per_viewer_so_only_the_same_viewer_gets_304(api: Api) -> None:
    """A tag is the version and a digest of the viewer. Another seat (or a
    spectator) sending a seat's tag gets its own answer, never a 304."""
    http = api.http
    game, tokens = await _create(http, "rest-etags")
    viewers = {"seat 0": _auth(tokens[0]), "seat 1": _auth(tokens[1]), "spectator": {}}
    for suffix in ETAGGED:
        url = f"/v1/games/{game['id']}{suffix}"
        tags = {}
        for viewer, headers in viewers.items():
            fresh = await http.get(url, headers=headers)
            assert fresh.status_code == 200, (suffix, viewer)
            tags[viewer] = fresh.headers["etag"]
            assert tags[viewer].startswith(f'"{game["version"]}.'), (suffix, viewer)
            held = await http.get(url, headers={**headers, "if-none-match": tags[viewer]})
            assert (held.status_code, held.content) == (304, b""), (suffix, viewer)
            assert held.headers["etag"] == tags[viewer]
        assert len(set(tags.values())) == len(viewers), f"{suffix}: one tag for two viewers"
        for viewer, headers in viewers.items():
            for other in set(viewers) - {viewer}:
                sent = await http.get(url, headers={**headers, "if-none-match": tags[other]})
                assert sent.status_code == 200, f"{suffix}: {viewer} sent {other}'s tag"
    # a route's tag is not another route's, nor history's after another `after`
    url = f"/v1/games/{game['id']}"
    tag = (await http.get(url, headers=viewers["seat 0"])).headers["etag"]
    for suffix in [*ETAGGED[1:], "/history?after=1"]:
        sent = await http.get(f"{url}{suffix}", headers={**viewers["seat 0"], "if-none-match": tag})
        assert sent.status_code == 200, suffix
    # a move changes every tag; the mover's answer carries its next tag, If-Match reads it
    moves = (await http.get(f"{url}/legal-moves", headers=viewers["seat 0"])).json()
    applied = await http.post(
        f"{url}/moves",
        json={"move": moves["legalMoves"][0]["move"]},
        headers={**viewers["seat 0"], "if-match": tag},
    )
    assert applied.status_code == 200, applied.text
    after = await http.get(url, headers={**viewers["seat 0"], "if-none-match": tag})
    assert after.status_code == 200 and after.json()["version"] > game["version"]
    assert after.headers["etag"] == applied.headers["etag"]
    stale = await http.post(
        f"{url}/moves",
        json={"move": moves["legalMoves"][0]["move"]},
        headers={**viewers["seat 1"], "if-match": tag},
    )
    _problem(stale, 412, "STALE_VERSION")


async def test_rest_statuses_follow_http(api: Api) -> None:
    http = api.http
    game, tokens = await _create(http, "rest-codes")
    gid = game["id"]
    move = (await http.get(f"/v1/games/{gid}/legal-moves", headers=_auth(tokens[0]))).json()[
        "legalMoves"
    ][0]["move"]
    _problem(await http.get("/v1/games/nope"), 404, "NOT_FOUND")
    _problem(await http.get(f"/v1/games/{gid}", headers=_auth("0.bad")), 401, "UNAUTHORIZED")
    _problem(await http.post(f"/v1/games/{gid}/moves", json={"move": move}), 401, "UNAUTHORIZED")
    _problem(
        await http.post(f"/v1/games/{gid}/moves", json={"move": move}, headers=_auth(tokens[1])),
        409,
        "NOT_YOUR_TURN",
    )
    stale = _problem(
        await http.post(
            f"/v1/games/{gid}/moves",
            json={"move": move},
            headers={**_auth(tokens[0]), "if-match": '"99"'},
        ),
        412,
        "STALE_VERSION",
    )
    assert stale["currentVersion"] == game["version"]
    _problem(
        await http.post(
            f"/v1/games/{gid}/moves", json={"move": {"type": "fly"}}, headers=_auth(tokens[0])
        ),
        422,
        "MALFORMED_MOVE",
    )
    _problem(
        await http.post(f"/v1/games/{gid}/moves", content=b"{", headers=_auth(tokens[0])),
        400,
        "BAD_REQUEST",
    )
    _problem(
        await http.post("/v1/games", json={"kind": "TREELINGS", "players": 1}),
        422,
        "BAD_USER_INPUT",
    )
    after = (await http.get(f"/v1/games/{gid}")).json()
    assert after["version"] == game["version"], "no refused request changed the game"


async def test_validate_is_a_dry_run(api: Api) -> None:
    http = api.http
    game, tokens = await _create(http, "rest-validate")
    gid = game["id"]
    move = (await http.get(f"/v1/games/{gid}/legal-moves", headers=_auth(tokens[0]))).json()[
        "legalMoves"
    ][0]["move"]
    ok = (
        await http.post(f"/v1/games/{gid}/validate", json={"move": move}, headers=_auth(tokens[0]))
    ).json()
    assert ok == {
        "valid": True,
        "code": None,
        "message": "legal now",
        "currentVersion": None,
        "localizedMessage": None,
    }
    not_now = (
        await http.post(f"/v1/games/{gid}/validate", json={"move": move}, headers=_auth(tokens[1]))
    ).json()
    assert not_now["valid"] is False and not_now["code"] == "NOT_YOUR_TURN"
    assert not_now.pop("localizedMessage")["id"] == "common.refusal.notYourTurn"
    assert (await http.get(f"/v1/games/{gid}")).json()["version"] == game["version"]
    graphql = await api.gql(
        "query V($id: ID!, $move: JSON!) { validateMove(gameId: $id, move: $move) "
        "{ valid code message currentVersion } }",
        {"id": gid, "move": move},
        tokens[1],
    )
    assert graphql["validateMove"] == not_now


async def test_rest_and_graphql_give_the_same_answers(api: Api) -> None:
    """One scripted game, played alternately; after each step both read the same."""
    http = api.http
    game, tokens = await _create(http, "parity", players=3)
    gid = game["id"]
    for step in range(12):
        seat = game["toAct"][0]
        token = tokens[seat]
        rest_view = (await http.get(f"/v1/games/{gid}", headers=_auth(token))).json()
        graphql_view = (await api.gql(gql.GAME, {"id": gid}, token))["game"]
        seats = rest_view.pop("seats")  # not in the fast path's GAME query (nor outcome)
        assert rest_view.pop("outcome") is None and rest_view.pop("seedReveal") is None
        assert len(rest_view.pop("seedCommitment")) == 64 and rest_view.pop("clock") is None
        assert rest_view.pop("spectatorDelay") == 0 and rest_view.pop("rulesVersion") == 1
        assert rest_view.pop("takebacks") == "NONE" and rest_view.pop("takebackRequest") is None
        for legal in rest_view["legalMoves"]:  # GAME asks no labelMessage (tests/api/test_texts)
            assert legal.pop("labelMessage")["text"] == legal["label"]
        for entry in rest_view["scores"]["entries"]:  # nor detailMessages
            details = [item["detail"] for item in entry["breakdown"]]
            assert [m["text"] for m in entry.pop("detailMessages")] == details
        assert rest_view == graphql_view
        assert seats == [{"seat": s, "playerId": None, "bot": None} for s in range(3)]
        move = rest_view["legalMoves"][step % len(rest_view["legalMoves"])]["move"]
        wrong = tokens[(seat + 1) % 3]
        rest_refusal = (
            await http.post(f"/v1/games/{gid}/moves", json={"move": move}, headers=_auth(wrong))
        ).json()
        graphql_refusal = await apply(api, gid, wrong, move)
        assert rest_refusal["code"] == graphql_refusal["code"]
        assert rest_refusal["detail"] == graphql_refusal["message"]
        if step % 2:
            game = (await apply(api, gid, token, move))["game"]
        else:
            response = await http.post(
                f"/v1/games/{gid}/moves", json={"move": move}, headers=_auth(token)
            )
            game = response.json()["game"]
        if game["status"] == "FINISHED":
            break


async def test_prefer_return_minimal_answers_only_the_new_version(api: Api) -> None:
    http = api.http
    game, tokens = await _create(http, "rest-minimal")
    moves = (await http.get(f"/v1/games/{game['id']}/legal-moves", headers=_auth(tokens[0]))).json()
    response = await http.post(
        f"/v1/games/{game['id']}/moves",
        json={"move": moves["legalMoves"][0]["move"]},
        headers={**_auth(tokens[0]), "prefer": "return=minimal"},
    )
    assert response.status_code == 200
    assert response.headers["preference-applied"] == "return=minimal"
    full = (await http.get(f"/v1/games/{game['id']}")).json()
    assert response.json() == {
        "game": {"version": full["version"], "status": full["status"], "toAct": full["toAct"]},
        "replayed": False,
    }
