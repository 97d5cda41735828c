"""Takebacks under a fair policy (service/core/takebacks/policy.py), case by case for every
game, through the game service on a real Redis: alone while nothing hidden was revealed,
nothing random happened and no other seat decided; refused beyond that under OWN_DECISIONS;
asked, accepted, declined and lapsed under WITH_CONSENT; bots accept; idempotent; clocks
given back; the state byte-identical to the earlier version's (RULINGS ALL-2)."""

from __future__ import annotations

import random
import time
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from service.bots import Strategy
from service.core import GameService
from service.core.game import clocks
from service.core.game.creation import new_game
from service.core.moves.decisions import advance, timeout_step
from service.core.records.documents import verify
from service.core.records.format import MAX_STEPS
from service.core.takebacks.policy import LONGEST_GAME, pending
from service.core.takebacks.steps import taken_record
from service.engine import encode_state, play, start
from service.engine.play import decode_state
from service.games import games
from service.refusals import Code, Refused
from service.settings import Settings
from service.store import HistoryRecord, Record, RedisStore, connect
from service.store.jobs import job_key, lane_of
from service.store.records import record_decoder, record_encoder
from service.worker import Worker
from tests.core.takeback_scenes import (
    BOT,
    OPTIONS,
    Decision,
    against_a_bot,
    bot_turn,
    decisions,
    first,
    first_answered,
)
from tests.support.following import following
from tests.support.waiting import until

KINDS = sorted(games())


@pytest.fixture(scope="module")
def redis_url(quiet_redis_url: str) -> str:
    """Bot seats here wait for the test (tests/conftest.py, `quiet_redis_url`)."""
    return quiet_redis_url


@pytest.fixture
async def worker(redis_url: str) -> AsyncIterator[Worker]:
    """A bot worker in this process, its loops not started: tests play its jobs (bot_turn)."""
    worker = Worker(Settings(), redis_url, "takebacks")
    await worker.queue.ensure_groups()
    yield worker
    await worker.store.close()


@pytest.fixture
async def service(redis_url: str) -> AsyncIterator[GameService]:
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    yield GameService(store)
    await store.close()


def _states(kind: str, players: int, seed: str, made: list[Decision]) -> list[bytes]:
    """The encoded state before each decision of `made`, and after the last."""
    game = games()[kind]
    state = start(game, players, OPTIONS.get(kind), seed).state
    states = [encode_state(state)]
    for d in made:
        state = play(game, state, d.seat, d.move).state
        states.append(encode_state(state))
    return states


class Table:
    """A game on the service with its seats' tokens, played from a list of decisions."""

    def __init__(self, service: GameService, game_id: str, tokens: dict[int, str]) -> None:
        self.service, self.id, self.tokens = service, game_id, tokens

    @classmethod
    async def open(
        cls, service: GameService, kind: str, seed: str, policy: str, **extra: Any
    ) -> Table:
        loaded, tokens = await service.create(
            kind, 2, seed, OPTIONS.get(kind), takeback_policy=policy, **extra
        )
        return cls(service, loaded.id, tokens)

    async def play(self, made: list[Decision]) -> None:
        for d in made:
            await self.service.apply(self.id, self.tokens[d.seat], d.move, None, None)

    async def against(self, worker: Worker, made: list[Decision]) -> None:
        """`made` played, the bot seat's decisions by `worker` (each asserted to be the one in
        `made`)."""
        for d in made:
            if d.seat != BOT:
                await self.play([d])
                continue
            await bot_turn(worker, self.id)
            decided = [e for e in await self.service.store.history(self.id) if not e.forced]
            assert decided[-1].move == d.move, "the bot's"

    async def record(self) -> Any:
        return (await self.service.read(self.id, None)).record


def _scene(kind: str) -> tuple[str, list[Decision]]:
    seed = f"tb-{kind}"
    return seed, decisions(kind, 2, seed)


