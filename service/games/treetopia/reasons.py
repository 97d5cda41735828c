"""Why a Treetopia move is refused (service/engine/explain.py; docs/rules/treetopia.md).

Hands, the pool and the discard are public (TT-2) and the pile is known only by its size and
its top card's type, so no sentence built from the seat's legal moves reveals anything hidden.
"""

from service.engine.explain import Reason, Reasons

TURN_RULE = "TT-3"
_DRAWS = frozenset({"drawFromPile", "takeFromPool"})

REASONS: Reasons = {
    ("useWhirlwind", ()): Reason("TOKEN_NOT_ACTIVE", "TT-4", _DRAWS),
    ("useWhirlwind", ("cards",)): Reason("CARDS_NOT_IN_HAND", "TT-4"),
    ("useEye", ()): Reason("TOKEN_NOT_ACTIVE", "TT-4", _DRAWS),
    ("drawFromPile", ()): Reason("PILE_EMPTY", "TT-8", _DRAWS),
    ("takeFromPool", ("card",)): Reason("CARD_NOT_IN_POOL", "TT-3"),
    ("keepEyeCard", ("card",)): Reason("NOT_AN_EYE_CARD", "TT-4"),
    ("putInPool", ("card",)): Reason("CARD_NOT_IN_HAND", "TT-3"),
    ("plant", ("card",)): Reason("NEED_NOT_MET", "TT-1"),
    ("plantAt", ("row", "col")): Reason("CELL_NOT_PLANTABLE", "TT-5"),
    ("skipTurn", ("token",)): Reason("TOKEN_ALREADY_ACTIVE", "TT-3"),
    ("skipTurn", ()): Reason("ALL_TOKENS_ACTIVE", "TT-3", _DRAWS),
    ("activateToken", ("token",)): Reason("TOKEN_ALREADY_ACTIVE", "TT-6"),
}
