"""GraphQL's localizable text (docs/translating.md): a `Message` beside every label,
refusal and score detail, its `text` in the language asked for (`text(language:)`, else the
request's Accept-Language, else English)."""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias

import strawberry
from strawberry.types import Info

from service.api.edge.localized import language, texts
from service.engine.texts import PARAM_TYPES
from service.engine.texts import Message as Said

PARAM_TYPE = (
    "What a parameter holds: INT a whole number, TEXT a word or phrase of the game's vocabulary "
    "kept as it is (a colour, a card, a cell), LIST such words joined by ', '."
)
if TYPE_CHECKING:  # made from its source at import: opaque to mypy
    MessageParamType: TypeAlias = Any
else:
    MessageParamType = strawberry.enum(
        Enum("MessageParamType", {t: t for t in PARAM_TYPES}), description=PARAM_TYPE
    )
_PARAM_TYPE: dict[str, Any] = {t: getattr(MessageParamType, t) for t in PARAM_TYPES}


@strawberry.type(description="A placeholder's value, as the text shows it.")
class MessageParam:
    name: str
    type: MessageParamType
    value: str


LANGUAGE = (
    "A language tag (e.g. `fr`, `fr-CA`, `en-XA`, the pseudo-locale; `languages` lists them); "
    "without it the request's Accept-Language; English when neither is a language of the "
    "catalogs. A message the language lacks is said in its primary language, then English."
)


@strawberry.type(
    description="A text as a catalog's message: its id, its typed parameters and the text in "
    "the language asked for (docs/translating.md)."
)
class Message:
    id: str
    params: list[MessageParam]
    said: strawberry.Private[Said]

    @strawberry.field(description="The message in words.")
    def text(
        self,
        info: Info[Any, Any],
        language: Annotated[str | None, strawberry.argument(description=LANGUAGE)] = None,
    ) -> str:
        return texts().render(self.said, context_language(info, language))


def message(said: Said) -> Message:
    params = [
        MessageParam(name=p.name, type=_PARAM_TYPE[p.type], value=p.value) for p in said.params
    ]
    return Message(id=said.id, params=params, said=said)


def context_language(info: Info[Any, Any], argument: str | None = None) -> str:
    """`argument`, else the request's Accept-Language (cached for the request)."""
    if argument is not None:
        return language(None, argument)
    if "language" not in info.context:
        request = info.context.get("request")
        accept = request.headers.get("accept-language") if request is not None else None
        info.context["language"] = language(accept)
    chosen: str = info.context["language"]
    return chosen