@pytest.mark.parametrize("kind", KINDS)
async def test_a_seat_takes_back_alone_a_decision_that_revealed_nothing(
    service: GameService, kind: str
) -> None:
    seed, made = _scene(kind)
    i = first(made, safe=True)
    states = _states(kind, 2, seed, made[: i + 1])
    table = await Table.open(service, kind, seed, "OWN_DECISIONS")
    await table.play(made[: i + 1])
    before = await table.record()
    assert before.state == states[i + 1]

    applied = await service.request_takeback(table.id, table.tokens[made[i].seat], None, None)

    after = applied.game.record
    assert after.version == before.version + 1, "a takeback is a new version"
    assert after.state == states[i], "the state of the version before the decision, byte for byte"
    entry = (await service.store.history(table.id, after.version - 1, after.version))[-1]
    assert entry.takeback is not None and entry.takeback.step == "TAKEN"
    assert entry.takeback.asked_by == made[i].seat and entry.takeback.agreed_by == []
    # the same decision again gives the same state again (ALL-2)
    await table.play(made[i : i + 1])
    assert (await table.record()).state == states[i + 1]


@pytest.mark.parametrize("kind", KINDS)
async def test_alone_a_seat_may_not_take_back_past_a_reveal_or_a_random_event(
    service: GameService, kind: str
) -> None:
    seed, made = _scene(kind)
    j = first(made, safe=False)
    table = await Table.open(service, kind, seed, "OWN_DECISIONS")
    await table.play(made[: j + 1])
    before = await table.record()

    with pytest.raises(Refused) as refused:
        await service.request_takeback(table.id, table.tokens[made[j].seat], None, None)

    assert refused.value.code is Code.TAKEBACK_NOT_ALLOWED
    assert "revealed hidden information or drew on chance" in refused.value.message
    assert await table.record() == before, "nothing changed"


@pytest.mark.parametrize("kind", KINDS)
async def test_alone_a_seat_may_not_take_back_once_another_seat_decided(
    service: GameService, kind: str
) -> None:
    seed, made = _scene(kind)
    k = first_answered(made)
    table = await Table.open(service, kind, seed, "OWN_DECISIONS")
    await table.play(made[: k + 2])

    with pytest.raises(Refused) as refused:
        await service.request_takeback(table.id, table.tokens[made[k].seat], None, None)

    assert refused.value.code is Code.TAKEBACK_NOT_ALLOWED
    assert "another seat decided since" in refused.value.message


@pytest.mark.parametrize("kind", KINDS)
async def test_with_consent_the_other_seat_accepts_and_the_game_goes_back(
    service: GameService, kind: str
) -> None:
    seed, made = _scene(kind)
    k = first_answered(made)
    asker, other = made[k].seat, made[k + 1].seat
    states = _states(kind, 2, seed, made[: k + 2])
    table = await Table.open(service, kind, seed, "WITH_CONSENT")
    await table.play(made[: k + 2])
    version = (await table.record()).version

    asked = await service.request_takeback(table.id, table.tokens[asker], version, "ask-1")
    record = asked.game.record
    request = pending(record, time.time())
    assert request is not None and request.seat == asker and request.accepted == []
    assert record.version == version + 1 and record.state == states[k + 2], "only asked yet"
    with pytest.raises(Refused) as refused:  # the asker has no answer to give
        await service.answer_takeback(table.id, table.tokens[asker], True, None, None)
    assert refused.value.code is Code.TAKEBACK_NOT_ALLOWED

    taken = await service.answer_takeback(table.id, table.tokens[other], True, None, "yes-1")

    assert taken.game.record.version == version + 2
    assert taken.game.record.state == states[k]
    assert pending(taken.game.record, time.time()) is None
    entries = await service.store.history(table.id, version, version + 2)
    steps = [(e.seat, e.takeback.step if e.takeback else None) for e in entries]
    assert steps == [(asker, "ASKED"), (asker, "TAKEN")]
    last = entries[-1].takeback
    assert last is not None and last.agreed_by == [other]
    assert last.to_version == await _version_before(service, table.id, k)


async def _version_before(service: GameService, game_id: str, k: int) -> int:
    """The version just before the game's decision number `k`."""
    entries = await service.store.history(game_id)
    decided = [e for e in entries if not e.forced and e.takeback is None]
    return decided[k].version - 1


