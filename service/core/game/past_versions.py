"""A game as of an earlier version: rebuilt for `stateAt`, for the first answer to an
idempotency key used already, for a takeback's state, and for delayed spectators, to whom
`PastVersions.as_seen` (the one place the spectator delay is applied) shows nothing
newer. A version is replayed from the latest checkpoint at or below it (else the seed and the
options) and the history's decisions after it."""

from __future__ import annotations

from typing import Any

import msgspec

from service.core.access.keys import Tenants, spectator_delay
from service.core.game.loaded_game import LoadedGame, acting
from service.engine import replay, resume
from service.engine.play import decode_state, encode_state
from service.refusals import Code, Refused
from service.store import Record, RedisStore

PAST_VERSIONS_KEPT = 256  # delayed spectators' past versions kept per process (as_seen)


class PastVersions:
    def __init__(self, store: RedisStore, tenants: Tenants) -> None:
        self.store = store
        self.tenants = tenants
        # (game id, version) -> (record, state) as delayed spectators see it, least recently
        # used first (dicts keep their order)
        self.kept: dict[tuple[str, int], tuple[Record, Any]] = {}

    async def as_seen(self, loaded: LoadedGame, tenant: str | None) -> LoadedGame:
        """The one place the spectator delay is applied: `loaded` as its viewer may
        see it, the game as of `spectatorDelay` versions ago for a delayed spectator
        (keys.spectator_delay), rebuilt as `stateAt` rebuilds a past version. Every answer
        read from it follows: version, status, toAct, state, scores, history (cut at its
        version), `stateAt` (later versions OUT_OF_RANGE, as the future is), events, ETags.
        Its clock shows no deadline nor remaining time, and no takeback request shows: they
        would tell the live game."""
        record = loaded.record
        delay = spectator_delay(record, loaded.viewer, tenant, self.tenants.keyed)
        if delay == 0:
            return loaded
        version = max(record.version - delay, 0)
        # a streamed game's spectators all read the same past version: rebuilt once per
        # process (a game's version v never changes once committed)
        known = self.kept.pop((loaded.id, version), None)
        if known is None:
            then = await self.at_version(loaded, version)
            shown = msgspec.structs.replace(
                then.record,
                acting=acting(then.game, then.state),
                deadline=None,
                remaining=[],
                outcome=None,
                takeback=None,  # a request waiting now is live news too
            )
            known = shown, then.state
        self.kept[(loaded.id, version)] = known
        while len(self.kept) > PAST_VERSIONS_KEPT:
            del self.kept[next(iter(self.kept))]
        return LoadedGame(loaded.id, known[0], loaded.game, None, known[1], delay=delay)

    async def at_version(self, loaded: LoadedGame, version: int) -> LoadedGame:
        """The game as of `version` (0 up to its own), seen by the same viewer: replayed from
        the latest checkpoint at or below it (else the seed and the options) and the history's
        decisions after it, at most about records.CHECKPOINT_EVERY. A version inside a run of forced
        steps answers the state before the decision that started it: the run was committed
        in one step, so no client ever saw the states inside it (nor anything they reveal)."""
        record = loaded.record
        if not 0 <= version <= record.version:
            raise Refused(
                Code.OUT_OF_RANGE, f"version is 0 to {record.version} for this game, not {version}"
            )
        if version == record.version:
            return loaded
        if record.options is None:
            raise Refused(
                Code.OUT_OF_RANGE, "this game was created by an older release: no past versions"
            )
        if record.rules != loaded.game.rules_version:
            raise Refused(
                Code.OUT_OF_RANGE,
                f"this game was created under version {record.rules} of its rules and this "
                f"release has version {loaded.game.rules_version}: its past versions cannot be "
                "rebuilt here",
            )
        return await self.then(loaded, version)

    async def then(self, loaded: LoadedGame, version: int) -> LoadedGame:
        """`loaded` replayed up to `version` (below its own); see `at_version` for a version
        inside a run of forced steps."""
        record, game = loaded.record, loaded.game
        state = await self.state_at(loaded, version)
        then = msgspec.structs.replace(
            record,
            version=version,
            finished=game.is_over(state),
            state=encode_state(state),
        )
        return LoadedGame(loaded.id, then, game, loaded.viewer, state)

    async def state_at(self, loaded: LoadedGame, version: int) -> Any:
        """The game's state at `version` (at most its own), replayed as `then` says. A
        takeback at or below `version` (service/core/takebacks/policy.py) restarts the replay from the
        state of the version it went back to, found the same way."""
        record, game = loaded.record, loaded.game
        assert record.options is not None
        # a checkpoint is a committed version, never inside a run: the decision that starts
        # the run `version` may be inside comes after it
        checkpoint = await self.store.checkpoint(loaded.id, version)
        after = 0 if checkpoint is None else checkpoint.version
        entries = await self.store.history(loaded.id, after, version + 1)
        taken = [
            e
            for e in entries
            if e.version <= version and e.takeback is not None and e.takeback.step == "TAKEN"
        ]
        base = None
        if taken:  # a state from before the checkpoint, perhaps: found on its own
            assert taken[-1].takeback is not None
            base = await self.state_at(loaded, taken[-1].takeback.to_version)
            entries = [e for e in entries if e.version > taken[-1].version]
        decided = [e for e in entries if e.version <= version and not e.forced]
        decided = [e for e in decided if e.move is not None]  # events (resign...) are no moves
        inside_run = any(e.version == version + 1 and e.forced for e in entries)
        if inside_run and decided:
            decided.pop()
        decisions = [(e.seat, e.move) for e in decided]
        if base is not None:
            return resume(game, base, decisions)
        if checkpoint is None:
            return replay(game, record.players, record.options, record.seed, decisions)
        return resume(game, decode_state(game, checkpoint.state), decisions)
