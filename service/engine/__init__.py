"""Pure game engine: contract, deterministic RNG, errors, sequencing. No I/O."""

from service.engine.contract import (
    BotHooks,
    BotTuning,
    Cell,
    Game,
    Move,
    Options,
    SaidLabels,
    ScoreEntry,
    ScoreItem,
    Scores,
    Term,
    Wire,
    closed_set,
)
from service.engine.errors import BadSetup, IllegalMove
from service.engine.play import (
    Played,
    Step,
    check,
    decode_state,
    encode_state,
    play,
    replay,
    resume,
    start,
)
from service.engine.rng import Rng

__all__ = [
    "BadSetup",
    "BotHooks",
    "BotTuning",
    "Cell",
    "Game",
    "IllegalMove",
    "Move",
    "Options",
    "Played",
    "Rng",
    "SaidLabels",
    "ScoreEntry",
    "ScoreItem",
    "Scores",
    "Step",
    "Term",
    "Wire",
    "check",
    "closed_set",
    "decode_state",
    "encode_state",
    "play",
    "replay",
    "resume",
    "start",
]