@pytest.mark.parametrize("kind", KINDS)
async def test_a_declined_or_lapsed_request_changes_nothing(
    service: GameService, kind: str
) -> None:
    seed, made = _scene(kind)
    k = first_answered(made)
    asker, other = made[k].seat, made[k + 1].seat
    table = await Table.open(service, kind, seed, "WITH_CONSENT")
    await table.play(made[: k + 2])
    state = (await table.record()).state

    await service.request_takeback(table.id, table.tokens[asker], None, None)
    declined = await service.answer_takeback(table.id, table.tokens[other], False, None, None)
    assert pending(declined.game.record, time.time()) is None
    assert declined.game.record.state == state
    with pytest.raises(Refused) as refused:
        await service.answer_takeback(table.id, table.tokens[other], True, None, None)
    assert refused.value.code is Code.TAKEBACK_NOT_ALLOWED

    # asked again, then anyone's decision ends the request
    await service.request_takeback(table.id, table.tokens[asker], None, None)
    await table.play(made[k + 2 : k + 3])
    record = await table.record()
    assert pending(record, time.time()) is None
    with pytest.raises(Refused) as refused:
        await service.answer_takeback(table.id, table.tokens[other], True, None, None)
    assert refused.value.code is Code.TAKEBACK_NOT_ALLOWED


async def test_a_request_lapses_after_its_time(redis_url: str) -> None:
    settings = Settings()
    store = RedisStore(connect(settings, redis_url), settings)
    service = GameService(store, takeback_seconds=0.2)
    try:
        seed, made = _scene("TREELINGS")
        k = first_answered(made)
        table = await Table.open(service, "TREELINGS", seed, "WITH_CONSENT")
        await table.play(made[: k + 2])
        asked = await service.request_takeback(table.id, table.tokens[made[k].seat], None, None)
        request = asked.game.record.takeback
        assert request is not None
        await until(lambda: time.time() > request.expires, "the request's time to run out")
        assert pending(await table.record(), time.time()) is None
        with pytest.raises(Refused) as refused:
            await service.answer_takeback(
                table.id, table.tokens[made[k + 1].seat], True, None, None
            )
        assert refused.value.code is Code.TAKEBACK_NOT_ALLOWED
        # and the seat may ask again
        again = await service.request_takeback(table.id, table.tokens[made[k].seat], None, None)
        assert pending(again.game.record, time.time()) is not None
    finally:
        await store.close()


def _alone_until_unsafe(kind: str) -> tuple[str, list[Decision], int]:
    """A seed whose first unsafe decision comes before any decision of the other seat."""
    for n in range(200):
        seed = f"tb-bot-{kind}-{n}"
        made = decisions(kind, 2, seed, count=40)
        j = first(made, safe=False) if any(not d.safe for d in made) else None
        if j is not None and all(d.seat == made[j].seat for d in made[: j + 1]):
            return seed, made, j
    raise AssertionError(f"no seed of {kind} reveals something on the first seat's turns")


@pytest.mark.parametrize("kind", KINDS)
async def test_bots_decline_a_takeback_past_a_reveal_or_a_random_event(
    service: GameService, kind: str
) -> None:
    """The fair rule (takebacks/policy.py): the restored RNG would deal the same again, so a
    seat could peek and decide otherwise. Humans who saw the reveal may agree; bots do not."""
    seed, made, j = _alone_until_unsafe(kind)
    human = made[j].seat
    table = await Table.open(service, kind, seed, "WITH_CONSENT", bots={1 - human: "RANDOM"})
    await table.play(made[: j + 1])
    before = await table.record()

    with pytest.raises(Refused) as refused:
        await service.request_takeback(table.id, table.tokens[human], None, None)

    assert refused.value.code is Code.TAKEBACK_NOT_ALLOWED
    assert "bots agree to no takeback past that" in refused.value.message
    assert await table.record() == before, "nothing changed, no request waits"
    humans = await Table.open(service, kind, seed, "WITH_CONSENT")
    await humans.play(made[: j + 1])
    asked = await service.request_takeback(humans.id, humans.tokens[human], None, None)
    assert pending(asked.game.record, time.time()) is not None, "a human seat is asked"


# In Treelings every turn ends with a draw: no bot reply is safe to take back (bots decline it,
# the test above). Each other kind against RANDOM, and Treetopia against SEARCH.
AGAINST = [(kind, "RANDOM") for kind in KINDS if kind != "TREELINGS"] + [("TREETOPIA", "SEARCH")]


