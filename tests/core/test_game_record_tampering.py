"""A game record edited in any way fails verification at the FIRST step that differs, with the
reason that says why (service/core/records/documents.py). The records are the engine's own
games, exported as the service exports them: the replay needs no Redis, by design. Records
with takebacks are played on the game service (on a real Redis) and judged step by step: the
version taken back to, who agreed, the policy and the state a TAKEN step restores."""

from __future__ import annotations

import copy
import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.core import GameService
from service.core.moves.decisions import history_entries
from service.core.records.compact import pack, unpack
from service.core.records.documents import export, verify
from service.core.records.format import GameRecord
from service.core.records.replay import Replay
from service.engine import encode_state, play, start
from service.games import games
from service.settings import Settings
from service.store import FORMAT, HistoryRecord, Record, RedisStore, connect
from service.store.records import Outcome
from tests.core.takeback_records import scenes, takeback_game, takeback_steps

Document = dict[str, Any]


@pytest.fixture(scope="module")
def redis_url(quiet_redis_url: str) -> str:
    """Bot seats here wait for the test (tests/conftest.py, `quiet_redis_url`)."""
    return quiet_redis_url


def finished(kind: str, players: int, seed: str, resign_after: int | None = None) -> Document:
    """A game played to its end by random legal moves (or resigned by the seat to act after
    `resign_after` decisions), exported; as JSON builtins."""
    game, chooser = games()[kind], random.Random(seed)
    played = start(game, players, {}, seed)
    entries, state, outcome = history_entries(0, played.steps), played.state, None
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        if resign_after is not None and len(entries) >= resign_after:
            outcome = Outcome("RESIGNED", seat, game.scores(state).best_of(seat))
            entries.append(HistoryRecord(len(entries) + 1, seat, None, "", event="RESIGNED"))
            break
        move = msgspec.to_builtins(chooser.choice(game.legal_moves(state, seat)))
        step = play(game, state, seat, move, copy=False)
        entries += history_entries(len(entries), step.steps)
        state = step.state
    record = Record(
        FORMAT, kind, players, len(entries), True, seed, [b""] * players, encode_state(state),
        1.7e9, 1.7e9 + 60, options={}, salt="5a17", outcome=outcome, rules=game.rules_version,
    )  # fmt: skip
    document: Document = msgspec.json.decode(msgspec.json.encode(export("g1", record, entries)))
    return document  # as a file holds it: JSON, where a tuple is a list


def failure(document: Any) -> tuple[int, str]:
    verdict = verify(document)
    assert not verdict.valid and verdict.difference is not None
    return verdict.difference.version, verdict.difference.reason


def edited(document: Document, edit: Any) -> Document:
    changed = copy.deepcopy(document)
    edit(changed)
    return changed


def decision(document: Document, after: int = 3) -> Document:
    """The first decision (not forced, a move) after version `after`."""
    step: Document = next(
        s for s in document["steps"] if s["version"] > after and "move" in s and not s.get("forced")
    )
    return step


KINDS = [(kind, game.min_players) for kind, game in games().items()]


@pytest.fixture(scope="module", params=KINDS, ids=[kind for kind, _ in KINDS])
def record(request: pytest.FixtureRequest) -> Document:
    kind, players = request.param
    return finished(kind, players, f"tamper-{kind}")


def test_an_untouched_record_is_valid(record: Document) -> None:
    verdict = verify(record)
    assert verdict.valid and verdict.difference is None
    assert verdict.version == record["steps"][-1]["version"] == record["result"]["version"]
    assert verdict.scores == record["result"]["scores"]
    assert msgspec.convert(record, GameRecord)  # what it reads is what export wrote


def test_an_edited_move_fails_at_its_step(record: Document) -> None:
    step = decision(record)
    version = step["version"]
    # another legal move there changes the state after it; a move of another game is illegal
    replay = finished(record["kind"], record["players"], record["seed"]["seed"])
    assert replay["steps"][version - 1] == step  # the same game, deterministically
    garbage = edited(record, lambda r: r["steps"][version - 1].update(move={"type": "nope"}))
    assert failure(garbage) == (version, "ILLEGAL_MOVE")
    seat = edited(record, lambda r: r["steps"][version - 1].update(seat=(step["seat"] + 1) % 2))
    assert failure(seat)[0] == version


