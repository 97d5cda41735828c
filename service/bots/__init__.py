"""Bots: move suggestions and bot-played seats for every game (docs/bots.md).

Pure like service.engine: no I/O, no asyncio, no clock (a wall-clock budget comes in as a
callable). The interface the API builds on:

- ``suggest(game, state, seat, strategy, *, seed, iterations=None, deadline=None) -> Move``:
  a legal move (the game's Move Struct; ``msgspec.to_builtins`` gives its JSON) for ``seat``,
  which must be in ``game.to_act(state)``. ``strategy`` is one of ``STRATEGIES``:
  ``"RANDOM"`` (uniform), ``"GREEDY"`` (best score margin at the end of the current turn,
  ties by seed), ``"SEARCH"`` (information-set MCTS). SEARCH runs ``iterations`` iterations
  and/or until ``deadline()`` returns True (check it with a monotonic clock, e.g.
  ``lambda: time.monotonic() > t0 + budget_ms / 1000``); with neither it uses
  ``game.bot_tuning.search_iterations`` (about 100 ms). With ``deadline=None`` the result is a
  function of the seat's view, the seed and ``iterations`` only: reproducible, and blind to
  hidden information. Raises ValueError for an unknown strategy or a seat that does not act.
- ``play_bots(game, state, bots, *, seed, iterations=None, deadline=None,
  max_decisions=10_000) -> Played``: ``bots`` maps seats to strategies. While a bot seat is to
  act and the game is not over, it suggests and applies the move with ``service.engine.play``;
  returns ``Played(state, steps)`` with every step (forced ones included) in order, ready to be
  committed in one write. ``deadline`` here is a factory: called once per decision, it returns
  that decision's deadline callable. Decision k of the call uses seed ``seed + k``; pass a seed
  derived from the game id and version so replays agree.

Every strategy works on a sample of the hidden parts made by the game's
``determinize(state, seat, rng)`` (service/games/<game>/hidden.py), never on the true ones.

The bots know a game only through the engine contract (service/engine/contract.py): its hooks,
``determinize``, and its bot members: ``bot_tuning`` (a BotTuning: SEARCH iterations, rollout,
margin scale), ``bot_points``, ``opponents`` and ``turn_key``. Nothing here imports a game or
names a game kind: a new game sets its BotTuning and hooks in its own package.
"""

from service.bots.play import STRATEGIES, Strategy, play_bots, suggest

__all__ = ["STRATEGIES", "Strategy", "play_bots", "suggest"]
