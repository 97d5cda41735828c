"""`python -m service.api.sdl` prints the GraphQL SDL committed as schema/schema.graphql."""

from __future__ import annotations

from service.api.graphql import build_schema


def sdl() -> str:
    return build_schema().as_str() + "\n"


if __name__ == "__main__":
    print(sdl(), end="")