@pytest.mark.parametrize(("kind", "strategy"), AGAINST)
async def test_bots_agree_to_take_back_their_safe_reply_and_make_it_again(
    service: GameService, worker: Worker, kind: str, strategy: Strategy
) -> None:
    """A bot's reply is its position's (decisions.bot_seed), not its version's: taken back and
    asked again, the same decision meets the same reply, so a takeback rerolls nothing."""
    seed, made, i = against_a_bot(kind, strategy, worker.settings.bot_iterations or None)
    states = _states(kind, 2, seed, made[: i + 2])
    table = await Table.open(service, kind, seed, "WITH_CONSENT", bots={BOT: strategy})
    await table.against(worker, made[: i + 2])

    for _ in range(3):
        taken = await service.request_takeback(table.id, table.tokens[made[i].seat], None, None)
        assert taken.game.record.state == states[i], "taken at once"
        entry = (await service.store.history(table.id))[-1]
        assert entry.takeback is not None and entry.takeback.agreed_by == [BOT], "the bot agreed"
        await table.against(worker, made[i : i + 2])  # the same reply, asserted there
        assert (await table.record()).state == states[i + 2]


async def test_takebacks_are_off_by_default_and_refused_once_the_game_is_over(
    service: GameService,
) -> None:
    seed, made = _scene("TREELINGS")
    table = await Table.open(service, "TREELINGS", seed, "NONE")
    await table.play(made[:1])
    with pytest.raises(Refused) as refused:
        await service.request_takeback(table.id, table.tokens[made[0].seat], None, None)
    assert refused.value.code is Code.TAKEBACK_NOT_ALLOWED

    table = await Table.open(service, "TREELINGS", seed, "OWN_DECISIONS")
    await table.play(made[:1])
    await service.resign(table.id, table.tokens[made[0].seat], None)
    with pytest.raises(Refused) as refused:
        await service.request_takeback(table.id, table.tokens[made[0].seat], None, None)
    assert refused.value.code is Code.GAME_OVER


async def test_a_seat_with_nothing_to_take_back_is_refused(service: GameService) -> None:
    table = await Table.open(service, "TREELINGS", "tb-TREELINGS", "WITH_CONSENT")
    with pytest.raises(Refused) as refused:
        await service.request_takeback(table.id, table.tokens[0], None, None)
    assert refused.value.code is Code.TAKEBACK_NOT_ALLOWED
    assert "no decision to take back" in refused.value.message


async def test_a_takeback_is_idempotent_like_a_move(service: GameService) -> None:
    seed, made = _scene("TREELINGS")
    i = first(made, safe=True)
    table = await Table.open(service, "TREELINGS", seed, "OWN_DECISIONS")
    await table.play(made[: i + 1])
    token = table.tokens[made[i].seat]

    taken = await service.request_takeback(table.id, token, None, "undo-1")
    again = await service.request_takeback(table.id, token, None, "undo-1")

    assert not taken.replayed and again.replayed
    assert again.game.record.version == taken.game.record.version
    assert (await table.record()).version == taken.game.record.version, "taken back once"
    with pytest.raises(Refused) as refused:  # the same key for another request
        await service.apply(table.id, token, made[i].move, None, "undo-1")
    assert refused.value.code is Code.IDEMPOTENCY_KEY_REUSED
    with pytest.raises(Refused) as refused:
        await service.request_takeback(table.id, token, 1, None)
    assert refused.value.code is Code.STALE_VERSION


async def test_past_versions_replay_across_a_takeback(service: GameService) -> None:
    seed, made = _scene("TREE_LINED_AVENUE")
    k = first_answered(made)
    states = _states("TREE_LINED_AVENUE", 2, seed, made[: k + 3])
    table = await Table.open(service, "TREE_LINED_AVENUE", seed, "WITH_CONSENT")
    await table.play(made[: k + 2])
    await service.request_takeback(table.id, table.tokens[made[k].seat], None, None)
    taken = await service.answer_takeback(
        table.id, table.tokens[made[k + 1].seat], True, None, None
    )
    await table.play(made[k : k + 3])  # the same decisions again, and one more
    loaded = await service.read(table.id, None)

    at_taken = await service.at_version(loaded, taken.game.record.version)
    assert encode_state(at_taken.state) == states[k]
    assert encode_state(loaded.state) == states[k + 3]
    for version in range(loaded.record.version + 1):  # every version replays
        await service.at_version(loaded, version)


