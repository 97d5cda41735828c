"""Why a Treeline move is refused (service/engine/explain.py; docs/rules/treeline.md).

Cells are (row, column), 0-based. Sentences name cells, never a glade's identity (TL-13).
"""

from service.engine.explain import Reason, Reasons

TURN_RULE = "TL-3"

REASONS: Reasons = {
    ("strategicFlip", ("row", "col")): Reason(
        "WOULD_ISOLATE",
        "TL-12",
        "cell {value} is not a Town card whose flip leaves every other Town card a Town neighbour",
    ),
    ("reforest", ("row", "col")): Reason(
        "NOT_A_REFORESTABLE_TOWN_CARD",
        "TL-3",
        "cell {value} does not start a pair of adjacent Town cards next to the forest",
    ),
    ("reforest", ("toward",)): Reason(
        "PAIR_NOT_ALLOWED",
        "TL-3",
        "flipping that cell with the card toward {value} is not a pair of Town cards next to the forest",
    ),
    ("deployCard", ("row", "col")): Reason(
        "NOT_FLIPPED_THIS_TURN",
        "TL-5",
        "cell {value} is not a card flipped this turn that may still be deployed to",
    ),
    ("deployFromSupply", ()): Reason(
        "SUPPLY_EMPTY",
        "TL-4",
        "you have no token left in your supply",
        frozenset({"deployFromCard"}),
    ),
    ("deployFromCard", ("row", "col")): Reason(
        "NO_TOKEN_TO_MOVE",
        "TL-4",
        "cell {value} is not another Forest card holding an unstationed token of yours",
    ),
    ("deployFromCard", ("energized",)): Reason(
        "NO_TOKEN_OF_THAT_SIDE", "TL-4", "no token of yours there has energized = {value}"
    ),
    ("stationToken", ("row", "col")): Reason(
        "NOT_IN_THE_LINE", "TL-8", "cell {value} holds no token of yours in the claimed line"
    ),
    ("stationToken", ("energized",)): Reason(
        "NO_TOKEN_OF_THAT_SIDE", "TL-8", "no token of yours there has energized = {value}"
    ),
    ("stationFromSupply", ()): Reason(
        "TOKENS_LEFT_IN_LINE",
        "TL-8",
        "you still have tokens in the claimed line: station one of those",
        frozenset({"stationToken"}),
    ),
    ("energize", ("row", "col")): Reason(
        "NO_NORMAL_TOKEN_THERE", "TL-9", "cell {value} holds no Normal token of yours in the line"
    ),
}
