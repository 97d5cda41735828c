"""`GET /v1/languages`: the languages of the catalogs with their coverage (GraphQL
`languages`; docs/translating.md). Public, and fixed for a deployment."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from service.api.edge.localized import Languages, languages
from service.api.rest.components import named
from service.api.rest.http import Rest, json_response
from service.api.rest.operation import Operation, RestRoute, ok, problems, ref

# the catalogs change only with a deployment
LANGUAGES_CACHE = "public, max-age=300"


async def list_languages(rest: Rest, request: Request) -> Response:
    return json_response(languages(), headers={"cache-control": LANGUAGES_CACHE})


LANGUAGES = RestRoute(
    "/v1/languages",
    "GET",
    list_languages,
    Operation(
        "languages",
        "The languages the service says its texts in (English, the pseudo-locale en-XA and "
        "each translation shipped), each with the share of message ids it translates, overall "
        "and per catalog. A message a language lacks is said in its primary language, then in "
        "English. Public and cacheable.",
        [{}],
        {**ok(ref("Languages"), "the languages"), **problems()},
        layout="parameters",
    ),
)


def schemas() -> dict[str, Any]:
    _, defs = msgspec.json.schema_components(
        [Languages], ref_template="#/components/schemas/{name}"
    )
    return named(defs)
