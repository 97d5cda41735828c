"""Why an Avenue move is refused (service/engine/explain.py; docs/rules/avenue.md).

Cells are numbered row * 6 + column. Every sentence is built from the seat's own legal moves,
so none tells what the seat may not see (AV-9: projects stay secret).
"""

from service.engine.explain import Reason, Reasons

TURN_RULE = "AV-5"
_ACTIONS = frozenset({"skipAction"})

REASONS: Reasons = {
    ("placeGardener", ("cell",)): Reason("CELL_NOT_A_FREE_CARD", "AV-5"),
    ("takeTile", ("cell", "animal")): Reason("TILE_NOT_TAKEABLE", "AV-5"),
    ("chooseCard", ("slot",)): Reason("SLOT_EMPTY", "AV-4"),
    ("placeCard", ("cell",)): Reason("NOT_ADJACENT", "AV-5"),
    ("relocateGardener", ()): Reason("NOT_THE_CARDS_ACTION", "AV-5", _ACTIONS),
    ("drawProject", ()): Reason("NOT_THE_CARDS_ACTION", "AV-5", _ACTIONS),
    ("redraw", ()): Reason("NOT_THE_CARDS_ACTION", "AV-5", _ACTIONS),
    ("extraTile", ()): Reason("NOT_THE_CARDS_ACTION", "AV-5", _ACTIONS),
    ("relocateGardener", ("cell",)): Reason("NOT_YOUR_GARDENER", "AV-6"),
    ("relocateTo", ("cell",)): Reason("CELL_NOT_A_FREE_CARD", "AV-6"),
    ("carryTile", ("animal",)): Reason("NO_SUCH_TILE_HERE", "AV-6"),
    ("redraw", ("slots",)): Reason("SLOTS_NOT_IN_NEXT_ROW", "AV-6"),
    ("extraTile", ("cell", "animal")): Reason("TILE_OWNED", "AV-6"),
    ("extraTileTo", ("cell",)): Reason("NOT_YOUR_GARDENER", "AV-6"),
}