@pytest.mark.parametrize("increment", [0, 30])
async def test_time_spent_stays_spent_across_a_takeback(
    service: GameService, increment: int
) -> None:
    """A seat that decides, takes it back and decides again, over and over, never gets its
    time back: each cycle's time is charged, and no bank grows past what it was then (an
    increment earned by a decision taken back is not kept past it)."""
    seed, made = _scene("TREELINGS")
    i = first(made, safe=True)
    seat = made[i].seat
    clock = {"perSeatTotalSeconds": 600, "incrementSeconds": increment}
    table = await Table.open(service, "TREELINGS", seed, "OWN_DECISIONS", clock=clock)
    await table.play(made[:i])
    then = (await table.record()).remaining
    left = then[seat]
    for _ in range(3):
        started = time.time()
        await until(lambda s=started: time.time() > s + 0.05, "some time on the clock")
        await table.play(made[i : i + 1])
        taken = await service.request_takeback(table.id, table.tokens[seat], None, None)
        record = taken.game.record
        assert record.remaining[seat] <= left - 0.05, "this cycle's time is charged"
        assert all(now <= was for now, was in zip(record.remaining, then, strict=True))
        assert record.deadline == _at(record.updated + record.remaining[seat])
        left = record.remaining[seat]


def _at(seconds: float) -> Any:
    """`seconds` to the microsecond (epoch seconds: pytest.approx's relative default would let
    half an hour pass)."""
    return pytest.approx(seconds, rel=0, abs=1e-6)


def _clocked(kind: str, seed: str, clock: dict[str, Any], policy: str) -> Record:
    """A 2-seat game's record as createGame stores it, its clock started at `record.updated`."""
    record, _, _ = new_game("acme", kind, 2, seed, OPTIONS.get(kind), {}, [], clock)
    return msgspec.structs.replace(record, takebacks=policy)


def _decided(record: Record, d: Decision, now: float) -> Record:
    """The record after seat `d.seat` decides at `now`, as a move's commit writes it."""
    game = games()[record.kind]
    played = play(game, decode_state(game, record.state), d.seat, d.move)
    return advance(record, game, played, now)[0]


def _taken_back(before: Record, to: Record, now: float) -> Record:
    """`before` taken back to the record `to` at `now` (the decision made at `to` undone), as
    the TAKEN step's commit writes it."""
    game = games()[to.kind]
    entries = [HistoryRecord(to.version + 1, to.acting[0], "undone", "")]
    return taken_record(before, game, decode_state(game, to.state), to.version, now, entries)


@pytest.mark.parametrize(
    "clock",
    [
        {"perDecisionSeconds": 10, "onTimeout": "FORFEIT"},
        {"perDecisionSeconds": 10, "onTimeout": "AUTO_GREEDY"},
        {"perSeatTotalSeconds": 10, "onTimeout": "FORFEIT"},
    ],
    ids=["perDecision-FORFEIT", "perDecision-AUTO_GREEDY", "perSeatTotal-FORFEIT"],
)
def test_deciding_and_taking_back_over_and_over_still_runs_out_of_time(
    clock: dict[str, Any],
) -> None:
    """A seat with 10 s decides 6 s into its time and takes it back, 4 times (the clock's times
    given, as the service's commits give them): its time runs out when it would have without
    takebacks, 10 s in, and the clock applies `onTimeout` then (under perDecisionSeconds each
    takeback once gave a whole decision's time again: 24 s on, the game went on)."""
    seed, made = _scene("TREELINGS")
    i = first(made, safe=True)
    record = _clocked("TREELINGS", seed, clock, "OWN_DECISIONS")
    start = record.updated
    for d in made[:i]:
        record = _decided(record, d, start)
    seat = made[i].seat
    assert clocks.on_the_clock(record) == seat
    cycles, at = 0, start
    while cycles < 4 and not clocks.due(record, at + 6):
        at += 6
        record = _taken_back(_decided(record, made[i], at), record, at)
        cycles += 1
    assert cycles == 1, "the second decision came after the deadline"
    assert record.deadline == _at(start + 10), "no later than without takebacks"
    assert clocks.due(record, start + 10) and not clocks.due(record, start + 9.99)
    timed_out, entries = timeout_step(record, games()["TREELINGS"], start + 10)
    assert entries[0].event == "TIMEOUT" and entries[0].seat == seat
    if clock["onTimeout"] == "FORFEIT":
        assert timed_out.finished and timed_out.outcome is not None
        assert (timed_out.outcome.reason, timed_out.outcome.seat) == ("TIMEOUT", seat)
    else:
        assert not timed_out.finished and entries[0].move is not None, "played for the seat"


