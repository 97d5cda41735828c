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
  game(id: $id) {
    version history(after: $after) {
      version seat move label forced event actedBy
      takeback { step toVersion askedBy agreedBy }
    }
  }
}"""

CREATE_WITH_BOTS = """
mutation C($input: CreateGameInput!) {
  createGame(input: $input) { game { id version status toAct } seats { seat token } }
}"""

SUGGEST = """
query S($id: ID!, $strategy: Strategy!, $budgetMs: Int, $iterations: Int, $seed: Int) {
  suggestMove(gameId: $id, strategy: $strategy, budgetMs: $budgetMs, iterations: $iterations,
              seed: $seed) { seat strategy move label }
}"""

RESIGN = """
mutation Resign($id: ID!, $v: Int) {
  resign(gameId: $id, expectedVersion: $v) {
    __typename
    ... on MoveApplied { game { status version toAct legalMoves { move }
                                outcome { reason seat winners } } }
    ... on MoveRejected { code currentVersion }
  }
}"""
ABANDON = """
mutation Abandon($id: ID!) {
  abandonGame(gameId: $id) {
    __typename
    ... on MoveApplied { game { status outcome { reason seat winners } } }
    ... on MoveRejected { code }
  }
}"""
