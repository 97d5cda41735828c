"""Why a Treelings move is refused (service/engine/explain.py; docs/rules/treelings.md)."""

from service.engine.explain import Reason, Reasons

TURN_RULE = "TG-4"

REASONS: Reasons = {
    ("takeColour", ("colour",)): Reason(
        "COLOUR_NOT_IN_MARKET", "TG-4", "the market holds no {value} card (it holds: {allowed})"
    ),
    ("takeSingletons", ()): Reason(
        "TOO_FEW_SINGLETONS",
        "TG-4",
        "takeSingletons needs two or more colours present exactly once in the market; "
        "take a lone singleton with takeColour",
        frozenset({"takeColour"}),
    ),
    ("place", ("colour",)): Reason(
        "NOT_A_NEW_COLOUR",
        "TG-5",
        "{value} is not a taken colour still to place in your district (to place: {allowed})",
    ),
}
