"""Why a move is not legal now: a reason code, the ruling it comes from, and a sentence.

Legality itself is "the move is one of `legal_moves`" (play.py); this module only explains a
refusal, from the same list. The list is the seat's own (RULINGS ALL-4: it is identical for
every state that differs only in what the seat may not see), so an explanation built from it
never reveals hidden information either.

A game names its reasons in a table keyed by move tag and a group of the move's fields:
`(tag, ())` explains a move of a kind the seat does not owe now, `(tag, ("row", "col"))` a
value of those fields that no legal move of that kind has. Fields are checked group by group
in the table's order, then one by one, each time among the legal moves that agree with the
groups already checked. Anything the table does not name gets a generic reason. Every field
is checked, so a move that passes them all is one of the legal moves: there is no "each field
fine, not together" refusal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import msgspec

from service.engine.texts import COMMON, Catalog, Message

WRONG_DECISION = "WRONG_DECISION"  # the seat owes another kind of decision now
VALUE_NOT_ALLOWED = "VALUE_NOT_ALLOWED"  # a field no legal move of that kind has
GENERIC_REASONS = (WRONG_DECISION, VALUE_NOT_ALLOWED)


class Reason(NamedTuple):
    code: str
    rule: str  # a ruling id (RULINGS.md) or rulebook section
    # its sentence is the game's catalog entry `reason.<tag>` or `reason.<tag>.<fields>`
    # (messages/messages.pot): a template whose {value}, {allowed} and {owed} are filled in
    when: frozenset[str] = frozenset()  # (tag, ()) reasons: only while one of these is owed


Reasons = Mapping[tuple[str, tuple[str, ...]], Reason]


class Refusal(NamedTuple):
    reason: str
    rule: str
    message: str  # `localized` in English
    localized: Message


def tag_of(move: msgspec.Struct) -> str:
    return str(type(move).__struct_config__.tag)


def explain(
    move: msgspec.Struct,
    legal: Sequence[msgspec.Struct],
    reasons: Reasons,
    rule: str,
    texts: Catalog,
) -> Refusal:
    """The refusal of `move`, which is not in `legal`; `rule` is the game's turn structure,
    `texts` the game's catalog, which words its reasons."""
    tag = tag_of(move)
    owed = ", ".join(dict.fromkeys(tag_of(m) for m in legal)) or "nothing"
    same = [m for m in legal if type(m) is type(move)]
    if not same:
        reason = reasons.get((tag, ()))
        if reason is None or not reason.when & {tag_of(m) for m in legal}:
            said = COMMON.say(f"reason.{WRONG_DECISION}", value=tag, owed=owed)
            return Refusal(WRONG_DECISION, rule, COMMON.render(said), said)
        return _refusal(reason, texts, f"reason.{tag}", value=tag, owed=owed)
    groups = [fields for (t, fields) in reasons if t == tag and fields]
    groups += [(f,) for f in type(move).__struct_fields__ if not any(f in g for g in groups)]
    for fields in groups:
        value = _values(move, fields)
        allowed = list(dict.fromkeys(_values(m, fields) for m in same))
        if value not in allowed:
            words = {"value": _show(value), "allowed": _list(allowed), "owed": owed}
            reason = reasons.get((tag, fields))
            if reason is None:
                said = COMMON.say(
                    f"reason.{VALUE_NOT_ALLOWED}",
                    field=_name(fields),
                    value=words["value"],
                    allowed=words["allowed"],
                )
                return Refusal(VALUE_NOT_ALLOWED, rule, COMMON.render(said), said)
            return _refusal(reason, texts, f"reason.{tag}.{','.join(fields)}", **words)
        same = [m for m in same if _values(m, fields) == value]
    raise ValueError(f"{move!r} is legal: there is no refusal to explain")


def _values(move: msgspec.Struct, fields: tuple[str, ...]) -> Any:
    values = tuple(getattr(move, f) for f in fields)
    return values[0] if len(values) == 1 else values


def _name(fields: tuple[str, ...]) -> str:
    return "/".join(fields)


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_show(v) for v in value) + ")"
    return str(value)


def _list(values: list[Any]) -> str:
    return ", ".join(_show(v) for v in values) or "none"


def _refusal(reason: Reason, texts: Catalog, key: str, **words: str) -> Refusal:
    """The game's own reason, in the words of its catalog entry `key` (the placeholders it
    uses of `words`)."""
    declared = texts.entries[f"{texts.namespace}.{key}"].params
    said = texts.say(key, **{name: words[name] for name in declared})
    return Refusal(reason.code, reason.rule, texts.render(said), said)
