"""Localizable text through both APIs: every label, refusal and score detail also
comes as a message id with typed params, its text in the language the request asks for
(Accept-Language or `language`), English by default and for unknown languages."""

from __future__ import annotations

from typing import Any

from service.engine.texts import is_pseudo
from tests.conftest import Api

GAME = """query($id: ID!) { game(id: $id) {
  legalMoves { label labelMessage { id params { name type value } text } }
  scores { entries { breakdown detailMessages { id text } } }
  history { label labelMessage { id text } } } }"""
REFUSE = """mutation($input: ApplyMoveInput!) { applyMove(input: $input) {
  ... on MoveRejected { code message localizedMessage { id params { name type value } text } } } }"""
IN_LANGUAGE = """query($id: ID!, $lang: String) { game(id: $id) {
  legalMoves { label labelMessage { text(language: $lang) } } } }"""


async def _game(api: Api) -> tuple[str, list[str], dict[str, Any]]:
    """A Treelings game after one move: its id, both seats' tokens, the game as seat 0 sees it."""
    created = await api.http.post(
        "/v1/games", json={"kind": "TREELINGS", "players": 2, "seed": "texts"}
    )
    body = created.json()
    game_id, tokens = body["game"]["id"], [seat["token"] for seat in body["seats"]]
    token = tokens[0]
    auth = {"authorization": f"Bearer {token}"}
    seen = (await api.http.get(f"/v1/games/{game_id}", headers=auth)).json()
    move = seen["legalMoves"][0]["move"]
    assert seen["legalMoves"][0]["labelMessage"]["text"] == seen["legalMoves"][0]["label"]
    moved = await api.http.post(
        f"/v1/games/{game_id}/moves",
        json={"move": move},
        headers={"authorization": f"Bearer {token}"},
    )
    assert moved.status_code == 200, moved.text
    return game_id, tokens, moved.json()["game"]


async def _gql(api: Api, query: str, variables: dict[str, Any], token: str, lang: str) -> Any:
    headers = {"authorization": f"Bearer {token}", "accept-language": lang}
    answer = await api.http.post(
        "/graphql", json={"query": query, "variables": variables}, headers=headers
    )
    assert answer.status_code == 200, answer.text
    return answer.json()


async def test_graphql_says_every_text_as_a_message_in_the_language_asked_for(api: Api) -> None:
    game_id, tokens, game = await _game(api)
    token = tokens[game["toAct"][0]]
    english = (await _gql(api, GAME, {"id": game_id}, token, "en"))["data"]["game"]
    pseudo = (await _gql(api, GAME, {"id": game_id}, token, "tlh, en-XA;q=0.5"))["data"]["game"]
    assert english["legalMoves"] and english["history"]
    for plain, said in zip(english["legalMoves"], pseudo["legalMoves"], strict=True):
        message = plain["labelMessage"]
        assert message["text"] == plain["label"] and message["id"].startswith("treelings.label.")
        assert all(p["type"] in ("INT", "TEXT", "LIST") for p in message["params"])
        assert is_pseudo(said["labelMessage"]["text"]) and said["label"] == plain["label"]
    for plain, said in zip(english["history"], pseudo["history"], strict=True):
        assert plain["labelMessage"]["text"] == plain["label"]
        assert is_pseudo(said["labelMessage"]["text"])
    for plain, said in zip(english["scores"]["entries"], pseudo["scores"]["entries"], strict=True):
        details = [item["detail"] for item in plain["breakdown"]]
        assert [m["text"] for m in plain["detailMessages"]] == details
        assert all(is_pseudo(m["text"]) for m in said["detailMessages"])
    # the argument wins over the header; an unknown language is English
    chosen = await _gql(api, IN_LANGUAGE, {"id": game_id, "lang": "en-XA"}, token, "en")
    assert all(is_pseudo(m["labelMessage"]["text"]) for m in chosen["data"]["game"]["legalMoves"])
    unknown = await _gql(api, IN_LANGUAGE, {"id": game_id, "lang": "tlh"}, token, "en-XA")
    moves = unknown["data"]["game"]["legalMoves"]
    assert all(m["labelMessage"]["text"] == m["label"] for m in moves)