def test_another_legal_move_fails_where_the_state_differs() -> None:
    """Treelings seat 0 has many legal first moves: the record of another one, with the
    original digests, differs at that very step."""
    record = finished("TREELINGS", 2, "tamper-other-move")
    game = games()["TREELINGS"]
    state = start(game, 2, {}, "tamper-other-move").state
    step = decision(record, after=0)
    legal = [msgspec.to_builtins(m) for m in game.legal_moves(state, step["seat"])]
    other = next(m for m in legal if m != step["move"])
    changed = edited(record, lambda r: r["steps"][step["version"] - 1].update(move=other))
    assert failure(changed) == (step["version"], "STATE_MISMATCH")


def test_an_edited_seed_fails_before_any_step(record: Document) -> None:
    seed = edited(record, lambda r: r["seed"].update(seed="another"))
    assert failure(seed) == (0, "SEED_MISMATCH")
    salt = edited(record, lambda r: r["seed"].update(salt="00"))
    assert failure(salt) == (0, "SEED_MISMATCH")


def test_a_seed_with_its_commitment_forged_deals_another_game(record: Document) -> None:
    from service.core.records.format import commitment

    def forge(r: Document) -> None:
        r["seed"]["seed"] = "forged"
        r["seed"]["commitment"] = commitment(r["seed"]["salt"], "forged")

    assert failure(edited(record, forge)) == (0, "STATE_MISMATCH")


def test_every_edited_digest_fails_at_its_own_step() -> None:
    record = finished("TREELINGS", 2, "tamper-digests")
    for step in record["steps"]:
        version = step["version"]
        changed = edited(record, lambda r, v=version: r["steps"][v - 1].update(digest="0" * 64))
        assert failure(changed) == (version, "STATE_MISMATCH")
    assert failure(edited(record, lambda r: r.update(setupDigest="f" * 64))) == (
        0,
        "STATE_MISMATCH",
    )


def test_edited_scores_fail_at_the_last_version(record: Document) -> None:
    def more_points(r: Document) -> None:
        r["result"]["scores"]["entries"][0]["points"] += 1

    last = record["result"]["version"]
    assert failure(edited(record, more_points)) == (last, "SCORES_MISMATCH")
    winners = edited(record, lambda r: r["result"]["scores"].update(winners=[9]))
    assert failure(winners) == (last, "SCORES_MISMATCH")


def test_a_removed_step_fails_where_it_was(record: Document) -> None:
    version = decision(record)["version"]
    removed = edited(record, lambda r: r["steps"].pop(version - 1))
    assert failure(removed) == (version, "VERSION_MISMATCH")

    def renumbered(r: Document) -> None:  # the gap hidden: the next step is judged in its place
        r["steps"].pop(version - 1)
        for step in r["steps"][version - 1 :]:
            step["version"] -= 1

    at, reason = failure(edited(record, renumbered))
    assert at == version and reason in {"ILLEGAL_MOVE", "STATE_MISMATCH", "FORCED_MISMATCH"}


def test_reordered_steps_fail_at_the_first_moved_one(record: Document) -> None:
    version = decision(record)["version"]

    def swap(r: Document) -> None:
        steps = r["steps"]
        steps[version - 1], steps[version] = steps[version], steps[version - 1]

    assert failure(edited(record, swap)) == (version, "VERSION_MISMATCH")

    def swap_renumbered(r: Document) -> None:
        swap(r)
        r["steps"][version - 1]["version"], r["steps"][version]["version"] = version, version + 1

    at, reason = failure(edited(record, swap_renumbered))
    assert at == version and reason in {"ILLEGAL_MOVE", "STATE_MISMATCH", "FORCED_MISMATCH"}


