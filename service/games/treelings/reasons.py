"""Why a Treelings move is refused (service/engine/explain.py; docs/rules/treelings.md)."""

from service.engine.explain import Reason, Reasons

TURN_RULE = "TG-4"

REASONS: Reasons = {
    ("takeColour", ("colour",)): Reason("COLOUR_NOT_IN_MARKET", "TG-4"),
    ("takeSingletons", ()): Reason("TOO_FEW_SINGLETONS", "TG-4", frozenset(["takeColour"])),
    ("place", ("colour",)): Reason("NOT_A_NEW_COLOUR", "TG-5"),
}
