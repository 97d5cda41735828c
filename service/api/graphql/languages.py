"""`languages`: the languages the catalogs say their messages in, each with its coverage
overall and per catalog (REST: GET /v1/languages; docs/translating.md)."""

from __future__ import annotations

import strawberry

from service.api.edge import localized
from service.api.graphql.types import GameKind


@strawberry.type(description="A catalog's share of message ids a language says itself.")
class CatalogCoverage:
    catalog: str = strawberry.field(
        description="`common` (the shared catalog) or the game's package name."
    )
    game: GameKind | None = strawberry.field(description="Its game; null for `common`.")
    translated: int
    total: int
    coverage: float = strawberry.field(description="translated / total, from 0 to 1.")


@strawberry.type(
    description="A language of the catalogs: ask for it with Accept-Language or a `language` "
    "argument. A message it lacks is said in its primary language (fr-CA: fr), then English."
)
class Language:
    tag: str = strawberry.field(description="The language tag, e.g. `fr`, `pt-BR`, `en-XA`.")
    name: str = strawberry.field(description="Its name in English.")
    native_name: str = strawberry.field(description="Its name in itself.")
    pseudo: bool = strawberry.field(description="The pseudo-locale, made from English.")
    translated: int = strawberry.field(description="Message ids it says itself, in all.")
    total: int
    coverage: float = strawberry.field(description="translated / total, from 0 to 1.")
    catalogs: list[CatalogCoverage] = strawberry.field(description="Per catalog, shared first.")


def _language(shipped: localized.Language) -> Language:
    return Language(
        tag=shipped.tag,
        name=shipped.name,
        native_name=shipped.native_name,
        pseudo=shipped.pseudo,
        translated=shipped.translated,
        total=shipped.total,
        coverage=shipped.coverage,
        catalogs=[
            CatalogCoverage(
                catalog=c.catalog,
                game=GameKind(c.game) if c.game is not None else None,
                translated=c.translated,
                total=c.total,
                coverage=c.coverage,
            )
            for c in shipped.catalogs
        ],
    )


@strawberry.type
class LanguageQueries:
    @strawberry.field(
        description="The languages this server says its texts in (English, the pseudo-locale "
        "en-XA, and each translation shipped), with each one's coverage (REST: GET "
        "/v1/languages)."
    )
    def languages(self) -> list[Language]:
        return [_language(shipped) for shipped in localized.languages().languages]