def test_an_edited_kind_or_rules_or_options_fails_before_any_step(record: Document) -> None:
    assert failure(edited(record, lambda r: r.update(kind="CHESS"))) == (0, "UNKNOWN_KIND")
    other = next(kind for kind in games() if kind != record["kind"])
    at, reason = failure(edited(record, lambda r: r.update(kind=other)))
    assert at == 0 and reason in {"STATE_MISMATCH", "BAD_SETUP"}
    assert failure(edited(record, lambda r: r.update(rules=record["rules"] + 1))) == (
        0,
        "UNKNOWN_RULES_VERSION",
    )
    start_seat = edited(record, lambda r: r.update(options={"startSeat": 1}))
    assert failure(start_seat) == (0, "STATE_MISMATCH")
    assert failure(edited(record, lambda r: r.update(options={"startSeat": 99}))) == (
        0,
        "BAD_SETUP",
    )
    assert failure(edited(record, lambda r: r.update(players=99))) == (0, "BAD_SETUP")


def test_forced_marks_are_checked(record: Document) -> None:
    step = decision(record)
    flagged = edited(record, lambda r: r["steps"][step["version"] - 1].update(forced=True))
    assert failure(flagged) == (step["version"], "FORCED_MISMATCH")
    forced = next((s for s in record["steps"] if s.get("forced")), None)
    if forced is not None:  # a forced step sent as a decision
        unforced = edited(record, lambda r: r["steps"][forced["version"] - 1].pop("forced"))
        assert failure(unforced) == (forced["version"], "FORCED_MISMATCH")


def test_a_record_cut_short_is_incomplete(record: Document) -> None:
    def cut(r: Document) -> None:
        del r["steps"][-3:]
        r["result"]["version"] = r["steps"][-1]["version"]

    last = record["result"]["version"]
    assert failure(edited(record, cut)) == (last - 2, "INCOMPLETE")


def test_a_step_after_the_end_is_illegal(record: Document) -> None:
    last = record["steps"][-1]
    extra = {**decision(record), "version": last["version"] + 1}
    assert failure(edited(record, lambda r: r["steps"].append(extra))) == (
        last["version"] + 1,
        "ILLEGAL_MOVE",
    )


def test_a_resignation_is_replayed_with_its_winners() -> None:
    record = finished("TREETOPIA", 3, "tamper-resign", resign_after=12)
    assert verify(record).valid
    last = record["steps"][-1]
    assert last["event"] == "RESIGNED" and record["result"]["outcome"]["seat"] == last["seat"]
    winners = edited(record, lambda r: r["result"]["outcome"].update(winners=[last["seat"]]))
    assert failure(winners) == (last["version"], "OUTCOME_MISMATCH")
    by_other = edited(record, lambda r: r["steps"][-1].update(seat=-1))
    assert failure(by_other) == (last["version"], "ILLEGAL_MOVE")
    abandoned = edited(record, lambda r: r["result"].update(status="ABANDONED"))
    assert failure(abandoned) == (last["version"], "OUTCOME_MISMATCH")
    # a resignation slipped in before a later step ends the game there
    early = edited(record, lambda r: r["steps"][5].update(move=None, event="RESIGNED"))
    early["steps"][5].pop("move")
    assert failure(early)[0] in {6, 7}


def test_the_format_is_checked_first() -> None:
    record = finished("TREELINGS", 2, "tamper-format")
    assert failure(edited(record, lambda r: r.update(formatVersion=2))) == (
        0,
        "UNSUPPORTED_FORMAT",
    )
    assert failure(edited(record, lambda r: r.update(format="pgn"))) == (0, "UNSUPPORTED_FORMAT")
    assert failure(edited(record, lambda r: r.update(extra=1))) == (0, "MALFORMED")
    assert failure(edited(record, lambda r: r["steps"][0].update(seat="zero"))) == (0, "MALFORMED")


def test_a_legal_move_spelt_otherwise_is_not_the_recorded_one() -> None:
    """The service takes "RED" for "red" (engine/casing.py) but records one spelling: a record
    is the service's, word for word."""
    record = finished("TREELINGS", 2, "tamper-casing")
    step = next(s for s in record["steps"] if s.get("move", {}).get("colour"))
    version = step["version"]
    shouted = {**step["move"], "colour": step["move"]["colour"].upper()}
    changed = edited(record, lambda r: r["steps"][version - 1].update(move=shouted))
    assert failure(changed) == (version, "NOT_CANONICAL")


