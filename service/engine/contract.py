"""The contract every game implements (docs/architecture.md, "The engine contract").

A game is one object with a few pure hooks over msgspec Structs. The engine (play.py) owns the
sequencing: the ordered checks, copying, forced decisions and the record of applied steps, so a
game only says what is legal, what a legal move does, what a seat may see, and the score.

Wire conventions shared by all games: JSON field names are camelCase, a move is a Struct from a
tagged union whose tag field is "type" (the class name in camelCase), and moves and labels are
public: they never carry hidden information (RULINGS ALL-4), because history shows them to all.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, ClassVar, Literal, Protocol, TypeVar

import msgspec

from service.engine.explain import Reasons
from service.engine.rng import Rng
from service.engine.texts import Catalog, Message, Said


def _camel(name: str) -> str:
    return name[:1].lower() + name[1:]


def closed_set(title: str, values: Iterable[str]) -> Any:
    """The Literal of `values`, for strings a game's data file fixes (colours, animals, tree
    types), named `title`: JSON Schema and GraphQL list them as an enum of that name. Modules
    bind it under `if not TYPE_CHECKING`, with `str` for mypy, which cannot see a Literal made
    at runtime."""
    return Annotated[Literal[tuple(values)], msgspec.Meta(title=title)]


class Wire(msgspec.Struct, rename="camel", forbid_unknown_fields=True, kw_only=True):
    """Base of every Struct that crosses the API: options, views, scores."""


class Move(
    msgspec.Struct,
    tag_field="type",
    tag=_camel,
    rename="camel",
    forbid_unknown_fields=True,
    frozen=True,
    kw_only=True,
):
    """Base of every move. Subclasses are tagged by their camelCase class name."""


class Options(Wire):
    """Create options common to every game; games extend it (RULINGS ALL-1)."""

    start_seat: int = 0


class Cell(Wire):
    row: int
    col: int


class Term(Wire):
    """A named number an item's points come from (the names per game: docs/rules/)."""

    name: str
    value: int


class ScoreItem(Wire):
    source: str  # what scores, a closed set per game: castle, glade, tree, avenue, project
    points: int
    detail: str = ""  # the same in words
    id: str | None = None  # which one: a castle letter, glade id, colour, card, project, tree type
    seat: int | None = None  # whose item (an entry of a team lists both teammates' items)
    cells: list[Cell] = []  # where on the board
    terms: list[Term] = []


class ScoreEntry(Wire):
    seat: int
    points: int
    breakdown: list[ScoreItem]
    tiebreak: list[int]
    team: list[int] | None = None  # team games: the seats whose points `points` adds up
    seat_points: int | None = None  # team games: this seat's own share of `points`


class Scores(Wire):
    final: bool
    winners: list[int]
    entries: list[ScoreEntry]

    def best_of(self, exclude: int) -> list[int]:
        """The seats other than `exclude` with the most points now (all of them on a tie): the
        winners when `exclude` resigns or runs out of time."""
        others = [entry for entry in self.entries if entry.seat != exclude]
        top = max((entry.points for entry in others), default=0)
        return sorted(entry.seat for entry in others if entry.points == top)


class BotTuning(msgspec.Struct, frozen=True, kw_only=True):
    """How the bots (service/bots, docs/bots.md) play a game: its numbers, set by the game in its
    own package as `bot_tuning` (a new game sets its BotTuning and bot hooks there; the bots
    name no game). The defaults are what a game that sets nothing gets."""

    # SEARCH iterations that take about 100 ms per decision on one idle core: the budget when
    # a caller gives neither `iterations` nor `deadline`
    search_iterations: int = 100
    # the most decisions a SEARCH rollout plays at random after the turn in progress
    rollout_cap: int = 40
    # whether a rollout first finishes the turn in progress by GREEDY's one-step policy
    finish_turn: bool = False
    # roughly the score margin that decides a game: a margin this big is worth a reward of ~0.73
    margin_scale: float = 8.0


class BotHooks:
    """Defaults of the contract's bot members (`Game.bot_tuning`, `bot_points`, `opponents`,
    `turn_key`), for a game class to inherit and override where its rules differ. They read
    `state.players`, which every game's State has."""

    bot_tuning: ClassVar[BotTuning] = BotTuning()

    def bot_points(self: Game[Any, Any], state: Any) -> list[int]:
        """Each seat's points as the bots judge a position: by default the live scores."""
        by_seat = [0] * _players(state)
        for entry in self.scores(state).entries:
            by_seat[entry.seat] = entry.points
        return by_seat

    def opponents(self, state: Any, seat: int) -> list[int]:
        """The seats `seat` plays against: by default every other seat."""
        players = _players(state)
        return [s for s in range(players) if s != seat]

    def turn_key(self, state: Any) -> tuple[int, ...]:
        """A key that changes exactly when a new turn begins (GREEDY judges a move at the end of
        its turn). The default never changes: GREEDY then looks ahead its cap of decisions."""
        return (-1,)


