"""Why an Avenue move is refused (service/engine/explain.py; docs/rules/avenue.md).

Cells are numbered row * 6 + column. Every sentence is built from the seat's own legal moves,
so none tells what the seat may not see (AV-9: projects stay secret).
"""

from service.engine.explain import Reason, Reasons

TURN_RULE = "AV-5"
_ACTIONS = frozenset({"skipAction"})
_CARD_ACTION = "the chosen card's action is not this one (its action: {owed})"

REASONS: Reasons = {
    ("placeGardener", ("cell",)): Reason(
        "CELL_NOT_A_FREE_CARD", "AV-5", "cell {value} is not a park card without a gardener"
    ),
    ("takeTile", ("cell", "animal")): Reason(
        "TILE_NOT_TAKEABLE",
        "AV-5",
        "there is no unowned tile {value} in the row or column of the gardener just placed",
    ),
    ("chooseCard", ("slot",)): Reason(
        "SLOT_EMPTY", "AV-4", "slot {value} of this round's row holds no card"
    ),
    ("placeCard", ("cell",)): Reason(
        "NOT_ADJACENT",
        "AV-5",
        "cell {value} is not an empty park cell orthogonally next to a placed card",
    ),
    ("relocateGardener", ()): Reason("NOT_THE_CARDS_ACTION", "AV-5", _CARD_ACTION, _ACTIONS),
    ("drawProject", ()): Reason("NOT_THE_CARDS_ACTION", "AV-5", _CARD_ACTION, _ACTIONS),
    ("redraw", ()): Reason("NOT_THE_CARDS_ACTION", "AV-5", _CARD_ACTION, _ACTIONS),
    ("extraTile", ()): Reason("NOT_THE_CARDS_ACTION", "AV-5", _CARD_ACTION, _ACTIONS),
    ("relocateGardener", ("cell",)): Reason(
        "NOT_YOUR_GARDENER", "AV-6", "none of your placed gardeners stands on cell {value}"
    ),
    ("relocateTo", ("cell",)): Reason(
        "CELL_NOT_A_FREE_CARD", "AV-6", "cell {value} is not a park card without a gardener"
    ),
    ("carryTile", ("animal",)): Reason(
        "NO_SUCH_TILE_HERE", "AV-6", "the relocated gardener's card holds no {value} tile"
    ),
    ("redraw", ("slots",)): Reason(
        "SLOTS_NOT_IN_NEXT_ROW",
        "AV-6",
        "slots {value} are not one or more distinct slots of the next round's row",
    ),
    ("extraTile", ("cell", "animal")): Reason(
        "TILE_OWNED", "AV-6", "there is no unowned tile {value} in the park"
    ),
    ("extraTileTo", ("cell",)): Reason(
        "NOT_YOUR_GARDENER", "AV-6", "none of your placed gardeners stands on cell {value}"
    ),
}