def test_a_decision_gone_back_to_keeps_what_was_used_of_it_however_far_back() -> None:
    """Under perDecisionSeconds, two decisions of a seat taken back one after the other: the
    time used of the second and of the turn in hand stays used, charged to the first (it is not
    given back by going one more decision back); another seat's time on the clock is not."""
    seed, made = _scene("TREELINGS")
    assert [d.seat for d in made[:3]] == [0, 0, 1], "seat 0 decides twice, then seat 1"
    clock = {"perDecisionSeconds": 10, "onTimeout": "FORFEIT"}
    first_turn = _clocked("TREELINGS", seed, clock, "WITH_CONSENT")
    start = first_turn.updated
    second_turn = _decided(first_turn, made[0], start + 1)  # 9 s left of the first
    in_hand = _decided(second_turn, made[1], start + 3)  # 8 s left of the second
    back_one = _taken_back(in_hand, second_turn, start + 4)  # 1 s used of seat 1's turn
    assert clocks.on_the_clock(in_hand) == 1 and clocks.on_the_clock(back_one) == 0
    assert back_one.deadline == _at(start + 4 + 8), "seat 1's second is not seat 0's"
    back_two = _taken_back(back_one, first_turn, start + 5)  # 1 s more of the second
    assert back_two.deadline == _at(start + 5 + 9 - (10 - 7)), "2 s + 1 s used"


def test_a_takeback_of_a_record_written_before_decision_clocks_were_kept() -> None:
    """A perDecisionSeconds record of an earlier release kept no time left per version (no
    `banks`): it decodes, and a takeback gives the seat a whole decision less the turn in hand
    it used, never more."""
    seed, made = _scene("TREELINGS")
    i = first(made, safe=True)
    clock = {"perDecisionSeconds": 10, "onTimeout": "FORFEIT"}
    record = _clocked("TREELINGS", seed, clock, "OWN_DECISIONS")
    start = record.updated
    decided = msgspec.structs.replace(_decided(record, made[i], start + 6), banks=[])
    earlier = record_decoder.decode(record_encoder.encode(decided))
    assert earlier == decided and earlier.banks == []
    back = _taken_back(earlier, record, start + 8)
    assert clocks.on_the_clock(back) == made[i].seat
    assert back.deadline == _at(start + 8 + 10 - 2)
    assert clocks.clock_json(back) is not None


async def test_a_decision_taken_back_goes_on_with_the_time_it_had_left(
    service: GameService,
) -> None:
    """Through the service under perDecisionSeconds: a seat that decides, takes it back and
    decides again, over and over, keeps its decision's deadline (the next decision was its own
    too: the turn in hand is charged), never a whole decision's time again."""
    seed, made = _scene("TREELINGS")
    i = first(made, safe=True)
    seat = made[i].seat
    clock = {"perDecisionSeconds": 600, "onTimeout": "FORFEIT"}
    table = await Table.open(service, "TREELINGS", seed, "OWN_DECISIONS", clock=clock)
    await table.play(made[:i])
    deadline = (await table.record()).deadline
    for _ in range(3):
        started = time.time()
        await until(lambda s=started: time.time() > s + 0.05, "some time on the clock")
        await table.play(made[i : i + 1])
        taken = await service.request_takeback(table.id, table.tokens[seat], None, None)
        record = taken.game.record
        assert clocks.on_the_clock(record) == seat
        assert record.deadline == _at(deadline), "the decision's deadline, kept"
        assert record.deadline - record.updated <= 600 - 0.05
    assert (await table.record()).deadline == _at(deadline), "as stored"


async def test_a_takeback_with_consent_charges_no_seat_for_another_seats_time(
    service: GameService,
) -> None:
    """WITH_CONSENT, seat 0's decision then seat 1's taken back at seat 0's request: seat 0 is
    on the clock again with what it had left of that decision, less its own turn in hand
    (it was on the clock for it); seat 1's time on the decision taken back is nobody's."""
    seed, made = _scene("TREELINGS")
    k = first_answered(made)
    asker, other = made[k].seat, made[k + 1].seat
    clock = {"perDecisionSeconds": 600, "onTimeout": "AUTO_RANDOM"}
    table = await Table.open(service, "TREELINGS", seed, "WITH_CONSENT", clock=clock)
    await table.play(made[:k])
    records = [await table.record()]
    for d in made[k : k + 2]:
        started = time.time()
        await until(lambda s=started: time.time() > s + 0.05, "some time on the clock")
        records.append(
            (await service.apply(table.id, table.tokens[d.seat], d.move, None, None)).game.record
        )
    turn, after_own, after_other = records
    assert clocks.on_the_clock(turn) == asker and clocks.on_the_clock(after_other) == asker
    await service.request_takeback(table.id, table.tokens[asker], None, None)
    started = time.time()
    await until(lambda: time.time() > started + 0.05, "seat 1 to think before it agrees")
    taken = (await service.answer_takeback(table.id, table.tokens[other], True, None, None)).game
    record = taken.record
    assert record.state == turn.state and clocks.on_the_clock(record) == asker
    left = turn.deadline - after_own.updated  # when the game moved on from it
    in_hand = taken.record.updated - after_other.updated
    assert record.deadline - record.updated == _at(left - in_hand)
    assert record.deadline - record.updated <= 600 - 0.05 - 0.05