class SaidLabels:
    """Defaults of the contract's `label` and `label_message`, said in the game's catalog
    `texts` from its `label_said`: a game class inherits them and writes the label once."""

    def label(self: Game[Any, Any], state: Any, seat: int, move: Any) -> str:
        return self.texts.text(*self.label_said(state, seat, move))

    def label_message(self: Game[Any, Any], state: Any, seat: int, move: Any) -> Message:
        key, values = self.label_said(state, seat, move)
        return self.texts.say(key, **values)


def _players(state: Any) -> int:
    players: int = state.players
    return players


S = TypeVar("S", bound=msgspec.Struct)
M = TypeVar("M", bound=Move)


class Game(Protocol[S, M]):
    kind: ClassVar[str]  # the GraphQL GameKind value, e.g. "TREELINGS"
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_type: ClassVar[type[Any]]  # the State Struct
    move_type: ClassVar[Any]  # the tagged union of move Structs
    options_type: ClassVar[type[Options]]
    view_type: ClassVar[type[Any]]
    reasons: ClassVar[Reasons]  # why a move is refused (explain.py), documented per game
    turn_rule: ClassVar[str]  # the ruling a refusal of the wrong kind of decision cites
    # The game's messages (its package's messages/messages.pot, docs/translating.md): labels, refusal
    # reasons (`reason.<tag>[.<fields>]` for each entry of `reasons`), score details.
    texts: ClassVar[Catalog]
    # The package's RULES_VERSION: bumped by any change that could make a replay of a game (the
    # seed and the decisions) give other states, legal moves, forced steps or labels. Games keep
    # the version they were created under and are played only by it (docs/reliability.md,
    # "Rolling upgrades").
    rules_version: ClassVar[int]

    def normalise(self, move: M) -> M:
        """The canonical form of a parsed move: set-valued fields in one order."""
        ...

    def setup(self, players: int, options: Any, rng: Rng) -> S:
        """The initial state. `rng` must be stored in the state and used for all randomness.
        Raise BadSetup for options this player count cannot use."""
        ...

    def to_act(self, state: S) -> list[int]:
        """Seats that owe a decision now; empty only when the game is over."""
        ...

    def legal_moves(self, state: S, seat: int) -> list[M]:
        """Every legal decision for `seat` (empty if it does not act now)."""
        ...

    def apply(self, state: S, seat: int, move: M) -> None:
        """Apply one legal move in place. The engine has already checked legality and hands
        over a private copy, so this hook never has to undo anything."""
        ...

    def label(self, state: S, seat: int, move: M) -> str:
        """A short public description of `move`, judged on the state before it applies: the
        English text of `label_message`."""
        ...

    def label_message(self, state: S, seat: int, move: M) -> Message:
        """`label` as a message of `texts`, for any language."""
        ...

    def label_said(self, state: S, seat: int, move: M) -> Said:
        """`label` as its catalog key and values: `texts.text` of them is `label`, `texts.say`
        of them `label_message`, so an answer that shows both works the label out once."""
        ...

    def view(self, state: S, seat: int | None) -> Any:
        """What `seat` (None: a spectator) may see, as a Wire Struct (RULINGS ALL-4)."""
        ...

    def scores(self, state: S) -> Scores: ...

    def is_over(self, state: S) -> bool: ...

    def catalog(self) -> dict[str, Any]:
        """Static card data a client needs to draw the game (JSON-ready)."""
        ...

    def takeback_safe(self, before: S, after: S) -> bool:
        """Whether a seat may take back, alone, what led from `before` to `after` (two states
        one commit apart, docs/architecture.md "The path of a takeback"): True only when
        nothing hidden was revealed to anyone (a drawn card, a flipped glade, a card shown
        to one seat: RULINGS ALL-4) and no random event happened (the Rng did not move,
        ALL-2). Conservative: in doubt, False (the takeback then needs the others' consent)."""
        ...

    # The bots' members (service/bots reads a game only through these and the hooks above).
    # BotHooks gives defaults; a game overrides what its rules make different.
    bot_tuning: ClassVar[BotTuning]

    def determinize(self, state: S, seat: int | None, rng: Rng) -> S:
        """A fresh copy in which everything `seat` cannot see is re-drawn by `rng`, consistent
        with what it can see and depending only on its view and `rng` (RULINGS ALL-4): every
        bot decision starts from one, so no strategy reads hidden information."""
        ...

    def bot_points(self, state: S) -> list[int]:
        """Each seat's points as the bots judge a position (default: the live scores)."""
        ...

    def opponents(self, state: S, seat: int) -> list[int]:
        """The seats `seat` plays against (default: every other seat)."""
        ...

    def turn_key(self, state: S) -> tuple[int, ...]:
        """Changes exactly when a new turn begins."""
        ...