STEP_EDITS = st.one_of(
    st.tuples(st.just("move"), st.sampled_from([None, 0, "x", [], {"type": "x"}, {}])),
    st.tuples(st.just("seat"), st.integers(-2, 6)),
    st.tuples(st.just("forced"), st.booleans()),
    st.tuples(st.just("version"), st.integers(-1, 500)),
    st.tuples(st.just("digest"), st.from_regex(r"[0-9a-f]{64}", fullmatch=True)),
    st.tuples(st.just("event"), st.sampled_from(["RESIGNED", "TIMEOUT", "ABANDONED", "TAKEBACK"])),
)
TREELINGS_RECORD = finished("TREELINGS", 3, "tamper-property")


@settings(max_examples=150, deadline=None, derandomize=True)
@given(index=st.integers(0, len(TREELINGS_RECORD["steps"]) - 1), edit=STEP_EDITS)
def test_any_edit_of_a_step_fails_at_that_step_or_is_no_edit(index: int, edit: Any) -> None:
    field, value = edit
    step = TREELINGS_RECORD["steps"][index]
    if step.get(field, {"forced": False}.get(field)) == value:
        return  # the same value: nothing was edited
    changed = edited(TREELINGS_RECORD, lambda r: r["steps"][index].update({field: value}))
    version, reason = failure(changed)
    # a malformed value is refused as the document's (version 0), anything else at its step
    assert version in (0, step["version"]), (field, value, reason)
    assert version > 0 or reason == "MALFORMED", (field, value, reason)


def test_only_a_clock_times_out_and_an_ending_has_no_move(record: Document) -> None:
    step = decision(record)
    version = step["version"]
    timed_out = edited(record, lambda r: r["steps"][version - 1].update(event="TIMEOUT"))
    assert failure(timed_out) == (version, "TIMEOUT_MISMATCH")  # the record has no clock
    resigned = edited(record, lambda r: r["steps"][version - 1].update(event="RESIGNED"))
    assert failure(resigned) == (version, "MALFORMED")


# Games with takebacks (service/core/takebacks/policy.py): the records are played on the game service
# (a takeback's steps are the service's, not the engine's) and exported as it exports them; the
# replay of the edited ones still reads no Redis.


@pytest.fixture(scope="module", params=list(games()))
async def taken_back(request: pytest.FixtureRequest, redis_url: str) -> dict[str, Document]:
    """The records of one kind's takeback scenes (takeback_records.scenes), by scene."""
    store_settings = Settings()
    store = RedisStore(connect(store_settings, redis_url), store_settings)
    service = GameService(store)
    try:
        documents = {}
        for scene in scenes(request.param):
            game_id = await takeback_game(service, request.param, scene, redis_url)
            exported = await service.export_record(game_id, None)
            documents[scene] = msgspec.json.decode(msgspec.json.encode(exported))
    finally:
        await store.close()
    for scene, document in documents.items():
        assert verify(document).valid, scene
        record = msgspec.convert(document, GameRecord)  # and it packs (compact.py) to itself
        assert unpack(pack(record), record.game_id) == record, scene
    return documents


def with_policy(document: Document, policy: str) -> Document:
    """`document` under another takeback policy, its setup digest made again to match (what
    anyone who edits a record can do: a digest is no signature)."""
    changed = edited(document, lambda r: r.update(takebacks=policy))
    game = games()[document["kind"]]
    replay = Replay(game, document["players"], document["options"], document["seed"]["seed"])
    replay.policy = policy
    changed["setupDigest"] = replay.setup_digest()
    return changed


def note(at: Document, /, **changes: Any) -> Any:
    """An edit of the takeback note of the step `at` (found again in the copy by its version)."""
    version = at["version"]
    return lambda r: r["steps"][version - 1]["takeback"].update(changes)


