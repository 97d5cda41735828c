"""The treeline catalog of messages (messages/messages.pot, its
translations and its nouns, docs/translating.md): its labels, refusal reasons and score details,
read and checked once at import."""

from pathlib import Path

from service.engine.texts import Catalog

TEXTS = Catalog.load("treeline", Path(__file__).parent / "messages")