async def test_refusals_carry_their_message_on_graphql_and_rest(api: Api) -> None:
    game_id, tokens, game = await _game(api)
    idle = 1 - game["toAct"][0]
    token = tokens[idle]
    move = {"type": "takeColour", "colour": "red"}
    rejected = await _gql(api, REFUSE, {"input": {"gameId": game_id, "move": move}}, token, "en-XA")
    refusal = rejected["data"]["applyMove"]
    assert refusal["code"] == "NOT_YOUR_TURN"
    assert refusal["localizedMessage"]["id"] == "common.refusal.notYourTurn"
    seat = {"name": "seat", "type": "INT", "value": str(idle)}
    assert refusal["localizedMessage"]["params"] == [seat]
    assert (
        is_pseudo(refusal["localizedMessage"]["text"])
        and str(idle) in refusal["localizedMessage"]["text"]
    )
    # an error (not a decision) says its code's sentence in extensions.message, on strawberry's
    # path and on the fast path alike
    past = "query($id: ID!) { game(id: $id) { stateAt(version: 99) } }"
    unknown = "query($id: ID!) { game(id: $id) { id version } }"
    for query, variables, code in [
        (past, {"id": game_id}, "BAD_USER_INPUT"),
        (unknown, {"id": game_id}, "UNAUTHORIZED"),
    ]:
        token_or_not = token if code != "UNAUTHORIZED" else "not-a-token"
        failed = await _gql(api, query, variables, token_or_not, "en-XA")
        extensions = failed["errors"][0]["extensions"]
        assert extensions["code"] == code, failed
        assert extensions["message"]["id"] == f"common.refused.{code}"
        assert extensions["message"]["params"] == [] and is_pseudo(extensions["message"]["text"])
    # a dry run says the same
    validate = """query($id: ID!, $move: JSON!) { validateMove(gameId: $id, move: $move) {
      valid localizedMessage { id text } } }"""
    checked = await _gql(api, validate, {"id": game_id, "move": move}, token, "en-XA")
    verdict = checked["data"]["validateMove"]
    assert verdict["localizedMessage"]["id"] == "common.refusal.notYourTurn"
    assert is_pseudo(verdict["localizedMessage"]["text"])
    rest_check = await api.http.post(
        f"/v1/games/{game_id}/validate",
        json={"move": move},
        headers={"authorization": f"Bearer {token}", "accept-language": "en-XA"},
    )
    assert is_pseudo(rest_check.json()["localizedMessage"]["text"])
    # REST: problem+json's `message`, and labels' labelMessage, by Accept-Language or ?language=
    auth = {"authorization": f"Bearer {token}"}
    rest = await api.http.post(
        f"/v1/games/{game_id}/moves?language=en-XA", json={"move": move}, headers=auth
    )
    problem = rest.json()
    assert rest.status_code == 409 and problem["message"]["id"] == "common.refusal.notYourTurn"
    assert is_pseudo(problem["message"]["text"])
    assert problem["detail"] == f"seat {idle} does not act now"
    read = await api.http.get(f"/v1/games/{game_id}", headers={"accept-language": "en-XA"})
    assert read.json()["legalMoves"] == []  # a spectator has none
    assert "accept-language" in read.headers["vary"].lower()
    history = await api.http.get(
        f"/v1/games/{game_id}/history", headers={"accept-language": "en-XA"}
    )
    entries = history.json()["history"]
    assert entries and all(is_pseudo(e["labelMessage"]["text"]) for e in entries)
    scores = await api.http.get(f"/v1/games/{game_id}/scores?language=en-XA")
    entries = scores.json()["entries"]
    assert entries and all(
        len(e["detailMessages"]) == len(e["breakdown"])
        and all(is_pseudo(m["text"]) for m in e["detailMessages"])
        for e in entries
    )
    english = await api.http.get(f"/v1/games/{game_id}/history")
    assert all(e["labelMessage"]["text"] == e["label"] for e in english.json()["history"])


MESSAGE_FIELDS = {"labelMessage", "detailMessages"}
READS = ["", "/legal-moves", "/scores", "/history"]


def _without_messages(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_messages(v) for k, v in value.items() if k not in MESSAGE_FIELDS}
    if isinstance(value, list):
        return [_without_messages(v) for v in value]
    return value


def _has_messages(value: Any) -> bool:
    if isinstance(value, dict):
        return bool(MESSAGE_FIELDS & set(value)) or any(map(_has_messages, value.values()))
    return isinstance(value, list) and any(map(_has_messages, value))