def test_every_step_is_judged_by_the_game_hook() -> None:
    """The hook is conservative: the Rng moving is never safe (ALL-2)."""
    for kind, game in games().items():
        state = start(game, 2, OPTIONS.get(kind), "hook").state
        moved = msgspec.structs.replace(state, rng=msgspec.structs.replace(state.rng))
        moved.rng.next64()
        assert game.takeback_safe(state, state), kind
        assert not game.takeback_safe(state, moved), kind


async def test_a_bot_to_act_keeps_its_turn_across_a_request(service: GameService) -> None:
    """A request's version makes the bot's job at the version before stale: the commit queues
    the bot's turn again (its decision then ends the request, as anyone's does)."""
    seed = "tb-bot-turn-14"  # two human decisions, each safe, then seat 2's (the bot's) turn
    made = decisions("TREETOPIA", 3, seed, count=2)
    assert [d.seat for d in made] == [0, 1] and all(d.safe for d in made)
    loaded, tokens = await service.create(
        "TREETOPIA", 3, seed, None, bots={2: "RANDOM"}, takeback_policy="WITH_CONSENT"
    )
    for d in made:
        await service.apply(loaded.id, tokens[d.seat], d.move, None, None)

    asked = await service.request_takeback(loaded.id, tokens[0], None, None)

    record = asked.game.record
    assert pending(record, time.time()) is not None, "seat 1 decided since: seat 0 asks it"
    jobs = await service.store.redis.xrange(job_key(lane_of(loaded.id), record.tenant))
    queued = [(int(f[b"v"]), int(f[b"s"])) for _, f in jobs if f[b"g"].decode() == loaded.id]
    assert (record.version, 2) in queued, queued


async def test_a_subscriber_is_given_every_takeback_step_as_a_version(
    service: GameService,
) -> None:
    """Versions only grow: the request and the takeback reach a follower (gameEvents' path,
    service/core/reads/following.py) like moves."""
    seed, made = _scene("TREETOPIA")
    k = first_answered(made)
    table = await Table.open(service, "TREETOPIA", seed, "WITH_CONSENT")
    await table.play(made[: k + 2])
    start_version = (await table.record()).version
    async with following(service, table.id, None) as seen:
        await until(lambda: seen, "the current version")
        await service.request_takeback(table.id, table.tokens[made[k].seat], None, None)
        taken = await service.answer_takeback(
            table.id, table.tokens[made[k + 1].seat], True, None, None
        )
        last = taken.game.record.version
        await until(lambda: seen[-1] == last, "the takeback's version")
    assert seen == [start_version, start_version + 1, start_version + 2]


async def test_a_finished_game_keeps_its_takebacks_in_its_folded_history(
    service: GameService,
) -> None:
    """Played to its end after a takeback: the folded history keeps the takeback's entry and
    note, and every past version still replays across it."""
    game = games()["TREELINGS"]
    seed, made = _scene("TREELINGS")
    i = first(made, safe=True)
    table = await Table.open(service, "TREELINGS", seed, "OWN_DECISIONS")
    await table.play(made[: i + 1])
    await service.request_takeback(table.id, table.tokens[made[i].seat], None, None)
    loaded = await service.read(table.id, None)
    state, chooser = loaded.state, random.Random(5)
    committed = {loaded.record.version: loaded.record.state}  # every version a client saw
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
        applied = await service.apply(table.id, table.tokens[seat], move, None, None)
        state, record = applied.game.state, applied.game.record
        committed[record.version] = record.state

    loaded = await service.read(table.id, None)
    assert loaded.record.finished
    assert await service.store.redis.exists(f"g:{{{table.id}}}:h") == 0, "folded"
    entries = await service.history(loaded, 0)
    assert [e.takeback.step for e in entries if e.takeback] == ["TAKEN"]
    assert all(e.label for e in entries), "labels kept: a history with a takeback is no replay"
    for version in range(loaded.record.version + 1):
        then = await service.at_version(loaded, version)
        if version in committed:
            assert encode_state(then.state) == committed[version], version


