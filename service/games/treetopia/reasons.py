"""Why a Treetopia move is refused (service/engine/explain.py; docs/rules/treetopia.md).

Hands, the pool and the discard are public (TT-2) and the pile is known only by its size and
its top card's type, so no sentence built from the seat's legal moves reveals anything hidden.
"""

from service.engine.explain import Reason, Reasons

TURN_RULE = "TT-3"
_DRAWS = frozenset({"drawFromPile", "takeFromPool"})

REASONS: Reasons = {
    ("useWhirlwind", ()): Reason(
        "TOKEN_NOT_ACTIVE",
        "TT-4",
        "the Whirlwind is used at the start of a turn with an active Whirlwind token",
        _DRAWS,
    ),
    ("useWhirlwind", ("cards",)): Reason(
        "CARDS_NOT_IN_HAND", "TT-4", "cards {value} are not one to three cards of your hand"
    ),
    ("useEye", ()): Reason(
        "TOKEN_NOT_ACTIVE",
        "TT-4",
        "the Eye replaces a draw from the pile and needs an active Eye token and a pile",
        _DRAWS,
    ),
    ("drawFromPile", ()): Reason(
        "PILE_EMPTY", "TT-8", "neither the pile nor the discard has a card to draw", _DRAWS
    ),
    ("takeFromPool", ("card",)): Reason(
        "CARD_NOT_IN_POOL", "TT-3", "card {value} is not in the pool (it holds: {allowed})"
    ),
    ("keepEyeCard", ("card",)): Reason(
        "NOT_AN_EYE_CARD", "TT-4", "card {value} is not one of the cards the Eye drew"
    ),
    ("putInPool", ("card",)): Reason(
        "CARD_NOT_IN_HAND", "TT-3", "card {value} is not in your hand"
    ),
    ("plant", ("card",)): Reason(
        "NEED_NOT_MET", "TT-1", "card {value} is not in your hand with its need met by your hand"
    ),
    ("plantAt", ("row", "col")): Reason(
        "CELL_NOT_PLANTABLE",
        "TT-5",
        "cell {value} is taken, not next to a planted tree, or outside the sanctuary's bounds",
    ),
    ("skipTurn", ("token",)): Reason(
        "TOKEN_ALREADY_ACTIVE", "TT-3", "your {value} token is active already"
    ),
    ("skipTurn", ()): Reason(
        "ALL_TOKENS_ACTIVE", "TT-3", "a B turn needs an inactive token", _DRAWS
    ),
    ("activateToken", ("token",)): Reason(
        "TOKEN_ALREADY_ACTIVE", "TT-6", "your {value} token is active already"
    ),
}