def test_an_edited_to_version_fails_at_its_step(taken_back: dict[str, Document]) -> None:
    for scene, kind in [
        ("ALONE", "TAKEN"),
        ("BOTS", "TAKEN"),
        ("WITH_CONSENT", "ASKED"),
        ("WITH_CONSENT", "TAKEN"),
        ("DECLINED", "DECLINED"),
    ]:
        if scene not in taken_back:
            continue  # a kind without the scene (takeback_records.scenes)
        step = takeback_steps(taken_back[scene], kind)[0]
        to_version = step["takeback"]["toVersion"]
        for other in {max(0, to_version - 1), to_version + 1} - {to_version}:
            changed = edited(taken_back[scene], note(step, toVersion=other))
            assert failure(changed) == (step["version"], "BAD_TAKEBACK"), (scene, kind, other)


def test_agreed_by_emptied_on_an_unsafe_takeback_is_not_allowed(
    taken_back: dict[str, Document],
) -> None:
    """With consent and with a bot's (another seat decided since): taken with nobody's
    agreement, the takeback is one its seat may not take alone."""
    for scene in {"WITH_CONSENT", "BOTS"} & set(taken_back):
        taken = takeback_steps(taken_back[scene])[-1]
        assert taken["takeback"]["agreedBy"]
        changed = edited(taken_back[scene], note(taken, agreedBy=[]))
        assert failure(changed) == (taken["version"], "TAKEBACK_NOT_ALLOWED"), scene
    # and a safe one taken alone names nobody who agreed
    alone = takeback_steps(taken_back["ALONE"])[0]
    agreed = edited(taken_back["ALONE"], note(alone, agreedBy=[1 - alone["seat"]]))
    assert failure(agreed) == (alone["version"], "BAD_TAKEBACK")


def test_a_game_without_takebacks_has_no_takeback_steps(taken_back: dict[str, Document]) -> None:
    for scene, document in taken_back.items():
        first_step = next(s for s in document["steps"] if "takeback" in s)
        # the policy edited alone changes the setup digest (version 0); made to match, the
        # first takeback step is refused
        assert failure(edited(document, lambda r: r.update(takebacks="NONE"))) == (
            0,
            "STATE_MISMATCH",
        )
        none = with_policy(document, "NONE")
        assert failure(none) == (first_step["version"], "TAKEBACK_NOT_ALLOWED"), scene
    # a request under OWN_DECISIONS: the seat may take back alone or not at all
    consent = taken_back["WITH_CONSENT"]
    asked = takeback_steps(consent, "ASKED")[0]
    assert failure(with_policy(consent, "OWN_DECISIONS")) == (
        asked["version"],
        "TAKEBACK_NOT_ALLOWED",
    )
    assert verify(with_policy(taken_back["ALONE"], "WITH_CONSENT")).valid, "alone under both"


def test_a_takeback_step_added_to_a_game_without_takebacks_is_not_allowed() -> None:
    record = finished("TREELINGS", 2, "tamper-takeback-added")
    version = decision(record)["version"]
    before = record["steps"][version - 2]

    def add(r: Document) -> None:  # an ASKED step slipped in, the later versions moved on
        for step in r["steps"][version - 1 :]:
            step["version"] += 1
        r["result"]["version"] += 1
        asked = {"step": "ASKED", "toVersion": 0, "askedBy": before["seat"], "agreedBy": []}
        r["steps"].insert(
            version - 1,
            {
                "version": version,
                "seat": before["seat"],
                "event": "TAKEBACK",
                "takeback": asked,
                "digest": before["digest"],
            },
        )

    assert failure(edited(record, add)) == (version, "TAKEBACK_NOT_ALLOWED")
    # a step marked TAKEBACK without its note, or with a move, is no takeback step
    bare = edited(record, lambda r: r["steps"][version - 1].update(event="TAKEBACK"))
    assert failure(bare) == (version, "MALFORMED")


def test_a_taken_steps_state_is_the_one_it_goes_back_to(taken_back: dict[str, Document]) -> None:
    for scene in {"ALONE", "WITH_CONSENT", "BOTS"} & set(taken_back):
        document = taken_back[scene]
        taken = takeback_steps(document)[0]
        version = taken["version"]
        for digest in ("0" * 64, document["steps"][version - 2]["digest"]):  # or not taken back
            changed = edited(
                document, lambda r, d=digest, v=version: r["steps"][v - 1].update(digest=d)
            )
            assert failure(changed) == (version, "STATE_MISMATCH"), scene


