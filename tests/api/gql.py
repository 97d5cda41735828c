"""GraphQL documents the API tests send, written once."""

GAME_FIELDS = """
  id kind version status players toAct viewer state
  legalMoves { move label }
  scores { final winners entries { seat points breakdown tiebreak team seatPoints } }
"""

CREATE = f"""
mutation Create($input: CreateGameInput!) {{
  createGame(input: $input) {{ game {{ {GAME_FIELDS} }} seats {{ seat token }} }}
}}"""

GAME = f"""
query Game($id: ID!) {{ game(id: $id) {{ {GAME_FIELDS} }} }}"""

APPLY = f"""
mutation Apply($input: ApplyMoveInput!) {{
  applyMove(input: $input) {{
    __typename
    ... on MoveApplied {{ replayed game {{ {GAME_FIELDS} }} }}
    ... on MoveRejected {{ code message currentVersion }}
  }}
}}"""

HISTORY = """
query History($id: ID!, $after: Int) {
  game(id: $id) { version history(after: $after) { version seat move label forced event } }
}"""