async def test_a_delayed_spectator_sees_a_takeback_only_as_late_as_any_version(
    service: GameService,
) -> None:
    """A takeback is a version like any other to a spectator kept `spectatorDelay` behind: it
    is shown the state of the version delay steps ago, never the live one."""
    seed, made = _scene("TREELINGS")
    i = first(made, safe=True)
    states = _states("TREELINGS", 2, seed, made[: i + 1])
    table = await Table.open(service, "TREELINGS", seed, "OWN_DECISIONS", spectator_delay=1)
    await table.play(made[: i + 1])
    await service.request_takeback(table.id, table.tokens[made[i].seat], None, None)
    live = await service.read(table.id, table.tokens[0])
    seen = await service.read(table.id, None)  # no seat, no key: a spectator

    assert (live.record.version, seen.record.version) == (i + 2, i + 1)
    assert live.record.state == states[i]
    assert encode_state(seen.state) == states[i + 1], "the decision is still shown, one late"
    await table.play(made[i : i + 1])
    seen = await service.read(table.id, None)
    assert encode_state(seen.state) == states[i], "then the takeback, one late"


async def test_a_delayed_spectator_is_not_shown_a_request_made_since(
    service: GameService,
) -> None:
    """A takeback request waiting now is live news: a spectator kept behind sees none."""
    seed, made = _scene("TREELINGS")
    k = first_answered(made)
    table = await Table.open(service, "TREELINGS", seed, "WITH_CONSENT", spectator_delay=2)
    await table.play(made[: k + 2])
    await service.request_takeback(table.id, table.tokens[made[k].seat], None, None)

    assert (await service.read(table.id, table.tokens[0])).record.takeback is not None
    assert (await service.read(table.id, None)).record.takeback is None


def test_no_game_runs_longer_than_takebacks_leave_room_for() -> None:
    """LONGEST_GAME (takebacks/policy.py) bounds every kind's game from any position: random
    play of every kind and seat count stays well within it."""
    longest = 0
    for kind, game in games().items():
        for players in range(game.min_players, game.max_players + 1):
            for n in range(4):
                played = start(game, players, OPTIONS.get(kind), f"longest-{n}")
                state, steps, chooser = played.state, len(played.steps), random.Random(n)
                while not game.is_over(state):
                    seat = game.to_act(state)[0]
                    move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
                    played = play(game, state, seat, move)
                    state, steps = played.state, steps + len(played.steps)
                longest = max(longest, steps)
    assert 0 < longest <= LONGEST_GAME * 0.75, longest


@pytest.mark.slow
async def test_takebacks_stop_where_the_game_still_fits_its_record(service: GameService) -> None:
    """A seat alone taking the same decision back over and over (2 versions a time) is refused
    once the game could no longer end within a record's MAX_STEPS; the game then ends and its
    record verifies."""
    seed, made = _scene("TREELINGS")
    i = first(made, safe=True)
    table = await Table.open(service, "TREELINGS", seed, "OWN_DECISIONS")
    await table.play(made[:i])
    seat = made[i].seat
    for _ in range(MAX_STEPS):
        await table.play(made[i : i + 1])
        try:
            await service.request_takeback(table.id, table.tokens[seat], None, None)
        except Refused as refused:
            assert refused.code is Code.TAKEBACK_NOT_ALLOWED
            assert f"at most {MAX_STEPS} steps" in refused.message
            break
    else:
        raise AssertionError("the takebacks went on past what a record holds")
    record = await table.record()
    assert record.version + LONGEST_GAME + record.players + 1 > MAX_STEPS
    game, state, chooser = (
        games()["TREELINGS"],
        decode_state(games()["TREELINGS"], record.state),
        random.Random(1),
    )
    while not game.is_over(state):
        actor = game.to_act(state)[0]
        move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, actor)))
        state = (await service.apply(table.id, table.tokens[actor], move, None, None)).game.state
    exported = await service.export_record(table.id, None)
    assert len(exported["steps"]) <= MAX_STEPS
    assert verify(exported).valid
