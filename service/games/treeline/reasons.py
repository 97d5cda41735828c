"""Why a Treeline move is refused (service/engine/explain.py; docs/rules/treeline.md).

Cells are (row, column), 0-based. Sentences name cells, never a glade's identity (TL-13).
"""

from service.engine.explain import Reason, Reasons

TURN_RULE = "TL-3"

REASONS: Reasons = {
    ("strategicFlip", ("row", "col")): Reason("WOULD_ISOLATE", "TL-12"),
    ("reforest", ("row", "col")): Reason("NOT_A_REFORESTABLE_TOWN_CARD", "TL-3"),
    ("reforest", ("toward",)): Reason("PAIR_NOT_ALLOWED", "TL-3"),
    ("deployCard", ("row", "col")): Reason("NOT_FLIPPED_THIS_TURN", "TL-5"),
    ("deployFromSupply", ()): Reason("SUPPLY_EMPTY", "TL-4", frozenset(["deployFromCard"])),
    ("deployFromCard", ("row", "col")): Reason("NO_TOKEN_TO_MOVE", "TL-4"),
    ("deployFromCard", ("energized",)): Reason("NO_TOKEN_OF_THAT_SIDE", "TL-4"),
    ("stationToken", ("row", "col")): Reason("NOT_IN_THE_LINE", "TL-8"),
    ("stationToken", ("energized",)): Reason("NO_TOKEN_OF_THAT_SIDE", "TL-8"),
    ("stationFromSupply", ()): Reason("TOKENS_LEFT_IN_LINE", "TL-8", frozenset(["stationToken"])),
    ("energize", ("row", "col")): Reason("NO_NORMAL_TOKEN_THERE", "TL-9"),
}