async def test_rest_reads_leave_the_messages_out_with_messages_false(api: Api) -> None:
    """`?messages=false`: the same answer without labelMessage and detailMessages, under an
    ETag of its own; true, or no parameter, is the answer as released."""
    game_id, tokens, game = await _game(api)
    auth = {"authorization": f"Bearer {tokens[game['toAct'][0]]}", "accept-language": "en-XA"}
    for suffix in READS:
        url = f"/v1/games/{game_id}{suffix}"
        full = await api.http.get(url, headers=auth)
        plain = await api.http.get(f"{url}?messages=false", headers=auth)
        explicit = await api.http.get(f"{url}?messages=true", headers=auth)
        assert full.status_code == plain.status_code == explicit.status_code == 200, suffix
        assert _has_messages(full.json()) and not _has_messages(plain.json()), suffix
        assert plain.json() == _without_messages(full.json()), suffix
        assert explicit.content == full.content, suffix
        assert explicit.headers["etag"] == full.headers["etag"], suffix
        # one shape's tag never earns the other a 304
        assert plain.headers["etag"] != full.headers["etag"], suffix
        crossed = await api.http.get(
            f"{url}?messages=false", headers={**auth, "if-none-match": full.headers["etag"]}
        )
        assert crossed.status_code == 200 and not _has_messages(crossed.json()), suffix
        crossed = await api.http.get(url, headers={**auth, "if-none-match": plain.headers["etag"]})
        assert crossed.status_code == 200 and _has_messages(crossed.json()), suffix
        held = await api.http.get(
            f"{url}?messages=false", headers={**auth, "if-none-match": plain.headers["etag"]}
        )
        assert held.status_code == 304, suffix
    # the legal moves and the history still say their English labels
    moves = await api.http.get(f"/v1/games/{game_id}/legal-moves?messages=false", headers=auth)
    assert all(move["label"] for move in moves.json()["legalMoves"])
    listed = await api.http.get("/v1/games?messages=false&first=5")
    assert listed.status_code == 200 and listed.json()["games"], listed.text
    assert not _has_messages(listed.json())
    assert _has_messages((await api.http.get("/v1/games?first=5")).json())


async def test_a_bad_messages_value_is_a_bad_request_not_a_server_error(api: Api) -> None:
    game_id, tokens, _ = await _game(api)
    auth = {"authorization": f"Bearer {tokens[0]}"}
    for url in [*(f"/v1/games/{game_id}{suffix}" for suffix in READS), "/v1/games"]:
        for value in ("no", "False", "0", ""):
            answer = await api.http.get(url, params={"messages": value}, headers=auth)
            assert answer.status_code == 400, (url, value, answer.text)
            assert answer.headers["content-type"] == "application/problem+json"
            problem = answer.json()
            assert problem["code"] == "BAD_REQUEST" and "messages" in problem["detail"], problem


