"""A game's past and its count: scores, the applied decisions, and the view at a version."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api.edge.parsing import natural
from service.api.edge.problems import Problem
from service.api.rest.http import (
    Rest,
    etag,
    json_response,
    language_of,
    messages_of,
    none_match,
    shape,
    tagged,
)
from service.api.rest.operation import (
    ACT_AS,
    GAME_ID,
    GAME_ROUTE,
    LANGUAGE,
    NONE_MATCH,
    ONE_GAME,
    READ_PARAMETERS,
    READER,
    WITH_MESSAGES,
    Operation,
    RestRoute,
    Schema,
    ok,
    problems,
    ref,
    tagged_responses,
)
from service.api.rest.rendering import history_json, scores_json


async def scores(rest: Rest, request: Request) -> Response:
    messages = messages_of(request)
    loaded = await rest.read(request)
    lang = language_of(request)
    tag = etag(loaded, None, "scores", *shape(lang, messages))
    return tagged(request, tag, lambda: scores_json(loaded, lang, messages))


async def history(rest: Rest, request: Request) -> Response:
    messages = messages_of(request)
    loaded = await rest.read(request)
    after = natural(request.query_params.get("after", "0"))
    if after is None:
        raise Problem("BAD_REQUEST", "after must be a version (a whole number)")
    lang = language_of(request)
    tag = etag(loaded, None, "history", str(after), *shape(lang, messages))
    if none_match(request, tag):
        return Response(status_code=304, headers={"etag": tag})
    entries = await rest.service.history(loaded, after)
    history = [history_json(e, loaded.game, lang, messages) for e in entries]
    body = {"version": loaded.record.version, "history": history}
    return json_response(body, headers={"etag": tag})


async def state_at(rest: Rest, request: Request) -> Response:
    loaded = await rest.read(request)
    version = natural(request.query_params.get("version", ""))
    if version is None:
        raise Problem("BAD_REQUEST", "version must be a version (a whole number)")
    then = await rest.service.at_version(loaded, version)
    return json_response({"version": version, "state": then.view()})


VERSION: Schema = {"type": "integer", "minimum": 0}

SCORES = RestRoute(
    f"{ONE_GAME}/scores",
    "GET",
    scores,
    Operation(
        "getScores",
        "Live scores with a breakdown; final with winners at the end.",
        READER,
        {
            **tagged_responses(ref("Scores"), "scores"),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
        },
        parameters=READ_PARAMETERS,
        layout="parameters",
    ),
)
HISTORY = RestRoute(
    f"{ONE_GAME}/history",
    "GET",
    history,
    Operation(
        "getHistory",
        "Applied decisions after version `after`, oldest first.",
        READER,
        {
            **tagged_responses(ref("History"), "history"),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
        },
        parameters=[
            GAME_ID,
            ACT_AS,
            {"name": "after", "in": "query", "schema": VERSION},
            NONE_MATCH,
            LANGUAGE,
            WITH_MESSAGES,
        ],
        layout="parameters",
    ),
)
STATE = RestRoute(
    f"{ONE_GAME}/state",
    "GET",
    state_at,
    Operation(
        "getStateAt",
        "The caller's view as of an earlier version (GraphQL `stateAt`).",
        READER,
        {
            **ok(ref("PastState"), "the view then"),
            **problems(*GAME_ROUTE, "UNAUTHORIZED", "FORBIDDEN"),
        },
        parameters=[
            GAME_ID,
            ACT_AS,
            {"name": "version", "in": "query", "required": True, "schema": VERSION},
        ],
        layout="parameters",
    ),
)