def test_answers_come_only_from_the_seats_a_request_waits_for(
    taken_back: dict[str, Document],
) -> None:
    document = taken_back["WITH_CONSENT"]
    declined = takeback_steps(document, "DECLINED")[0]
    version, asker = declined["version"], declined["takeback"]["askedBy"]
    by_asker = edited(document, lambda r: r["steps"][version - 1].update(seat=asker))
    assert failure(by_asker) == (version, "TAKEBACK_NOT_ALLOWED")
    # a lone ACCEPTED of two seats: the last acceptance takes it back (TAKEN)
    accepted = edited(document, note(declined, step="ACCEPTED", agreedBy=[1 - asker]))
    assert failure(accepted) == (version, "BAD_TAKEBACK")
    # no request waits after a decline: the asker's second request, made an answer
    again = takeback_steps(document, "ASKED")[1]
    answered = edited(document, note(again, step="DECLINED"))
    assert failure(answered) == (again["version"], "TAKEBACK_NOT_ALLOWED")


def test_with_consent_every_other_human_seat_agrees(taken_back: dict[str, Document]) -> None:
    """Three seats: one accepts (ACCEPTED), the last acceptance takes it back (TAKEN)."""
    document = taken_back["THREE_SEATS"]
    accepted, taken = takeback_steps(document, "ACCEPTED")[0], takeback_steps(document)[0]
    asker, answerer = accepted["takeback"]["askedBy"], accepted["seat"]
    last = next(s for s in taken["takeback"]["agreedBy"] if s != answerer)
    # taken with one agreement of two: not the last acceptance, and not allowed alone
    one = edited(document, note(taken, agreedBy=[answerer]))
    assert failure(one) == (taken["version"], "TAKEBACK_NOT_ALLOWED")
    # an acceptance that names nobody, or the asker's own
    assert failure(edited(document, note(accepted, agreedBy=[]))) == (
        accepted["version"],
        "BAD_TAKEBACK",
    )
    by_asker = edited(document, lambda r: r["steps"][accepted["version"] - 1].update(seat=asker))
    assert failure(by_asker) == (accepted["version"], "TAKEBACK_NOT_ALLOWED")
    # the same seat accepting twice: the request does not wait for it any more
    twice = edited(document, lambda r: r["steps"][taken["version"] - 1].update(seat=answerer))
    assert failure(twice)[0] == taken["version"]
    # the last acceptance recorded as ACCEPTED: it takes back (TAKEN), nothing waits for more
    again = edited(document, note(taken, step="ACCEPTED", agreedBy=sorted([answerer, last])))
    again["steps"][taken["version"] - 1]["seat"] = last
    assert failure(again) == (taken["version"], "BAD_TAKEBACK")


TAKEBACK_EDITS = st.one_of(
    st.tuples(st.just("step"), st.sampled_from(["ASKED", "ACCEPTED", "DECLINED", "TAKEN"])),
    st.tuples(st.just("toVersion"), st.integers(-1, 40)),
    st.tuples(st.just("askedBy"), st.integers(-1, 3)),
    st.tuples(st.just("agreedBy"), st.lists(st.integers(0, 2), max_size=2)),
)


@pytest.mark.parametrize("scene", ["WITH_CONSENT", "BOTS", "THREE_SEATS"])
def test_any_edit_of_a_takeback_note_fails_at_its_step_or_is_no_edit(
    taken_back: dict[str, Document], scene: str
) -> None:
    if scene not in taken_back:
        pytest.skip("a kind without the scene (takeback_records.scenes)")
    document = taken_back[scene]
    notes = [s for s in document["steps"] if "takeback" in s]

    @settings(max_examples=60, deadline=None, derandomize=True)
    @given(index=st.integers(0, len(notes) - 1), edit=TAKEBACK_EDITS)
    def check(index: int, edit: Any) -> None:
        field, value = edit
        step = notes[index]
        if step["takeback"][field] == value:
            return
        version, reason = failure(edited(document, note(step, **{field: value})))
        assert version in (0, step["version"]), (field, value, reason)
        assert version > 0 or reason == "MALFORMED", (field, value, reason)

    check()