async def test_rest_changes_answer_in_the_language_and_shape_asked_for(api: Api) -> None:
    """A POST that answers with the game (create, move, takeback, resign, abandon) renders it as
    the GET after it would, in the language asked for and without messages with
    `?messages=false`, under the same ETag; a bad `messages` is refused before anything changes."""
    created = await api.http.post(
        "/v1/games?language=en-XA",
        json={
            "kind": "TREELINGS",
            "players": 2,
            "seed": "texts-post",
            "takebacks": "OWN_DECISIONS",
        },
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["game"]["id"]
    tokens = [seat["token"] for seat in created.json()["seats"]]
    spectated = await api.http.get(f"/v1/games/{game_id}", headers={"accept-language": "en-XA"})
    assert created.headers["etag"] == spectated.headers["etag"]
    assert created.json()["game"]["scores"] == spectated.json()["scores"]
    assert all(
        is_pseudo(m["text"])
        for e in created.json()["game"]["scores"]["entries"]
        for m in e["detailMessages"]
    )
    seat = created.json()["game"]["toAct"][0]
    auth = {"authorization": f"Bearer {tokens[seat]}"}
    url = f"/v1/games/{game_id}"
    move = (await api.http.get(f"{url}/legal-moves", headers=auth)).json()["legalMoves"][0]
    refused = await api.http.post(
        f"{url}/moves?messages=no", json={"move": move["move"]}, headers=auth
    )
    assert refused.status_code == 400 and refused.json()["code"] == "BAD_REQUEST", refused.text
    assert (await api.http.get(url)).json()["version"] == 0  # nothing changed

    moved = await api.http.post(
        f"{url}/moves?messages=false", json={"move": move["move"]}, headers=auth
    )
    assert moved.status_code == 200, moved.text
    after = await api.http.get(f"{url}?messages=false", headers=auth)
    assert moved.json()["game"] == after.json() and not _has_messages(after.json())
    assert moved.headers["etag"] == after.headers["etag"]

    taken = await api.http.post(f"{url}/takeback", headers={**auth, "accept-language": "en-XA"})
    assert taken.status_code == 200, taken.text
    seen = await api.http.get(url, headers={**auth, "accept-language": "en-XA"})
    assert taken.json()["game"] == seen.json() and taken.headers["etag"] == seen.headers["etag"]
    labels = [m["labelMessage"]["text"] for m in seen.json()["legalMoves"]]
    assert labels and all(is_pseudo(text) for text in labels)

    resigned = await api.http.post(f"{url}/resign?language=en-XA&messages=false", headers=auth)
    assert resigned.status_code == 200, resigned.text
    final = await api.http.get(f"{url}?language=en-XA&messages=false", headers=auth)
    assert resigned.json()["game"] == final.json() and not _has_messages(final.json())
    assert resigned.headers["etag"] == final.headers["etag"]

    # the listing says its games' texts in the language asked for too (other tests' games
    # may be newer: the pages are read until this one)
    params: dict[str, Any] = {"first": 100, "language": "en-XA"}
    mine = None
    while mine is None:
        listed = await api.http.get("/v1/games", params=params)
        assert listed.status_code == 200, listed.text
        page = listed.json()
        mine = next((g for g in page["games"] if g["id"] == game_id), None)
        assert mine is not None or page["nextCursor"], "the game is listed"
        params["after"] = page["nextCursor"]
    details = [m["text"] for e in mine["scores"]["entries"] for m in e["detailMessages"]]
    assert details and all(is_pseudo(text) for text in details)


async def test_rest_abandon_answers_in_the_language_asked_for(api: Api) -> None:
    created = await api.http.post(
        "/v1/games", json={"kind": "TREELINGS", "players": 2, "seed": "texts-abandon"}
    )
    game_id = created.json()["game"]["id"]
    refused = await api.http.post(f"/v1/games/{game_id}/abandon?messages=0")
    assert refused.status_code == 400, refused.text
    assert (await api.http.get(f"/v1/games/{game_id}")).json()["status"] == "ACTIVE"
    ended = await api.http.post(
        f"/v1/games/{game_id}/abandon", headers={"accept-language": "en-XA"}
    )
    assert ended.status_code == 200, ended.text
    seen = await api.http.get(f"/v1/games/{game_id}", headers={"accept-language": "en-XA"})
    assert ended.json()["game"] == seen.json()
    details = [m["text"] for e in seen.json()["scores"]["entries"] for m in e["detailMessages"]]
    assert details and all(is_pseudo(text) for text in details)


LANGUAGES = """{ languages { tag name nativeName pseudo translated total coverage
  catalogs { catalog game translated total coverage } } }"""


async def test_the_languages_and_their_coverage_on_graphql_and_rest(api: Api) -> None:
    """English, the pseudo-locale and French, each with the share of message ids it says
    itself, overall and per catalog; both APIs say the same."""
    answer = await api.http.post("/graphql", json={"query": LANGUAGES})
    assert answer.status_code == 200 and "errors" not in answer.json(), answer.text
    listed = answer.json()["data"]["languages"]
    rest = await api.http.get("/v1/languages")
    assert rest.status_code == 200 and rest.headers["cache-control"].startswith("public")
    assert rest.json()["languages"] == listed
    by_tag = {language["tag"]: language for language in listed}
    assert {"en", "en-XA", "fr"} <= set(by_tag)
    assert by_tag["fr"]["name"] == "French" and by_tag["fr"]["nativeName"] == "français"
    assert by_tag["en-XA"]["pseudo"] and not by_tag["fr"]["pseudo"]
    games = {"TREELINGS", "TREELINE", "TREETOPIA", "TREE_LINED_AVENUE"}
    for language in listed:
        catalogs = language["catalogs"]
        assert catalogs[0]["catalog"] == "common" and catalogs[0]["game"] is None
        assert {c["game"] for c in catalogs[1:]} == games
        assert language["total"] == sum(c["total"] for c in catalogs) > 100
        assert language["translated"] == sum(c["translated"] for c in catalogs)
        assert language["coverage"] == round(language["translated"] / language["total"], 4)
    assert by_tag["en"]["coverage"] == by_tag["fr"]["coverage"] == 1.0


async def test_accept_language_falls_back_from_region_to_language_to_english(api: Api) -> None:
    """fr-CA is said in French (no fr-CA catalog ships), an unknown language in English, and
    the first language of the list the service has wins."""
    game_id, tokens, game = await _game(api)
    token = tokens[game["toAct"][0]]
    query = "query($id: ID!) { game(id: $id) { legalMoves { label labelMessage { text } } } }"
    said = {}
    for accept in ["fr-CA", "fr", "tlh, fr;q=0.5", "de-AT", "en"]:
        moves = (await _gql(api, query, {"id": game_id}, token, accept))["data"]["game"]
        said[accept] = [m["labelMessage"]["text"] for m in moves["legalMoves"]]
        english = [m["label"] for m in moves["legalMoves"]]
    assert said["fr-CA"] == said["fr"] == said["tlh, fr;q=0.5"] != english
    assert all(text.startswith(("prend", "plante")) for text in said["fr"]), said["fr"]
    assert said["de-AT"] == said["en"] == english
    rest = await api.http.get(
        f"/v1/games/{game_id}/legal-moves",
        headers={"authorization": f"Bearer {token}", "accept-language": "fr-CA"},
    )
    assert [m["labelMessage"]["text"] for m in rest.json()["legalMoves"]] == said["fr"]
